// SPDX-License-Identifier: GPL-3.0-or-later
/* The embedded-net mechanism (engine/nnue/nnue_embed.c): this test links a
 * copy of it that embeds a net generated at build time (tests/CMakeLists.txt)
 * under the symbol prefix test_embed, and checks the bytes are the file's
 * and form a valid net. The engine's own copy embeds default.nnue or
 * nothing; without one, it reports none. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "nnue/nnue.h"
#include "nnue/nnue_embed.h"

const unsigned char *test_embed_data(size_t *size);

static void test_embedded_bytes(void **state) {
    (void)state;
    size_t size;
    const unsigned char *data = test_embed_data(&size);
    assert_non_null(data);
    assert_int_equal((uintptr_t)data % 64, 0);
    FILE *f = fopen(TEST_EMBED_FILE, "rb");
    assert_non_null(f);
    unsigned char *file = malloc(size + 1);
    assert_int_equal(fread(file, 1, size + 1, f), size);
    fclose(f);
    assert_memory_equal(data, file, size);
    free(file);
    NnueNet net;
    char err[200];
    assert_true(nnue_net_parse(&net, data, size, err, sizeof err));
    assert_int_equal(net.hidden, 128);
    nnue_net_free(&net);
}

/* The engine's embedded net and the banner agree. */
static void test_engine_embedded(void **state) {
    (void)state;
    size_t size;
    uint32_t hash;
    const unsigned char *data = nnue_embedded_data(&size);
    if (!data) {
        assert_false(nnue_embedded_hash(&hash));
        assert_string_equal(nnue_banner(), "");
        return;
    }
    assert_true(nnue_embedded_hash(&hash));
    char want[32];
    snprintf(want, sizeof want, " nnue %08x", (unsigned)hash);
    assert_string_equal(nnue_banner(), want);
    assert_non_null(nnue_loaded());
    assert_int_equal(nnue_loaded()->hash, hash);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_bytes),
        cmocka_unit_test(test_engine_embedded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
