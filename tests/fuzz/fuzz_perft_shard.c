// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the perft result file parser (engine/perft_shard.h), which reads
 * files that come back from other machines. The bytes are parsed as they
 * are (no terminator added, so a read past the end is caught); when the
 * parser accepts them, the file must be what a shard writes: its dealt
 * subtrees, each once, in order, with the sum its end line promised. */
#include "fuzz_common.h"
#include "perft_shard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size ? size : 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size);
    char err[300];
    PerftShardFile f;
    bool ok = perft_shard_parse(text, size, &f, err, sizeof err);
    if (!ok) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL && err[0] != '\0');
    } else {
        FUZZ_CHECK(f.spec.count >= 1 && f.spec.index >= 0 && f.spec.index < f.spec.count);
        FUZZ_CHECK(f.split >= 1 && f.split <= PERFT_SPLIT_MAX && f.split <= f.depth);
        uint64_t sum = 0;
        for (size_t i = 0; i < f.sub_count; i++) {
            FUZZ_CHECK(f.subs[i].index < f.subtrees && shard_deals(f.subs[i].index, f.spec));
            FUZZ_CHECK(i == 0 || f.subs[i].index > f.subs[i - 1].index);
            sum += f.subs[i].count;
        }
        FUZZ_CHECK(sum == f.sum);
    }
    perft_shard_free(&f);
    free(text);
    return 0;
}
