/*
 * src/connectors/darshan_dxt.c - the text of darshan-dxt-parser 3.5.0
 * (darshan-util's darshan-dxt-parser.c and darshan-dxt-logutils.c): the
 * DXT_POSIX and DXT_MPIIO trace segments of a log, one line each, with the
 * Lustre OSTs every POSIX segment touched.
 *
 * It sits apart from darshan.c because it is a separate darshan-util
 * program with its own layout (no column legend, 51-star banners, no
 * counters); it reads the log only through the reader's accessors and the
 * shared preamble.  The reference (tokio.connectors.darshan) never ran
 * darshan-dxt-parser, so there is no pytokio counterpart.
 *
 * Differs from darshan-dxt-parser (only for corrupt logs, where it reads
 * out of bounds or divides by zero): a segment's OST list stops at a
 * Lustre component whose stripe size is not positive, whose stripe count
 * is negative or whose OSTs lie beyond the record's OST list, and where
 * its offset arithmetic would overflow int64.
 *
 * Speed: segment lines, most of a trace's text (67 million lines for a
 * 2 GiB trace), are formatted by hand to printf()'s bytes (checked against
 * printf() on 200,000 values): 2 million lines take about 1 s instead of
 * 5.9 s with printf(), which cost ten times the inflating and decoding
 * (bench/bench-dxt.sh).
 *
 * Golden outputs: testdata/golden/darshan-parser/<log>.dxt.txt.
 */
#include "tokio/connectors/darshan.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/darshan_text.h"
#include "core/alloc.h"
#include "core/error.h"

/* LUSTRE_COMP_* counter positions (darshan-lustre-log-format.h). */
enum {
    COMP_STRIPE_SIZE = 0,
    COMP_STRIPE_COUNT = 1,
    COMP_EXT_START = 4,
    COMP_EXT_END = 5
};

/* A LUSTRE record by file id, to annotate that file's POSIX segments. */
struct lustre_ref {
    uint64_t id;
    size_t index;               /* in the LUSTRE module */
};

static int
cmp_ref(const void *a, const void *b)
{
    const struct lustre_ref *x = a, *y = b;

    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/*
 * The LUSTRE record for file `id`, NULL if none.  darshan-dxt-parser
 * keeps them in a hash keyed by id; with several records of one id (one
 * per rank) its lookup returns one of them, which we take to be the last
 * in file order.  NEEDSWORK: uthash's bucket order after its table grows
 * could pick another; no sample log has per-rank LUSTRE records and DXT.
 */
static const struct tokio_darshan_record *
find_lustre(const struct tokio_darshan *log, const struct lustre_ref *refs,
            size_t n, uint64_t id)
{
    size_t lo = 0, hi = n;

    /* the first entry with an id above `id`; the one before it is the
     * last record of `id`, if any */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (refs[mid].id <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || refs[lo - 1].id != id)
        return NULL;
    return tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE,
                                refs[lo - 1].index);
}

/* Every LUSTRE record by id, sorted; *out NULL when there are none. */
static int
index_lustre(const struct tokio_darshan *log, struct lustre_ref **out,
             size_t *n_out)
{
    size_t n = tokio_darshan_record_count(log, TOKIO_DARSHAN_LUSTRE);
    struct lustre_ref *refs;

    *out = NULL;
    *n_out = 0;
    if (n == 0)
        return TOKIO_OK;
    if ((refs = tokio__reallocarray(NULL, n, sizeof(*refs))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing DXT text "
                            "for '%s'", tokio_darshan_logname(log));
    for (size_t i = 0; i < n; i++) {
        refs[i].id = tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE, i)->id;
        refs[i].index = i;
    }
    qsort(refs, n, sizeof(*refs), cmp_ref);
    *out = refs;
    *n_out = n;
    return TOKIO_OK;
}

/* Distinct thread ids among the record's segments (count_nthreads()). */
static int
count_threads(const struct tokio_darshan *log,
              const struct tokio_darshan_record *r, size_t *n_out)
{
    size_t n = r->n_writes + r->n_reads;
    uint64_t *ids;

    *n_out = 1;
    if (n == 0)
        return TOKIO_OK;
    if ((ids = tokio__reallocarray(NULL, n, sizeof(*ids))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing DXT text "
                            "for '%s'", tokio_darshan_logname(log));
    for (size_t i = 0; i < n; i++)
        ids[i] = r->segments[i].pthread_id;
    qsort(ids, n, sizeof(*ids), cmp_u64);
    size_t distinct = 1;
    for (size_t i = 1; i < n; i++)
        if (ids[i] != ids[i - 1])
            distinct++;
    free(ids);
    *n_out = distinct;
    return TOKIO_OK;
}

/* Whether component `c` can be walked without darshan-util's undefined
 * behaviour, given that its OSTs start at `first` of the record's list. */
static int
comp_sane(const struct tokio_darshan_record *lr,
          const struct tokio_darshan_lustre_comp *c, size_t first)
{
    int64_t size = c->counters[COMP_STRIPE_SIZE];
    int64_t count = c->counters[COMP_STRIPE_COUNT];

    return size > 0 && count >= 0 && first <= lr->n_extra &&
           (uint64_t)count <= lr->n_extra - first;
}

/*
 * The " [ost]" list of one POSIX segment: the OSTs its bytes fall on,
 * walking the layout components in order as darshan-dxt-parser does
 * (including its quirks: the count of OSTs printed is not reset between
 * components, and a component with stripe count 0 takes no OST slots).
 */
static void
put_osts(const struct tokio_darshan_record *lr, int64_t offset,
         int64_t length, FILE *fp)
{
    int64_t cur = offset, end, printed = 0;
    size_t first = 0;

    /* a segment running past INT64_MAX ends there */
    if (__builtin_add_overflow(offset, length, &end))
        end = INT64_MAX;
    for (size_t j = 0; j < lr->n_comps; j++) {
        const struct tokio_darshan_lustre_comp *c = &lr->comps[j];
        int64_t size = c->counters[COMP_STRIPE_SIZE];
        int64_t count = c->counters[COMP_STRIPE_COUNT];
        int64_t ext_start = c->counters[COMP_EXT_START];
        int64_t ext_end = c->counters[COMP_EXT_END];

        if (count == 0)
            continue;           /* data on the MDT: no OSTs */
        if (!comp_sane(lr, c, first))
            return;
        if (cur >= ext_start && (cur < ext_end || ext_end == -1)) {
            int64_t coff;
            if (__builtin_sub_overflow(cur, ext_start, &coff))
                return;
            int64_t ost = (coff / size) % count;
            while (cur < end && (cur < ext_end || ext_end == -1)) {
                fprintf(fp, " [%" PRId64 "]", lr->extra[first + (size_t)ost]);
                ost = ost == count - 1 ? 0 : ost + 1;
                int64_t next;
                if (__builtin_mul_overflow(coff / size + 1, size, &next) ||
                    __builtin_add_overflow(ext_start, next, &cur))
                    return;
                coff = next;
                if (++printed >= count) {
                    cur = ext_end == -1 ? end : ext_end;
                    break;
                }
            }
        }
        first += (size_t)count;
    }
}

/* The "# DXT, Lustre stripe components:" block of a POSIX record. */
static void
put_components(const struct tokio_darshan_record *lr, FILE *fp)
{
    size_t ost = 0;

    fputs("# DXT, Lustre stripe components:\n", fp);
    for (size_t i = 0; i < lr->n_comps; i++) {
        const int64_t *v = lr->comps[i].counters;
        fprintf(fp, "#\t[Component %zu] stripe_ext: %" PRId64 " - ", i + 1,
                v[COMP_EXT_START]);
        if (v[COMP_EXT_END] == -1)
            fputs("EOF, ", fp);
        else
            fprintf(fp, "%" PRId64 ", ", v[COMP_EXT_END]);
        fprintf(fp, "stripe_size: %" PRId64 ", stripe_count: %" PRId64
                ", OSTs:", v[COMP_STRIPE_SIZE], v[COMP_STRIPE_COUNT]);
        /* darshan-util reads on past the list when the counts disagree
         * with it; we stop at its end */
        for (int64_t k = 0; k < v[COMP_STRIPE_COUNT] && ost < lr->n_extra;
             k++)
            fprintf(fp, " %" PRId64, lr->extra[ost++]);
        fputc('\n', fp);
    }
}

/* Whether the record version of DXT module `mod` has thread ids
 * (DXT_POSIX v2 and DXT_MPIIO v3 on, §8.7). */
static int
has_tids(const struct tokio_darshan *log, int mod)
{
    unsigned ver = tokio_darshan_module_version(log, mod);

    return mod == TOKIO_DARSHAN_DXT_MPIIO ? ver > 2 : ver > 1;
}

/* A DXT record's header lines, up to its column legend. */
static void
put_header(const struct tokio_darshan *log,
           const struct tokio_darshan_record *r, size_t nthreads,
           const struct tokio_darshan_record *lustre, FILE *fp)
{
    const char *name = tokio_darshan_name(log, r->id);
    const char *mnt, *fs;

    tokio__darshan_mount_of(log, name, &mnt, &fs);
    /* glibc prints a NULL %s as "(null)" */
    fprintf(fp, "\n# DXT, file_id: %" PRIu64 ", file_name: %s\n", r->id,
            name ? name : "(null)");
    fprintf(fp, "# DXT, rank: %" PRId64 ", hostname: %s\n", r->rank,
            r->hostname ? r->hostname : "(null)");
    fprintf(fp, "# DXT, number of threads: %zu\n", nthreads);
    fprintf(fp, "# DXT, write_count: %zu, read_count: %zu\n", r->n_writes,
            r->n_reads);
    fprintf(fp, "# DXT, mnt_pt: %s, fs_type: %s\n", mnt, fs);
    if (lustre != NULL)
        put_components(lustre, fp);
    fprintf(fp, "# Module    Rank  Wt/Rd  Segment          Offset          "
            "Length    Start(s)      End(s)%s   Pthread-ID\n",
            lustre != NULL ? "   [OST]" : "");
}

/* Segment lines formatted by hand (see the top of the file). */

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The decimal digits of `u` ending at `end` (written backwards); the
 * first digit. */
static char *
digits_back(char *end, uint64_t u)
{
    while (u >= 100) {
        unsigned k = (unsigned)(u % 100) * 2;
        u /= 100;
        *--end = digit_pairs[k + 1];
        *--end = digit_pairs[k];
    }
    if (u >= 10) {
        *--end = digit_pairs[u * 2 + 1];
        *--end = digit_pairs[u * 2];
    } else {
        *--end = (char)('0' + u);
    }
    return end;
}

/* `d`, `n` bytes, right-aligned in `width` at `o`; the end. */
static char *
put_padded(char *o, const char *d, size_t n, int width)
{
    for (int pad = width - (int)n; pad > 0; pad--)
        *o++ = ' ';
    memcpy(o, d, n);
    return o + n;
}

/* `v` right-aligned in `width` (at least its digits) at `o`; the end. */
static char *
put_int(char *o, int64_t v, int width)
{
    char d[24], *end = d + sizeof(d);
    char *p = digits_back(end, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);

    if (v < 0)
        *--p = '-';
    return put_padded(o, p, (size_t)(end - p), width);
}

/*
 * `v` as "%12.4f" at `o`; the end.  The decimal value rounded to four
 * places from the double's exact binary value, ties to even, as glibc
 * does in the default rounding mode.  NULL (nothing written) for values
 * it cannot do exactly this way: not finite, or 2^49 and beyond.
 */
char *
tokio__darshan_put_f4(char *o, double v)
{
    uint64_t bits;

    if (!(v > -0x1p49 && v < 0x1p49))
        return NULL;
    memcpy(&bits, &v, sizeof(bits));
    int neg = (int)(bits >> 63);
    int bexp = (int)(bits >> 52 & 0x7ff);
    uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
    /* |v| = mant / 2^k */
    int k = bexp == 0 ? 1074 : 1075 - bexp;
    uint64_t r;                         /* |v| 10^4, rounded */

    if (bexp != 0)
        mant |= UINT64_C(1) << 52;
    if (mant == 0 || k > 120) {
        r = 0;
    } else {
        /* k >= 4 here: |v| < 2^49 */
        unsigned __int128 q = (unsigned __int128)mant * 10000;
        unsigned __int128 half = (unsigned __int128)1 << (k - 1);
        unsigned __int128 rem = q & (((unsigned __int128)1 << k) - 1);
        r = (uint64_t)(q >> k);
        if (rem > half || (rem == half && (r & 1)))
            r++;
    }
    char d[32], *end = d + sizeof(d);
    unsigned frac = (unsigned)(r % 10000);
    *--end = (char)('0' + frac % 10);
    *--end = (char)('0' + frac / 10 % 10);
    *--end = (char)('0' + frac / 100 % 10);
    *--end = (char)('0' + frac / 1000);
    *--end = '.';
    char *p = digits_back(end, r / 10000);
    if (neg)
        *--p = '-';
    return put_padded(o, p, (size_t)(d + sizeof(d) - p), 12);
}

/* The lines of `n` segments of record `r` at `segs`, the first being
 * the record's segment `first` (writes, then reads). */
static void
put_segments(int mod, int has_tid, const struct tokio_darshan_record *r,
             const struct tokio_darshan_segment *segs, size_t n,
             size_t first, const struct tokio_darshan_record *lustre,
             FILE *fp)
{
    int mpiio = mod == TOKIO_DARSHAN_DXT_MPIIO;

    for (size_t k = 0; k < n; k++) {
        const struct tokio_darshan_segment *s = &segs[k];
        size_t i = first + k;
        int write = i < r->n_writes;
        char line[160], *o = line;
        memcpy(o, mpiio ? " X_MPIIO" : " X_POSIX", 8);
        o = put_int(o + 8, r->rank, 8);
        memcpy(o, write ? "  write" : "   read", 7);
        o = put_int(o + 7, (int64_t)(write ? i : i - r->n_writes), 9);
        o = put_int(o, s->offset, 16);
        o = put_int(o, s->length, 16);
        if ((o = tokio__darshan_put_f4(o, s->start_time)) == NULL ||
            (o = tokio__darshan_put_f4(o, s->end_time)) == NULL) {
            /* times no trace holds: printf's way */
            fprintf(fp, "%8s%8" PRId64 "%7s%9zu%16" PRId64 "%16" PRId64
                    "%12.4f%12.4f  ", mpiio ? "X_MPIIO" : "X_POSIX",
                    r->rank, write ? "write" : "read",
                    write ? i : i - r->n_writes, s->offset, s->length,
                    s->start_time, s->end_time);
            o = line;
        } else {
            *o++ = ' ';
            *o++ = ' ';
        }
        if (lustre == NULL && !has_tid) {
            memcpy(o, " N/A\n", 5);
            fwrite(line, 1, (size_t)(o + 5 - line), fp);
            continue;
        }
        fwrite(line, 1, (size_t)(o - line), fp);
        if (lustre != NULL) {
            put_osts(lustre, s->offset, s->length, fp);
            if (lustre->n_comps > 0)
                fputs("  ", fp);
        }
        if (has_tid)
            fprintf(fp, " %4" PRIu64 "\n", s->pthread_id);
        else
            fputs(" N/A\n", fp);
    }
}

/* One DXT record: its header lines, then its writes and reads. */
static int
put_record(const struct tokio_darshan *log, int mod,
           const struct tokio_darshan_record *r,
           const struct tokio_darshan_record *lustre, FILE *fp)
{
    int has_tid = has_tids(log, mod);
    size_t nthreads = 1;
    int rc;

    if (has_tid && (rc = count_threads(log, r, &nthreads)) < 0)
        return rc;
    put_header(log, r, nthreads, lustre, fp);
    put_segments(mod, has_tid, r, r->segments, r->n_writes + r->n_reads, 0,
                 lustre, fp);
    return TOKIO_OK;
}

/* What --show-incomplete prints for a module flagged partial (with
 * darshan-dxt-parser's own spelling). */
static void
put_partial_warning(int mod, FILE *fp)
{
    fprintf(fp, "\n# *WARNING*: The %s module contains incomplete data!\n"
            "#            This happens when a module runs out of\n"
            "#            memory to store new record data.\n",
            tokio_darshan_module_name(mod));
    fputs("\n# To avoid this error, consult the darshan-runtime\n"
          "# documentation and consider setting the NAME_EXCLUDE\n"
          "# variable in a run-time configuration file to prevent\n"
          "# Darshan from instrumenting unecessary files.\n", fp);
}

/*
 * darshan-dxt-parser walks the modules with data in id order: LUSTRE (8)
 * only to load its records, the two DXT modules (10, 11) to print them;
 * the others it skips (unknown ones with a warning on stderr, which a
 * library does not print).  Whether it walks module `mod`; if so, the
 * module's banner (none for LUSTRE) and its partial warning.
 */
static int
put_banner(const struct tokio_darshan *log, int mod, FILE *fp)
{
    if (tokio_darshan_module_len(log, mod) == 0 ||
        (mod != TOKIO_DARSHAN_LUSTRE && mod != TOKIO_DARSHAN_DXT_POSIX &&
         mod != TOKIO_DARSHAN_DXT_MPIIO))
        return 0;
    if (mod != TOKIO_DARSHAN_LUSTRE)
        fprintf(fp, "\n# ***************************************************"
                "\n# %s module data\n"
                "# ***************************************************\n",
                tokio_darshan_module_name(mod));
    if (tokio_darshan_module_partial(log, mod))
        put_partial_warning(mod, fp);
    return 1;
}

static int
not_decoded(const struct tokio_darshan *log, int mod)
{
    return tokio__error(TOKIO_EFORMAT, "'%s': %s module: record version %u "
                        "cannot be read", tokio_darshan_logname(log),
                        tokio_darshan_module_name(mod),
                        tokio_darshan_module_version(log, mod));
}

static int
write_modules(const struct tokio_darshan *log, const struct lustre_ref *refs,
              size_t n_refs, FILE *fp)
{
    int rc;

    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        if (!put_banner(log, mod, fp))
            continue;
        if (!tokio_darshan_module_decoded(log, mod))
            return not_decoded(log, mod);
        if (mod == TOKIO_DARSHAN_LUSTRE)
            continue;
        size_t n = tokio_darshan_record_count(log, mod);
        for (size_t i = 0; i < n; i++) {
            const struct tokio_darshan_record *r =
                tokio_darshan_record(log, mod, i);
            const struct tokio_darshan_record *lr = NULL;
            if (mod == TOKIO_DARSHAN_DXT_POSIX)
                lr = find_lustre(log, refs, n_refs, r->id);
            if ((rc = put_record(log, mod, r, lr, fp)) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

int
tokio_darshan_write_dxt(const struct tokio_darshan *log, FILE *fp)
{
    struct lustre_ref *refs = NULL;
    size_t n_refs = 0;
    int rc = TOKIO_OK;

    tokio__darshan_write_preamble(log, fp);
    if (tokio_darshan_module_len(log, TOKIO_DARSHAN_DXT_POSIX) == 0 &&
        tokio_darshan_module_len(log, TOKIO_DARSHAN_DXT_MPIIO) == 0) {
        fputs("\n# no DXT module data available for this Darshan log.\n",
              fp);
    } else if ((rc = index_lustre(log, &refs, &n_refs)) >= 0) {
        rc = write_modules(log, refs, n_refs, fp);
        free(refs);
    }
    if (rc >= 0)
        rc = tokio__write_check(fp, "cannot write DXT text for '%s'",
                                tokio_darshan_logname(log));
    return rc;
}

/* ---- streamed: the log read as it is printed ------------------------ */

/*
 * tokio_darshan_stream_dxt()'s state: the LUSTRE module is kept (it comes
 * before the DXT modules and is small); DXT records come a few hundred
 * segments at a time and are printed as they come.  Records with thread
 * ids (newer than the released tools read) are gathered whole first:
 * their header counts the threads of all their segments.
 */
struct dxt_stream {
    FILE *fp;
    int started;                /* preamble written */
    int next_mod;               /* banners written for modules below it */
    int refs_built;
    struct lustre_ref *refs;
    size_t n_refs;
    const struct tokio_darshan_record *lustre;  /* the current record's */
    /* a record with thread ids being gathered */
    struct tokio_darshan_record whole;
    char host[65];
    struct tokio_darshan_segment *segs;
    size_t n_segs, cap_segs;
};

/* The banners (and partial warnings) of the modules with data below
 * `upto`, stopping at one that was not decoded (the module `upto` - 1
 * may still be decoding: its records are coming). */
static int
stream_banners(struct dxt_stream *st, const struct tokio_darshan *log,
               int upto, int final)
{
    for (; st->next_mod < upto; st->next_mod++) {
        int mod = st->next_mod;
        if (put_banner(log, mod, st->fp) && (final || mod < upto - 1) &&
            !tokio_darshan_module_decoded(log, mod))
            return not_decoded(log, mod);
    }
    return TOKIO_OK;
}

static int
stream_record(void *payload, const struct tokio_darshan *log, int mod,
              const struct tokio_darshan_record *r)
{
    struct dxt_stream *st = payload;
    size_t total = r->n_writes + r->n_reads;
    int rc;

    if (!st->started) {
        tokio__darshan_write_preamble(log, st->fp);
        st->started = 1;
    }
    if ((rc = stream_banners(st, log, mod + 1, 0)) < 0)
        return rc;
    if (r->seg_first == 0) {
        st->lustre = NULL;
        if (mod == TOKIO_DARSHAN_DXT_POSIX) {
            if (!st->refs_built &&
                (rc = index_lustre(log, &st->refs, &st->n_refs)) < 0)
                return rc;
            st->refs_built = 1;
            st->lustre = find_lustre(log, st->refs, st->n_refs, r->id);
        }
    }
    if (!has_tids(log, mod)) {
        if (r->seg_first == 0)
            put_header(log, r, 1, st->lustre, st->fp);
        put_segments(mod, 0, r, r->segments, r->n_piece, r->seg_first,
                     st->lustre, st->fp);
    } else {
        if (r->seg_first == 0) {
            st->whole = *r;
            snprintf(st->host, sizeof(st->host), "%s",
                     r->hostname ? r->hostname : "");
            st->whole.hostname = r->hostname ? st->host : NULL;
            st->n_segs = 0;
        }
        if (r->n_piece > st->cap_segs - st->n_segs) {
            size_t cap = st->cap_segs ? st->cap_segs : 256;
            while (cap - st->n_segs < r->n_piece)
                cap *= 2;
            struct tokio_darshan_segment *g =
                tokio__reallocarray(st->segs, cap, sizeof(*g));
            if (g == NULL)
                return tokio__error(TOKIO_ENOMEM, "out of memory writing "
                                    "DXT text for '%s'",
                                    tokio_darshan_logname(log));
            st->segs = g;
            st->cap_segs = cap;
        }
        if (r->n_piece > 0)
            memcpy(st->segs + st->n_segs, r->segments,
                   r->n_piece * sizeof(*st->segs));
        st->n_segs += r->n_piece;
        if (r->seg_first + r->n_piece == total) {
            st->whole.segments = st->segs;
            st->whole.seg_first = st->whole.n_piece = 0;
            if ((rc = put_record(log, mod, &st->whole, st->lustre,
                                 st->fp)) < 0)
                return rc;
        }
    }
    if (ferror(st->fp))
        return tokio__write_check(st->fp, "cannot write DXT text for '%s'",
                                  tokio_darshan_logname(log));
    return TOKIO_OK;
}

int
tokio_darshan_stream_dxt(const char *path, FILE *fp)
{
    struct dxt_stream st = { .fp = fp };
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_LUSTRE) |
                   TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX) |
                   TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO),
        .kept = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_LUSTRE),
        .record = stream_record,
        .payload = &st,
        .dxt_pieces = 1,
    };
    struct tokio_darshan *log = NULL;
    int rc = tokio_darshan_open_select(&log, path, &sel);

    if (rc >= 0) {
        if (!st.started)
            tokio__darshan_write_preamble(log, fp);
        if (tokio_darshan_module_len(log, TOKIO_DARSHAN_DXT_POSIX) == 0 &&
            tokio_darshan_module_len(log, TOKIO_DARSHAN_DXT_MPIIO) == 0)
            fputs("\n# no DXT module data available for this Darshan "
                  "log.\n", fp);
        else
            rc = stream_banners(&st, log, TOKIO_DARSHAN_KNOWN_MODULES, 1);
    }
    if (rc >= 0)
        rc = tokio__write_check(fp, "cannot write DXT text for '%s'", path);
    tokio_darshan_free(log);
    free(st.refs);
    free(st.segs);
    return rc;
}

/* ---- heat map: bytes by rank and time bin, built as the log streams -- */

#define HEATMAP_MAX_CELLS   (UINT64_C(1) << 24)

/* Spread `bytes` moved over [start, end] seconds across the bins of row
 * `row`, in proportion to the time in each (all in one bin when the
 * segment takes no time); times outside the run go to its end bins. */
static void
heat_add(const struct tokio_darshan_dxt_heatmap *h, double *row,
         double start, double end, double bytes)
{
    double w = h->bin_seconds;
    size_t last = h->nbins - 1;

    if (!(start >= 0))
        start = 0;
    if (!(end >= start))
        end = start;
    double fb0 = start / w, fb1 = end / w;
    size_t b0 = fb0 >= (double)last ? last : (size_t)fb0;
    size_t b1 = fb1 >= (double)last ? last : (size_t)fb1;
    if (b0 == b1 || end == start) {
        row[b0] += bytes;
        return;
    }
    double span = end - start;
    for (size_t b = b0; b <= b1; b++) {
        double lo = b == b0 ? start : (double)b * w;
        double hi = b == b1 ? end : (double)(b + 1) * w;
        if (hi > lo)
            row[b] += bytes * (hi - lo) / span;
    }
}

/* Give `h` the shape of `log`'s job: nprocs rows of h->nbins bins. */
static int
heat_shape(struct tokio_darshan_dxt_heatmap *h,
           const struct tokio_darshan *log)
{
    int64_t nprocs = tokio_darshan_job(log)->nprocs;
    double run = tokio_darshan_run_time(log);

    if (nprocs <= 0 || (uint64_t)nprocs > HEATMAP_MAX_CELLS / h->nbins)
        return tokio__error(TOKIO_EINVAL, "'%s': %" PRId64 " ranks by %zu "
                            "bins is too big a heat map",
                            tokio_darshan_logname(log), nprocs, h->nbins);
    h->nranks = (size_t)nprocs;
    h->bin_seconds = run > 0 && isfinite(run) ? run / (double)h->nbins
                                              : 1.0 / (double)h->nbins;
    h->read_bytes = tokio__calloc(h->nranks * h->nbins, sizeof(double));
    h->write_bytes = tokio__calloc(h->nranks * h->nbins, sizeof(double));
    if (h->read_bytes == NULL || h->write_bytes == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory making a heat map "
                            "of '%s'", tokio_darshan_logname(log));
    return TOKIO_OK;
}

int
tokio_darshan_dxt_heatmap_new(struct tokio_darshan_dxt_heatmap **out,
                              size_t nbins)
{
    *out = NULL;
    if (nbins == 0 || nbins > 100000)
        return tokio__error(TOKIO_EINVAL, "heat map of %zu bins (1 to "
                            "100000)", nbins);
    if ((*out = tokio__calloc(1, sizeof(**out))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory making a heat "
                            "map");
    (*out)->nbins = nbins;
    return TOKIO_OK;
}

int
tokio_darshan_dxt_heatmap_record(void *payload,
                                 const struct tokio_darshan *log, int mod,
                                 const struct tokio_darshan_record *r)
{
    struct tokio_darshan_dxt_heatmap *h = payload;
    int rc;

    if (mod != TOKIO_DARSHAN_DXT_POSIX && mod != TOKIO_DARSHAN_DXT_MPIIO)
        return TOKIO_OK;
    if (h->read_bytes == NULL && (rc = heat_shape(h, log)) < 0)
        return rc;
    size_t n = r->n_piece, first = r->seg_first;
    if (r->rank < 0 || (uint64_t)r->rank >= h->nranks) {
        h->skipped += n;
        return TOKIO_OK;
    }
    size_t off = (size_t)r->rank * h->nbins;
    for (size_t k = 0; k < n; k++) {
        const struct tokio_darshan_segment *s = &r->segments[k];
        double *row = (first + k < r->n_writes ? h->write_bytes
                                               : h->read_bytes) + off;
        heat_add(h, row, s->start_time, s->end_time, (double)s->length);
    }
    h->segments += n;
    return TOKIO_OK;
}

int
tokio_darshan_dxt_heatmap_end(struct tokio_darshan_dxt_heatmap *h,
                              const struct tokio_darshan *log)
{
    /* no segments: an empty map of the job's shape */
    return h->read_bytes == NULL ? heat_shape(h, log) : TOKIO_OK;
}

int
tokio_darshan_dxt_heatmap(const char *path, size_t nbins, int modules,
                          struct tokio_darshan_dxt_heatmap **out)
{
    struct tokio_darshan_dxt_heatmap *h = NULL;
    struct tokio_darshan_select sel = {
        .skip_names = 1, .record = tokio_darshan_dxt_heatmap_record,
        .dxt_pieces = 1,
    };
    struct tokio_darshan *log = NULL;
    int rc;

    *out = NULL;
    if (nbins == 0 || nbins > 100000)
        return tokio__error(TOKIO_EINVAL, "heat map of '%s': %zu bins (1 "
                            "to 100000)", path, nbins);
    if (modules & 1)
        sel.modules |= TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX);
    if (modules & 2)
        sel.modules |= TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO);
    if ((rc = tokio_darshan_dxt_heatmap_new(&h, nbins)) < 0)
        return rc;
    sel.payload = h;
    rc = tokio_darshan_open_select(&log, path, &sel);
    if (rc >= 0) {
        int end = tokio_darshan_dxt_heatmap_end(h, log);
        if (end < 0)
            rc = end;
    }
    tokio_darshan_free(log);
    if (rc < 0) {
        tokio_darshan_dxt_heatmap_free(h);
        return rc;
    }
    *out = h;
    return rc;
}

void
tokio_darshan_dxt_heatmap_free(struct tokio_darshan_dxt_heatmap *h)
{
    if (h == NULL)
        return;
    free(h->read_bytes);
    free(h->write_bytes);
    free(h);
}
