// SPDX-License-Identifier: GPL-3.0-or-later
/* `bench`: a fixed set of positions searched to a fixed depth with one
 * thread and a fixed hash, for a deterministic node count and a speed. */
#include <string.h>
#include <time.h>

#include "eval.h"
#include "fen.h"
#include "search.h"
#include "thread.h"
#include "tt.h"

enum { BENCH_FALLBACK_DEPTH = 10, BENCH_HASH_MB = 16 };

/* Openings (start, ECCO lines, book exits), middlegames, endgames (most
 * from the perft suite) and a few composed mates. */
static const char *const BenchFens[] = {
    START_FEN,
    "rnbakab1r/9/1c1c2n2/p1p1p3p/6p2/2P6/P3P1P1P/1C2B1NC1/9/RNBAKA1R1 b - - 0 1",
    "1rbaka2r/9/2n1bcn2/p3p1p1p/2p6/6P2/PcP1P3P/N1C1C1N2/9/1RBAKABR1 w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p3p2Rp/2p3p2/9/P1P1P1P1P/1CN1C1N2/R8/2BAKAB2 b - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p2Rp/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 b - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p3p/6p2/9/P1P1P1P1P/N1C1C1N2/9/R1BAKABR1 b - - 0 1",
    "r1bakabr1/9/1c4nc1/4p1p1p/pnp6/6P2/P1P1P3P/N1C1C1N2/9/R1BAKABR1 w - - 0 1",
    "2bakab2/r2r5/1cn1c1n2/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/R1BAKABR1 w - - 0 1",
    "rnbakabr1/9/4c1n2/p1p1p1p1p/9/6P2/P1P1P2cP/1C2C1N2/9/RNBAKABR1 w - - 0 1",
    "rnbaka1nr/9/1c2b1c2/p1p1p1p1p/9/6P2/P1P1P3P/4C2C1/9/RNBAKABNR w - - 0 1",
    "r1bakabnr/9/1cn4c1/p3p1p1p/2p6/6P2/P1P1P3P/1C4NC1/9/RNBAKAB1R w - - 0 1",
    "1Cbakabnr/9/rc5c1/p1p1p1p1p/9/2P6/P3P1P1P/7C1/9/RNBAKABNR b - - 2 2",
    "rn1akabnr/9/1c2b2c1/p1p1p1p1p/9/9/P1P1P1P1P/RC4C2/9/1NBAKABNR b - - 3 2",
    "rnbakabn1/9/1c5cr/p1p1p1p1p/9/9/P1P1P1P1P/NC2C4/9/R1BAKABNR b - - 3 2",
    "rnbakabnr/9/1c5c1/p1p3p1p/4p4/9/P1P1P1P1P/1C2C4/R8/1NBAKABNR b - - 3 2",
    "rnbakabnr/9/7c1/p1p1p1p1p/9/9/PcP1P1P1P/BC5C1/3N5/R2AKABNR b - - 3 2",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "3k5/9/4b4/9/2p3p2/9/6P2/4B4/4A4/3AK4 w - - 0 1",
    "4k4/4a4/3a5/9/9/9/9/9/4R4/3K5 w - - 0 1",
    "3ak4/4a4/9/9/2n6/9/9/4C4/4A4/3AK4 w - - 0 1",
    "2bk5/4a4/4ba3/9/9/6R2/9/9/4A4/4KAB2 b - - 0 1",
    "5k3/4R4/4c4/9/6r2/9/6n2/2R2A3/C2p5/3A1K3 b - - 0 1",
    "5k3/4P4/9/8N/9/9/3n1cN2/4B4/3CAp3/2BAK1c2 b - - 0 1",
    "3rkaR2/1R2a4/n3b1N2/4C4/8c/2B6/4p4/N3n4/4Ar3/3AK4 b - - 0 1",
    "3aka3/3P5/7R1/4r2C1/6C2/6R2/9/3p1n3/4p4/3K5 w - - 0 1",
    "5k3/C3P4/9/9/2c6/8R/cr2r4/4B4/4A4/4KAB1R b - - 0 1",
    "4kaN1C/3PaP3/2r6/9/9/9/4c4/4B3n/3rA4/2BAK2RR b - - 0 1",
};

static void ignore_bestmove(void *ctx, Move best, Move ponder, Score score, int depth) {
    (void)ctx, (void)best, (void)ponder, (void)score, (void)depth;
}

static int64_t bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t search_bench(int depth, FILE *out) {
    if (depth <= 0) depth = BENCH_FALLBACK_DEPTH;
    search_init();
    search_wait();
    /* The start-up settings (one thread, full strength, all pruning and
     * knowledge), whatever the protocol set: the node count is a signature. */
    SearchOptions saved = Options;
    EvalKnowledge saved_knowledge = eval_knowledge();
    Options = SearchDefaults;
    Options.use_egtb = false; /* loaded endgame tables would change the count */
    eval_set_knowledge(KNOWLEDGE_LARGE);
    tt_resize(BENCH_HASH_MB);
    SearchCallbacks cb = {.bestmove = ignore_bestmove};
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.depth = depth;
    limits.time_ms = limits.opp_time_ms = -1;
    static Position pos;
    uint64_t nodes = 0;
    search_clear();
    int64_t start = bench_now_ms();
    for (size_t i = 0; i < sizeof BenchFens / sizeof *BenchFens; i++) {
        char err[200];
        if (!fen_parse(&pos, BenchFens[i], err, sizeof err)) continue;
        search_start(&pos, &limits, &cb);
        search_wait();
        nodes += threads_nodes();
    }
    int64_t elapsed = bench_now_ms() - start;
    Options = saved;
    eval_set_knowledge(saved_knowledge);
    if (!tt_resize((size_t)Options.hash_mb)) tt_resize(BENCH_HASH_MB);
    fprintf(out, "Nodes searched: %llu\nNodes/second: %llu\n", (unsigned long long)nodes,
            (unsigned long long)(nodes * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1)));
    fflush(out);
    return nodes;
}
