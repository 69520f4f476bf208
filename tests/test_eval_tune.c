// SPDX-License-Identifier: GPL-3.0-or-later
/* The tuner end to end (bench/tune/pipeline_test.sh): its writer
 * reproduces engine/eval_weights.c, seeded self-play is reproducible, PGN
 * converts to labelled positions, and a few tuning steps write weights. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static void test_tune_pipeline(void **state) {
    (void)state;
    char root[1024], cmd[4096], tool[1200];
    snprintf(root, sizeof root, "%s", __FILE__);
    char *cut = strstr(root, "/tests/test_eval_tune.c");
    if (!cut) skip();
    *cut = 0;
    snprintf(tool, sizeof tool, "%s/tuong-tune", TUONG_BUILD_DIR);
    if (access(tool, X_OK) != 0) fail_msg("%s not built", tool);
    snprintf(cmd, sizeof cmd, "sh %s/bench/tune/pipeline_test.sh %s %s/engine/eval_weights.c %s/tune-pipeline", root,
             tool, root, TUONG_BUILD_DIR);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_tune_pipeline)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
