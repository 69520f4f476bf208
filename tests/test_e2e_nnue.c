// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end, NNUE options: UCI EvalFile / UseNNUE and UCCI evalfile /
 * usennue on the built binary. A missing, truncated or wrong-architecture
 * file gets one error line and the net in use stays; `eval` shows the
 * network's output, `eval classical` the hand-crafted terms. */
#include "test_support.h"

#include <stdlib.h>

#include "engine_proc.h"
#include "nnue_testnet.h"

static int T5s;

typedef struct {
    char good[64], other[64], truncated[64], wrong[64];
    uint32_t good_hash, other_hash;
} Files;

static Files F;

static uint32_t header_hash(const TestNet *n) {
    const unsigned char *p = n->bytes + 36;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int setup(void **state) {
    (void)state;
    TestNet a = testnet_make(NNUE_FS_KING_BUCKETS, 128, 8, 1), b = testnet_make(NNUE_FS_PLAIN, 128, 1, 2);
    F.good_hash = header_hash(&a);
    F.other_hash = header_hash(&b);
    testnet_write(a.bytes, a.size, F.good);
    testnet_write(b.bytes, b.size, F.other);
    testnet_write(a.bytes, a.size - 100, F.truncated);
    testnet_u32(b.bytes + 16, 96); /* 96 units: not an architecture the engine runs */
    testnet_write(b.bytes, b.size, F.wrong);
    free(a.bytes);
    free(b.bytes);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    remove(F.good);
    remove(F.other);
    remove(F.truncated);
    remove(F.wrong);
    return 0;
}

/* `eval` names the net in use (by hash), or says the hand-crafted one is. */
static void expect_eval_uses(Engine *e, const char *prefix, uint32_t hash) {
    char want[128], line[ENG_LINE];
    eng_send(e, "eval");
    if (hash) {
        snprintf(want, sizeof want, "%sNNUE network %08x", prefix, (unsigned)hash);
        eng_expect(e, want, T5s, NULL, 0);
        snprintf(want, sizeof want, "%sevaluate() ", prefix);
        eng_expect(e, want, T5s, line, sizeof line);
        assert_non_null(strstr(line, "NNUE"));
    } else {
        snprintf(want, sizeof want, "%sevaluate() ", prefix);
        eng_expect(e, want, T5s, line, sizeof line);
        assert_non_null(strstr(line, "classical"));
    }
    eng_sync(e);
}

static void test_uci(void **state) {
    (void)state;
    Engine e;
    eng_start(&e);
    eng_send(&e, "uci");
    eng_expect(&e, "option name EvalFile type string default <embedded>", T5s, NULL, 0);
    eng_expect(&e, "option name UseNNUE type check default true", T5s, NULL, 0);
    eng_expect(&e, "uciok", T5s, NULL, 0);
    const char *p = "info string ";
    /* This build may embed a net or not; start from a known one. */
    eng_send(&e, "setoption name EvalFile value %s", F.good);
    eng_expect(&e, "info string loaded network ", T5s, NULL, 0);
    expect_eval_uses(&e, p, F.good_hash);

    static const char *const Why[] = {"cannot open", "truncated", "accumulator size"};
    const char *bad[] = {"/nonexistent/tuong.nnue", F.truncated, F.wrong};
    for (int i = 0; i < 3; i++) {
        eng_send(&e, "setoption name EvalFile value %s", bad[i]);
        char line[ENG_LINE];
        eng_expect(&e, "info string error: option EvalFile: ", T5s, line, sizeof line);
        if (!strstr(line, Why[i])) fail_msg("expected '%s' in: %s", Why[i], line);
        assert_int_equal(eng_count_until_ready(&e, "info string error", T5s), 0);
        expect_eval_uses(&e, p, F.good_hash);
    }
    eng_send(&e, "setoption name UseNNUE value false");
    eng_expect(&e, "info string evaluating with the hand-crafted evaluation", T5s, NULL, 0);
    expect_eval_uses(&e, p, 0);
    eng_send(&e, "setoption name EvalFile value %s", F.other); /* loads, still switched off */
    eng_expect(&e, "info string loaded the hand-crafted evaluation (UseNNUE is off", T5s, NULL, 0);
    expect_eval_uses(&e, p, 0);
    eng_send(&e, "setoption name UseNNUE value true");
    eng_expect(&e, "info string evaluating with network ", T5s, NULL, 0);
    expect_eval_uses(&e, p, F.other_hash);
    eng_send(&e, "eval classical");
    eng_expect(&e, "info string NNUE network", T5s, NULL, 0);
    eng_expect(&e, "info string term ", T5s, NULL, 0);
    eng_expect(&e, "info string Material ", T5s, NULL, 0);
    eng_sync(&e);
    eng_send(&e, "position startpos moves h2e2 h9g7");
    eng_send(&e, "go depth 4");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_ucci(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    const char *p = "info message ";
    eng_send(&e, "setoption evalfile %s", F.good);
    eng_expect(&e, "info message loaded network ", T5s, NULL, 0);
    expect_eval_uses(&e, p, F.good_hash);
    eng_send(&e, "setoption evalfile %s", F.wrong);
    eng_expect(&e, "info message error: option EvalFile: ", T5s, NULL, 0);
    expect_eval_uses(&e, p, F.good_hash);
    eng_send(&e, "setoption usennue false");
    eng_expect(&e, "info message evaluating with the hand-crafted", T5s, NULL, 0);
    expect_eval_uses(&e, p, 0);
    eng_send(&e, "setoption usennue true");
    eng_expect(&e, "info message evaluating with network", T5s, NULL, 0);
    eng_send(&e, "position startpos");
    eng_send(&e, "go depth 0");
    eng_expect(&e, "info depth 0 score ", T5s, NULL, 0);
    eng_expect(&e, "nobestmove", T5s, NULL, 0);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    eng_finish(&e);
}

int main(void) {
    T5s = eng_slow(5000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uci),
        cmocka_unit_test(test_ucci),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
