// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * tuong-egtb: make, check and read endgame tables (docs/egtb.md).
 *
 *   tuong-egtb build --out DIR [--threads N] [--max-memory GIB] [--dtm] SIG...
 *                                   (xiangqitb's NAME.lzw and NAME.lzdtc; NAME.lzdtm with --dtm)
 *   tuong-egtb list [--max-positions N]   (issue 32's signatures, fewest positions first)
 *   tuong-egtb verify DIR [--threads N] [SIG...]   (every table in DIR, or those named; DTM too where
 *                                                  DIR/NAME.lzdtm is)
 *   tuong-egtb probe DIR FEN   (with DIR/NAME.lzdtm: `dtm N` after the value, read by the engine's prober)
 *   tuong-egtb compare XQDIR DIR SIG...   (against xiangqitb's NAME.lzw, NAME.lzdtc, NAME.lzdtm)
 *   tuong-egtb sample DIR SIG... [--value win|draw|loss] [--count N] [--seed S]
 *                                [--side-to-move strong|weak|any | --en-prise X]
 *                                (--en-prise: one capture before the table, X to be taken)
 *   tuong-egtb rulefacts SIG COUNT [SEED] | rulefacts --fens FILE
 *                                (the rule loop's chess facts, for a diff against xiangqitb's)
 *
 * Errors go to stderr as one line and the exit status is non-zero.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "egtb/egtb_probe.h"
#include "egtb_cover.h"
#include "egtb_dtm_rule.h"
#include "egtb_rulefacts.h"
#include "egtb_sample.h"
#include "egtb_solve.h"
#include "egtb_sym.h"
#include "egtb_verify.h"
#include "egtb_xq.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

/* BUILD_MAX: tables in one build, their smaller ones included (issue 32's
 * set is 1 134). SET_BYTES_MAX: the values of finished tables a build
 * keeps in memory for the tables after it; past that the ones the next
 * table does not read are dropped (and read again from DIR if needed). */
enum { BUILD_MAX = 2048 };
/* build refuses a table whose solve needs more memory than --max-memory
 * GiB, this unless told. */
enum { BUILD_MEMORY_GIB_DEFAULT = 8 };
#define SET_BYTES_MAX (2ull << 30)
/* sample: the most positions per signature one call prints, and what it
 * prints unasked. */
enum { SAMPLE_COUNT_MAX = 1000000, SAMPLE_COUNT_DEFAULT = 10, SAMPLE_SEED_DEFAULT = 1 };

static int usage(void) {
    fprintf(stderr, "usage: tuong-egtb build --out DIR [--threads N] [--max-memory GIB] [--dtm] SIG...\n"
                    "       tuong-egtb list [--max-positions N]\n"
                    "       tuong-egtb verify DIR [--threads N] [SIG...]\n"
                    "       tuong-egtb probe DIR FEN\n"
                    "       tuong-egtb compare XQDIR DIR SIG...\n"
                    "       tuong-egtb sample DIR SIG... [--value win|draw|loss] [--count N] [--seed S]\n"
                    "                                    [--side-to-move strong|weak|any | --en-prise X]\n"
                    "       tuong-egtb rulefacts SIG COUNT [SEED]\n"
                    "       tuong-egtb rulefacts --fens FILE   (FILE - reads stdin)\n");
    return 2;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Append mat's smaller tables (captures), then mat, skipping duplicates. */
static bool add_closure(const EgtbMaterial *mat, EgtbMaterial *list, int *n) {
    EgtbMaterial need[2 * TYPE_NB];
    int k = egtb_solve_needs(mat, need);
    for (int i = 0; i < k; i++)
        if (!add_closure(&need[i], list, n)) return false;
    for (int i = 0; i < *n; i++)
        if (!memcmp(&list[i], mat, sizeof *mat)) return true;
    if (*n == BUILD_MAX) return false;
    list[(*n)++] = *mat;
    return true;
}

static bool file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* build --dtm after a table's DTC: its DTM solve, the check of its W/D/L
 * against DTC at every index, and NAME.lzdtm; false after a message. */
static bool build_dtm(EgtbTable *t, EgtbSet *set, int threads, const char *out) {
    EgtbSolveStats st;
    char err[512];
    double t0 = now_s();
    bool both = egtb_sig_has_attackers(&t->lay.mat, RED) && egtb_sig_has_attackers(&t->lay.mat, BLACK);
    bool solved = both ? egtb_solve_dtm_rule(t, set, err, sizeof err) /* one thread: the order is the result */
                       : egtb_solve_dtm(t, set, threads, &st, err, sizeof err);
    if (!solved || !egtb_dtm_check(t, err, sizeof err)) {
        fprintf(stderr, "tuong-egtb: DTM: %s\n", err);
        return false;
    }
    double t1 = now_s();
    if (!egtb_xq_write_dtm(t, out, err, sizeof err)) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        return false;
    }
    if (both) {
        unsigned longest[COLOR_NB] = {0, 0};
        for (int c = 0; c < COLOR_NB; c++)
            for (uint64_t i = 0; i < t->lay.positions; i++) {
                uint16_t e = t->dtm[c][i];
                if (e != EGTB_ILLEGAL && (e & EGTB_DTM_WIN) && (e & EGTB_DTM_VALUE) > longest[c])
                    longest[c] = e & EGTB_DTM_VALUE;
            }
        printf("  dtm: %.2f s (rule steps %.2f, one thread; files %.2f); longest red %u, black %u\n", now_s() - t0,
               t1 - t0, now_s() - t1, longest[RED], longest[BLACK]);
        return true;
    }
    printf("  dtm: %.2f s (moves %.2f, %u levels %.2f, files %.2f); longest red %u, black %u\n", now_s() - t0,
           st.seconds_moves, (unsigned)st.levels, st.seconds_levels, now_s() - t1, st.longest[RED],
           st.longest[BLACK]);
    return true;
}

static int cmd_build(int argc, char **argv) {
    const char *out = NULL;
    int threads = 1;
    bool dtm = false;
    double memory_gib = BUILD_MEMORY_GIB_DEFAULT;
    static EgtbMaterial want[BUILD_MAX], plan[BUILD_MAX];
    int nwant = 0;
    char err[512];
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = atoi(argv[++i]);
            if (threads < 1 || threads > 64) {
                fprintf(stderr, "tuong-egtb: --threads %s: want 1..64\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(argv[i], "--dtm")) {
            dtm = true;
        } else if (!strcmp(argv[i], "--max-memory") && i + 1 < argc) {
            char *end;
            memory_gib = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(memory_gib > 0)) {
                fprintf(stderr, "tuong-egtb: --max-memory %s: want a number of GiB above 0\n", argv[i]);
                return 1;
            }
        } else if (argv[i][0] == '-') {
            return usage();
        } else {
            if (nwant == BUILD_MAX) return usage();
            if (!egtb_sig_parse(&want[nwant], argv[i], err, sizeof err)) {
                fprintf(stderr, "tuong-egtb: %s\n", err);
                return 1;
            }
            if (!egtb_sig_has_attackers(&want[nwant], RED)) {
                fprintf(stderr, "tuong-egtb: %s: no chariot, horse, cannon or pawn: always a draw, no table\n",
                        argv[i]);
                return 1;
            }
            nwant++;
        }
    }
    if (!out || nwant == 0) return usage();
    for (int i = 0; dtm && i < nwant; i++)
        if (egtb_sig_has_attackers(&want[i], BLACK)) {
            char name[EGTB_NAME_MAX], why[200];
            egtb_sig_name(&want[i], name);
            if (egtb_dtm_rule_supported(&want[i], why, sizeof why)) continue;
            fprintf(stderr, "tuong-egtb: %s: --dtm: %s\n", name, why);
            return 1;
        }
    double loop_gib = 0; /* the largest solve among the tables with a rule loop */
    for (int i = 0; i < nwant; i++) {
        EgtbLayout lay;
        char name[EGTB_NAME_MAX];
        egtb_sig_name(&want[i], name);
        if (!egtb_layout_init(&lay, &want[i])) {
            fprintf(stderr, "tuong-egtb: %s: piece groups too large to index\n", name);
            return 1;
        }
        bool loop = egtb_rule_loop_applies(&want[i]);
        unsigned bytes = EGTB_SOLVE_BYTES + (loop ? EGTB_RULE_LOOP_BYTES : 0);
        double gib = (double)lay.positions * COLOR_NB * bytes / (1u << 30);
        egtb_layout_free(&lay);
        if (gib > memory_gib) {
            fprintf(stderr, "tuong-egtb: %s: solving it takes %.1f GiB, more than --max-memory %g\n", name, gib,
                    memory_gib);
            return 1;
        }
        if (loop && gib > loop_gib) loop_gib = gib;
    }
    /* The rule loop's children cache is optional (without it the passes
     * decode again and give the same tables): it gets what --max-memory
     * leaves beside the largest solve that runs the loop, up to its own cap,
     * instead of a table being refused for it. The smaller tables the build
     * adds solve in less. */
    double spare = (memory_gib - loop_gib) * (double)(1u << 30);
    if (spare < (double)egtb_rule_cache_bytes) egtb_rule_cache_bytes = spare > 0 ? (uint64_t)spare : 0;
    int nplan = 0;
    for (int i = 0; i < nwant; i++)
        if (!add_closure(&want[i], plan, &nplan)) {
            fprintf(stderr, "tuong-egtb: too many tables in one build\n");
            return 1;
        }
    mkdir(out, 0777);
    EgtbSet set;
    egtb_set_init(&set, out);
    int rc = 0;
    for (int i = 0; i < nplan && rc == 0; i++) {
        char name[EGTB_NAME_MAX], path[1200];
        egtb_sig_name(&plan[i], name);
        snprintf(path, sizeof path, "%s/%s%s", out, name, EGTB_DTC_EXT);
        bool asked = false;
        for (int k = 0; k < nwant; k++) asked |= !memcmp(&want[k], &plan[i], sizeof plan[i]);
        char dtm_path[1200];
        snprintf(dtm_path, sizeof dtm_path, "%s/%s%s", out, name, EGTB_DTM_EXT);
        if (!asked && file_exists(path) && (!dtm || file_exists(dtm_path))) {
            if (dtm ? egtb_set_get_dtm(&set, &plan[i], err, sizeof err) != NULL
                    : egtb_set_get(&set, &plan[i], err, sizeof err) != NULL) {
                printf("%s: reused %s\n", name, path);
                continue;
            }
            fprintf(stderr, "tuong-egtb: %s; building it again\n", err);
            for (int k = 0; k < set.count; k++) /* a DTC loaded before its DTM failed */
                if (!strcmp(set.table[k]->name, name)) {
                    egtb_table_free(set.table[k]);
                    free(set.table[k]);
                    set.table[k] = set.table[--set.count];
                    break;
                }
        }
        EgtbMaterial need[2 * TYPE_NB];
        egtb_set_trim(&set, need, egtb_solve_needs(&plan[i], need), SET_BYTES_MAX);
        EgtbTable *t = malloc(sizeof *t);
        EgtbSolveStats st;
        double t0 = now_s();
        if (!t || !egtb_table_alloc(t, &plan[i], err, sizeof err)) {
            fprintf(stderr, "tuong-egtb: %s\n", t ? err : "out of memory");
            free(t);
            rc = 1;
            break;
        }
        bool ok = egtb_solve(t, &set, threads, &st, err, sizeof err);
        double t1 = now_s();
        if (!ok || !egtb_xq_write_wdl(t, out, err, sizeof err) || !egtb_xq_write_dtc(t, out, err, sizeof err)) {
            fprintf(stderr, "tuong-egtb: %s\n", err);
            egtb_table_free(t);
            free(t);
            rc = 1;
            break;
        }
        double t2 = now_s();
        printf("%s: %llu positions per side, %.2f s (moves %.2f, %u levels %.2f, files %.2f)\n", name,
               (unsigned long long)t->lay.positions, t2 - t0, st.seconds_moves, (unsigned)st.levels,
               st.seconds_levels, t2 - t1);
        for (int c = 0; c < COLOR_NB; c++)
            printf("  %s to move: %llu win, %llu draw, %llu loss, %llu illegal; longest %u\n",
                   c == RED ? "red" : "black", (unsigned long long)st.win[c], (unsigned long long)st.draw[c],
                   (unsigned long long)st.loss[c], (unsigned long long)st.illegal[c], st.longest[c]);
        if (st.rule.marked)
            printf("  rule loop: %.2f s, %llu nodes marked, %u order(s) with verdicts (%llu perpetual check, %llu "
                   "perpetual chase); decided red %llu, black %llu; children kept for %llu nodes in %.1f MiB\n",
                   st.rule.seconds, (unsigned long long)st.rule.marked, st.rule.orders,
                   (unsigned long long)st.rule.check_losses, (unsigned long long)st.rule.chase_losses,
                   (unsigned long long)st.rule.decided[RED], (unsigned long long)st.rule.decided[BLACK],
                   (unsigned long long)st.rule.cached, (double)st.rule.cache_bytes / (1u << 20));
        /* Both colours were solved in one frame, as xiangqitb does; the
         * file keeps Red to move and a reader turns it for Black. Say
         * whether the turned image is what the solve gave Black. */
        if (egtb_sig_symmetric(&plan[i]))
            printf("  symmetric: red to move written; black to move differs from the turned red at %llu "
                   "positions\n",
                   (unsigned long long)egtb_sym_differences(t));
        if (dtm && !build_dtm(t, &set, threads, out)) {
            egtb_table_free(t);
            free(t);
            rc = 1;
            break;
        }
        fflush(stdout); /* a long build shows its progress in a log */
        egtb_set_add(&set, t);
    }
    egtb_set_free(&set);
    return rc;
}

static int cmd_list(int argc, char **argv) {
    uint64_t max = UINT64_MAX;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--max-positions") && i + 1 < argc) {
            char *end;
            max = strtoull(argv[++i], &end, 10);
            if (*end || end == argv[i]) {
                fprintf(stderr, "tuong-egtb: --max-positions %s: want a count of positions\n", argv[i]);
                return 1;
            }
        } else {
            return usage();
        }
    }
    static EgtbCoverEntry list[EGTB_COVER_MAX];
    int n = egtb_cover_list(max, list);
    if (n < 0) {
        fprintf(stderr, "tuong-egtb: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        char name[EGTB_NAME_MAX];
        printf("%s\n", egtb_sig_name(&list[i].mat, name));
    }
    return 0;
}

/* verify's DTM part, where DIR/NAME.lzdtm is: the minimax move by move
 * (egtb_verify_dtm) and the agreement with DTC (egtb_dtm_check); false
 * after a message. Where both sides attack the DTM is no minimax (its
 * raising steps take some children's values without the + 1, docs/egtb.md
 * "Both-sides DTM"): only its signs against DTC are checked, and the line
 * says so. */
static bool verify_dtm(EgtbSet *set, const EgtbMaterial *mat, const char *dir, const char *name, int threads) {
    char path[1200], err[512];
    snprintf(path, sizeof path, "%s/%.*s%s", dir, (int)EGTB_NAME_MAX, name, EGTB_DTM_EXT);
    if (!file_exists(path)) return true;
    EgtbTable *t = egtb_set_get_dtm(set, mat, err, sizeof err);
    int64_t faults = !t ? -1 : t->dtm_flagged ? 0 : egtb_verify_dtm(set, t, threads, stdout, err, sizeof err);
    if (faults == 0 && !egtb_dtm_check(t, err, sizeof err)) faults = -1;
    if (faults < 0) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        return false;
    }
    if (faults > 0) {
        fprintf(stderr, "tuong-egtb: %s: %lld DTM faults\n", name, (long long)faults);
        return false;
    }
    printf("%s: DTM ok%s\n", name, t->dtm_flagged ? " (both sides attack: signs against DTC only)" : "");
    fflush(stdout);
    return true;
}

static int cmd_verify(const char *dir, int argc, char **argv) {
    int threads = 1, nsig = 0;
    char *sigs[BUILD_MAX];
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = atoi(argv[++i]);
            if (threads < 1 || threads > 64) {
                fprintf(stderr, "tuong-egtb: --threads %s: want 1..64\n", argv[i]);
                return 1;
            }
        } else if (argv[i][0] == '-' || nsig == BUILD_MAX) {
            return usage();
        } else {
            sigs[nsig++] = argv[i];
        }
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "tuong-egtb: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    EgtbSet set;
    egtb_set_init(&set, dir);
    static char names[BUILD_MAX][EGTB_NAME_MAX];
    int n = 0;
    size_t extlen = strlen(EGTB_DTC_EXT);
    for (int i = 0; i < nsig && n < BUILD_MAX; i++) {
        EgtbMaterial mat;
        char err[512];
        if (!egtb_sig_parse(&mat, sigs[i], err, sizeof err)) {
            fprintf(stderr, "tuong-egtb: %s\n", err);
            closedir(d);
            egtb_set_free(&set);
            return 1;
        }
        egtb_sig_name(&mat, names[n++]);
    }
    for (struct dirent *e; nsig == 0 && (e = readdir(d)) && n < BUILD_MAX;) {
        size_t len = strlen(e->d_name);
        if (len <= extlen || len - extlen >= EGTB_NAME_MAX || strcmp(e->d_name + len - extlen, EGTB_DTC_EXT))
            continue;
        memcpy(names[n], e->d_name, len - extlen);
        names[n++][len - extlen] = '\0';
    }
    closedir(d);
    if (n == 0) {
        fprintf(stderr, "tuong-egtb: %s: no tables (*%s)\n", dir, EGTB_DTC_EXT);
        egtb_set_free(&set);
        return 1;
    }
    int rc = 0;
    char err[512];
    for (int i = 0; i < n && rc == 0; i++) {
        EgtbMaterial mat;
        char norm[EGTB_NAME_MAX];
        if (!egtb_sig_parse(&mat, names[i], err, sizeof err) || strcmp(egtb_sig_name(&mat, norm), names[i])) {
            fprintf(stderr, "tuong-egtb: %s/%s: not a table name\n", dir, names[i]);
            rc = 1;
            break;
        }
        EgtbMaterial keep[2 * TYPE_NB + 1];
        int nkeep = egtb_solve_needs(&mat, keep);
        keep[nkeep++] = mat;
        egtb_set_trim(&set, keep, nkeep, SET_BYTES_MAX);
        EgtbTable *t = egtb_set_get(&set, &mat, err, sizeof err);
        int64_t faults = t ? egtb_verify(&set, t, threads, stdout, err, sizeof err) : -1;
        if (faults < 0) {
            fprintf(stderr, "tuong-egtb: %s\n", err);
            rc = 1;
        } else if (faults > 0) {
            fprintf(stderr, "tuong-egtb: %s: %lld faults\n", names[i], (long long)faults);
            rc = 1;
        } else {
            printf("%s: ok (%llu positions per side)\n", names[i], (unsigned long long)t->lay.positions);
            fflush(stdout); /* a long run shows its progress in a log */
            if (!verify_dtm(&set, &mat, dir, names[i], threads)) rc = 1;
        }
    }
    egtb_set_free(&set);
    return rc;
}

static void print_value(uint16_t v) {
    if (v == 0) printf("draw");
    else if (v & 1) printf("loss dtc %u", v - 1);
    else printf("win dtc %u", v - 1);
}

/* ` order K` after the value when a rule round (K > 0) settled it: then
 * the distance counts to the rule loss (a perpetual checker or chaser),
 * not to a conversion (docs/egtb.md, "Values of rule-decided positions").
 * pos's table is already in set (egtb_probe loaded it). */
static void print_order(EgtbSet *set, const Position *pos) {
    EgtbMaterial mat;
    char err[512];
    egtb_sig_of_position(pos, &mat);
    egtb_sig_normalise(&mat);
    if (!egtb_sig_has_attackers(&mat, RED) && !egtb_sig_has_attackers(&mat, BLACK)) return;
    const EgtbTable *t = egtb_set_get(set, &mat, err, sizeof err);
    if (!t) return;
    Color side;
    uint64_t idx = egtb_index_of(&t->lay, pos, &side);
    unsigned order = egtb_table_order(t, side, idx);
    if (order) printf(" order %u", order);
}

/* The engine's prober reports refused files; probe shows the refusal of
 * the one DTM file it reads (the DTC it read itself has already passed;
 * other tables are not its business). */
typedef struct {
    const char *path;
    bool refused;
} DtmReport;

static void report_dtm(void *ctx, bool error, const char *text) {
    DtmReport *r = ctx;
    if (!error || !strstr(text, r->path)) return;
    fprintf(stderr, "tuong-egtb: %s\n", text);
    r->refused = true;
}

/* `dtm N` (plies to mate, as dtc prints them) when DIR holds the DTM file
 * of pos's signature, through the engine's prober (engine/egtb) as the
 * engine would read it; false after a message when that file is refused
 * or disagrees with DTC on who wins. */
static bool print_dtm(const char *dir, const Position *pos, uint16_t dtc) {
    EgtbMaterial mat;
    char name[EGTB_NAME_MAX], path[1200];
    egtb_sig_of_position(pos, &mat);
    egtb_sig_normalise(&mat);
    egtb_sig_name(&mat, name);
    snprintf(path, sizeof path, "%s/%s%s", dir, name, EGTB_DTM_EXT);
    if (!file_exists(path)) return true;
    DtmReport report = {.path = path, .refused = false};
    egtb_load(dir, report_dtm, &report);
    EgtbDtm d;
    bool refused = report.refused, bad = refused;
    /* A position the prober does not probe (stacked pawns: docs/egtb.md,
     * "The prober") just shows no DTM. */
    if (!refused && egtb_probe_dtm(pos, &d)) {
        if (d.win != egtb_is_win(dtc) || (d.v == 0) != (dtc == 0)) {
            fprintf(stderr, "tuong-egtb: %s: DTM %s%u against DTC %u\n", path, d.win ? "win " : "", d.v, dtc);
            bad = true;
        } else if (d.v) {
            printf(" dtm %u", d.v - 1);
        }
    }
    egtb_unload();
    return !bad;
}

static int cmd_probe(const char *dir, const char *fen) {
    Position *pos = malloc(sizeof *pos);
    char err[512];
    if (!pos) return 1;
    if (!fen_parse(pos, fen, err, sizeof err)) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        free(pos);
        return 1;
    }
    EgtbSet set;
    egtb_set_init(&set, dir);
    uint16_t v;
    int rc = 0;
    if (!egtb_probe(&set, pos, &v, err, sizeof err)) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        rc = 1;
    } else if (v == EGTB_ILLEGAL) {
        fprintf(stderr, "tuong-egtb: the side not to move is in check: not a position of the table\n");
        rc = 1;
    } else {
        print_value(v);
        print_order(&set, pos);
        if (!print_dtm(dir, pos, v)) rc = 1;
        printf("\n");
        MoveList list;
        gen_legal(pos, &list);
        for (int i = 0; i < list.count && rc == 0; i++) {
            uint16_t cv;
            char text[MOVE_TEXT_MAX];
            if (!egtb_child_value(&set, pos, list.moves[i], &cv, err, sizeof err)) {
                fprintf(stderr, "tuong-egtb: %s\n", err);
                rc = 1;
                break;
            }
            printf("  %s ", move_to_text(list.moves[i], 0, text));
            if (cv == 0x8000) printf("capture, then the opponent wins");
            else if (pos->board[move_to(list.moves[i])] != NO_PIECE && cv == 1) printf("capture, then the opponent loses");
            else {
                printf("then ");
                print_value(cv);
                /* The child's order too: at the worked example, Kd2 leads
                 * to a loss that only the rule loop settled. */
                pos_make_move(pos, list.moves[i]);
                if (gen_count_legal(pos) > 0) print_order(&set, pos);
                pos_unmake_move(pos);
            }
            printf("\n");
        }
    }
    egtb_set_free(&set);
    free(pos);
    return rc;
}

/* The whole file at path (malloc'd), or NULL with a message. */
static uint8_t *slurp(const char *path, size_t *size, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    uint8_t *data = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *p = realloc(data, cap);
            if (!p) {
                free(data);
                fclose(f);
                snprintf(err, errlen, "%s: out of memory", path);
                return NULL;
            }
            data = p;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *size = n;
    return data;
}

/* Our DTC values against xiangqitb's NAME.lzdtc in xqdir, if there is one:
 * the same v and the same order (rule round) at every legal position. */
static int compare_dtc(const char *xqdir, const EgtbTable *t) {
    char err[1600], path[1200], fen[FEN_MAX];
    snprintf(path, sizeof path, "%s/%s%s", xqdir, t->name, EGTB_DTC_EXT);
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    size_t size;
    uint8_t *file = slurp(path, &size, err, sizeof err);
    uint16_t *dtc[COLOR_NB] = {malloc(t->lay.positions * 2), malloc(t->lay.positions * 2)};
    int tables = 0;
    bool order128 = false;
    bool ok = file && dtc[RED] && dtc[BLACK] &&
              egtb_xq_parse_dtc(&t->lay, file, size, dtc, &tables, &order128, err, sizeof err);
    free(file);
    if (!ok) {
        fprintf(stderr, "tuong-egtb: %s: %s\n", path, dtc[RED] && dtc[BLACK] ? err : "out of memory");
        free(dtc[RED]);
        free(dtc[BLACK]);
        return 1;
    }
    uint64_t compared = 0, differ = 0, with_order = 0;
    Position *pos = malloc(sizeof *pos);
    for (int c = 0; pos && c < tables; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t v = t->val[c][i], e = dtc[c][i];
            if (v == EGTB_ILLEGAL) continue;
            compared++;
            uint16_t xv = e & (order128 ? 0x1FF : 0x3FF);
            unsigned order = (e >> 10) + (order128 && (e & 0x200) ? 64 : 0), ours = egtb_table_order(t, c, i);
            if (order > 0) with_order++;
            if (xv == v && order == ours) continue;
            if (differ++ < 5) {
                egtb_decode(&t->lay, i, (Color)c, pos);
                printf("%s: index %llu %s to move: ours %u order %u, xiangqitb %u order %u (%s)\n", t->name,
                       (unsigned long long)i, c == RED ? "white" : "black", v, ours, xv, order,
                       fen_write(pos, fen));
            }
        }
    free(pos);
    free(dtc[RED]);
    free(dtc[BLACK]);
    printf("%s: DTC of %llu legal positions compared (%llu from rule rounds, order > 0), %llu differ\n", t->name,
           (unsigned long long)compared, (unsigned long long)with_order, (unsigned long long)differ);
    return differ ? 1 : 0;
}

/* Our DTM (DIR/NAME.lzdtm, through set) against xiangqitb's NAME.lzdtm in
 * xqdir, if there is one: v and the win flag at every legal position
 * (rule bits, which one-side tables never set, count as a difference). */
static int compare_dtm(const char *xqdir, EgtbSet *set, EgtbTable *t) {
    char err[1600], path[1200], fen[FEN_MAX];
    snprintf(path, sizeof path, "%s/%s%s", xqdir, t->name, EGTB_DTM_EXT);
    if (!file_exists(path)) return 0;
    if (!egtb_set_get_dtm(set, &t->lay.mat, err, sizeof err)) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        return 1;
    }
    size_t size;
    uint8_t *file = slurp(path, &size, err, sizeof err);
    uint16_t *dtm[COLOR_NB] = {malloc(t->lay.positions * 2), malloc(t->lay.positions * 2)};
    int tables = 0;
    bool rule_bits = false;
    bool ok = file && dtm[RED] && dtm[BLACK] &&
              egtb_xq_parse_dtm(&t->lay, file, size, dtm, &tables, &rule_bits, err, sizeof err);
    free(file);
    if (!ok) {
        fprintf(stderr, "tuong-egtb: %s: %s\n", path, dtm[RED] && dtm[BLACK] ? err : "out of memory");
        free(dtm[RED]);
        free(dtm[BLACK]);
        return 1;
    }
    uint64_t compared = 0, differ = 0;
    Position *pos = malloc(sizeof *pos);
    for (int c = 0; pos && c < tables; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t v = t->dtm[c][i], e = dtm[c][i];
            if (v == EGTB_ILLEGAL) continue;
            compared++;
            /* as written: the win flag in bit 11 (a both-sides table holds it already) */
            uint16_t ours = t->dtm_flagged || !egtb_is_win(v) ? v : (uint16_t)(v | EGTB_DTM_WIN);
            if (ours == e) continue;
            if (differ++ < 5) {
                egtb_decode(&t->lay, i, (Color)c, pos);
                char mine[32]; /* a both-sides entry as stored, like xiangqitb's; else the value */
                snprintf(mine, sizeof mine, t->dtm_flagged ? "entry %04x" : "DTM %u", (unsigned)v);
                printf("%s: index %llu %s to move: ours %s, xiangqitb entry %04x (%s)\n", t->name,
                       (unsigned long long)i, c == RED ? "white" : "black", mine, e, fen_write(pos, fen));
            }
        }
    free(pos);
    free(dtm[RED]);
    free(dtm[BLACK]);
    printf("%s: DTM of %llu legal positions compared, %llu differ\n", t->name, (unsigned long long)compared,
           (unsigned long long)differ);
    return differ ? 1 : 0;
}

/* Our table's WDL against a xiangqitb WDL file at path (ext: its
 * extension, for the report), legal positions only (its illegal entries
 * are overwritten for compression). Returns the differences, or -1 when
 * the file cannot be read. */
static int64_t compare_wdl_file(const EgtbTable *t, const char *path, const char *ext) {
    char err[1600], fen[FEN_MAX];
    size_t size;
    uint8_t *file = slurp(path, &size, err, sizeof err);
    uint8_t *wdl[COLOR_NB] = {malloc(t->lay.positions), malloc(t->lay.positions)};
    int tables = 0;
    bool ok = file && wdl[RED] && wdl[BLACK] && egtb_xq_parse_wdl(&t->lay, file, size, wdl, &tables, err, sizeof err);
    free(file);
    if (!ok) {
        fprintf(stderr, "tuong-egtb: %s%s%s\n", file ? path : "", file ? ": " : "", wdl[RED] ? err : "out of memory");
        free(wdl[RED]);
        free(wdl[BLACK]);
        return -1;
    }
    uint64_t compared = 0, differ = 0;
    Position *pos = malloc(sizeof *pos);
    for (int c = 0; pos && c < tables; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t v = t->val[c][i];
            if (v == EGTB_ILLEGAL) continue;
            int ours = v == 0 ? XQ_WDL_DRAW : (v & 1) ? XQ_WDL_LOSS : XQ_WDL_WIN;
            compared++;
            if (ours == wdl[c][i]) continue;
            if (differ++ < 5) {
                egtb_decode(&t->lay, i, (Color)c, pos);
                printf("%s%s: index %llu %s to move: ours %d, xiangqitb %d (%s)\n", t->name, ext,
                       (unsigned long long)i, c == RED ? "white" : "black", ours, wdl[c][i], fen_write(pos, fen));
            }
        }
    free(pos);
    free(wdl[RED]);
    free(wdl[BLACK]);
    printf("%s: WDL of %llu legal positions compared (%d table%s%s%s), %llu differ\n", t->name,
           (unsigned long long)compared, tables, tables == 1 ? "" : "s", *ext ? ", " : "", ext,
           (unsigned long long)differ);
    return (int64_t)differ;
}

/* Our table against xiangqitb's files in xqdir: WDL, DTC, and DTM if
 * there. For a symmetric signature xiangqitb also leaves NAME.lzw.gen,
 * the WDL of both colours as its generator solved them: compared with
 * ours as read (Black to move the turned Red), it shows that its Black
 * side is the turned Red too. */
static int compare_one(const char *xqdir, EgtbSet *set, const char *sig) {
    char err[1600], path[1200];
    EgtbMaterial mat;
    if (!egtb_sig_parse(&mat, sig, err, sizeof err)) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        return 1;
    }
    EgtbTable *t = egtb_set_get(set, &mat, err, sizeof err);
    if (!t) {
        fprintf(stderr, "tuong-egtb: %s\n", err);
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s%s", xqdir, t->name, EGTB_WDL_EXT);
    if (compare_wdl_file(t, path, "") != 0) return 1;
    snprintf(path, sizeof path, "%s/%s%s%s", xqdir, t->name, EGTB_WDL_EXT, EGTB_WDL_GEN_SUFFIX);
    if (egtb_sig_symmetric(&t->lay.mat) && file_exists(path) &&
        compare_wdl_file(t, path, EGTB_WDL_EXT EGTB_WDL_GEN_SUFFIX) != 0)
        return 1;
    return compare_dtc(xqdir, t) ? 1 : compare_dtm(xqdir, set, t);
}

static int cmd_compare(int argc, char **argv) {
    if (argc < 3) return usage();
    EgtbSet set;
    egtb_set_init(&set, argv[1]);
    int rc = 0;
    for (int i = 2; i < argc; i++) rc |= compare_one(argv[0], &set, argv[i]);
    egtb_set_free(&set);
    return rc;
}

/* One word of a fixed list: its position, or -1. */
static int word_of(const char *w, const char *const *list, int n) {
    for (int i = 0; i < n; i++)
        if (!strcmp(w, list[i])) return i;
    return -1;
}

static bool parse_u64(const char *s, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-') return false;
    *out = v;
    return true;
}

/* Whether the side that would own X (uppercase: the stronger side, written
 * first in the name) already has as many of X's kind as the rules allow, so
 * no position can have one more. */
static bool en_prise_full(const char *name, char letter) {
    const char *second = strchr(name + 1, 'K');
    if (!second) return false;
    const char *from = isupper((unsigned char)letter) ? name + 1 : second + 1;
    const char *to = isupper((unsigned char)letter) ? second : name + strlen(name);
    char up = (char)toupper((unsigned char)letter);
    int have = 0;
    for (const char *c = from; c < to; c++) have += *c == up;
    return have >= (up == 'P' ? 5 : 2);
}

/* Print `count` positions of each signature, one FEN per line followed by
 * an EPD comment (`; NAME win dtc D`): tuong-match -openings reads the
 * lines and drops the comment. With `--en-prise X` (a FEN letter in the
 * table's frame: upper case a piece of the stronger side, lower case of
 * the weaker) each is one capture before a table position instead
 * (egtb_en_prise): X added where the other side can take it, that side to
 * move, and the comment `; NAME+X VALUE after MOVE`, VALUE (for the side
 * to move, the DTC counted from the table position) what taking X with
 * MOVE leads to; --value asks for
 * that value and the side to move is the capturer (no --side-to-move). */
static int cmd_sample(int argc, char **argv) {
    static const char *const Values[] = {"win", "draw", "loss"};
    static const char *const Movers[] = {"strong", "weak", "any"};
    const char *dir = NULL;
    const char *sigs[BUILD_MAX];
    int nsigs = 0, want = EGTB_WANT_WIN, mover = EGTB_MOVER_ANY;
    uint64_t count = SAMPLE_COUNT_DEFAULT, seed = SAMPLE_SEED_DEFAULT;
    bool mover_given = false;
    Piece x = NO_PIECE;
    char xletter = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--en-prise")) {
            static const char Letters[] = "ABNRCP";
            const char *l = v && v[0] && !v[1] ? strchr(Letters, toupper((unsigned char)v[0])) : NULL;
            if (!l) {
                fprintf(stderr, "tuong-egtb: sample --en-prise %s: want one of A B N R C P (the stronger side's) "
                                "or a b n r c p (the weaker's)\n",
                        v ? v : "(nothing)");
                return 1;
            }
            static const PieceType Types[] = {ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN};
            x = make_piece(isupper((unsigned char)v[0]) ? RED : BLACK, Types[l - Letters]);
            xletter = v[0];
            i++;
        } else if (!strcmp(a, "--value") || !strcmp(a, "--count") || !strcmp(a, "--seed") || !strcmp(a, "--side-to-move")) {
            bool ok = v != NULL;
            if (ok && !strcmp(a, "--value")) ok = (want = word_of(v, Values, 3)) >= 0;
            else if (ok && !strcmp(a, "--side-to-move")) ok = mover_given = (mover = word_of(v, Movers, 3)) >= 0;
            else if (ok && !strcmp(a, "--count")) ok = parse_u64(v, &count) && count >= 1 && count <= SAMPLE_COUNT_MAX;
            else if (ok) ok = parse_u64(v, &seed);
            if (!ok) {
                fprintf(stderr, "tuong-egtb: sample %s %s: want %s\n", a, v ? v : "(nothing)",
                        !strcmp(a, "--value")          ? "win, draw or loss"
                        : !strcmp(a, "--side-to-move") ? "strong, weak or any"
                        : !strcmp(a, "--count")        ? "a count from 1 to 1000000"
                                                       : "a number from 0 to 2^64 - 1");
                return 1;
            }
            i++;
        } else if (a[0] == '-') {
            return usage();
        } else if (!dir) {
            dir = a;
        } else if (nsigs < BUILD_MAX) {
            sigs[nsigs++] = a;
        } else {
            return usage();
        }
    }
    if (!dir || nsigs == 0) return usage();
    /* With --en-prise the table position has X's owner to move, and the
     * value asked for the capturer is the opposite for that side. */
    int draw_want = want;
    if (x != NO_PIECE) {
        if (mover_given) {
            fprintf(stderr, "tuong-egtb: sample: --en-prise sets the side to move (the one that can take it); "
                            "leave out --side-to-move\n");
            return 1;
        }
        mover = color_of(x) == RED ? EGTB_MOVER_STRONG : EGTB_MOVER_WEAK;
        draw_want = want == EGTB_WANT_WIN ? EGTB_WANT_LOSS : want == EGTB_WANT_LOSS ? EGTB_WANT_WIN : want;
    }
    EgtbSet set;
    egtb_set_init(&set, dir);
    /* Not every table position has a way to put X en prise: draw more. */
    uint64_t room = x != NO_PIECE ? count * 20 : count;
    EgtbPick *picks = malloc(room * sizeof *picks);
    Position *pos = malloc(sizeof *pos), *q = malloc(sizeof *q);
    char err[1600], fen[FEN_MAX];
    int rc = picks && pos && q ? 0 : 1;
    if (rc) fprintf(stderr, "tuong-egtb: out of memory\n");
    for (int s = 0; s < nsigs && rc == 0; s++) {
        EgtbMaterial mat;
        EgtbTable *t = egtb_sig_parse(&mat, sigs[s], err, sizeof err) ? egtb_set_get(&set, &mat, err, sizeof err) : NULL;
        uint64_t n = count;
        if (t && x != NO_PIECE && en_prise_full(t->name, xletter)) {
            fprintf(stderr, "tuong-egtb: sample --en-prise %c: %s's side already has as many %c as the rules allow\n",
                    xletter, t->name, xletter);
            rc = 1;
            break;
        }
        if (t && x != NO_PIECE) {
            n = egtb_sample_count(t, (EgtbWant)draw_want, (EgtbMover)mover);
            if (n > room) n = room;
        }
        if (!t || !egtb_sample(t, (EgtbWant)draw_want, (EgtbMover)mover, (int)n, seed, picks, err, sizeof err)) {
            fprintf(stderr, "tuong-egtb: %s\n", err);
            rc = 1;
            break;
        }
        if (x != NO_PIECE) {
            uint64_t state = seed ^ 0x9e3779b97f4a7c15ull, done = 0;
            char name[EGTB_NAME_MAX + 2], mv[MOVE_TEXT_MAX];
            snprintf(name, sizeof name, "%s+%c", t->name, xletter);
            for (uint64_t j = 0; j < n && done < count; j++) {
                uint16_t v = t->val[picks[j].side][picks[j].index];
                Move m;
                egtb_decode(&t->lay, picks[j].index, picks[j].side, pos);
                if (!egtb_en_prise(pos, x, &state, q, &m)) continue;
                /* The capturer's value: the table position's seen from the
                 * other side, its DTC counted from the table position. */
                printf("%s ; %s %s", fen_write(q, fen), name, v == 0 ? "draw" : v & 1 ? "win" : "loss");
                if (v) printf(" dtc %u", (unsigned)v - 1);
                printf(" after %s\n", move_to_text(m, 0, mv));
                done++;
            }
            if (done < count) {
                fprintf(stderr, "tuong-egtb: %s: %llu positions with %c en prise found in %llu drawn, %llu asked for\n",
                        t->name, (unsigned long long)done, xletter, (unsigned long long)n,
                        (unsigned long long)count);
                rc = 1;
                break;
            }
            continue;
        }
        for (uint64_t j = 0; j < count; j++) {
            uint16_t v = t->val[picks[j].side][picks[j].index];
            egtb_decode(&t->lay, picks[j].index, picks[j].side, pos);
            printf("%s ; %s ", fen_write(pos, fen), t->name);
            print_value(v);
            printf("\n");
        }
    }
    free(picks);
    free(pos);
    free(q);
    egtb_set_free(&set);
    return rc;
}

/* The facts of random positions of a signature, or of the FENs of a file. */
static int cmd_rulefacts(int argc, char **argv) {
    char err[512];
    bool ok;
    if (argc == 2 && !strcmp(argv[0], "--fens")) {
        FILE *in = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
        if (!in) {
            fprintf(stderr, "tuong-egtb: %s: %s\n", argv[1], strerror(errno));
            return 1;
        }
        ok = egtb_rulefacts_fens(in, stdout, err, sizeof err);
        if (in != stdin) fclose(in);
    } else {
        uint64_t count, seed = SAMPLE_SEED_DEFAULT;
        if ((argc != 2 && argc != 3) || !parse_u64(argv[1], &count) || (argc == 3 && !parse_u64(argv[2], &seed)))
            return usage();
        ok = egtb_rulefacts_random(argv[0], count, seed, stdout, err, sizeof err);
    }
    if (!ok) fprintf(stderr, "tuong-egtb: %s\n", err);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    engine_init();
    if (argc < 2) return usage();
    if (!strcmp(argv[1], "build")) return cmd_build(argc - 2, argv + 2);
    if (!strcmp(argv[1], "list")) return cmd_list(argc - 2, argv + 2);
    if (!strcmp(argv[1], "verify") && argc >= 3) return cmd_verify(argv[2], argc - 3, argv + 3);
    if (!strcmp(argv[1], "compare")) return cmd_compare(argc - 2, argv + 2);
    if (!strcmp(argv[1], "sample")) return cmd_sample(argc - 2, argv + 2);
    if (!strcmp(argv[1], "rulefacts")) return cmd_rulefacts(argc - 2, argv + 2);
    if (!strcmp(argv[1], "probe") && argc == 3) {
        fprintf(stderr, "tuong-egtb: probe needs a directory and a FEN\n");
        return 2;
    }
    if (!strcmp(argv[1], "probe") && argc >= 4) {
        /* The FEN may come as one argument or as its space-separated fields. */
        char fen[512] = "";
        for (int i = 3; i < argc; i++) {
            if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen) return usage();
            if (i > 3) strcat(fen, " ");
            strcat(fen, argv[i]);
        }
        return cmd_probe(argv[2], fen);
    }
    return usage();
}
