// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the match result file parser (bench/match/results.h), which reads
 * the files a sharded match's tasks wrote. The bytes are parsed as they
 * are (no terminator added); when the parser accepts them, every game is
 * one of the shard's, once, and its PGN lies inside the file. */
#include "fuzz_common.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size ? size : 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size);
    char err[300];
    static MatchResults r;
    if (!results_parse(text, size, &r, err, sizeof err)) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL && err[0] != '\0');
    } else {
        FUZZ_CHECK(r.spec.index >= 0 && r.spec.index < r.spec.count);
        FUZZ_CHECK(r.tally.engine_count >= 2 && r.tally.pair_count >= 1);
        for (int i = 0; i < r.count; i++) {
            const ResultGame *g = &r.games[i];
            FUZZ_CHECK(g->number >= r.first && g->number < r.first + r.count);
            for (int j = 0; j < i; j++)
                FUZZ_CHECK(r.games[j].number != g->number);
            FUZZ_CHECK(g->pgn_at <= size && g->pgn_len <= size - g->pgn_at);
            FUZZ_CHECK(g->outcome.reason == g->reason);
        }
    }
    results_free(&r);
    free(text);
    return 0;
}
