/*
 * src/connectors/darshan_writer.c - writes Darshan logs in format 3.41,
 * the newest darshan 3.5.0 writes, with every record in the layout
 * darshan-util 3.5.0 calls current.  Facts come from darshan-util 3.5.0
 * as the fact sheet ../shared/notes/darshan-log-format.md beside the
 * project sums it up (cited as §N; §15 lists what a writer must do).
 * pytokio has no writer; this exists for our own fixtures, sample data,
 * fuzz seeds and benchmarks, and to write back a log the reader
 * (darshan.c) opened.
 *
 * Each region is written as one compressed stream, as darshan-logutils'
 * own writer does (§4); the runtime's one-stream-per-rank regions read
 * the same.  Values are written in this machine's byte order, as the
 * runtime does (§3.3: readers detect the order from the magic number).
 *
 * Records are serialized when added, so a writer holds each module's
 * region once, uncompressed; compression happens at write time.
 */
#include "tokio/connectors/darshan_writer.h"

#include <bzlib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/output.h"

/* §3.2: the 3.41 header. */
#define VERSION_STRING      "3.41"
#define VERSION_LEN         8
#define MAGIC_NR            INT64_C(6567223)
#define HEADER_SIZE         1328
#define HDR_COMP_OFF        16
#define HDR_PARTIAL_OFF     24
#define HDR_NAME_MAP_OFF    32
#define HDR_MOD_MAP_OFF     48
#define HDR_MOD_VER_OFF     1072

/* §5: the 3.41 job struct, and darshan-util's 4096-byte job buffer of
 * which the trailer (exe, mounts, NUL) may use what the struct leaves. */
#define JOB_STRUCT_SIZE     1080
#define JOB_METADATA_OFF    56
#define JOB_METADATA_LEN    1024
#define JOB_RECORD_SIZE     4096
#define JOB_TRAILER_MAX     (JOB_RECORD_SIZE - JOB_STRUCT_SIZE - 1)

/* §7-8: on-disk pieces. */
#define BASE_SIZE           16          /* uint64 id, int64 rank */
#define LUSTRE_POOL_LEN     16
#define LUSTRE_COMP_INTS    7
#define DXT_HOSTNAME_LEN    64
#define UUID_LEN            16

/* §6: lookup8's golden-ratio initial value of c. */
#define LOOKUP8_GOLDEN      UINT64_C(0x9e3779b97f4a7c13)

/* bzip2 block size darshan-convert uses (§4: "BZh9"). */
#define BZIP2_BLOCK         9

enum wkind { W_NONE, W_FIXED, W_LUSTRE, W_DXT };

/*
 * What this writer writes per module: the record version (current in
 * darshan-util 3.5.0 per §7, except DXT, where §15 asks for the versions
 * released 3.5.0 tools read) and the fixed layout's parts in disk order:
 * base, [file_rec_id], the counters, the fcounters (the reader's lists),
 * [pool+cont uuid], [oid hi, lo].
 */
static const struct wmod {
    enum wkind kind;
    unsigned ver;
    int file_rec, uuids, oid;
} wmods[TOKIO_DARSHAN_KNOWN_MODULES] = {
    [TOKIO_DARSHAN_POSIX] = { W_FIXED, 4, 0, 0, 0 },
    [TOKIO_DARSHAN_MPIIO] = { W_FIXED, 3, 0, 0, 0 },
    [TOKIO_DARSHAN_H5F] = { W_FIXED, 3, 0, 0, 0 },
    [TOKIO_DARSHAN_H5D] = { W_FIXED, 2, 1, 0, 0 },
    [TOKIO_DARSHAN_PNETCDF_FILE] = { W_FIXED, 3, 0, 0, 0 },
    [TOKIO_DARSHAN_PNETCDF_VAR] = { W_FIXED, 1, 1, 0, 0 },
    [TOKIO_DARSHAN_BGQ] = { W_FIXED, 2, 0, 0, 0 },
    [TOKIO_DARSHAN_LUSTRE] = { W_LUSTRE, 2, 0, 0, 0 },
    [TOKIO_DARSHAN_STDIO] = { W_FIXED, 2, 0, 0, 0 },
    [TOKIO_DARSHAN_DXT_POSIX] = { W_DXT, 1, 0, 0, 0 },
    [TOKIO_DARSHAN_DXT_MPIIO] = { W_DXT, 2, 0, 0, 0 },
    [TOKIO_DARSHAN_DFS] = { W_FIXED, 1, 0, 1, 0 },
    [TOKIO_DARSHAN_DAOS] = { W_FIXED, 1, 0, 1, 1 },
};

/* A growable byte buffer. */
struct wbuf {
    unsigned char *data;
    size_t len, cap;
};

struct tokio_darshan_writer {
    int comp;
    uint64_t partial;
    int64_t nprocs;
    struct wbuf job;            /* uncompressed regions */
    struct wbuf names;
    struct wbuf mods[TOKIO_DARSHAN_MAX_MODULES];
};

/* ---- buffers -------------------------------------------------------- */

static int
wb_reserve(struct wbuf *b, size_t more)
{
    if (more <= b->cap - b->len)
        return TOKIO_OK;
    if (more > SIZE_MAX / 2 - b->len)
        return tokio__error(TOKIO_ENOMEM, "darshan writer: region too "
                            "large");
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < more)
        cap *= 2;
    unsigned char *d = tokio__realloc(b->data, cap);
    if (d == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory building a darshan "
                            "log");
    b->data = d;
    b->cap = cap;
    return TOKIO_OK;
}

/* Callers reserve first, so the puts cannot fail. */
static void
put_bytes(struct wbuf *b, const void *p, size_t n)
{
    if (n > 0)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void
put_u64(struct wbuf *b, uint64_t v)
{
    put_bytes(b, &v, sizeof(v));
}

static void
put_i64(struct wbuf *b, int64_t v)
{
    put_bytes(b, &v, sizeof(v));
}

static void
put_f64(struct wbuf *b, double v)
{
    put_bytes(b, &v, sizeof(v));
}

static void
put_zeros(struct wbuf *b, size_t n)
{
    memset(b->data + b->len, 0, n);
    b->len += n;
}

/* ---- lookup8 (§6) ---------------------------------------------------- */

/* Bob Jenkins' 64-bit mix: three rounds of subtract, subtract, shift-xor
 * on each of a, b, c with his published shift amounts. */
static void
mix64(uint64_t *a, uint64_t *b, uint64_t *c)
{
    static const struct {
        int left;
        unsigned shift;
    } steps[12] = {
        { 0, 43 }, { 1, 9 }, { 0, 8 }, { 0, 38 }, { 1, 23 }, { 0, 5 },
        { 0, 35 }, { 1, 49 }, { 0, 11 }, { 0, 12 }, { 1, 18 }, { 0, 22 },
    };
    uint64_t *v[3] = { a, b, c };

    for (int i = 0; i < 12; i++) {
        uint64_t *x = v[i % 3], *y = v[(i + 1) % 3], *z = v[(i + 2) % 3];
        *x -= *y;
        *x -= *z;
        /* the step xors in the variable updated just before */
        *x ^= steps[i].left ? *z << steps[i].shift : *z >> steps[i].shift;
    }
}

static uint64_t
le64(const unsigned char *k, size_t n)
{
    uint64_t v = 0;

    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)k[i] << (8 * i);
    return v;
}

uint64_t
tokio_darshan_writer_hash(const char *name)
{
    const unsigned char *k = (const unsigned char *)name;
    size_t len = strlen(name);
    uint64_t a = 0, b = 0, c = LOOKUP8_GOLDEN;   /* level 0 */

    for (; len >= 24; k += 24, len -= 24) {
        a += le64(k, 8);
        b += le64(k + 8, 8);
        c += le64(k + 16, 8);
        mix64(&a, &b, &c);
    }
    /* the tail: c's low byte is reserved for the length, so c takes the
     * bytes from 16 on shifted up by one byte */
    c += strlen(name);
    a += le64(k, len < 8 ? len : 8);
    if (len > 8)
        b += le64(k + 8, len < 16 ? len - 8 : 8);
    if (len > 16)
        c += le64(k + 16, len - 16) << 8;
    mix64(&a, &b, &c);
    return c;
}

/* ---- job region (§5) -------------------------------------------------- */

static int
has_blank(const char *s)
{
    for (; *s; s++)
        if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
            return 1;
    return 0;
}

static int
build_job(struct wbuf *b, const struct tokio_darshan_job_info *job)
{
    char meta[JOB_METADATA_LEN];
    size_t mlen = 0, tlen;
    const char *exe = job->exe ? job->exe : "";
    int rc;

    if (job->nprocs <= 0)
        return tokio__error(TOKIO_EINVAL, "darshan writer: nprocs must be "
                            "positive, not %lld", (long long)job->nprocs);
    memset(meta, 0, sizeof(meta));
    for (size_t i = 0; i < job->n_metadata; i++) {
        const char *k = job->metadata_keys[i], *v = job->metadata_values[i];
        /* darshan-parser splits lines on '\n' and keys at the first '=' */
        if (k == NULL || v == NULL || strpbrk(k, "=\n") || strchr(v, '\n'))
            return tokio__error(TOKIO_EINVAL, "darshan writer: metadata "
                                "entry %zu: a key may hold neither '=' nor "
                                "a newline, a value no newline", i + 1);
        size_t n = strlen(k) + 1 + strlen(v) + 1;
        /* the last byte of the fixed field stays NUL */
        if (n > sizeof(meta) - 1 - mlen)
            return tokio__error(TOKIO_EINVAL, "darshan writer: metadata "
                                "exceeds the log's %d bytes",
                                JOB_METADATA_LEN - 1);
        snprintf(meta + mlen, sizeof(meta) - mlen, "%s=%s\n", k, v);
        mlen += n;
    }
    if (strchr(exe, '\n') != NULL)
        return tokio__error(TOKIO_EINVAL, "darshan writer: the exe holds a "
                            "newline (it ends the exe in the log)");
    tlen = strlen(exe);
    for (size_t i = 0; i < job->n_mounts; i++) {
        const struct tokio_darshan_mount *m = &job->mounts[i];
        /* readers split entries with sscanf("%s\t%s") */
        if (m->path == NULL || m->type == NULL || !m->path[0] ||
            !m->type[0] || has_blank(m->path) || has_blank(m->type))
            return tokio__error(TOKIO_EINVAL, "darshan writer: mount %zu: "
                                "path and type must be non-empty words",
                                i + 1);
        tlen += 2 + strlen(m->type) + strlen(m->path);
    }
    if (tlen > JOB_TRAILER_MAX)
        return tokio__error(TOKIO_EINVAL, "darshan writer: exe and mount "
                            "table take %zu bytes; the log keeps %d", tlen,
                            JOB_TRAILER_MAX);
    if ((rc = wb_reserve(b, JOB_STRUCT_SIZE + tlen + 1)) < 0)
        return rc;
    put_i64(b, job->uid);
    put_i64(b, job->start_time);
    put_i64(b, job->start_time_nsec);
    put_i64(b, job->end_time);
    put_i64(b, job->end_time_nsec);
    put_i64(b, job->nprocs);
    put_i64(b, job->jobid);
    put_bytes(b, meta, sizeof(meta));
    put_bytes(b, exe, strlen(exe));
    for (size_t i = 0; i < job->n_mounts; i++) {
        put_bytes(b, "\n", 1);
        put_bytes(b, job->mounts[i].type, strlen(job->mounts[i].type));
        put_bytes(b, "\t", 1);
        put_bytes(b, job->mounts[i].path, strlen(job->mounts[i].path));
    }
    put_zeros(b, 1);
    return TOKIO_OK;
}

/* ---- public: building ------------------------------------------------- */

int
tokio_darshan_writer_new(struct tokio_darshan_writer **out,
                         const struct tokio_darshan_job_info *job)
{
    struct tokio_darshan_writer *w;
    int rc;

    *out = NULL;
    if (job == NULL)
        return tokio__error(TOKIO_EINVAL, "darshan writer: no job");
    if ((w = tokio__calloc(1, sizeof(*w))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory building a darshan "
                            "log");
    w->comp = TOKIO_DARSHAN_ZLIB;
    w->nprocs = job->nprocs;
    if ((rc = build_job(&w->job, job)) < 0) {
        tokio_darshan_writer_free(w);
        return rc;
    }
    *out = w;
    return TOKIO_OK;
}

int
tokio_darshan_writer_set_compression(struct tokio_darshan_writer *w,
                                     int compression)
{
    if (compression != TOKIO_DARSHAN_ZLIB &&
        compression != TOKIO_DARSHAN_BZIP2 &&
        compression != TOKIO_DARSHAN_NONE)
        return tokio__error(TOKIO_EINVAL, "darshan writer: unknown "
                            "compression %d", compression);
    w->comp = compression;
    return TOKIO_OK;
}

void
tokio_darshan_writer_set_partial(struct tokio_darshan_writer *w,
                                 uint64_t flags)
{
    w->partial = flags;
}

int
tokio_darshan_writer_add_name(struct tokio_darshan_writer *w, uint64_t id,
                              const char *name)
{
    int rc;

    if (name == NULL)
        return tokio__error(TOKIO_EINVAL, "darshan writer: NULL name for "
                            "record %llu", (unsigned long long)id);
    /* §6: id, then the NUL-terminated name */
    size_t n = strlen(name) + 1;
    if ((rc = wb_reserve(&w->names, 8 + n)) < 0)
        return rc;
    put_u64(&w->names, id);
    put_bytes(&w->names, name, n);
    return TOKIO_OK;
}

static int
bad_module(int mod)
{
    const char *name = tokio_darshan_module_name(mod);

    if (name != NULL)
        return tokio__error(TOKIO_EINVAL, "darshan writer: cannot write "
                            "%s records", name);
    return tokio__error(TOKIO_EINVAL, "darshan writer: cannot write records "
                        "of module %d", mod);
}

static int
check_rank(const struct tokio_darshan_writer *w, int mod, int64_t rank)
{
    /* darshan-parser asserts rank < nprocs and aborts otherwise (§16.7) */
    if (rank < -1 || rank >= w->nprocs)
        return tokio__error(TOKIO_EINVAL, "darshan writer: %s record rank "
                            "%lld outside -1 .. %lld",
                            tokio_darshan_module_name(mod), (long long)rank,
                            (long long)(w->nprocs - 1));
    return TOKIO_OK;
}

static int
add_fixed(struct tokio_darshan_writer *w, int mod,
          const struct tokio_darshan_record *r)
{
    const struct wmod *m = &wmods[mod];
    struct wbuf *b = &w->mods[mod];
    size_t ni = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    int rc;

    if (r->n_counters != ni || r->n_fcounters != nf ||
        (ni && r->counters == NULL) || (nf && r->fcounters == NULL))
        return tokio__error(TOKIO_EINVAL, "darshan writer: a %s record has "
                            "%zu counters and %zu fcounters, not %zu and %zu",
                            tokio_darshan_module_name(mod), r->n_counters,
                            r->n_fcounters, ni, nf);
    size_t size = BASE_SIZE + (m->file_rec ? 8 : 0) + 8 * (ni + nf) +
                  (m->uuids ? 2 * UUID_LEN : 0) + (m->oid ? 16 : 0);
    if ((rc = wb_reserve(b, size)) < 0)
        return rc;
    put_u64(b, r->id);
    put_i64(b, r->rank);
    if (m->file_rec)
        put_u64(b, r->file_rec_id);
    for (size_t i = 0; i < ni; i++)
        put_i64(b, r->counters[i]);
    for (size_t i = 0; i < nf; i++)
        put_f64(b, r->fcounters[i]);
    if (m->uuids) {
        const unsigned char *u[2] = { r->pool_uuid, r->cont_uuid };
        for (int k = 0; k < 2; k++) {
            if (u[k] != NULL)
                put_bytes(b, u[k], UUID_LEN);
            else
                put_zeros(b, UUID_LEN);
        }
    }
    if (m->oid) {
        put_u64(b, r->oid_hi);
        put_u64(b, r->oid_lo);
    }
    return TOKIO_OK;
}

/* §8.6 version 2: base, num_comps, num_stripes, components, OST ids. */
static int
add_lustre(struct tokio_darshan_writer *w,
           const struct tokio_darshan_record *r)
{
    struct wbuf *b = &w->mods[TOKIO_DARSHAN_LUSTRE];
    uint64_t stripes = 0;
    int rc;

    if (r->n_comps > 0 && r->comps == NULL)
        return tokio__error(TOKIO_EINVAL, "darshan writer: LUSTRE record "
                            "without components");
    for (size_t i = 0; i < r->n_comps; i++) {
        const struct tokio_darshan_lustre_comp *c = &r->comps[i];
        /* readers stop at a component whose stripe size is -1 */
        if (c->counters[0] == -1 ||
            memchr(c->pool_name, '\0', sizeof(c->pool_name)) == NULL)
            return tokio__error(TOKIO_EINVAL, "darshan writer: LUSTRE "
                                "component %zu: stripe size -1 or pool name "
                                "longer than %d bytes", i + 1,
                                LUSTRE_POOL_LEN);
        if (c->counters[1] > 0)
            stripes += (uint64_t)c->counters[1];
    }
    /* darshan-parser prints STRIPE_COUNT OST ids per component */
    if (stripes != r->n_extra || (r->n_extra > 0 && r->extra == NULL))
        return tokio__error(TOKIO_EINVAL, "darshan writer: LUSTRE record "
                            "has %zu OST ids for %llu stripes", r->n_extra,
                            (unsigned long long)stripes);
    size_t size = BASE_SIZE + 16 +
                  r->n_comps * (8 * LUSTRE_COMP_INTS + LUSTRE_POOL_LEN) +
                  8 * r->n_extra;
    if ((rc = wb_reserve(b, size)) < 0)
        return rc;
    put_u64(b, r->id);
    put_i64(b, r->rank);
    put_i64(b, (int64_t)r->n_comps);
    put_i64(b, (int64_t)r->n_extra);
    for (size_t i = 0; i < r->n_comps; i++) {
        const struct tokio_darshan_lustre_comp *c = &r->comps[i];
        size_t pl = strlen(c->pool_name);
        for (size_t k = 0; k < LUSTRE_COMP_INTS; k++)
            put_i64(b, c->counters[k]);
        put_bytes(b, c->pool_name, pl);
        put_zeros(b, LUSTRE_POOL_LEN - pl);
    }
    for (size_t i = 0; i < r->n_extra; i++)
        put_i64(b, r->extra[i]);
    return TOKIO_OK;
}

/* §8.7: 104-byte header, then write and read segments of 32 bytes. */
static int
add_dxt(struct tokio_darshan_writer *w, int mod,
        const struct tokio_darshan_record *r)
{
    struct wbuf *b = &w->mods[mod];
    const char *host = r->hostname ? r->hostname : "";
    size_t hl = strlen(host), nseg = r->n_writes + r->n_reads;
    int rc;

    if (hl > DXT_HOSTNAME_LEN || (nseg > 0 && r->segments == NULL) ||
        nseg < r->n_writes)
        return tokio__error(TOKIO_EINVAL, "darshan writer: %s record: "
                            "hostname over %d bytes or segments missing",
                            tokio_darshan_module_name(mod), DXT_HOSTNAME_LEN);
    for (size_t i = 0; i < nseg; i++)
        if (r->segments[i].pthread_id != 0)
            return tokio__error(TOKIO_EINVAL, "darshan writer: %s record: "
                                "thread ids need a record version released "
                                "darshan 3.5.0 cannot read",
                                tokio_darshan_module_name(mod));
    if (nseg > (SIZE_MAX - 104) / 32)
        return tokio__error(TOKIO_ENOMEM, "darshan writer: DXT record too "
                            "large");
    if ((rc = wb_reserve(b, 104 + 32 * nseg)) < 0)
        return rc;
    put_u64(b, r->id);
    put_i64(b, r->rank);
    /* shared_record: not read back by darshan-util's tools */
    put_i64(b, r->rank == -1);
    put_bytes(b, host, hl);
    put_zeros(b, DXT_HOSTNAME_LEN - hl);
    put_i64(b, (int64_t)r->n_writes);
    put_i64(b, (int64_t)r->n_reads);
    for (size_t i = 0; i < nseg; i++) {
        put_i64(b, r->segments[i].offset);
        put_i64(b, r->segments[i].length);
        put_f64(b, r->segments[i].start_time);
        put_f64(b, r->segments[i].end_time);
    }
    return TOKIO_OK;
}

int
tokio_darshan_writer_add(struct tokio_darshan_writer *w, int module_id,
                         const struct tokio_darshan_record *r)
{
    int rc;

    if (module_id < 0 || module_id >= TOKIO_DARSHAN_KNOWN_MODULES ||
        wmods[module_id].kind == W_NONE)
        return bad_module(module_id);
    if (r == NULL)
        return tokio__error(TOKIO_EINVAL, "darshan writer: NULL record");
    if ((rc = check_rank(w, module_id, r->rank)) < 0)
        return rc;
    switch (wmods[module_id].kind) {
    case W_FIXED:
        return add_fixed(w, module_id, r);
    case W_LUSTRE:
        return add_lustre(w, r);
    case W_DXT:
        return add_dxt(w, module_id, r);
    default:
        return bad_module(module_id);
    }
}

int
tokio_darshan_writer_add_record(struct tokio_darshan_writer *w,
                                int module_id, uint64_t id, int64_t rank,
                                const int64_t *counters, size_t n,
                                const double *fcounters, size_t nf)
{
    struct tokio_darshan_record r;

    if (module_id < 0 || module_id >= TOKIO_DARSHAN_KNOWN_MODULES ||
        wmods[module_id].kind != W_FIXED)
        return bad_module(module_id);
    memset(&r, 0, sizeof(r));
    r.id = id;
    r.rank = rank;
    r.counters = counters;
    r.n_counters = n;
    r.fcounters = fcounters;
    r.n_fcounters = nf;
    return tokio_darshan_writer_add(w, module_id, &r);
}

int
tokio_darshan_writer_add_lustre(struct tokio_darshan_writer *w, uint64_t id,
                                int64_t rank,
                                const struct tokio_darshan_lustre_comp *comps,
                                size_t n_comps, const int64_t *osts,
                                size_t n_osts)
{
    struct tokio_darshan_record r;

    memset(&r, 0, sizeof(r));
    r.id = id;
    r.rank = rank;
    r.comps = comps;
    r.n_comps = n_comps;
    r.extra = osts;
    r.n_extra = n_osts;
    return tokio_darshan_writer_add(w, TOKIO_DARSHAN_LUSTRE, &r);
}

/* ---- compression (§4) ------------------------------------------------- */

/* The streams take int-sized lengths; feed larger regions in pieces. */
static unsigned
piece(size_t n)
{
    return n > UINT_MAX ? UINT_MAX : (unsigned)n;
}

static int
nomem(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory compressing a darshan "
                        "log");
}

/* One complete zlib stream (default level, as darshan) of src. */
static int
deflate_region(const unsigned char *src, size_t len, unsigned char **out,
               size_t *out_len)
{
    z_stream z;
    int zr;

    memset(&z, 0, sizeof(z));
    z.zalloc = tokio__zlib_alloc;
    z.zfree = tokio__zlib_free;
    if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK)
        return nomem();
    size_t cap = deflateBound(&z, len), in = 0, n = 0;
    unsigned char *buf = tokio__malloc(cap);
    if (buf == NULL) {
        deflateEnd(&z);
        return nomem();
    }
    do {
        unsigned ain = piece(len - in), aout = piece(cap - n);
        z.next_in = (unsigned char *)src + in;
        z.avail_in = ain;
        z.next_out = buf + n;
        z.avail_out = aout;
        zr = deflate(&z, ain == len - in ? Z_FINISH : Z_NO_FLUSH);
        in += ain - z.avail_in;
        n += aout - z.avail_out;
    } while (zr == Z_OK || (zr == Z_BUF_ERROR && n < cap));
    deflateEnd(&z);
    if (zr != Z_STREAM_END) {
        free(buf);
        return tokio__error(TOKIO_ERR, "darshan writer: deflate failed "
                            "(%d)", zr);
    }
    *out = buf;
    *out_len = n;
    return TOKIO_OK;
}

/* One bzip2 stream, block size 9 as darshan-convert --bzip2. */
static int
bzip2_region(const unsigned char *src, size_t len, unsigned char **out,
             size_t *out_len)
{
    bz_stream s;
    int br;

    memset(&s, 0, sizeof(s));
    s.bzalloc = tokio__bz2_alloc;
    s.bzfree = tokio__bz2_free;
    if (BZ2_bzCompressInit(&s, BZIP2_BLOCK, 0, 0) != BZ_OK)
        return nomem();
    /* bzip2's documented worst case: 1% + 600 bytes */
    size_t cap = len + len / 100 + 600, in = 0, n = 0;
    unsigned char *buf = tokio__malloc(cap);
    if (buf == NULL) {
        BZ2_bzCompressEnd(&s);
        return nomem();
    }
    do {
        unsigned ain = piece(len - in), aout = piece(cap - n);
        s.next_in = (char *)src + in;
        s.avail_in = ain;
        s.next_out = (char *)buf + n;
        s.avail_out = aout;
        br = BZ2_bzCompress(&s, ain == len - in ? BZ_FINISH : BZ_RUN);
        in += ain - s.avail_in;
        n += aout - s.avail_out;
    } while ((br == BZ_RUN_OK || br == BZ_FINISH_OK) && n < cap);
    BZ2_bzCompressEnd(&s);
    if (br != BZ_STREAM_END) {
        free(buf);
        return tokio__error(TOKIO_ERR, "darshan writer: bzip2 failed "
                            "(%d)", br);
    }
    *out = buf;
    *out_len = n;
    return TOKIO_OK;
}

/* ---- public: writing -------------------------------------------------- */

/* Region slots: job, names, then the 64 modules. */
#define NREGIONS (2 + TOKIO_DARSHAN_MAX_MODULES)

int
tokio_darshan_writer_write_mem(const struct tokio_darshan_writer *w,
                               unsigned char **buf, size_t *len)
{
    const struct wbuf *plain[NREGIONS];
    unsigned char *z[NREGIONS] = { NULL };
    size_t zlen[NREGIONS] = { 0 };
    int rc = TOKIO_OK;

    *buf = NULL;
    *len = 0;
    plain[0] = &w->job;
    plain[1] = &w->names;
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++)
        plain[2 + i] = &w->mods[i];
    size_t total = HEADER_SIZE;
    for (int i = 0; i < NREGIONS && rc == TOKIO_OK; i++) {
        /* an empty name table or module has no stream at all */
        if (plain[i]->len == 0 || w->comp == TOKIO_DARSHAN_NONE)
            zlen[i] = plain[i]->len;
        else if (w->comp == TOKIO_DARSHAN_ZLIB)
            rc = deflate_region(plain[i]->data, plain[i]->len, &z[i],
                                &zlen[i]);
        else
            rc = bzip2_region(plain[i]->data, plain[i]->len, &z[i],
                              &zlen[i]);
        total += zlen[i];
    }
    unsigned char *out = rc == TOKIO_OK ? tokio__malloc(total) : NULL;
    if (rc == TOKIO_OK && out == NULL)
        rc = nomem();
    if (rc == TOKIO_OK) {
        unsigned char *h = out;
        uint64_t off = HEADER_SIZE, v;
        int64_t magic = MAGIC_NR;

        memset(h, 0, HEADER_SIZE);
        memcpy(h, VERSION_STRING, strlen(VERSION_STRING));
        memcpy(h + VERSION_LEN, &magic, 8);
        h[HDR_COMP_OFF] = (unsigned char)w->comp;
        memcpy(h + HDR_PARTIAL_OFF, &w->partial, 8);
        for (int i = 0; i < NREGIONS; i++) {
            const unsigned char *src = z[i] ? z[i] : plain[i]->data;
            if (zlen[i] > 0)
                memcpy(out + off, src, zlen[i]);
            if (i == 1) {
                /* the name map's offset is also where the job region
                 * ends (§2), so it is set even for an empty table */
                memcpy(h + HDR_NAME_MAP_OFF, &off, 8);
                v = zlen[i];
                memcpy(h + HDR_NAME_MAP_OFF + 8, &v, 8);
            } else if (i >= 2 && zlen[i] > 0) {
                int mod = i - 2;
                uint32_t ver = wmods[mod].ver;
                v = zlen[i];
                memcpy(h + HDR_MOD_MAP_OFF + 16 * mod, &off, 8);
                memcpy(h + HDR_MOD_MAP_OFF + 16 * mod + 8, &v, 8);
                memcpy(h + HDR_MOD_VER_OFF + 4 * mod, &ver, 4);
            }
            off += zlen[i];
        }
        *buf = out;
        *len = total;
    }
    for (int i = 0; i < NREGIONS; i++)
        free(z[i]);
    return rc;
}

int
tokio_darshan_writer_write(const struct tokio_darshan_writer *w,
                           const char *path)
{
    struct tokio_output *o = NULL;
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    if ((rc = tokio_darshan_writer_write_mem(w, &buf, &len)) < 0)
        return rc;
    if ((rc = tokio_output_open(&o, path)) < 0) {
        free(buf);
        return rc;
    }
    if (fwrite(buf, 1, len, tokio_output_fp(o)) != len) {
        tokio_output_abort(o);
        free(buf);
        return tokio__error(TOKIO_EIO, "cannot write '%s'", path);
    }
    free(buf);
    return tokio_output_commit(o);
}

void
tokio_darshan_writer_free(struct tokio_darshan_writer *w)
{
    if (w == NULL)
        return;
    free(w->job.data);
    free(w->names.data);
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++)
        free(w->mods[i].data);
    free(w);
}

/* ---- public: writing back what the reader read ----------------------- */

/* Name every module of `log` we cannot write, or return 0. */
static int
unwritable_modules(const struct tokio_darshan *log, char *msg, size_t size)
{
    size_t used = 0;
    int n = 0;

    msg[0] = '\0';
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++) {
        if (tokio_darshan_module_len(log, i) == 0)
            continue;
        if (i < TOKIO_DARSHAN_KNOWN_MODULES && wmods[i].kind != W_NONE &&
            tokio_darshan_module_decoded(log, i))
            continue;
        const char *name = tokio_darshan_module_name(i);
        char idbuf[32];
        if (name == NULL) {
            snprintf(idbuf, sizeof(idbuf), "module %d", i);
            name = idbuf;
        }
        int k = snprintf(msg + used, size - used, "%s%s", n ? ", " : "",
                         name);
        if (k > 0 && (size_t)k < size - used)
            used += (size_t)k;
        n++;
    }
    return n;
}

int
tokio_darshan_writer_from_log(struct tokio_darshan_writer **out,
                              const struct tokio_darshan *log)
{
    const struct tokio_darshan_job *job = tokio_darshan_job(log);
    struct tokio_darshan_job_info info;
    struct tokio_darshan_writer *w = NULL;
    char which[512];
    int rc;

    *out = NULL;
    if (unwritable_modules(log, which, sizeof(which)) > 0)
        return tokio__error(TOKIO_EINVAL, "'%s': cannot write modules: %s",
                            tokio_darshan_logname(log), which);
    size_t nm = tokio_darshan_mount_count(log);
    struct tokio_darshan_mount *mounts =
        tokio__calloc(nm ? nm : 1, sizeof(*mounts));
    if (mounts == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory rewriting '%s'",
                            tokio_darshan_logname(log));
    /* the reader's order (longest first, ties in file order) reads back
     * unchanged: its sort is stable */
    for (size_t i = 0; i < nm; i++)
        mounts[i] = *tokio_darshan_mount(log, i);
    memset(&info, 0, sizeof(info));
    info.uid = job->uid;
    info.jobid = job->jobid;
    info.start_time = job->start_time;
    info.start_time_nsec = job->start_time_nsec;
    info.end_time = job->end_time;
    info.end_time_nsec = job->end_time_nsec;
    info.nprocs = job->nprocs;
    info.exe = job->exe;
    info.n_metadata = job->n_metadata;
    info.metadata_keys = job->metadata_keys;
    info.metadata_values = job->metadata_values;
    info.n_mounts = nm;
    info.mounts = mounts;
    rc = tokio_darshan_writer_new(&w, &info);
    free(mounts);
    if (rc < 0)
        return rc;
    tokio_darshan_writer_set_partial(w, tokio_darshan_partial_flags(log));
    for (size_t i = 0; rc == TOKIO_OK && i < tokio_darshan_name_count(log);
         i++) {
        uint64_t id = 0;
        const char *name = tokio_darshan_name_at(log, i, &id);
        rc = tokio_darshan_writer_add_name(w, id, name);
    }
    for (int m = 0; rc == TOKIO_OK && m < TOKIO_DARSHAN_KNOWN_MODULES; m++)
        for (size_t i = 0; rc == TOKIO_OK &&
                           i < tokio_darshan_record_count(log, m); i++)
            rc = tokio_darshan_writer_add(w, m,
                                          tokio_darshan_record(log, m, i));
    if (rc < 0) {
        tokio_darshan_writer_free(w);
        return rc;
    }
    *out = w;
    return TOKIO_OK;
}

int
tokio_darshan_rewrite(const struct tokio_darshan *log, int compression,
                      const char *path)
{
    struct tokio_darshan_writer *w = NULL;
    int rc;

    if ((rc = tokio_darshan_writer_from_log(&w, log)) < 0)
        return rc;
    if ((rc = tokio_darshan_writer_set_compression(w, compression)) == 0)
        rc = tokio_darshan_writer_write(w, path);
    tokio_darshan_writer_free(w);
    return rc;
}
