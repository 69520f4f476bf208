// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_probe.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egtb_file.h"
#include "egtb_index.h"
#include "egtb_sig.h"

int EgtbMaxPieces;

enum { FILE_WDL = EGTB_FILE_WDL, FILE_DTC = EGTB_FILE_DTC, FILE_DTM = EGTB_FILE_DTM, FILE_KINDS = 3 };
static const char *const Ext[FILE_KINDS] = {".lzw", ".lzdtc", ".lzdtm"};

typedef struct {
    EgtbLayout lay;
    char name[EGTB_NAME_MAX];
    bool has[FILE_KINDS];
    EgtbMap map[FILE_KINDS];
    EgtbFile file[FILE_KINDS];
} ProbeTable;

/* Tables by material: an open-addressed hash of material codes. */
enum { TABLES_MAX = 4096, LOOKUP_SIZE = 8192 };
static ProbeTable *Tables;
static int TableCount, WdlCount, DtcCount, DtmCount;
static uint64_t LookupCode[LOOKUP_SIZE]; /* 0: empty */
static int16_t LookupTable[LOOKUP_SIZE];

/*
 * Decoded blocks are cached in one table shared by the search threads: the
 * threads search the same tree, so a block one of them decoded serves all,
 * and memory stays fixed whatever the thread count. The cache is direct
 * mapped (a block has one slot, by hash), each slot behind its own mutex:
 * two threads contend only when they want the same slot at the same moment,
 * and a lookup costs a hash, a lock and a compare. A miss decodes the block
 * into the slot under its lock (an LZ4 block of 64 KiB takes tens of
 * microseconds). WDL, DTC and DTM have separate caches: WDL blocks (64 KiB)
 * are probed all through the search, DTC and DTM blocks (1 MiB of LZMA)
 * only at the root, so a few slots do for them, and a root probing both
 * does not evict one kind with the other.
 */
typedef struct {
    pthread_mutex_t lock;
    uint64_t key; /* table, side and block + 1; 0 = empty */
    uint8_t *data;
    EgtbLzmaWork *work; /* DTC and DTM slots: the LZMA decoder's models */
} CacheSlot;

typedef struct {
    int bits;
    CacheSlot *slot;
} Cache;

/* Slots per cache, as powers of two: 64 WDL blocks (4 MiB), 4 DTC and 4
 * DTM blocks (4 MiB each, allocated only when such a file is loaded). */
enum { WDL_CACHE_BITS = 6, DTC_CACHE_BITS = 2, DTM_CACHE_BITS = 2 };
static Cache Caches[FILE_KINDS];

static void cache_free(Cache *c) {
    for (int i = 0; c->slot && i < 1 << c->bits; i++) {
        pthread_mutex_destroy(&c->slot[i].lock);
        free(c->slot[i].data);
        free(c->slot[i].work);
    }
    free(c->slot);
    memset(c, 0, sizeof *c);
}

static bool cache_alloc(Cache *c, int bits, size_t block, bool lzma) {
    c->bits = bits;
    c->slot = calloc((size_t)1 << bits, sizeof *c->slot);
    if (!c->slot) return false;
    for (int i = 0; i < 1 << bits; i++) {
        CacheSlot *s = &c->slot[i];
        pthread_mutex_init(&s->lock, NULL);
        s->data = malloc(block);
        s->work = lzma ? malloc(sizeof *s->work) : NULL;
        if (!s->data || (lzma && !s->work)) return false;
    }
    return true;
}

/* Copy n bytes at offset `at` of block b of (table, side) into out,
 * decoding the block into its slot on a miss. */
static bool cache_read(int kind, int table, int side, uint32_t b, uint32_t at, uint8_t *out, int n) {
    const Cache *c = &Caches[kind];
    const EgtbFile *f = &Tables[table].file[kind];
    uint64_t key = ((uint64_t)table << 40 | (uint64_t)side << 32 | b) + 1;
    CacheSlot *s = &c->slot[(key * 0x9E3779B97F4A7C15ULL) >> (64 - c->bits)];
    bool ok = true;
    pthread_mutex_lock(&s->lock);
    if (s->key != key) {
        ok = egtb_file_block(f, &f->t[side], b, s->data, s->work);
        s->key = ok ? key : 0;
    }
    if (ok) memcpy(out, s->data + at, (size_t)n);
    pthread_mutex_unlock(&s->lock);
    return ok;
}

/* ---------------------------------------------------------------------- */
/* Material                                                                */

/* The material of a normalised signature as one number (a nibble per
 * count), never 0. */
static uint64_t material_code(const EgtbMaterial *m) {
    uint64_t code = 1;
    for (int c = 0; c < COLOR_NB; c++)
        for (int t = ADVISOR; t < TYPE_NB; t++) code = code << 4 | m->count[c][t];
    return code;
}

static unsigned lookup_slot(uint64_t code) { return (unsigned)((code * 0x9E3779B97F4A7C15ULL) >> 51) & (LOOKUP_SIZE - 1); }

static int lookup(uint64_t code) {
    for (unsigned i = lookup_slot(code);; i = (i + 1) & (LOOKUP_SIZE - 1)) {
        if (LookupCode[i] == code) return LookupTable[i];
        if (LookupCode[i] == 0) return -1;
    }
}

static void lookup_add(uint64_t code, int table) {
    unsigned i = lookup_slot(code);
    while (LookupCode[i] != 0) i = (i + 1) & (LOOKUP_SIZE - 1);
    LookupCode[i] = code;
    LookupTable[i] = (int16_t)table;
}

/* The table of pos, -1 if none; *draw when the material has no attacker. */
static int table_of(const Position *pos, bool *draw) {
    EgtbMaterial m;
    for (int c = 0; c < COLOR_NB; c++)
        for (int t = 0; t < TYPE_NB; t++)
            m.count[c][t] = t == NO_TYPE ? 0 : (uint8_t)bb_popcount(pos_pieces(pos, (Color)c, (PieceType)t));
    egtb_sig_normalise(&m);
    *draw = !egtb_sig_has_attackers(&m, RED) && !egtb_sig_has_attackers(&m, BLACK);
    if (*draw) return -1;
    if (m.count[RED][PAWN] + m.count[BLACK][PAWN] >= 2 && egtb_pawns_stacked(pos)) return -1;
    return lookup(material_code(&m));
}

/* ---------------------------------------------------------------------- */
/* Probes                                                                  */

/* The table, side and index of pos in a file of `kind`; false if none. */
static bool locate(const Position *pos, int kind, int *table, int *side, uint64_t *index, bool *draw) {
    *table = table_of(pos, draw);
    if (*table < 0 || !Tables[*table].has[kind]) return false;
    Color s;
    *index = egtb_index_of(&Tables[*table].lay, pos, &s);
    *side = (int)s;
    return *side < Tables[*table].file[kind].tables;
}

bool egtb_probe_wdl(const Position *pos, EgtbWdl *wdl) {
    int table, side;
    uint64_t index;
    bool draw;
    if (!locate(pos, FILE_WDL, &table, &side, &index, &draw)) {
        *wdl = EGTB_DRAW;
        return draw;
    }
    const EgtbFileTable *t = &Tables[table].file[FILE_WDL].t[side];
    uint8_t e = t->value;
    if (!t->singular) {
        uint64_t byte = index / 4;
        if (!cache_read(FILE_WDL, table, side, (uint32_t)(byte / t->block), (uint32_t)(byte % t->block), &e, 1))
            return false;
        e = (e >> (2 * (index % 4))) & 3;
    }
    if (e == XQ_WDL_ILLEGAL) return false;
    *wdl = e == XQ_WDL_WIN ? EGTB_WIN : e == XQ_WDL_LOSS ? EGTB_LOSS : EGTB_DRAW;
    return true;
}

bool egtb_probe_dtc(const Position *pos, EgtbDtc *dtc) {
    int table, side;
    uint64_t index;
    bool draw;
    dtc->v = 0;
    dtc->order = 0;
    if (!locate(pos, FILE_DTC, &table, &side, &index, &draw)) return draw;
    const EgtbFile *f = &Tables[table].file[FILE_DTC];
    const EgtbFileTable *t = &f->t[side];
    if (t->singular) return true;
    uint64_t byte = 2 * index;
    uint8_t e[2];
    if (!cache_read(FILE_DTC, table, side, (uint32_t)(byte / t->block), (uint32_t)(byte % t->block), e, 2))
        return false;
    uint16_t entry = (uint16_t)(e[0] | e[1] << 8);
    /* order-64 files: order in bits 10-15, v in 0-9; order-128 files: bit 9
     * adds 64 to the order and v has bits 0-8 */
    dtc->v = f->order128 ? entry & 0x1FF : entry & 0x3FF;
    dtc->order = (uint8_t)((entry >> 10) + (f->order128 && (entry & 0x200) ? 64 : 0));
    return true;
}

/* DTM entries (docs/egtb.md, "DTM files"): v in bits 0-10, the win flag
 * in bit 11, rule bits in 12-15. */
enum { DTM_SCORE = 0x7FF, DTM_WIN = 0x800, DTM_RULE_SHIFT = 12 };

bool egtb_probe_dtm(const Position *pos, EgtbDtm *dtm) {
    int table, side;
    uint64_t index;
    bool draw;
    memset(dtm, 0, sizeof *dtm);
    if (!locate(pos, FILE_DTM, &table, &side, &index, &draw)) return draw;
    const EgtbFile *f = &Tables[table].file[FILE_DTM];
    const EgtbFileTable *t = &f->t[side];
    if (t->singular) return true;
    uint64_t byte = 2 * index;
    uint8_t e[2];
    if (!cache_read(FILE_DTM, table, side, (uint32_t)(byte / t->block), (uint32_t)(byte % t->block), e, 2))
        return false;
    uint16_t entry = (uint16_t)(e[0] | e[1] << 8);
    /* Win or loss from the flag, never from the parity of v: both-sides
     * tables break the parity. */
    dtm->v = entry & DTM_SCORE;
    dtm->win = (entry & DTM_WIN) != 0;
    dtm->rule = (uint8_t)(entry >> DTM_RULE_SHIFT);
    return true;
}

/* ---------------------------------------------------------------------- */
/* Loading                                                                 */

int egtb_wdl_count(void) { return WdlCount; }
int egtb_dtc_count(void) { return DtcCount; }
int egtb_dtm_count(void) { return DtmCount; }

void egtb_unload(void) {
    for (int i = 0; i < TableCount; i++) {
        for (int k = 0; k < FILE_KINDS; k++) egtb_unmap_file(&Tables[i].map[k]);
        egtb_layout_free(&Tables[i].lay);
    }
    free(Tables);
    Tables = NULL;
    TableCount = WdlCount = DtcCount = DtmCount = EgtbMaxPieces = 0;
    memset(LookupCode, 0, sizeof LookupCode);
    for (int k = 0; k < FILE_KINDS; k++) cache_free(&Caches[k]);
}

static void report_line(EgtbReportFn report, void *ctx, bool error, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report_line(EgtbReportFn report, void *ctx, bool error, const char *fmt, ...) {
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (report) report(ctx, error, text);
}

/* The table of a signature, added (with its layout) on first sight; -1
 * with a report when it cannot be. */
static int table_for(const EgtbMaterial *mat, EgtbReportFn report, void *ctx) {
    int found = lookup(material_code(mat));
    if (found >= 0) return found;
    char name[EGTB_NAME_MAX];
    egtb_sig_name(mat, name);
    if (TableCount == TABLES_MAX) {
        report_line(report, ctx, true, "%s: more than %d tables; left out", name, TABLES_MAX);
        return -1;
    }
    ProbeTable *t = &Tables[TableCount];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    if (!egtb_layout_init(&t->lay, mat)) {
        report_line(report, ctx, true, "%s: piece groups too large to index; left out", name);
        return -1;
    }
    lookup_add(material_code(mat), TableCount);
    return TableCount++;
}

/* Map and check dir/file as a table of kind; reports a refusal. */
static void load_file(const char *dir, const char *file, int kind, const EgtbMaterial *mat, EgtbReportFn report,
                      void *ctx) {
    int i = table_for(mat, report, ctx);
    if (i < 0 || Tables[i].has[kind]) return; /* an earlier directory has it */
    ProbeTable *t = &Tables[i];
    char path[1200], why[400];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (!egtb_map_file(path, &t->map[kind], why, sizeof why)) {
        report_line(report, ctx, true, "%s; left out", why);
        return;
    }
    if (!egtb_file_parse(&t->file[kind], (EgtbFileKind)kind, &t->lay, t->map[kind].data, t->map[kind].size, why,
                         sizeof why)) {
        report_line(report, ctx, true, "%s: %s; left out", path, why);
        egtb_unmap_file(&t->map[kind]);
        return;
    }
    t->has[kind] = true;
}

/* The signature a file name stands for, if it is a table file's name. */
static bool table_file_name(const char *file, int *kind, EgtbMaterial *mat) {
    size_t n = strlen(file);
    for (int k = 0; k < FILE_KINDS; k++) {
        size_t e = strlen(Ext[k]);
        char stem[EGTB_NAME_MAX + 1], err[200];
        if (n <= e || n - e > EGTB_NAME_MAX || strcmp(file + n - e, Ext[k])) continue;
        memcpy(stem, file, n - e);
        stem[n - e] = '\0';
        if (!egtb_sig_parse(mat, stem, err, sizeof err)) return false;
        *kind = k;
        return true;
    }
    return false;
}

static void load_dir(const char *dir, EgtbReportFn report, void *ctx) {
    DIR *d = opendir(dir);
    if (!d) {
        report_line(report, ctx, true, "cannot open directory %s: %s", dir, strerror(errno));
        return;
    }
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        int kind;
        EgtbMaterial mat;
        if (table_file_name(ent->d_name, &kind, &mat)) load_file(dir, ent->d_name, kind, &mat, report, ctx);
    }
    closedir(d);
}

/* Largest block of the loaded files of kind (0: none to cache). */
static size_t largest_block(int kind) {
    size_t most = 0;
    for (int i = 0; i < TableCount; i++)
        for (int c = 0; Tables[i].has[kind] && c < Tables[i].file[kind].tables; c++)
            if (!Tables[i].file[kind].t[c].singular && Tables[i].file[kind].t[c].block > most)
                most = Tables[i].file[kind].t[c].block;
    return most;
}

int egtb_load(const char *paths, EgtbReportFn report, void *ctx) {
    egtb_unload();
    if (!paths || !*paths) return 0;
    Tables = calloc(TABLES_MAX, sizeof *Tables);
    if (!Tables) {
        report_line(report, ctx, true, "out of memory for the table list");
        return 0;
    }
    char list[4096];
    snprintf(list, sizeof list, "%s", paths);
    char *save = NULL;
    for (char *dir = strtok_r(list, ";", &save); dir; dir = strtok_r(NULL, ";", &save))
        if (*dir) load_dir(dir, report, ctx);
    for (int i = 0; i < TableCount; i++) {
        const ProbeTable *t = &Tables[i];
        if (!t->has[FILE_WDL] && !t->has[FILE_DTC] && !t->has[FILE_DTM]) continue;
        WdlCount += t->has[FILE_WDL];
        DtcCount += t->has[FILE_DTC];
        DtmCount += t->has[FILE_DTM];
        int pieces = egtb_sig_piece_count(&t->lay.mat);
        if (t->has[FILE_WDL] && pieces > EgtbMaxPieces) EgtbMaxPieces = pieces;
    }
    static const int CacheBits[FILE_KINDS] = {WDL_CACHE_BITS, DTC_CACHE_BITS, DTM_CACHE_BITS};
    for (int k = 0; k < FILE_KINDS; k++) {
        size_t block = largest_block(k);
        if (block && !cache_alloc(&Caches[k], CacheBits[k], block, k != FILE_WDL)) {
            report_line(report, ctx, true, "out of memory for the table caches; no tables loaded");
            egtb_unload();
            return 0;
        }
    }
    if (WdlCount + DtcCount + DtmCount == 0)
        report_line(report, ctx, false, "no endgame tables found in %s", paths);
    else
        report_line(report, ctx, false,
                    "endgame tables: %d with WDL, %d with DTC, %d with DTM, up to %d pieces besides the kings",
                    WdlCount, DtcCount, DtmCount, EgtbMaxPieces);
    return WdlCount;
}
