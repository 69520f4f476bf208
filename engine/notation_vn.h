// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Vietnamese move notation (ký hiệu), as in Vietnamese books and club
 * records: `P2-5 M8.7`, `X1/1`, `Xs-2`, `Bg-6`.
 *
 *   piece   Tg (Tướng, king; also K), S (Sĩ), T (Tượng; also V for Voi),
 *           X (Xe), P (Pháo), M (Mã), B (Binh/Tốt; also C for Chốt)
 *   origin  the file the piece stands on, 1..9 counted from the mover's own
 *           right; or, when pieces of its kind share that file, t (trước,
 *           front), s (sau, rear), g (giữa, middle of three), and with four
 *           or five pawns on a file g1, g2, g3 for the middle ones counted
 *           from the front (Tuong's own convention: the sources are silent)
 *   op      . tiến/tấn (forward), / thoái (back), - bình (sideways)
 *   dest    for Tg, X, P, B moving forward or back the number of steps;
 *           otherwise the destination file
 *
 * When pawns share two files, the file follows the qualifier: `Bt7.1`,
 * `Bs3-4`. The writer emits that canonical form; the parser also takes
 * the variants people type (B/C, T/V, Tg/K, any letter case, an en dash,
 * em dash or minus sign for `-`, full-width digits, letters and signs, the
 * qualifier as a word in front: `TiềnX/1`, `HậuP.2`, `TrungB-6`, or
 * trước/sau/giữa) and any origin that names one legal move.
 */
#include <stdbool.h>
#include <stddef.h>

#include "move.h"
#include "position.h"

enum { VN_TEXT_MAX = 8 };

/* Write legal move m of pos (before it is made) into buf (>= VN_TEXT_MAX bytes). */
char *vn_move_text(const Position *pos, Move m, char *buf);
/* Parse Vietnamese move text in pos: the one legal move it names, or
 * MOVE_NONE with the reason (unknown piece letter, malformed, no such piece,
 * illegal, ambiguous) in err. */
Move vn_move_parse(const Position *pos, const char *text, char *err, size_t errlen);
/* Is text shaped like a Vietnamese move (whether or not it fits a position)? */
bool vn_text_shaped(const char *text);
