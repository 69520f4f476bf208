// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "nnue/nnue.h"
#include "perft.h"
#include "perft_epd.h"
#include "perft_shard.h"
#include "protocol.h"
#include "search_params.h"
#include "sys.h"
#include "version.h"

/* perft depth limit of the command line (beyond it the counts overflow
 * long before the run would end); the biggest --hash. */
enum { PERFT_DEPTH_MAX = 20, PERFT_HASH_MAX_MB = 1 << 20 };

static const char Usage[] =
    "usage: tuong                  start the protocol loop (first command: ucci or uci)\n"
    "       tuong perft <depth> [FEN] [--threads N] [--hash MB]\n"
    "                              count move-generation leaves, per root move\n"
    "       tuong perft --epd FILE [--depth D] [--threads N] [--hash MB]\n"
    "                              check the ;D<n> counts of every position in FILE\n"
    "       tuong perft <depth> [FEN] --split S --shard K/N [--out FILE] [--threads N] [--hash MB]\n"
    "                              count the subtrees S plies down dealt to shard K of N\n"
    "       tuong perft merge FILE...  sum the shards' result files (docs/cluster.md)\n"
    "       tuong bench [depth]    search the benchmark positions\n"
    "       tuong params           list the tunable search parameters (name,value,min,max,step)\n"
    "       tuong --help | --version\n";

/* Parse a whole decimal number in [lo, hi]. */
static bool parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* What `tuong perft ...` asked for. */
typedef struct {
    long depth;     /* the count's depth (-1: none given) */
    long epd_depth; /* --depth D (-1: every depth of the file) */
    long threads, hash_mb;
    const char *epd; /* --epd FILE, or NULL */
    long split;      /* --split S (0: none) */
    bool sharded;    /* --shard K/N given */
    ShardSpec shard; /* shard 0/1 without --shard */
    const char *out; /* --out FILE for the result file, or NULL (stdout) */
    char fen[512];   /* the FEN words joined, or "" */
} PerftArgs;

/* Half the machine's memory in MB: a bigger table would only swap. */
static long memory_cap_mb(void) {
    unsigned long long mb = sys_memory_bytes() / 2 / (1024 * 1024);
    if (mb == 0) return sys_memory_bytes() ? 1 : PERFT_HASH_MAX_MB;
    return mb > PERFT_HASH_MAX_MB ? PERFT_HASH_MAX_MB : (long)mb;
}

/* One error line (then the usage); returns the exit status 2. */
static int perft_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int perft_usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tuong: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s", Usage);
    return 2;
}

/* One `--name value` option; 0, or the exit status after an error line. */
static int perft_option(const char *name, const char *value, PerftArgs *a) {
    if (!value) return perft_usage_error("perft %.40s needs a value", name);
    if (!strcmp(name, "--epd")) {
        a->epd = value;
        return 0;
    }
    if (!strcmp(name, "--out")) {
        a->out = value;
        return 0;
    }
    if (!strcmp(name, "--shard")) {
        a->sharded = true;
        if (shard_parse(value, &a->shard)) return 0;
        return perft_usage_error("perft --shard needs K/N with 0 <= K < N, not '%.40s'", value);
    }
    if (!strcmp(name, "--split") && parse_int(value, 1, PERFT_SPLIT_MAX, &a->split)) return 0;
    if (!strcmp(name, "--split")) return perft_usage_error("perft --split needs 1 to %d plies", PERFT_SPLIT_MAX);
    long cap = memory_cap_mb();
    if (!strcmp(name, "--threads") && parse_int(value, 1, PERFT_THREADS_MAX, &a->threads)) return 0;
    if (!strcmp(name, "--hash") && parse_int(value, 0, cap, &a->hash_mb)) return 0;
    if (!strcmp(name, "--depth") && parse_int(value, 1, PERFT_EPD_DEPTH_MAX, &a->epd_depth)) return 0;
    if (!strcmp(name, "--threads")) return perft_usage_error("perft --threads needs 1 to %d", PERFT_THREADS_MAX);
    if (!strcmp(name, "--hash"))
        return perft_usage_error("perft --hash needs 0 to %ld megabytes (half this machine's memory)", cap);
    if (!strcmp(name, "--depth")) return perft_usage_error("perft --depth needs 1 to %d", PERFT_EPD_DEPTH_MAX);
    return perft_usage_error("unknown perft option '%.40s'", name);
}

/* Sort the arguments after `perft` into options, the depth and the FEN. */
static int perft_parse(int argc, char **argv, PerftArgs *a) {
    *a = (PerftArgs){.depth = -1, .epd_depth = -1, .threads = 1, .hash_mb = 0, .shard = {0, 1}};
    int words = 0;
    for (int i = 2; i < argc; i++) {
        if (!strncmp(argv[i], "--", 2)) {
            int rc = perft_option(argv[i], i + 1 < argc ? argv[i + 1] : NULL, a);
            if (rc) return rc;
            i++;
        } else if (words++ == 0) {
            if (!parse_int(argv[i], 0, PERFT_DEPTH_MAX, &a->depth)) a->depth = -2;
        } else {
            if (strlen(a->fen) + strlen(argv[i]) + 2 > sizeof a->fen) return perft_usage_error("perft: FEN too long");
            if (a->fen[0]) strcat(a->fen, " ");
            strcat(a->fen, argv[i]);
        }
    }
    if (a->epd && words) return perft_usage_error("perft --epd takes no depth or FEN (--depth D stops at depth D)");
    if (!a->epd && a->epd_depth >= 0)
        return perft_usage_error("perft --depth goes with --epd (else: perft <depth> [FEN])");
    if (!a->epd && a->depth < 0) return perft_usage_error("perft needs a depth from 0 to %d", PERFT_DEPTH_MAX);
    if ((a->sharded || a->out) && !a->split) return perft_usage_error("perft --shard and --out go with --split S");
    if (a->split && (a->epd || a->split > a->depth))
        return perft_usage_error("perft --split S needs a depth of at least S (and no --epd)");
    return 0;
}

/* The split count of shard a->shard into a->out (written to FILE.part,
 * renamed when whole) or stdout; returns the exit status. */
static int perft_split_run(const Position *pos, const PerftArgs *a, const PerftOptions *opt) {
    char tmp[4096];
    FILE *out = stdout;
    if (a->out) {
        if (snprintf(tmp, sizeof tmp, "%s.part", a->out) >= (int)sizeof tmp || !(out = fopen(tmp, "w"))) {
            fprintf(stderr, "tuong: error: cannot write %s.part\n", a->out);
            return 1;
        }
    }
    bool ok = perft_shard_run(pos, (int)a->depth, (int)a->split, a->shard, opt, out);
    if (a->out) {
        ok = fclose(out) == 0 && ok;
        ok = ok && rename(tmp, a->out) == 0;
    }
    if (!ok) fprintf(stderr, "tuong: error: writing the perft result %s failed\n", a->out ? a->out : "(stdout)");
    return ok ? 0 : 1;
}

static int cli_perft(int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[2], "merge")) return perft_merge_main(argc - 3, argv + 3, stdout, stderr);
    PerftArgs a;
    int rc = perft_parse(argc, argv, &a);
    if (rc) return rc;
    static Position pos;
    char err[200];
    if (!a.epd && !fen_parse(&pos, a.fen[0] ? a.fen : START_FEN, err, sizeof err)) {
        fprintf(stderr, "tuong: error: %s\n", err);
        return 2;
    }
    PerftTable table = {0};
    if (a.hash_mb > 0 && !perft_table_init(&table, (size_t)a.hash_mb << 20)) {
        fprintf(stderr, "tuong: error: could not allocate %ld MB for the perft hash table\n", a.hash_mb);
        return 2;
    }
    PerftOptions opt = {.threads = (int)a.threads, .table = a.hash_mb > 0 ? &table : NULL};
    rc = 0;
    if (a.split)
        rc = perft_split_run(&pos, &a, &opt);
    else if (a.epd)
        rc = perft_epd_check(a.epd, a.epd_depth < 0 ? PERFT_EPD_DEPTH_MAX : (int)a.epd_depth, &opt, stdout, stderr);
    else
        perft_divide_with(&pos, (int)a.depth, 0, &opt, stdout);
    perft_table_free(&table);
    return rc;
}

int cli_main(int argc, char **argv) {
    if (argc < 2) {
        sys_stdin_binary();
        return protocol_loop(stdin, stdout);
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(Usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v")) {
        printf("%s%s\n", version_text(), nnue_banner());
        return 0;
    }
    if (!strcmp(cmd, "perft")) return cli_perft(argc, argv);
    if (!strcmp(cmd, "params")) {
        params_print(stdout);
        return 0;
    }
    if (!strcmp(cmd, "bench")) return protocol_bench_command(argc > 2 ? argv[2] : NULL, stdout);
    fprintf(stderr, "tuong: error: unknown argument '%s'\n%s", cmd, Usage);
    return 2;
}
