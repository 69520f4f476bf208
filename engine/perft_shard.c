// SPDX-License-Identifier: GPL-3.0-or-later
/* Sharded perft: the split, the result file and the merge (perft_shard.h). */
#include "perft_shard.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"

static const char Magic[] = "tuong-perft-shard 1";

/* ---- the split ------------------------------------------------------- */

/* The positions `split` plies below the root, as move sequences. */
typedef struct {
    Move *moves;   /* count * split moves */
    uint8_t *root; /* per sequence: its first move's index in the root list */
    size_t count, cap;
    int split;
} SubList;

static bool sublist_push(SubList *l, const Move *path, uint8_t root) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        Move *m = realloc(l->moves, cap * (size_t)l->split * sizeof *m);
        if (!m) return false;
        l->moves = m;
        uint8_t *r = realloc(l->root, cap);
        if (!r) return false;
        l->root = r;
        l->cap = cap;
    }
    memcpy(l->moves + l->count * (size_t)l->split, path, (size_t)l->split * sizeof *path);
    l->root[l->count++] = root;
    return true;
}

static bool collect_subtrees(Position *pos, int ply, Move *path, uint8_t root, SubList *l) {
    if (ply == l->split) return sublist_push(l, path, root);
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        path[ply] = list.moves[i];
        pos_make_move(pos, list.moves[i]);
        bool ok = collect_subtrees(pos, ply + 1, path, ply ? root : (uint8_t)i, l);
        pos_unmake_move(pos);
        if (!ok) return false;
    }
    return true;
}

/* Every subtree `split` plies below root, in depth-first generation order. */
static bool split_tree(const Position *root, int split, SubList *l, MoveList *root_moves) {
    static Position pos; /* big; one caller at a time (the command line) */
    pos = *root;
    *l = (SubList){.split = split};
    gen_legal(&pos, root_moves);
    Move path[PERFT_SPLIT_MAX];
    return collect_subtrees(&pos, 0, path, 0, l);
}

static void sublist_free(SubList *l) {
    free(l->moves);
    free(l->root);
}

static void sub_text(const SubList *l, size_t i, char *buf) {
    char *p = buf;
    for (int k = 0; k < l->split; k++) {
        char m[MOVE_TEXT_MAX];
        p += sprintf(p, "%s%s", k ? " " : "", move_to_text(l->moves[i * (size_t)l->split + (size_t)k], 0, m));
    }
}

static uint64_t run_fingerprint(const char *fen, int depth, int split, uint64_t subtrees) {
    uint64_t h = shard_hash_str(SHARD_HASH_INIT, "tuong perft split");
    h = shard_hash_str(h, fen);
    h = shard_hash_u64(h, (uint64_t)depth);
    h = shard_hash_u64(h, (uint64_t)split);
    return shard_hash_u64(h, subtrees);
}

bool perft_shard_run(const Position *pos, int depth, int split, ShardSpec spec, const PerftOptions *opt, FILE *out) {
    SubList l;
    MoveList root_moves;
    if (!split_tree(pos, split, &l, &root_moves)) {
        sublist_free(&l);
        return false;
    }
    char fen[FEN_MAX];
    fen_write(pos, fen);
    fprintf(out, "%s\nfen %s\ndepth %d split %d subtrees %" PRIu64 " shard %d/%d run %016" PRIx64 "\n", Magic, fen,
            depth, split, (uint64_t)l.count, spec.index, spec.count, run_fingerprint(fen, depth, split, l.count));
    uint64_t lines = 0, sum = 0;
    static Position sub;
    for (size_t i = 0; i < l.count; i++) {
        if (!shard_deals(i, spec)) continue;
        sub = *pos;
        for (int k = 0; k < split; k++)
            pos_make_move(&sub, l.moves[i * (size_t)split + (size_t)k]);
        uint64_t n = perft_count(&sub, depth - split, opt);
        char text[PERFT_SUB_MOVES_MAX];
        sub_text(&l, i, text);
        fprintf(out, "sub %" PRIu64 " %s %" PRIu64 "\n", (uint64_t)i, text, n);
        lines++;
        sum += n;
    }
    fprintf(out, "end %" PRIu64 " %" PRIu64 "\n", lines, sum);
    sublist_free(&l);
    return fflush(out) == 0 && !ferror(out);
}

/* ---- the result file -------------------------------------------------- */

/* The next line of text (without its newline) into line; false at the end,
 * at a line that does not end in a newline (a cut file) and at one longer
 * than any a shard writes (*too_long set). */
static bool next_line(const char *text, size_t len, size_t *at, char *line, size_t cap, bool *too_long) {
    if (*at >= len) return false;
    const char *nl = memchr(text + *at, '\n', len - *at);
    if (!nl) return false;
    size_t n = (size_t)(nl - (text + *at));
    if (n >= cap) {
        *too_long = true;
        return false;
    }
    memcpy(line, text + *at, n);
    line[n] = '\0';
    *at = (size_t)(nl - text) + 1;
    return true;
}

/* A whole unsigned decimal at *p, then one space or the end; advances *p. */
static bool take_u64(const char **p, uint64_t *out) {
    if (**p < '0' || **p > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno || (*end && *end != ' ')) return false;
    *out = v;
    *p = *end ? end + 1 : end;
    return true;
}

static bool parse_head(const char *line, PerftShardFile *f, char *err, size_t errlen) {
    int depth, split, k, n, used = 0;
    unsigned long long subtrees, run;
    if (sscanf(line, "depth %d split %d subtrees %llu shard %d/%d run %16llx%n", &depth, &split, &subtrees, &k, &n,
               &run, &used) != 6 ||
        line[used])
        return shard_fail(err, errlen, "line 3 is not 'depth D split S subtrees M shard K/N run HEX'");
    if (depth < 1 || depth > 64 || split < 1 || split > PERFT_SPLIT_MAX || split > depth || n < 1 ||
        n > SHARD_COUNT_MAX || k < 0 || k >= n)
        return shard_fail(err, errlen, "line 3: depth %d, split %d or shard %d/%d out of range", depth, split, k, n);
    f->depth = depth;
    f->split = split;
    f->subtrees = subtrees;
    f->spec = (ShardSpec){k, n};
    f->run = run;
    return true;
}

static bool parse_sub(const char *line, PerftShardFile *f, char *err, size_t errlen) {
    const char *p = line + 4;
    PerftSub s = {0};
    if (!take_u64(&p, &s.index)) return shard_fail(err, errlen, "'%.60s': no subtree number", line);
    /* split moves, then the count */
    const char *moves = p;
    for (int k = 0; k < f->split; k++) {
        const char *sp = strchr(p, ' ');
        if (!sp) return shard_fail(err, errlen, "subtree %" PRIu64 ": fewer than %d moves", s.index, f->split);
        p = sp + 1;
    }
    size_t mlen = (size_t)(p - 1 - moves);
    if (mlen >= sizeof s.moves) return shard_fail(err, errlen, "subtree %" PRIu64 ": moves too long", s.index);
    memcpy(s.moves, moves, mlen);
    if (!take_u64(&p, &s.count) || *p) return shard_fail(err, errlen, "subtree %" PRIu64 ": bad count", s.index);
    if (s.index >= f->subtrees)
        return shard_fail(err, errlen, "subtree %" PRIu64 " is beyond the %" PRIu64 " of the split", s.index,
                          f->subtrees);
    if (!shard_deals(s.index, f->spec))
        return shard_fail(err, errlen, "subtree %" PRIu64 " is not dealt to shard %d/%d", s.index, f->spec.index,
                          f->spec.count);
    if (f->sub_count && s.index <= f->subs[f->sub_count - 1].index)
        return shard_fail(err, errlen, "subtree %" PRIu64 " after subtree %" PRIu64 " (out of order or twice)", s.index,
                          f->subs[f->sub_count - 1].index);
    /* At most (M + N - 1) / N lines can be dealt to the shard: checked above. */
    PerftSub *grown = realloc(f->subs, (f->sub_count + 1) * sizeof *grown);
    if (!grown) return shard_fail(err, errlen, "out of memory");
    f->subs = grown;
    f->subs[f->sub_count++] = s;
    if (f->sum + s.count < f->sum) return shard_fail(err, errlen, "counts overflow");
    f->sum += s.count;
    return true;
}

bool perft_shard_parse(const char *text, size_t len, PerftShardFile *f, char *err, size_t errlen) {
    char line[256];
    size_t at = 0;
    bool too_long = false;
    *f = (PerftShardFile){0};
    if (!next_line(text, len, &at, line, sizeof line, &too_long) || strcmp(line, Magic))
        return shard_fail(err, errlen, "not a perft result file (the first line is not '%s')", Magic);
    if (!next_line(text, len, &at, line, sizeof line, &too_long) || strncmp(line, "fen ", 4) ||
        strlen(line + 4) >= FEN_MAX)
        return shard_fail(err, errlen, "line 2 is not 'fen FEN'");
    strcpy(f->fen, line + 4);
    if (!next_line(text, len, &at, line, sizeof line, &too_long))
        return shard_fail(err, errlen, "truncated: it ends before its 'depth' line");
    if (!parse_head(line, f, err, errlen)) return false;
    for (;;) {
        if (!next_line(text, len, &at, line, sizeof line, &too_long))
            return shard_fail(err, errlen,
                              too_long ? "a line after %" PRIu64 " subtrees is too long"
                                       : "truncated: no end line after %" PRIu64 " subtrees",
                              (uint64_t)f->sub_count);
        if (!strncmp(line, "sub ", 4)) {
            if (!parse_sub(line, f, err, errlen)) return false;
            continue;
        }
        unsigned long long lines, sum;
        int used = 0;
        if (sscanf(line, "end %llu %llu%n", &lines, &sum, &used) != 2 || line[used])
            return shard_fail(err, errlen, "'%.60s' is neither a sub nor the end line", line);
        if (lines != f->sub_count || sum != f->sum)
            return shard_fail(err, errlen,
                              "truncated or damaged: the end line says %llu subtrees and %llu leaves, the file "
                              "holds %" PRIu64 " and %" PRIu64,
                              lines, sum, (uint64_t)f->sub_count, f->sum);
        break;
    }
    if (at != len) return shard_fail(err, errlen, "text after the end line");
    uint64_t dealt =
        f->subtrees / (uint64_t)f->spec.count + ((uint64_t)f->spec.index < f->subtrees % (uint64_t)f->spec.count);
    if (f->sub_count != dealt)
        return shard_fail(err, errlen, "holds %" PRIu64 " of the %" PRIu64 " subtrees dealt to shard %d/%d",
                          (uint64_t)f->sub_count, dealt, f->spec.index, f->spec.count);
    return true;
}

void perft_shard_free(PerftShardFile *f) {
    free(f->subs);
    f->subs = NULL;
}

/* ---- the merge ------------------------------------------------------- */

/* Do the files' subtrees name the moves the split of their FEN gives?
 * Sums per root move into root_sum. */
static bool check_moves(PerftShardFile *files, char **names, int n, const SubList *l, uint64_t *root_sum, char *err,
                        size_t errlen) {
    for (int i = 0; i < n; i++) {
        for (size_t j = 0; j < files[i].sub_count; j++) {
            const PerftSub *s = &files[i].subs[j];
            char text[PERFT_SUB_MOVES_MAX];
            sub_text(l, (size_t)s->index, text);
            if (strcmp(text, s->moves))
                return shard_fail(err, errlen, "%s: subtree %" PRIu64 " is '%s', the split of its FEN has '%s' there",
                                  names[i], s->index, s->moves, text);
            root_sum[l->root[s->index]] += s->count;
        }
    }
    return true;
}

int perft_merge_main(int argc, char **argv, FILE *out, FILE *errf) {
    if (argc < 1) {
        fprintf(errf, "tuong: error: perft merge needs the result files (tuong perft merge FILE...)\n");
        return 2;
    }
    int n = argc, rc = 1;
    PerftShardFile *files = calloc((size_t)n, sizeof *files);
    ShardInfo *info = calloc((size_t)n, sizeof *info);
    int *order = calloc((size_t)n, sizeof *order);
    char err[600], why[400];
    SubList l = {0};
    MoveList root_moves;
    uint64_t root_sum[MAX_MOVES] = {0};
    static Position pos;
    if (!files || !info || !order) {
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        size_t len;
        char *text = shard_read_file(argv[i], &len, err, sizeof err);
        if (!text) goto fail;
        bool ok = perft_shard_parse(text, len, &files[i], why, sizeof why);
        free(text);
        if (!ok) {
            snprintf(err, sizeof err, "%s: %s", argv[i], why);
            goto fail;
        }
        info[i] = (ShardInfo){.name = argv[i], .spec = files[i].spec, .run = files[i].run};
    }
    if (!shard_check_set(info, n, order, err, sizeof err)) goto fail;
    /* Same run: one FEN, depth and split. Its split must be the one the
     * files describe, move for move. */
    if (!fen_parse(&pos, files[0].fen, why, sizeof why)) {
        snprintf(err, sizeof err, "%s: its FEN: %s", argv[0], why);
        goto fail;
    }
    if (!split_tree(&pos, files[0].split, &l, &root_moves)) {
        snprintf(err, sizeof err, "out of memory");
        goto fail;
    }
    if (l.count != files[0].subtrees) {
        snprintf(err, sizeof err, "%s: %" PRIu64 " subtrees, the split of its FEN has %" PRIu64, argv[0],
                 files[0].subtrees, (uint64_t)l.count);
        goto fail;
    }
    if (!check_moves(files, argv, n, &l, root_sum, err, sizeof err)) goto fail;
    uint64_t total = 0;
    for (int i = 0; i < root_moves.count; i++) {
        char m[MOVE_TEXT_MAX];
        fprintf(out, "%s: %" PRIu64 "\n", move_to_text(root_moves.moves[i], 0, m), root_sum[i]);
        total += root_sum[i];
    }
    fprintf(out, "\nNodes searched: %" PRIu64 "\n", total);
    rc = 0;
    goto done;
fail:
    fprintf(errf, "tuong: error: %s\n", err);
done:
    for (int i = 0; files && i < n; i++)
        perft_shard_free(&files[i]);
    sublist_free(&l);
    free(files);
    free(info);
    free(order);
    return rc;
}
