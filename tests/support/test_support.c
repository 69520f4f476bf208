// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fen.h"
#include "movegen.h"

void must_parse(Position *pos, const char *fen) {
    char err[200] = "";
    if (!fen_parse(pos, fen, err, sizeof err)) fail_msg("FEN rejected: %s (%s)", fen, err);
}

FILE *open_data(const char *relative) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TUONG_DATA_DIR, relative);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    return f;
}

bool read_perft_record(FILE *f, PerftRecord *rec) {
    char line[sizeof rec->fen];
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n') && !feof(f)) fail_msg("perft line longer than %zu bytes: %.60s...", sizeof line, line);
        char *fields = strchr(line, ';');
        if (!fields) continue;
        *fields++ = '\0';
        char *end = fields - 1; /* where the ';' was: the FEN ends here */
        while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        snprintf(rec->fen, sizeof rec->fen, "%s", line);
        rec->count = 0;
        char *save = NULL;
        for (char *tok = strtok_r(fields, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
            int depth;
            uint64_t nodes;
            if (sscanf(tok, " D%d %" SCNu64, &depth, &nodes) != 2) continue;
            if (rec->count == PERFT_DEPTHS_MAX) fail_msg("%s: more than %d depths", rec->fen, PERFT_DEPTHS_MAX);
            rec->depth[rec->count] = depth;
            rec->nodes[rec->count++] = nodes;
        }
        return true;
    }
    return false;
}

int running_slow(void) {
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
    return 1;
#else
    return getenv("TUONG_SLOW_TESTS") != NULL;
#endif
}

void colour_mirror(const Position *src, Position *dst) {
    pos_clear(dst);
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos_piece_on(src, s);
        if (p) pos_put_piece(dst, make_piece((Color)!color_of(p), type_of(p)), make_square(file_of(s), 9 - rank_of(s)));
    }
    dst->side = (Color)!src->side;
    pos_finish_setup(dst);
}

int run_command(const char *cmd, char *out, size_t size) {
    FILE *p = popen(cmd, "r");
    if (!p) fail_msg("cannot run %s", cmd);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *test_slurp(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)*size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)*size, f), (size_t)*size);
    buf[*size] = 0;
    fclose(f);
    return buf;
}

bool test_same_bytes(const char *a, const char *b) {
    long na, nb;
    char *x = test_slurp(a, &na), *y = test_slurp(b, &nb);
    bool same = na == nb && memcmp(x, y, (size_t)na) == 0;
    free(x);
    free(y);
    return same;
}

const char *test_path_in(const char *dir, const char *name) {
    static char buf[8][512];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

void test_write_text(const char *dir, const char *name, const char *text) {
    FILE *f = fopen(test_path_in(dir, name), "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

void test_read_text(const char *dir, const char *name, char *buf, size_t size) {
    buf[0] = '\0';
    FILE *f = fopen(test_path_in(dir, name), "r");
    if (!f) return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

int test_run_tool(const char *dir, const char *tool, const char *args, char *out, size_t out_size, char *err,
                  size_t err_size) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >stdout.txt 2>stderr.txt", dir, tool, args);
    int status = system(cmd);
    test_read_text(dir, "stdout.txt", out, out_size);
    test_read_text(dir, "stderr.txt", err, err_size);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void random_walk(Position *pos, int plies, unsigned (*rnd)(unsigned n)) {
    for (int i = 0; i < plies; i++) {
        MoveList list;
        gen_legal(pos, &list);
        if (!list.count) break;
        pos_make_move(pos, list.moves[rnd((unsigned)list.count)]);
    }
}
