// SPDX-License-Identifier: GPL-3.0-or-later
#include "pgn.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "notation.h"

/* PGN's standard termination class for our reason text. */
static const char *termination(const GameRecord *rec) {
    const char *r = rec->reason;
    if (strstr(r, "on time")) return "time forfeit";
    if (strstr(r, "adjudicated")) return "adjudication";
    if (strstr(r, "crashed") || strstr(r, "illegal") || strstr(r, "no move")) return "rules infraction";
    return "normal";
}

void pgn_write(FILE *out, const GameRecord *rec, const PgnTags *tags) {
    char date[16];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    fprintf(out, "[Event \"%s\"]\n[Site \"?\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", tags->event, date, tags->round);
    fprintf(out, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n", tags->red, tags->black,
            game_result_text(rec->result));
    fprintf(out, "[Variant \"xiangqi\"]\n");
    bool startpos = !strncmp(rec->start_fen, START_FEN, strlen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"));
    if (!startpos) fprintf(out, "[FEN \"%s\"]\n[SetUp \"1\"]\n", rec->start_fen);
    fprintf(out, "[TimeControl \"%s\"]\n[PlyCount \"%d\"]\n[Termination \"%s\"]\n\n", tags->time_control, rec->ply_count,
            termination(rec));

    /* Move numbers continue the FEN's fullmove counter; Black may move first. */
    int fullmove = 1;
    char side = 'w';
    sscanf(rec->start_fen, "%*s %c %*s %*s %*d %d", &side, &fullmove);
    bool black = side == 'b';
    int col = 0;
    Position *pos = NULL;
    char err[200];
    bool named = tags->notation != NOTATION_ICCS; /* WXF and Vietnamese name moves from the position */
    if (named && (!(pos = malloc(sizeof *pos)) || !fen_parse(pos, rec->start_fen, err, sizeof err))) {
        free(pos);
        pos = NULL;
    }
    for (int i = 0; i < rec->ply_count; i++) {
        char text[160], mv[NOTATION_TEXT_MAX];
        int n = 0;
        if (!black) n = snprintf(text, sizeof text, "%d. ", fullmove);
        else if (i == 0) n = snprintf(text, sizeof text, "%d... ", fullmove);
        if (pos) {
            notation_move_text(tags->notation, pos, rec->moves[i], mv);
            pos_make_move(pos, rec->moves[i]);
        } else {
            move_to_text(rec->moves[i], 0, mv);
        }
        snprintf(text + n, sizeof text - (size_t)n, "%s {%s}", mv, rec->comments[i]);
        int len = (int)strlen(text);
        if (col && col + len + 1 > 79) {
            fputc('\n', out);
            col = 0;
        } else if (col) {
            fputc(' ', out);
            col++;
        }
        fputs(text, out);
        col += len;
        if (black) fullmove++;
        black = !black;
    }
    fprintf(out, "%s{%s} %s\n\n", col ? " " : "", rec->reason, game_result_text(rec->result));
    free(pos);
}
