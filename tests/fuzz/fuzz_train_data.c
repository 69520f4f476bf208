// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the trainer's data reader (bench/nnue/train_data.h): the file itself
 * and the FILE@FIRST:END range of --data. The first byte picks the form:
 * even, the bytes up to the first newline (at most 40) become the text
 * after '@'; odd, the file is named as it is. The rest is the file. A load
 * that fails must say why and leave the data empty; one that succeeds holds
 * no more records than the file, each of them the file's own bytes. */
#include <unistd.h>

#include "fuzz_common.h"
#include "train_data.h"

enum { SPEC_MAX = 40, FILE_MAX = 1 << 16 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FILE_MAX) return 0;
    bool ranged = !(data[0] & 1);
    size_t at = 1, spec_len = 0;
    if (ranged) {
        while (at + spec_len < size && spec_len < SPEC_MAX && data[at + spec_len] != '\n')
            spec_len++;
        at += spec_len + (at + spec_len < size);
    }
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz-train-data-%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    size_t file_size = size - at;
    FUZZ_CHECK(fwrite(data + at, 1, file_size, f) == file_size);
    fclose(f);

    char spec[sizeof path + SPEC_MAX + 2], err[300];
    snprintf(spec, sizeof spec, "%s", path);
    if (ranged) {
        size_t n = strlen(spec);
        spec[n++] = '@';
        for (size_t i = 0; i < spec_len; i++)
            spec[n++] = data[1 + i] ? (char)data[1 + i] : '0';
        spec[n] = '\0';
    }
    TrainData d = {0};
    err[0] = '\0';
    bool ok = train_data_load_spec(&d, spec, data[0] >> 5, err, sizeof err);
    if (!ok) {
        FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err) != NULL);
        FUZZ_CHECK(d.count == 0);
    } else {
        size_t records = file_size < TRAIN_HEADER_SIZE ? 0 : (file_size - TRAIN_HEADER_SIZE) / TRAIN_RECORD_SIZE;
        FUZZ_CHECK(d.count <= records);
        for (size_t i = 0; i < d.count; i++) {
            const unsigned char *rec = train_record(&d, i);
            bool found = false;
            for (size_t k = 0; k < records && !found; k++)
                found = !memcmp(rec, data + at + TRAIN_HEADER_SIZE + k * TRAIN_RECORD_SIZE, TRAIN_RECORD_SIZE);
            FUZZ_CHECK(found);
        }
    }
    train_data_free(&d);
    remove(path);
    return 0;
}
