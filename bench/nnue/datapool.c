// SPDX-License-Identifier: GPL-3.0-or-later
/* The data pool's directory and manifest on disk (datapool.h). */
#include "datapool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nnue/nnue.h"

enum { HASH_CHUNK = 1 << 20, MANIFEST_MAX_BYTES = 64 << 20 };

static const char LockName[] = ".manifest.lock";

static bool failf(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* ---------------------------------------------------------------------- */
/* The directory                                                           */

bool datapool_dir(const char *flag, char *dir, size_t cap, char *err, size_t errlen) {
    const char *env = getenv("TUONG_DATA_DIR"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (flag && *flag)
        n = snprintf(dir, cap, "%s", flag);
    else if (env && *env)
        n = snprintf(dir, cap, "%s", env);
    else if (xdg && *xdg == '/') /* the XDG spec ignores a relative XDG_DATA_HOME */
        n = snprintf(dir, cap, "%s/tuong/data", xdg);
    else if (home && *home)
        n = snprintf(dir, cap, "%s/.local/share/tuong/data", home);
    else
        return failf(err, errlen, "no pool directory: give --pool DIR or set TUONG_DATA_DIR (HOME is not set)");
    if (n < 0 || (size_t)n >= cap) return failf(err, errlen, "the pool directory's path is too long");
    return true;
}

bool datapool_make_dir(const char *dir, char *err, size_t errlen) {
    char path[DATAPOOL_PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return failf(err, errlen, "%s: path too long", dir);
    for (char *p = path + 1;; p++) {
        bool end = *p == '\0';
        if (*p != '/' && !end) continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return failf(err, errlen, "%s: cannot create the pool directory: %s", path, strerror(errno));
        if (end) break;
        *p = '/';
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return failf(err, errlen, "%s: not a directory", dir);
    return true;
}

bool datapool_path(const char *dir, const char *name, char *path, size_t cap) {
    int n = snprintf(path, cap, "%s/%s", dir, name);
    return n > 0 && (size_t)n < cap;
}

bool datapool_holds(const char *dir, const char *path, char *name, size_t cap) {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char parent[DATAPOOL_PATH_MAX];
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == path)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - path), path);
    struct stat a, b;
    if (!*base || stat(parent, &a) != 0 || stat(dir, &b) != 0) return false;
    if (a.st_dev != b.st_dev || a.st_ino != b.st_ino) return false;
    return snprintf(name, cap, "%s", base) < (int)cap;
}

/* ---------------------------------------------------------------------- */
/* The manifest on disk                                                    */

bool datapool_load(const char *dir, Manifest *m, char *err, size_t errlen) {
    char path[DATAPOOL_PATH_MAX], why[400];
    *m = (Manifest){0};
    if (!datapool_path(dir, MANIFEST_NAME, path, sizeof path)) return failf(err, errlen, "%s: path too long", dir);
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT || failf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    char *text = malloc(MANIFEST_MAX_BYTES);
    size_t n = text ? fread(text, 1, MANIFEST_MAX_BYTES, f) : 0;
    bool ok = text && !ferror(f) && n < MANIFEST_MAX_BYTES;
    fclose(f);
    if (!ok) {
        free(text);
        return failf(err, errlen, "%s: cannot read it (or larger than %d MB)", path, MANIFEST_MAX_BYTES >> 20);
    }
    ok = manifest_parse(m, text, n, why, sizeof why);
    free(text);
    if (!ok) {
        manifest_free(m);
        return failf(err, errlen, "%s: %s", path, why);
    }
    return true;
}

/* Write m to a new file and rename it over DIR/manifest.tsv. */
static bool save(const char *dir, const Manifest *m, char *err, size_t errlen) {
    char path[DATAPOOL_PATH_MAX], tmp[DATAPOOL_PATH_MAX + 32];
    datapool_path(dir, MANIFEST_NAME, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    size_t len;
    char *text = manifest_format(m, &len);
    if (!text) return failf(err, errlen, "out of memory");
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    free(text);
    if (ok && rename(tmp, path) == 0) return true;
    int e = errno;
    remove(tmp);
    return failf(err, errlen, "%s: cannot write: %s", path, strerror(e));
}

bool datapool_record(const char *dir, const ManifestEntry *e, char *err, size_t errlen) {
    char lock[DATAPOOL_PATH_MAX];
    if (!datapool_path(dir, LockName, lock, sizeof lock)) return failf(err, errlen, "%s: path too long", dir);
    if (!manifest_entry_check(e, err, errlen)) return false;
    int fd = open(lock, O_RDWR | O_CREAT, 0644);
    if (fd < 0) return failf(err, errlen, "%s: cannot open: %s", lock, strerror(errno));
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            close(fd);
            return failf(err, errlen, "%s: cannot lock: %s", lock, strerror(errno));
        }
    Manifest m;
    bool ok = datapool_load(dir, &m, err, errlen);
    if (ok && !manifest_put(&m, e)) ok = failf(err, errlen, "out of memory");
    if (ok) ok = save(dir, &m, err, errlen);
    manifest_free(&m);
    close(fd); /* and with it the lock */
    return ok;
}

/* ---------------------------------------------------------------------- */
/* Facts for the manifest                                                  */

bool datapool_hash_file(const char *path, uint64_t bytes, Sha256 *s, uint64_t *size, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) return failf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    unsigned char *buf = malloc(HASH_CHUNK);
    if (!buf) {
        fclose(f);
        return failf(err, errlen, "out of memory");
    }
    sha256_init(s);
    *size = 0;
    while (*size < bytes) {
        size_t want = bytes - *size < HASH_CHUNK ? (size_t)(bytes - *size) : HASH_CHUNK;
        size_t n = fread(buf, 1, want, f);
        sha256_update(s, buf, n);
        *size += n;
        if (n < want) break;
    }
    bool ok = !ferror(f);
    free(buf);
    fclose(f);
    return ok || failf(err, errlen, "%s: read failed", path);
}

void datapool_now(char date[MANIFEST_DATE_SIZE]) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, MANIFEST_DATE_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void datapool_net_name(char net[MANIFEST_TOKEN_MAX]) {
    if (nnue_active())
        snprintf(net, MANIFEST_TOKEN_MAX, "%08x", (unsigned)NnueInUse->hash);
    else
        snprintf(net, MANIFEST_TOKEN_MAX, "none");
}

bool datapool_use_net(const char *path, char *err, size_t errlen) {
    char why[400];
    if (nnue_load_file(path, why, sizeof why)) return true;
    return failf(err, errlen, "--evalfile %s: %s", path, why);
}

bool datapool_file_tag(const char *path, char *tag, size_t cap, char *err, size_t errlen) {
    Sha256 s;
    uint64_t size;
    char hex[SHA256_HEX_SIZE];
    if (!datapool_hash_file(path, UINT64_MAX, &s, &size, err, errlen)) return false;
    sha256_hex(&s, hex);
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    int n = snprintf(tag, cap, "%s@%.8s", base, hex);
    if (n < 0 || (size_t)n >= cap) return failf(err, errlen, "%s: the name is too long for the manifest", path);
    for (char *p = tag; *p; p++)
        if (*p < 0x21 || *p > 0x7e || *p == ',') *p = '_'; /* a token of the manifest */
    return true;
}
