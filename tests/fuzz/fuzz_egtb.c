// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the endgame-table code: the engine's reader (engine/egtb) and the
 * generator's whole-table reads (bench/egtb). The first byte picks what
 * the rest is:
 *   1  a signature, then up to 8 bytes of index: a parsed name round-trips,
 *      and for up to three pieces besides the kings the index decodes to a
 *      position that indexes back to itself or its file-mirror twin (for a
 *      symmetric signature with Black to move: to Red to move).
 *   2  the body of a xiangqitb WDL file for KRKA: the harness pads it to
 *      64 k bytes and appends its XXH64 so that the parser gets past the
 *      checksum; egtb_xq_parse_wdl() then accepts or refuses it without
 *      reading out of bounds.
 *   3  the same for a xiangqitb DTC file of KRKA (egtb_xq_parse_dtc, whose
 *      blocks go through the LZMA decoder).
 *   4  the engine's reader block by block: a byte choosing the kind (bit 1
 *      set: DTM; else bit 0: DTC or WDL), then the file body (checksum appended as above); egtb_file_parse()
 *      accepts or refuses it, and every block of an accepted file decodes
 *      or fails into a buffer of exactly its size (ASan sees any overrun).
 *   5  the engine's prober end to end: the same body written as KRKA.lzw,
 *      KRKA.lzdtc or KRKA.lzdtm (the kind byte as in 4) in a scratch directory, loaded by egtb_load() (mmap),
 *      then a few KRKA positions probed: a value or a refusal, no crash. */
#include <stdbool.h>

#include <unistd.h>

#include "egtb/egtb_file.h"
#include "egtb/egtb_probe.h"
#include "egtb_table.h"
#include "egtb_xq.h"
#include "fen.h"
#include "fuzz_common.h"

enum { SIG_TEXT_MAX = 16 };

static void fuzz_signature(const uint8_t *data, size_t size) {
    char text[SIG_TEXT_MAX], err[300], name[EGTB_NAME_MAX];
    size_t n = 0;
    while (n < size && n < SIG_TEXT_MAX - 1 && data[n] != 0) n++;
    fuzz_text(data, n, text, sizeof text);
    EgtbMaterial m, again;
    if (!egtb_sig_parse(&m, text, err, sizeof err)) return;
    FUZZ_CHECK(egtb_sig_valid(&m));
    FUZZ_CHECK(egtb_sig_parse(&again, egtb_sig_name(&m, name), err, sizeof err));
    FUZZ_CHECK(!memcmp(&m, &again, sizeof m));
    if (egtb_sig_piece_count(&m) > 3) return;
    EgtbLayout lay;
    FUZZ_CHECK(egtb_layout_init(&lay, &m));
    uint64_t index = 0;
    for (size_t i = n + 1; i < size && i < n + 9; i++) index = index << 8 | data[i];
    index %= lay.positions;
    Color side = (Color)(index & 1);
    static Position pos, twin;
    if (egtb_decode(&lay, index, side, &pos) && egtb_decoded_legal(&pos)) {
        FUZZ_CHECK(pos_is_ok(&pos));
        Color s = side;
        uint64_t back = egtb_index_of(&lay, &pos, &s);
        FUZZ_CHECK(back < lay.positions);
        if (egtb_sig_symmetric(&m) && side == BLACK) {
            FUZZ_CHECK(s == RED); /* one table: the board turned, Red to move */
        } else {
            FUZZ_CHECK(s == side);
            if (back != index) { /* the twin must be the same board mirrored a <-> i */
                FUZZ_CHECK(egtb_decode(&lay, back, side, &twin));
                for (Square q = 0; q < SQUARE_NB; q++)
                    FUZZ_CHECK(twin.board[q] == pos.board[make_square(8 - file_of(q), rank_of(q))]);
            }
        }
    }
    egtb_layout_free(&lay);
}

/* The KRKA layout, built once. */
static const EgtbLayout *krka(void) {
    static EgtbLayout lay;
    static bool ready;
    if (!ready) {
        EgtbMaterial m;
        char err[300];
        FUZZ_CHECK(egtb_sig_parse(&m, "KRKA", err, sizeof err) && egtb_layout_init(&lay, &m));
        FUZZ_CHECK(lay.positions == 17010);
        ready = true;
    }
    return &lay;
}

/* data padded to 64 k bytes with a valid XXH64 trailer (free it); *n its size. */
static uint8_t *with_checksum(const uint8_t *data, size_t size, size_t *n) {
    size_t body = (size + 63) & ~(size_t)63;
    uint8_t *file = calloc(body + 8, 1); /* exact size: ASan sees any overrun */
    FUZZ_CHECK(file != NULL);
    if (size) memcpy(file, data, size);
    uint64_t sum = egtb_xxh64(file, body, 0xf0f0f0f0f0f0ULL);
    for (int i = 0; i < 8; i++) file[body + (size_t)i] = (uint8_t)(sum >> (8 * i));
    *n = body + 8;
    return file;
}

static void fuzz_xq_dtc(const uint8_t *data, size_t size) {
    static uint16_t dtc_red[17010], dtc_black[17010];
    size_t n;
    uint8_t *file = with_checksum(data, size, &n);
    uint16_t *dtc[COLOR_NB] = {dtc_red, dtc_black};
    int tables;
    bool order128;
    char err[300];
    if (!egtb_xq_parse_dtc(krka(), file, n, dtc, &tables, &order128, err, sizeof err)) FUZZ_CHECK(err[0] != '\0');
    else FUZZ_CHECK(tables == 1 || tables == 2);
    free(file);
}

static void fuzz_xq_wdl(const uint8_t *data, size_t size) {
    static uint8_t wdl_red[17010], wdl_black[17010];
    size_t n;
    uint8_t *file = with_checksum(data, size, &n);
    uint8_t *wdl[COLOR_NB] = {wdl_red, wdl_black};
    int tables;
    char err[300];
    if (egtb_xq_parse_wdl(krka(), file, n, wdl, &tables, err, sizeof err)) {
        FUZZ_CHECK(tables == 1 || tables == 2);
        for (int c = 0; c < tables; c++)
            for (size_t i = 0; i < sizeof wdl_red; i++) FUZZ_CHECK(wdl[c][i] <= XQ_WDL_ILLEGAL);
    } else {
        FUZZ_CHECK(err[0] != '\0');
    }
    free(file);
}

/* The kind byte of modes 4 and 5: bit 1 DTM (added later, so that the
 * seeds made before it keep their meaning), else bit 0 DTC or WDL. */
static EgtbFileKind kind_of(uint8_t b) {
    return b & 2 ? EGTB_FILE_DTM : b & 1 ? EGTB_FILE_DTC : EGTB_FILE_WDL;
}

static void fuzz_file_blocks(const uint8_t *data, size_t size) {
    static EgtbLzmaWork work;
    if (size == 0) return;
    EgtbFileKind kind = kind_of(data[0]);
    size_t n;
    uint8_t *file = with_checksum(data + 1, size - 1, &n);
    EgtbFile f;
    char err[300];
    if (!egtb_file_parse(&f, kind, krka(), file, n, err, sizeof err)) {
        FUZZ_CHECK(err[0] != '\0');
        free(file);
        return;
    }
    FUZZ_CHECK(f.tables == 1 || f.tables == 2);
    for (int c = 0; c < f.tables; c++) {
        const EgtbFileTable *t = &f.t[c];
        for (uint32_t b = 0; !t->singular && b < t->blocks && b < 4; b++) {
            uint8_t *dst = malloc(egtb_file_block_size(t, b)); /* exact: ASan sees any overrun */
            FUZZ_CHECK(dst != NULL);
            (void)egtb_file_block(&f, t, b, dst, &work);
            free(dst);
        }
    }
    free(file);
}

static char ProberDir[64]; /* the scratch directory of fuzz_prober */

static void prober_cleanup(void) {
    char path[128];
    static const char *const Names[3] = {"KRKA.lzw", "KRKA.lzdtc", "KRKA.lzdtm"};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", ProberDir, Names[k]);
        remove(path);
    }
    rmdir(ProberDir);
}

static void fuzz_prober(const uint8_t *data, size_t size) {
    char *dir = ProberDir;
    static const char *const Fens[] = {"3k5/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1", "3k5/4a4/9/9/9/9/9/9/9/R3K4 b - - 0 1",
                                       "4k4/9/3a5/9/9/9/9/9/4R4/3K5 b - - 0 1", "5k3/4a4/9/9/2R6/9/9/9/9/4K4 w - - 0 1"};
    static const char *const Ext[3] = {".lzw", ".lzdtc", ".lzdtm"}; /* by EgtbFileKind */
    static Position pos;
    if (size == 0) return;
    if (!dir[0]) {
        snprintf(ProberDir, sizeof ProberDir, "/tmp/tuong-fuzz-egtb-XXXXXX");
        FUZZ_CHECK(mkdtemp(ProberDir) != NULL);
        atexit(prober_cleanup);
    }
    char path[128];
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/KRKA%s", dir, Ext[k]);
        remove(path);
    }
    size_t n;
    uint8_t *file = with_checksum(data + 1, size - 1, &n);
    snprintf(path, sizeof path, "%s/KRKA%s", dir, Ext[kind_of(data[0])]);
    FILE *out = fopen(path, "wb");
    FUZZ_CHECK(out != NULL);
    FUZZ_CHECK(fwrite(file, 1, n, out) == n);
    fclose(out);
    free(file);
    egtb_load(dir, NULL, NULL);
    for (size_t i = 0; i < sizeof Fens / sizeof Fens[0]; i++) {
        char err[200];
        FUZZ_CHECK(fen_parse(&pos, Fens[i], err, sizeof err));
        EgtbWdl wdl;
        EgtbDtc dtc;
        if (egtb_probe_wdl(&pos, &wdl)) FUZZ_CHECK(wdl >= EGTB_LOSS && wdl <= EGTB_WIN);
        if (egtb_probe_dtc(&pos, &dtc)) FUZZ_CHECK(dtc.v <= 0x3FF);
        EgtbDtm dtm;
        if (egtb_probe_dtm(&pos, &dtm)) FUZZ_CHECK(dtm.v <= 0x7FF && dtm.rule <= 0xF);
    }
    egtb_unload();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_engine_init();
    if (size == 0) return 0;
    if (data[0] == 1) fuzz_signature(data + 1, size - 1);
    else if (data[0] == 2) fuzz_xq_wdl(data + 1, size - 1);
    else if (data[0] == 3) fuzz_xq_dtc(data + 1, size - 1);
    else if (data[0] == 4) fuzz_file_blocks(data + 1, size - 1);
    else if (data[0] == 5) fuzz_prober(data + 1, size - 1);
    return 0;
}
