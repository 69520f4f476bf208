// SPDX-License-Identifier: GPL-3.0-or-later
/* The training data format (bench/nnue/datafile.h, docs/nnue.md): the
 * exact bytes of a known record, pack/unpack round trips over random games,
 * and files that must be refused (truncated, foreign, wrong version). */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datafile.h"
#include "fen.h"
#include "movegen.h"

static Position Pos, Back;

static uint64_t rng_state = 0x1234567;

static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A path in the build tree for this test's files, removed first. */
static const char *scratch(const char *name) {
    static char path[1024];
    snprintf(path, sizeof path, "%s/test_nnue_data.%s", TUONG_BUILD_DIR, name);
    remove(path);
    return path;
}

static void write_bytes(const char *path, const void *bytes, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static long size_of(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* The start position, score -123, a win, ply 300, byte for byte as the
 * format says (computed by hand, independently of the writer). */
static void start_position_bytes(void **state) {
    (void)state;
    static const uint8_t Expected[DATAFILE_RECORD_SIZE] = {
        0xff, 0x01, 0x08, 0xaa, 0x0a, 0x00, 0x40, 0x55, 0x41, 0x00, 0xfe, 0x03, /* occupancy */
        0x45, 0x23, 0x21, 0x43, 0x65, 0x76, 0x77, 0x77,                         /* red pieces */
        0xff, 0xff, 0xef, 0xde, 0xbc, 0x9a, 0xba, 0xdc,                         /* black pieces */
        0x85, 0xff, 0x02, 0x00, 0x2c, 0x01, 0x00, 0x00};
    must_parse(&Pos, START_FEN);
    DataRecord rec;
    assert_true(datafile_pack(&Pos, -123, DATA_WIN, 300, &rec));
    assert_memory_equal(rec.b, Expected, DATAFILE_RECORD_SIZE);
    uint8_t header[DATAFILE_HEADER_SIZE];
    datafile_header(header);
    assert_memory_equal(header, "TNGDATA1\x24\0\0\0\0\0\0\0", DATAFILE_HEADER_SIZE);
}

/* Pack pos with a random label, unpack, and compare every field. */
static void round_trip(const Position *pos, bool seen[PIECE_NB], int sides[COLOR_NB]) {
    int score = (int)(next_random() % 65536) - 32768, ply = (int)(next_random() % 65536);
    DataResult result = (DataResult)(next_random() % 3);
    DataRecord rec;
    DataEntry e;
    char err[200] = "";
    assert_true(datafile_pack(pos, score, result, ply, &rec));
    if (!datafile_unpack(&rec, &e, err, sizeof err)) fail_msg("unpack: %s", err);
    assert_memory_equal(e.board, pos->board, sizeof e.board);
    assert_int_equal(e.piece_count, bb_popcount(pos->occ));
    assert_int_equal(e.side, pos->side);
    assert_int_equal(e.score, score);
    assert_int_equal(e.result, result);
    assert_int_equal(e.ply, ply);
    if (!datafile_to_position(&e, &Back, err, sizeof err)) fail_msg("position: %s", err);
    assert_true(pos_key(&Back) == pos_key(pos));
    assert_int_equal(pos_in_check(&Back), pos_in_check(pos));
    for (Square s = 0; s < SQUARE_NB; s++)
        seen[pos->board[s]] = true;
    sides[pos->side]++;
}

static void round_trip_random_games(void **state) {
    (void)state;
    bool seen[PIECE_NB] = {false};
    int sides[COLOR_NB] = {0, 0}, positions = 0;
    for (int game = 0; game < 200; game++) {
        must_parse(&Pos, START_FEN);
        for (int ply = 0; ply < 300; ply++) {
            round_trip(&Pos, seen, sides);
            positions++;
            MoveList list;
            gen_legal(&Pos, &list);
            if (list.count == 0) break;
            pos_make_move(&Pos, list.moves[next_random() % (uint64_t)list.count]);
        }
    }
    for (Color c = RED; c <= BLACK; c++)
        for (PieceType t = KING; t <= PAWN; t++)
            assert_true(seen[make_piece(c, t)]);
    assert_true(sides[RED] > positions / 3 && sides[BLACK] > positions / 3);
}

/* A bare board (two kings) packs too, and fields out of range do not. */
static void extremes(void **state) {
    (void)state;
    must_parse(&Pos, "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    DataRecord rec;
    DataEntry e;
    char err[200];
    assert_true(datafile_pack(&Pos, INT16_MIN, DATA_LOSS, UINT16_MAX, &rec));
    assert_true(datafile_unpack(&rec, &e, err, sizeof err));
    assert_int_equal(e.piece_count, 2);
    assert_int_equal(e.score, INT16_MIN);
    assert_int_equal(e.ply, UINT16_MAX);
    assert_int_equal(e.side, BLACK);
    assert_false(datafile_pack(&Pos, INT16_MAX + 1, DATA_DRAW, 0, &rec));
    assert_false(datafile_pack(&Pos, 0, DATA_RESULT_NB, 0, &rec));
    assert_false(datafile_pack(&Pos, 0, DATA_DRAW, UINT16_MAX + 1, &rec));
    assert_false(datafile_pack(&Pos, 0, DATA_DRAW, -1, &rec));
}

/* Each kind of damage to a good record is caught by unpack. */
static void malformed_records(void **state) {
    (void)state;
    must_parse(&Pos, START_FEN);
    DataRecord good, bad;
    DataEntry e;
    char err[200];
    assert_true(datafile_pack(&Pos, 10, DATA_DRAW, 0, &good));
    const struct {
        int byte;
        uint8_t value;
    } damage[] = {
        {11, (uint8_t)(good.b[11] | 0x04)}, /* point 90 */
        {12, 0x48},                         /* piece code 8 */
        {12, 0x40},                         /* piece code 0 */
        {30, 3},                            /* result */
        {31, 2},                            /* side */
        {34, 1},                            /* reserved */
        {35, 1},
    };
    for (size_t i = 0; i < sizeof damage / sizeof *damage; i++) {
        bad = good;
        bad.b[damage[i].byte] = damage[i].value;
        assert_false(datafile_unpack(&bad, &e, err, sizeof err));
    }
    /* A nibble set past the last piece: drop the last black chariot. */
    bad = good;
    bad.b[89 / 8] &= (uint8_t) ~(1u << (89 % 8));
    assert_false(datafile_unpack(&bad, &e, err, sizeof err));
    /* Structurally fine but no red king: the position check refuses it. */
    must_parse(&Pos, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_true(datafile_pack(&Pos, 0, DATA_DRAW, 0, &bad));
    bad.b[DATAFILE_PIECE_OFFSET] = 0x09 | 0x90; /* both kings black */
    assert_true(datafile_unpack(&bad, &e, err, sizeof err));
    assert_false(datafile_to_position(&e, &Back, err, sizeof err));
}

static void write_and_read_back(void **state) {
    (void)state;
    const char *path = scratch("roundtrip");
    enum { N = 500 };
    static DataRecord written[N], read[N + 1];
    must_parse(&Pos, START_FEN);
    for (int i = 0; i < N; i++) {
        MoveList list;
        gen_legal(&Pos, &list);
        if (list.count == 0)
            must_parse(&Pos, START_FEN);
        else
            pos_make_move(&Pos, list.moves[next_random() % (uint64_t)list.count]);
        assert_true(datafile_pack(&Pos, i - N / 2, (DataResult)(i % 3), i, &written[i]));
    }
    char err[600] = "";
    uint64_t count = 99;
    for (int part = 0; part < 2; part++) { /* create, then append */
        FILE *f = datafile_open_append(path, &count, err, sizeof err);
        if (!f) fail_msg("%s", err);
        assert_int_equal(count, part * (N / 2));
        assert_true(datafile_write(f, written + part * (N / 2), N / 2));
        assert_int_equal(fclose(f), 0);
    }
    assert_int_equal(size_of(path), DATAFILE_HEADER_SIZE + N * DATAFILE_RECORD_SIZE);
    FILE *f = datafile_open_read(path, &count, err, sizeof err);
    if (!f) fail_msg("%s", err);
    assert_int_equal(count, N);
    assert_int_equal(datafile_read(f, read, N + 1), N);
    fclose(f);
    assert_memory_equal(read, written, sizeof written);
    remove(path);
}

/* Open a file that must be refused, for reading and for appending, with
 * `why` in the message; appending must leave it untouched. */
static void expect_refused(const char *path, const char *why) {
    char err[600] = "";
    uint64_t count;
    long before = size_of(path);
    assert_null(datafile_open_read(path, &count, err, sizeof err));
    if (!strstr(err, why)) fail_msg("reading %s: '%s' lacks '%s'", path, err, why);
    err[0] = 0;
    assert_null(datafile_open_append(path, &count, err, sizeof err));
    if (!strstr(err, why)) fail_msg("appending %s: '%s' lacks '%s'", path, err, why);
    assert_int_equal(size_of(path), before);
}

static void refuses_truncated_and_foreign_files(void **state) {
    (void)state;
    uint8_t bytes[DATAFILE_HEADER_SIZE + 3 * DATAFILE_RECORD_SIZE];
    memset(bytes, 0, sizeof bytes);
    datafile_header(bytes);
    const char *path = scratch("bad");
    write_bytes(path, bytes, sizeof bytes - 5); /* a partial last record */
    expect_refused(path, "truncated");
    write_bytes(path, bytes, 10); /* a partial header */
    expect_refused(path, "truncated");
    const char *fen = START_FEN "\n";
    write_bytes(path, fen, strlen(fen));
    expect_refused(path, "not a Tuong training data file");
    bytes[8] = 40; /* another record size */
    write_bytes(path, bytes, DATAFILE_HEADER_SIZE + 40);
    expect_refused(path, "record size 40");
    bytes[8] = DATAFILE_RECORD_SIZE;
    bytes[12] = 1; /* reserved */
    write_bytes(path, bytes, sizeof bytes);
    expect_refused(path, "reserved");
    char err[600];
    uint64_t count;
    write_bytes(path, "", 0); /* an empty file gets a header when appended to */
    assert_null(datafile_open_read(path, &count, err, sizeof err));
    FILE *f = datafile_open_append(path, &count, err, sizeof err);
    assert_non_null(f);
    fclose(f);
    assert_int_equal(size_of(path), DATAFILE_HEADER_SIZE);
    remove(path);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start_position_bytes),
        cmocka_unit_test(round_trip_random_games),
        cmocka_unit_test(extremes),
        cmocka_unit_test(malformed_records),
        cmocka_unit_test(write_and_read_back),
        cmocka_unit_test(refuses_truncated_and_foreign_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
