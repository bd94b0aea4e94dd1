/*
 * src/tools/darshan_indexer.c - the Darshan index database writer
 * (reference: tokio/cli/index_darshanlogs.py) and the per-file-system
 * byte counts of the reference's summarize_darshanlogs (removed from
 * pytokio in 0a0a92f; its last version is what we follow).
 *
 * The reference ran darshan-parser --base per log and reduced its text;
 * we reduce the native reader's records, with the reference's rules:
 *
 *   - Only POSIX and STDIO records count.  A record's file system is the
 *     longest mount point its name starts with (get_file_mount(), quirks
 *     included: a name without '/' is "UNKNOWN"), and its logical name
 *     is the last mount_to_fsname pattern matching the mount point.
 *   - Integer counters are summed, timestamps reduced with min (start)
 *     or max (end), starting from "no value" (NULL in the database), so a
 *     module without a counter leaves it NULL.  posix_files and
 *     stdio_files count the module's records.
 *   - Reals are what darshan-parser's "%f" text reads back as (the
 *     reference parsed that text).  Rounding is monotonic, so we take the
 *     min/max of the raw doubles and round once.
 *   - File systems whose bytes, reads, writes, opens and stats sum to 0
 *     are dropped; a log with no POSIX or STDIO record or no mount table
 *     is not indexed.
 *
 * Rows are written in input order whatever the number of threads, so
 * row ids (log_id, fs_id) and the whole `.dump` are deterministic; the
 * reference, with --threads, collected results in input order too.
 *
 * Deliberate differences from pytokio, each for robustness:
 *   - A log is "already indexed" when its file name has a headers row
 *     and a summaries row (the reference's rule) -- and a headers row
 *     left without summaries is updated in place instead of failing with
 *     the reference's IntegrityError.
 *   - Two inputs with the same file name: the first wins (the reference
 *     stops with an IntegrityError).
 *   - Partial logs are indexed (darshan-parser without --show-incomplete
 *     refused them).
 *   - The lite parser (--max-mb) is the reference's intent, not its
 *     darshan-util 3.5 failure: the same rows, file counts left NULL,
 *     large logs parsed one at a time to bound memory.
 *   - Directory input is listed in name order (os.listdir() order).
 *   - Only the POSIX and STDIO regions (and the name table) are inflated
 *     (tokio_darshan_open_select()): damage elsewhere in a log does not
 *     keep it out of the index, where darshan-parser failed on it.
 *
 * Records are reduced as the reader decodes them (its record callback),
 * never held: a log of any size costs a few pages beyond its file.
 */
#include "tokio/tools/darshan_indexer.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sqlite3.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/beside.h"
#include "core/error.h"
#include "core/sbuf.h"
#include "tokio/config.h"
#include "tokio/connectors/darshan.h"
#include "tokio/tools/darshan.h"

/* The reference's INTEGER_COUNTERS and REAL_COUNTERS, in its (column)
 * order; the counter is MODULE_ + the upper-cased name. */
#define N_INT 19
#define N_REAL 8
#define I_POSIX_FILES 17
#define I_STDIO_FILES 18
static const char *const int_names[N_INT] = {
    "bytes_read", "bytes_written", "reads", "writes", "file_not_aligned",
    "consec_reads", "consec_writes", "mmaps", "opens", "seeks", "stats",
    "fdsyncs", "fsyncs", "flushes", "seq_reads", "seq_writes",
    "rw_switches", "posix_files", "stdio_files"
};
static const char *const real_names[N_REAL] = {
    "f_close_start_timestamp", "f_close_end_timestamp",
    "f_open_start_timestamp", "f_open_end_timestamp",
    "f_read_start_timestamp", "f_read_end_timestamp",
    "f_write_start_timestamp", "f_write_end_timestamp"
};
/* which reals are reduced with max (the *_end_* ones) */
static const int real_is_max[N_REAL] = { 0, 1, 0, 1, 0, 1, 0, 1 };
/* the check_val counters: bytes_read, bytes_written, reads, writes,
 * opens, stats */
static const int check_ints[] = { 0, 1, 2, 3, 8, 10 };

#define UNKNOWN_MOUNT "UNKNOWN"
#define MIB 1048576.0
#define DEFAULT_BATCH 1000
/* a batch is also committed after this long, so an interruption loses
 * little work even with slow logs */
#define BATCH_SECONDS 1.0
/* results a worker may hold ahead of the writer, per thread: bounds
 * memory for millions of logs */
#define WINDOW_PER_THREAD 64
#define BUSY_TIMEOUT_MS 5000

/* ---- mount_to_fsname ------------------------------------------------ */

struct fsmap_entry {
    pcre2_code *re;
    char *fsname;
};

struct tokio_darshan_fsmap {
    size_t n;
    struct fsmap_entry *e;
};

void
tokio_darshan_fsmap_free(struct tokio_darshan_fsmap *map)
{
    if (map == NULL)
        return;
    for (size_t i = 0; i < map->n; i++) {
        pcre2_code_free(map->e[i].re);
        free(map->e[i].fsname);
    }
    free(map->e);
    free(map);
}

int
tokio_darshan_fsmap_new(struct tokio_darshan_fsmap **out,
                        const struct tokio_config *cfg)
{
    const json_t *obj = cfg ? tokio_config_get(cfg, "mount_to_fsname") : NULL;
    struct tokio_darshan_fsmap *map;
    const char *key;
    json_t *val;

    *out = NULL;
    if ((map = tokio__calloc(1, sizeof(*map))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory for "
                            "mount_to_fsname");
    if (obj == NULL || json_is_null(obj)) {
        *out = map;
        return TOKIO_OK;
    }
    if (!json_is_object(obj)) {
        tokio_darshan_fsmap_free(map);
        return tokio__error(TOKIO_EFORMAT, "site configuration key "
                            "mount_to_fsname: expected an object of "
                            "pattern: name");
    }
    map->e = tokio__calloc(json_object_size(obj) + 1, sizeof(*map->e));
    if (map->e == NULL) {
        tokio_darshan_fsmap_free(map);
        return tokio__error(TOKIO_ENOMEM, "out of memory for "
                            "mount_to_fsname");
    }
    /* jansson keeps insertion order: the file's order, which decides
     * which of several matching patterns wins */
    json_object_foreach((json_t *)obj, key, val) {
        int errcode;
        PCRE2_SIZE erroff;
        struct fsmap_entry *e = &map->e[map->n];

        if (!json_is_string(val)) {
            tokio_darshan_fsmap_free(map);
            return tokio__error(TOKIO_EFORMAT, "site configuration key "
                                "mount_to_fsname: the value of '%s' is not "
                                "a string", key);
        }
        /* Python's re.match(): anchored at the start only; str patterns
         * are Unicode-aware */
        e->re = pcre2_compile((PCRE2_SPTR)key, PCRE2_ZERO_TERMINATED,
                              PCRE2_ANCHORED | PCRE2_UTF | PCRE2_UCP |
                              PCRE2_MATCH_INVALID_UTF,
                              &errcode, &erroff, NULL);
        if (e->re == NULL) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(errcode, msg, sizeof(msg));
            tokio_darshan_fsmap_free(map);
            return tokio__error(TOKIO_EFORMAT, "site configuration key "
                                "mount_to_fsname: bad regular expression "
                                "'%s' at offset %zu: %s", key,
                                (size_t)erroff, (const char *)msg);
        }
        map->n++;
        if ((e->fsname = tokio__strdup(json_string_value(val))) == NULL) {
            tokio_darshan_fsmap_free(map);
            return tokio__error(TOKIO_ENOMEM, "out of memory for "
                                "mount_to_fsname");
        }
    }
    *out = map;
    return TOKIO_OK;
}

const char *
tokio_darshan_fsmap_lookup(const struct tokio_darshan_fsmap *map,
                           const char *mountpt)
{
    const char *found = NULL;
    pcre2_match_data *md;

    if (map == NULL || map->n == 0)
        return NULL;
    if ((md = pcre2_match_data_create(1, NULL)) == NULL)
        return NULL;
    /* every pattern is tried and the last match wins, as the reference
     * loops over its dict without breaking */
    for (size_t i = 0; i < map->n; i++)
        if (pcre2_match(map->e[i].re, (PCRE2_SPTR)mountpt,
                        PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0)
            found = map->e[i].fsname;
    pcre2_match_data_free(md);
    return found;
}

/* ---- one log's summary ---------------------------------------------- */

struct fs_sum {
    char *mountpt;              /* set when kept */
    char *fsname;               /* logical name; set when kept */
    int used;                   /* a record was mapped here */
    int special;                /* last mapping was get_file_mount's
                                 * UNKNOWN branch */
    unsigned char have_i[N_INT], have_r[N_REAL];
    int64_t ival[N_INT];
    double rval[N_REAL];
};

struct log_sum {
    char *filename;             /* base name: the reference's key */
    char *exe, *exename, *username;     /* NULL: none */
    char version[16];
    char jobid[24];
    int64_t end_time, nprocs, start_time, uid, walltime;
    size_t n_fs;                /* kept file systems, in table order */
    struct fs_sum *fs;
    size_t n_alloc;
};

static void
log_sum_free(struct log_sum *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n_alloc; i++) {
        free(s->fs[i].mountpt);
        free(s->fs[i].fsname);
    }
    free(s->fs);
    free(s->filename);
    free(s->exe);
    free(s->exename);
    free(s->username);
    free(s);
}

/* Counter indexes of each name in POSIX and STDIO, -1 where the module
 * has none: found once, as the lists are fixed. */
static int posix_ci[N_INT], posix_fi[N_REAL];
static int stdio_ci[N_INT], stdio_fi[N_REAL];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static int
find_counter(int mod, const char *prefix, const char *name, int real)
{
    char want[64];
    int len = snprintf(want, sizeof(want), "%s_%s", prefix, name);

    for (int i = (int)strlen(prefix) + 1; i < len; i++)
        if (want[i] >= 'a' && want[i] <= 'z')
            want[i] = (char)(want[i] - 'a' + 'A');
    return tokio_darshan_counter_index(mod, want, real);
}

static void
init_indexes(void)
{
    for (int i = 0; i < N_INT; i++) {
        posix_ci[i] = find_counter(TOKIO_DARSHAN_POSIX, "POSIX",
                                   int_names[i], 0);
        stdio_ci[i] = find_counter(TOKIO_DARSHAN_STDIO, "STDIO",
                                   int_names[i], 0);
    }
    for (int i = 0; i < N_REAL; i++) {
        posix_fi[i] = find_counter(TOKIO_DARSHAN_POSIX, "POSIX",
                                   real_names[i], 1);
        stdio_fi[i] = find_counter(TOKIO_DARSHAN_STDIO, "STDIO",
                                   real_names[i], 1);
    }
}

/* Python's str.split() whitespace, ASCII part (darshan_json.c agrees). */
static int
py_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static const char *
base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A mount point while a log is reduced: borrowed from the log. */
struct mnt {
    const char *path;
    size_t len;
};

/*
 * get_file_mount(): index into `order` (mount indexes sorted longest
 * first, stable), or -1 when the record is on no known file system.
 * *special is set when the UNKNOWN branch (not a prefix match) decided.
 */
static long
file_mount(const char *name, const struct mnt *mnt, const size_t *order,
           size_t n, size_t unknown, int *special)
{
    int stdio_name = strcmp(name, "<STDOUT>") == 0 ||
                     strcmp(name, "<STDERR>") == 0;
    int no_sep = strchr(name, '/') == NULL;

    for (size_t k = 0; k < n; k++) {
        const struct mnt *m = &mnt[order[k]];
        if (strncmp(name, m->path, m->len) == 0) {
            *special = 0;
            return (long)order[k];
        }
        if ((stdio_name && order[k] == unknown) || no_sep) {
            *special = 1;
            return (long)unknown;
        }
    }
    return -1;
}

static void
reduce_record(struct fs_sum *f, const struct tokio_darshan_record *r,
              const int *ci, const int *fi, int count_idx, int lite)
{
    for (int i = 0; i < N_INT; i++) {
        if (ci[i] >= 0 && (size_t)ci[i] < r->n_counters) {
            int64_t v = r->counters[ci[i]];
            /* Python's ints do not overflow; wrapping is the closest
             * well-defined thing a 64-bit column can hold */
            f->ival[i] = f->have_i[i]
                ? (int64_t)((uint64_t)f->ival[i] + (uint64_t)v) : v;
            f->have_i[i] = 1;
        } else if (i == count_idx && !lite) {
            f->ival[i] = f->have_i[i] ? f->ival[i] + 1 : 1;
            f->have_i[i] = 1;
        }
    }
    for (int i = 0; i < N_REAL; i++) {
        if (fi[i] < 0 || (size_t)fi[i] >= r->n_fcounters)
            continue;
        double v = r->fcounters[fi[i]];
        if (!f->have_r[i] || (real_is_max[i] ? v > f->rval[i]
                                              : v < f->rval[i]))
            f->rval[i] = v;
        f->have_r[i] = 1;
    }
}

/* Insertion sort: stable, and mount tables are short. */
static void
sort_by_len(size_t *order, const struct mnt *mnt, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t v = order[i], j = i;
        size_t len = mnt[v].len;
        while (j > 0 && mnt[order[j - 1]].len < len) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}

/* A log being summarized, record by record. */
struct summing {
    int lite;
    size_t n_records;           /* POSIX and STDIO records seen */
    struct log_sum *s;          /* NULL until the first record */
    struct mnt *mnt;            /* the mount table, then UNKNOWN */
    size_t *order;              /* mnt indexes, longest path first */
    size_t unknown;             /* UNKNOWN's index in mnt */
    /* a log's records come rank after rank for the same few files: a
     * name maps as the one before it did */
    const char *last;
    long k;
    int special;
};

/* The mount table as the reference's dict keys (first position of a path
 * wins), then UNKNOWN for STDIO's streams. */
static int
summing_start(struct summing *sg, const struct tokio_darshan *log)
{
    size_t n_mounts = tokio_darshan_mount_count(log);
    struct log_sum *s;

    if ((s = sg->s = tokio__calloc(1, sizeof(*s))) == NULL ||
        (s->fs = tokio__calloc(n_mounts + 1, sizeof(*s->fs))) == NULL ||
        (sg->order = tokio__calloc(n_mounts + 1, sizeof(*sg->order))) ==
            NULL ||
        (sg->mnt = tokio__calloc(n_mounts + 1, sizeof(*sg->mnt))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory summarizing '%s'",
                            tokio_darshan_logname(log));
    for (size_t i = 0; i <= n_mounts; i++) {
        const char *p = i < n_mounts ? tokio_darshan_mount(log, i)->path
                                     : UNKNOWN_MOUNT;
        size_t len = strlen(p);
        int dup = 0;
        for (size_t k = 0; k < s->n_alloc && !dup; k++)
            dup = sg->mnt[k].len == len &&
                  memcmp(sg->mnt[k].path, p, len) == 0;
        if (dup && i < n_mounts)
            continue;
        /* a table entry named UNKNOWN and the appended one share a key */
        if (dup)
            break;
        if (strcmp(p, UNKNOWN_MOUNT) == 0)
            sg->unknown = s->n_alloc;
        sg->mnt[s->n_alloc].path = p;
        sg->mnt[s->n_alloc].len = len;
        sg->order[s->n_alloc] = s->n_alloc;
        s->n_alloc++;
    }
    sort_by_len(sg->order, sg->mnt, s->n_alloc);
    return TOKIO_OK;
}

/* The reader's record callback: one POSIX or STDIO record in. */
static int
sum_record(void *payload, const struct tokio_darshan *log, int mod,
           const struct tokio_darshan_record *r)
{
    struct summing *sg = payload;
    int posix = mod == TOKIO_DARSHAN_POSIX;
    int rc;

    sg->n_records++;
    /* a log without a mount table is not indexed */
    if (tokio_darshan_mount_count(log) == 0)
        return TOKIO_OK;
    if (sg->s == NULL && (rc = summing_start(sg, log)) < 0)
        return rc;
    const char *name = tokio_darshan_name(log, r->id);
    /* darshan-parser names a record only through the table */
    if (name == NULL)
        return TOKIO_OK;
    if (name != sg->last) {
        sg->k = file_mount(name, sg->mnt, sg->order, sg->s->n_alloc,
                           sg->unknown, &sg->special);
        sg->last = name;
    }
    if (sg->k < 0)
        return TOKIO_OK;
    struct fs_sum *f = &sg->s->fs[sg->k];
    f->used = 1;
    f->special = sg->special;
    reduce_record(f, r, posix ? posix_ci : stdio_ci,
                  posix ? posix_fi : stdio_fi,
                  posix ? I_POSIX_FILES : I_STDIO_FILES, sg->lite);
    return TOKIO_OK;
}

/*
 * Summarize one log.  *out is NULL with *why set (borrowed text) when the
 * reference would return {} for a readable log; rc < 0 when unreadable.
 */
static int
summarize_log(struct log_sum **out, const char **why, const char *path,
              const struct tokio_darshan_fsmap *map, int lite)
{
    struct summing sg = { .lite = lite };
    /* only POSIX and STDIO records count: the other regions are not
     * even inflated */
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX) |
                   TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_STDIO),
        .record = sum_record,
        .payload = &sg,
    };
    struct tokio_darshan *log = NULL;
    struct log_sum *s = NULL;
    int rc;

    *out = NULL;
    *why = NULL;
    pthread_once(&index_once, init_indexes);
    /* TOKIO_PARTIAL stays in rc: the caller says so */
    rc = tokio_darshan_open_select(&log, path, &sel);
    s = sg.s;
    if (rc < 0)
        goto done;
    if (sg.n_records == 0) {
        *why = "no counters found";
        goto done;
    }
    if (s == NULL) {
        *why = "no mount table found";
        goto done;
    }
    const struct mnt *mnt = sg.mnt;

    /* drop file systems without I/O; name the rest */
    size_t kept = 0;
    for (size_t k = 0; k < s->n_alloc; k++) {
        struct fs_sum *f = &s->fs[k];
        /* wrapping, as the sums themselves (reduce_record) */
        uint64_t check = 0;
        for (size_t c = 0; c < sizeof(check_ints) / sizeof(*check_ints);
             c++)
            if (f->have_i[check_ints[c]])
                check += (uint64_t)f->ival[check_ints[c]];
        if (check == 0)
            continue;
        const char *logical = mnt[k].path;
        if (f->used && f->special) {
            logical = UNKNOWN_MOUNT;
        } else if (f->used) {
            const char *l = tokio_darshan_fsmap_lookup(map, mnt[k].path);
            if (l != NULL)
                logical = l;
        }
        if ((f->mountpt = tokio__strdup(mnt[k].path)) == NULL ||
            (f->fsname = tokio__strdup(logical)) == NULL)
            goto nomem;
        for (int i = 0; i < N_REAL; i++)
            if (f->have_r[i])
                f->rval[i] = tokio_darshan_printed(f->rval[i]);
        if (kept != k) {
            struct fs_sum tmp = s->fs[kept];
            s->fs[kept] = *f;
            *f = tmp;
        }
        kept++;
    }
    s->n_fs = kept;

    /* the header, as the reference read darshan-parser's preamble */
    const struct tokio_darshan_job *j = tokio_darshan_job(log);
    char wall[400];
    snprintf(wall, sizeof(wall), "%.4f", tokio_darshan_run_time(log));
    double w = trunc(strtod(wall, NULL));
    s->walltime = w >= -9.2e18 && w <= 9.2e18 ? (int64_t)w : 0;
    s->end_time = j->end_time;
    s->start_time = j->start_time;
    s->nprocs = j->nprocs;
    s->uid = j->uid;
    snprintf(s->jobid, sizeof(s->jobid), "%" PRId64, j->jobid);
    snprintf(s->version, sizeof(s->version), "%s",
             tokio_darshan_version(log));
    if ((s->filename = tokio__strdup(base_name(path))) == NULL)
        goto nomem;
    const char *e = j->exe;
    while (*e && py_space((unsigned char)*e))
        e++;
    if (*e) {
        const char *w_end = e;
        while (*w_end && !py_space((unsigned char)*w_end))
            w_end++;
        if ((s->exe = tokio__strndup(e, (size_t)(w_end - e))) == NULL ||
            (s->exename = tokio__strdup(base_name(s->exe))) == NULL)
            goto nomem;
    }
    struct tokio_darshan_filename *fn = NULL;
    int frc = tokio_darshan_parse_filename(&fn, path);
    if (frc == TOKIO_ENOMEM)
        goto nomem;
    if (frc < 0) {
        tokio_errclear();       /* not a runtime-named log: no user name */
    } else {
        s->username = fn->username;
        fn->username = NULL;
        tokio_darshan_filename_free(fn);
    }
    *out = s;
    s = NULL;
    goto done;

nomem:
    rc = tokio__error(TOKIO_ENOMEM, "out of memory summarizing '%s'", path);
done:
    free(sg.order);
    free(sg.mnt);
    log_sum_free(s);
    tokio_darshan_free(log);
    return rc;
}

static json_t *
int_or_null(int have, int64_t v)
{
    return have ? json_integer((json_int_t)v) : json_null();
}

static json_t *
str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *
log_sum_json(const struct log_sum *s)
{
    json_t *h = json_object(), *m = json_object(), *su = json_object();
    json_t *o = json_pack("{s:o, s:o, s:o}", "headers", h, "mounts", m,
                          "summaries", su);
    if (o == NULL)
        return NULL;
    json_object_set_new(h, "filename", json_string(s->filename));
    json_object_set_new(h, "end_time", json_integer(s->end_time));
    json_object_set_new(h, "jobid", json_string(s->jobid));
    json_object_set_new(h, "nprocs", json_integer(s->nprocs));
    json_object_set_new(h, "start_time", json_integer(s->start_time));
    json_object_set_new(h, "uid", json_integer(s->uid));
    json_object_set_new(h, "version", json_string(s->version));
    json_object_set_new(h, "walltime", json_integer(s->walltime));
    json_object_set_new(h, "exe", str_or_null(s->exe));
    json_object_set_new(h, "exename", str_or_null(s->exename));
    json_object_set_new(h, "username", str_or_null(s->username));
    for (size_t k = 0; k < s->n_fs; k++) {
        const struct fs_sum *f = &s->fs[k];
        json_t *c = json_object();
        json_object_set_new(m, f->mountpt, json_string(f->fsname));
        for (int i = 0; i < N_INT; i++)
            json_object_set_new(c, int_names[i],
                                int_or_null(f->have_i[i], f->ival[i]));
        for (int i = 0; i < N_REAL; i++)
            json_object_set_new(c, real_names[i], f->have_r[i]
                                ? json_real(f->rval[i]) : json_null());
        json_object_set_new(c, "filename", json_string(s->filename));
        json_object_set_new(su, f->mountpt, c);
    }
    return o;
}

int
tokio_darshan_summarize_by_fs(json_t **out, const char *path,
                              const struct tokio_darshan_fsmap *map,
                              int lite)
{
    struct log_sum *s = NULL;
    const char *why;
    int rc;

    *out = NULL;
    if (path == NULL)
        return tokio__error(TOKIO_EINVAL, "no log to summarize");
    if ((rc = summarize_log(&s, &why, path, map, lite)) < 0)
        return rc;
    *out = s ? log_sum_json(s) : json_object();
    log_sum_free(s);
    if (*out == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory summarizing '%s'",
                            path);
    return TOKIO_OK;
}

/* ---- the database ----------------------------------------------------- */

/* The reference's CREATE statements, byte for byte: SQLite keeps their
 * text, and `.dump` prints it. */
static const char create_mounts[] =
    "CREATE TABLE IF NOT EXISTS mounts (\n"
    "        fs_id INTEGER PRIMARY KEY,\n"
    "        mountpt CHAR UNIQUE,\n"
    "        fsname CHAR\n"
    "    )\n    ";
static const char create_headers[] =
    "CREATE TABLE IF NOT EXISTS headers (\n"
    "        log_id INTEGER PRIMARY KEY,\n"
    "        filename CHAR UNIQUE,\n"
    "        end_time INTEGER,\n"
    "        exe CHAR,\n"
    "        exename CHAR,\n"
    "        jobid CHAR,\n"
    "        nprocs INTEGER,\n"
    "        start_time INTEGER,\n"
    "        uid INTEGER,\n"
    "        username CHAR,\n"
    "        version CHAR,\n"
    "        walltime INTEGER\n"
    "    )\n    ";

/* The summaries table as the reference assembles it from its lists. */
static char *
create_summaries_sql(void)
{
    struct tokio__sbuf b = { 0 };

    tokio__sbuf_str(&b, "CREATE TABLE IF NOT EXISTS summaries (\n"
                        "        log_id INTEGER,\n"
                        "        fs_id INTEGER,\n    ");
    for (int i = 0; i < N_INT; i++) {
        tokio__sbuf_str(&b, int_names[i]);
        tokio__sbuf_str(&b, i + 1 < N_INT ? " INTEGER,\n    "
                                          : " INTEGER, \n    ");
    }
    for (int i = 0; i < N_REAL; i++) {
        tokio__sbuf_str(&b, real_names[i]);
        tokio__sbuf_str(&b, " REAL,\n    ");
    }
    tokio__sbuf_str(&b, "\n"
                    "        FOREIGN KEY (fs_id) REFERENCES mounts (fs_id),\n"
                    "        FOREIGN KEY (log_id) REFERENCES headers "
                    "(log_id),\n"
                    "        UNIQUE(log_id, fs_id)\n    )\n    ");
    return tokio__sbuf_take(&b);
}

static char *
insert_summary_sql(void)
{
    struct tokio__sbuf b = { 0 };

    tokio__sbuf_str(&b, "INSERT OR REPLACE INTO summaries (log_id, fs_id");
    for (int i = 0; i < N_INT; i++) {
        tokio__sbuf_str(&b, ", ");
        tokio__sbuf_str(&b, int_names[i]);
    }
    for (int i = 0; i < N_REAL; i++) {
        tokio__sbuf_str(&b, ", ");
        tokio__sbuf_str(&b, real_names[i]);
    }
    tokio__sbuf_str(&b, ") VALUES (?, ?");
    for (int i = 0; i < N_INT + N_REAL; i++)
        tokio__sbuf_str(&b, ", ?");
    tokio__sbuf_str(&b, ")");
    return tokio__sbuf_take(&b);
}

/* The header's columns in the reference's insert order; a headers row
 * left without summaries (a damaged index) is updated in place. */
static const char insert_header_sql[] =
    "INSERT INTO headers (filename, exe, username, exename, end_time, "
    "jobid, nprocs, start_time, uid, version, walltime) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT(filename) DO UPDATE SET exe = excluded.exe, "
    "username = excluded.username, exename = excluded.exename, "
    "end_time = excluded.end_time, jobid = excluded.jobid, "
    "nprocs = excluded.nprocs, start_time = excluded.start_time, "
    "uid = excluded.uid, version = excluded.version, "
    "walltime = excluded.walltime "
    "RETURNING log_id";

/* A mounts row this run wrote or read. */
struct fs_id {
    char *mountpt;
    int64_t id;
};

struct db {
    sqlite3 *h;
    const char *path;
    sqlite3_stmt *ins_mount, *get_mount, *ins_header, *ins_summary;
    sqlite3_stmt *indexed;
    int in_txn;
    /* such a row never changes, so each mount point costs two statements
     * once per run rather than per log (an error ends the run, so nothing
     * rolled back stays here); a site has a few */
    struct fs_id *fs_ids;
    size_t n_fs_ids;
};

static int
db_error(struct db *d, const char *what)
{
    int code = sqlite3_errcode(d->h);
    int status = code == SQLITE_NOTADB || code == SQLITE_CORRUPT ||
                 code == SQLITE_ERROR ? TOKIO_EFORMAT
               : code == SQLITE_NOMEM ? TOKIO_ENOMEM : TOKIO_EIO;

    return tokio__error(status, "index '%s': %s: %s", d->path, what,
                        sqlite3_errmsg(d->h));
}

static int
db_exec(struct db *d, const char *sql, const char *what)
{
    if (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_error(d, what);
    return TOKIO_OK;
}

static void
db_close(struct db *d)
{
    for (size_t i = 0; i < d->n_fs_ids; i++)
        free(d->fs_ids[i].mountpt);
    free(d->fs_ids);
    d->fs_ids = NULL;
    d->n_fs_ids = 0;
    if (d->h == NULL)
        return;
    if (d->in_txn)
        sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_finalize(d->ins_mount);
    sqlite3_finalize(d->get_mount);
    sqlite3_finalize(d->ins_header);
    sqlite3_finalize(d->ins_summary);
    sqlite3_finalize(d->indexed);
    sqlite3_close(d->h);
    d->h = NULL;
}

static int
db_open(struct db *d, const char *path)
{
    char *sum_sql = NULL;
    int rc;

    memset(d, 0, sizeof(*d));
    d->path = path;
    if (sqlite3_open_v2(path, &d->h, SQLITE_OPEN_READWRITE |
                        SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)
        != SQLITE_OK) {
        if (d->h == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                                path);
        rc = tokio__error(TOKIO_EIO, "index '%s': cannot open: %s", path,
                          sqlite3_errmsg(d->h));
        sqlite3_close(d->h);
        d->h = NULL;
        return rc;
    }
    sqlite3_busy_timeout(d->h, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(d->h, 0);
    if ((sum_sql = create_summaries_sql()) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    /* the rollback journal (the reference's default mode) is what makes
     * a killed run harmless: the next open rolls the hot journal back */
    if ((rc = db_exec(d, "BEGIN", "cannot start a transaction")) < 0 ||
        (rc = db_exec(d, create_mounts, "cannot create table mounts")) < 0 ||
        (rc = db_exec(d, create_headers, "cannot create table headers")) < 0
        || (rc = db_exec(d, sum_sql, "cannot create table summaries")) < 0
        || (rc = db_exec(d, "COMMIT", "cannot commit")) < 0) {
        free(sum_sql);
        sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    free(sum_sql);
    if ((sum_sql = insert_summary_sql()) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    if (sqlite3_prepare_v2(d->h, "INSERT OR IGNORE INTO mounts (mountpt, "
                           "fsname) VALUES (?, ?)", -1, &d->ins_mount, NULL)
        != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, "SELECT fs_id FROM mounts WHERE mountpt "
                           "= ?", -1, &d->get_mount, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, insert_header_sql, -1, &d->ins_header,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, sum_sql, -1, &d->ins_summary, NULL)
        != SQLITE_OK ||
        sqlite3_prepare_v2(d->h, "SELECT 1 FROM summaries AS s INNER JOIN "
                           "headers AS h ON s.log_id = h.log_id WHERE "
                           "h.filename = ? LIMIT 1", -1, &d->indexed, NULL)
        != SQLITE_OK) {
        free(sum_sql);
        return db_error(d, "not a Darshan index");
    }
    free(sum_sql);
    return TOKIO_OK;
}

/* get_existing_logs(), asked one name at a time: whether `name` has a
 * headers row and a summaries row.  1, 0, or an error. */
static int
db_indexed(struct db *d, const char *name)
{
    sqlite3_bind_text(d->indexed, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(d->indexed);
    sqlite3_reset(d->indexed);
    sqlite3_clear_bindings(d->indexed);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return db_error(d, "cannot read the indexed logs");
    return step == SQLITE_ROW;
}

/* How many logs the index holds (headers rows with summaries). */
static int
db_count_indexed(struct db *d, size_t *n_out)
{
    sqlite3_stmt *st = NULL;
    int step;

    *n_out = 0;
    if (sqlite3_prepare_v2(d->h, "SELECT COUNT(DISTINCT h.filename) FROM "
                           "summaries AS s INNER JOIN headers AS h ON "
                           "s.log_id = h.log_id", -1, &st, NULL)
        != SQLITE_OK)
        return db_error(d, "not a Darshan index");
    if ((step = sqlite3_step(st)) == SQLITE_ROW)
        *n_out = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? TOKIO_OK
                              : db_error(d, "cannot read the indexed logs");
}

static int
bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
    return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC)
             : sqlite3_bind_null(st, i);
}

static int
step_done(struct db *d, sqlite3_stmt *st, const char *what)
{
    int step = sqlite3_step(st);

    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (step != SQLITE_DONE)
        return db_error(d, what);
    return TOKIO_OK;
}

static int
fs_id_of(struct db *d, const struct fs_sum *f, int64_t *id)
{
    int rc, step;

    for (size_t i = 0; i < d->n_fs_ids; i++)
        if (strcmp(d->fs_ids[i].mountpt, f->mountpt) == 0) {
            *id = d->fs_ids[i].id;
            return TOKIO_OK;
        }
    sqlite3_bind_text(d->ins_mount, 1, f->mountpt, -1, SQLITE_STATIC);
    sqlite3_bind_text(d->ins_mount, 2, f->fsname, -1, SQLITE_STATIC);
    if ((rc = step_done(d, d->ins_mount, "cannot add a mount")) < 0)
        return rc;
    sqlite3_bind_text(d->get_mount, 1, f->mountpt, -1, SQLITE_STATIC);
    step = sqlite3_step(d->get_mount);
    if (step == SQLITE_ROW)
        *id = sqlite3_column_int64(d->get_mount, 0);
    sqlite3_reset(d->get_mount);
    sqlite3_clear_bindings(d->get_mount);
    if (step != SQLITE_ROW)
        return db_error(d, "cannot find a mount");
    struct fs_id *more = tokio__reallocarray(d->fs_ids, d->n_fs_ids + 1,
                                             sizeof(*more));
    if (more != NULL)
        d->fs_ids = more;
    if (more == NULL ||
        (more[d->n_fs_ids].mountpt = tokio__strdup(f->mountpt)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "index '%s': out of memory",
                            d->path);
    more[d->n_fs_ids++].id = *id;
    return TOKIO_OK;
}

/* insert_summary(): the log's mounts, header and summaries. */
static int
db_insert(struct db *d, const struct log_sum *s)
{
    sqlite3_stmt *h = d->ins_header, *su = d->ins_summary;
    int64_t log_id = 0;
    int rc, step;

    for (size_t k = 0; k < s->n_fs; k++) {
        int64_t id;
        if ((rc = fs_id_of(d, &s->fs[k], &id)) < 0)
            return rc;
    }
    sqlite3_bind_text(h, 1, s->filename, -1, SQLITE_STATIC);
    bind_text_or_null(h, 2, s->exe);
    bind_text_or_null(h, 3, s->username);
    bind_text_or_null(h, 4, s->exename);
    sqlite3_bind_int64(h, 5, s->end_time);
    sqlite3_bind_text(h, 6, s->jobid, -1, SQLITE_STATIC);
    sqlite3_bind_int64(h, 7, s->nprocs);
    sqlite3_bind_int64(h, 8, s->start_time);
    sqlite3_bind_int64(h, 9, s->uid);
    sqlite3_bind_text(h, 10, s->version, -1, SQLITE_STATIC);
    sqlite3_bind_int64(h, 11, s->walltime);
    step = sqlite3_step(h);
    if (step == SQLITE_ROW) {
        log_id = sqlite3_column_int64(h, 0);
        step = sqlite3_step(h);
    }
    sqlite3_reset(h);
    sqlite3_clear_bindings(h);
    if (step != SQLITE_DONE)
        return db_error(d, "cannot add a header");

    for (size_t k = 0; k < s->n_fs; k++) {
        const struct fs_sum *f = &s->fs[k];
        int64_t fs_id = 0;
        if ((rc = fs_id_of(d, f, &fs_id)) < 0)
            return rc;
        sqlite3_bind_int64(su, 1, log_id);
        sqlite3_bind_int64(su, 2, fs_id);
        for (int i = 0; i < N_INT; i++)
            if (f->have_i[i])
                sqlite3_bind_int64(su, 3 + i, f->ival[i]);
        for (int i = 0; i < N_REAL; i++)
            if (f->have_r[i])
                sqlite3_bind_double(su, 3 + N_INT + i, f->rval[i]);
        if ((rc = step_done(d, su, "cannot add a summary")) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* ---- shards and merging them ------------------------------------------ */

/* Shards of a run: a part is tagged N << 16 | K in its user_version. */
#define SHARD_MAX 65535u

int
tokio_darshan_in_shard(const char *name, unsigned k, unsigned n)
{
    uLong crc = crc32(0L, Z_NULL, 0);

    if (n == 0)
        return 1;
    crc = crc32(crc, (const Bytef *)name, (uInt)strlen(name));
    return (unsigned)(crc % n) == k - 1;
}

static int
db_user_version(sqlite3 *h, int64_t *v)
{
    sqlite3_stmt *st = NULL;
    int step;

    *v = 0;
    if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL)
        != SQLITE_OK)
        return -1;
    if ((step = sqlite3_step(st)) == SQLITE_ROW)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? 0 : -1;
}

/* Tag the index as shard k/n's part, unless it is another's. */
static int
db_tag_shard(struct db *d, unsigned k, unsigned n, size_t held)
{
    int64_t want = (int64_t)n << 16 | k, have;
    char sql[64];

    if (db_user_version(d->h, &have) < 0)
        return db_error(d, "cannot read its shard");
    if (have == want)
        return TOKIO_OK;
    if (have != 0)
        return tokio__error(TOKIO_EFORMAT, "index '%s' is the part of "
                            "shard %u/%u, not of %u/%u", d->path,
                            (unsigned)(have & 0xffff),
                            (unsigned)(have >> 16), k, n);
    if (held > 0)
        return tokio__error(TOKIO_EFORMAT, "index '%s' already holds logs "
                            "of a run that was not shard %u/%u: give each "
                            "shard its own part", d->path, k, n);
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld",
             (long long)want);
    return db_exec(d, sql, "cannot tag it as a shard's part");
}

/* A new index can be made in its folder: said before any log is read. */
static int
folder_writable(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];

    if (slash == NULL)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == path)
        snprintf(dir, sizeof(dir), "/");
    else
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) != 0)
        return tokio__error(TOKIO_EIO, "index '%s': cannot open: %s", path,
                            strerror(errno));
    return TOKIO_OK;
}

/*
 * The index, opened (made, when new) on first need: a run over logs none
 * of which can be read leaves no new file behind.  *held: the logs it
 * held before.
 */
static int
db_ensure(struct db *d, const char *path,
          const struct tokio_darshan_index_opts *o, size_t *held)
{
    int rc;

    if (d->h != NULL)
        return TOKIO_OK;
    if ((rc = db_open(d, path)) < 0 ||
        (rc = db_count_indexed(d, held)) < 0 ||
        (o->shard_n > 0 &&
         (rc = db_tag_shard(d, o->shard_k, o->shard_n, *held)) < 0))
        return rc;
    return TOKIO_OK;
}

/* ---- the pool: workers parse, the caller writes in input order ------- */

struct slot {
    int done;
    int rc;                     /* summarize_log()'s status */
    struct log_sum *sum;        /* NULL: nothing to index */
    char *why;                  /* when sum is NULL */
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;       /* the writer may go on */
    pthread_cond_t room;        /* the writer freed a slot */
    pthread_mutex_t lite_lock;  /* one lite (large) log at a time */
    const char *const *logs;
    size_t n, window;
    size_t next_claim, next_write;
    /* who sleeps: each is signalled only then (a futex call saved) */
    int writer_waits;
    unsigned workers_wait;
    int stop;
    struct slot *slots;
    const struct tokio_darshan_fsmap *map;
    double max_mb;
    const char *db_path;        /* for db_ensure() */
};

static int
is_large(const char *path, double max_mb)
{
    struct stat st;

    /* 0 < max_mb <= size in MiB, the reference's test */
    return max_mb > 0.0 && stat(path, &st) == 0 &&
           max_mb <= (double)st.st_size / MIB;
}

static void
process_one(struct pool *p, size_t i, struct slot *out)
{
    const char *path = p->logs[i];
    const char *why = NULL;
    int lite = is_large(path, p->max_mb);

    if (lite)
        pthread_mutex_lock(&p->lite_lock);
    out->rc = summarize_log(&out->sum, &why, path, p->map, lite);
    if (lite)
        pthread_mutex_unlock(&p->lite_lock);
    if (out->rc < 0)
        why = tokio_errmsg();
    if (why != NULL)
        out->why = tokio__strdup(why);   /* NULL: the writer says "failed" */
}

/*
 * A writer that has caught up sleeps until the WAKE_BATCH slots from the
 * one it needs are filled (or the last ones are): woken for every log,
 * it would cost two context switches a log.  The window is larger, so
 * the workers can always fill them.
 */
#define WAKE_BATCH 16

static int
writer_may_go(const struct pool *p)
{
    size_t end = p->next_write + WAKE_BATCH;

    if (end > p->n)
        end = p->n;
    for (size_t i = p->next_write; i < end; i++)
        if (!p->slots[i % p->window].done)
            return 0;
    return 1;
}

static void *
worker(void *arg)
{
    struct pool *p = arg;

    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (!p->stop && p->next_claim < p->n &&
               p->next_claim >= p->next_write + p->window) {
            p->workers_wait++;
            pthread_cond_wait(&p->room, &p->lock);
            p->workers_wait--;
        }
        if (p->stop || p->next_claim >= p->n) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        size_t i = p->next_claim++;
        pthread_mutex_unlock(&p->lock);

        struct slot r = { 0 };
        process_one(p, i, &r);

        pthread_mutex_lock(&p->lock);
        p->slots[i % p->window] = r;
        p->slots[i % p->window].done = 1;
        if (p->writer_waits && writer_may_go(p))
            pthread_cond_signal(&p->ready);
        pthread_mutex_unlock(&p->lock);
    }
}

static double
now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* process_log_list()'s directory case: its regular files, by name. */
static int
list_dir(char ***out, size_t *n_out, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **v = NULL;
    size_t n = 0, cap = 0;
    int rc = TOKIO_OK;

    *out = NULL;
    *n_out = 0;
    if (d == NULL)
        return tokio__error(TOKIO_EIO, "cannot read folder '%s': %s", dir,
                            strerror(errno));
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (e->d_type != DT_REG && e->d_type != DT_LNK &&
            e->d_type != DT_UNKNOWN)
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = tokio__malloc(len);
        if (path == NULL) {
            rc = TOKIO_ENOMEM;
            break;
        }
        snprintf(path, len, "%s/%s", dir, e->d_name);
        /* the directory says what most entries are; a link or an
         * unknown type costs a stat() */
        if (e->d_type != DT_REG &&
            (stat(path, &st) != 0 || !S_ISREG(st.st_mode))) {
            free(path);
            continue;
        }
        if (n == cap) {
            char **nv = tokio__reallocarray(v, cap ? cap * 2 : 64,
                                            sizeof(*v));
            if (nv == NULL) {
                free(path);
                rc = TOKIO_ENOMEM;
                break;
            }
            v = nv;
            cap = cap ? cap * 2 : 64;
        }
        v[n++] = path;
    }
    closedir(d);
    if (rc < 0) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return tokio__error(TOKIO_ENOMEM, "out of memory listing '%s'", dir);
    }
    if (n > 0)
        qsort(v, n, sizeof(*v), cmp_str);
    *out = v;
    *n_out = n;
    return TOKIO_OK;
}

int
tokio_darshan_list_folder(const char *dir, char ***out, size_t *n_out)
{
    return list_dir(out, n_out, dir);
}

static void
warn_log(const struct tokio_darshan_index_opts *o, const char *path,
         const char *why)
{
    if (o->warn != NULL)
        o->warn(o->arg, path, why);
}

/* The writer: takes slot after slot in input order. */
static int
write_results(struct pool *p, struct db *d,
              const struct tokio_darshan_index_opts *o,
              struct tokio_darshan_index_stats *st, size_t done_before,
              size_t total)
{
    size_t batch = o->batch_logs ? o->batch_logs : DEFAULT_BATCH;
    size_t in_batch = 0;
    double t0 = now_seconds();
    int rc = TOKIO_OK;

    if (o->no_bulk_insert)
        batch = 1;
    for (size_t i = 0; i < p->n; i++) {
        pthread_mutex_lock(&p->lock);
        if (!p->slots[i % p->window].done) {
            p->writer_waits = 1;
            while (!writer_may_go(p))
                pthread_cond_wait(&p->ready, &p->lock);
            p->writer_waits = 0;
        }
        struct slot r = p->slots[i % p->window];
        memset(&p->slots[i % p->window], 0, sizeof(r));
        p->next_write++;
        if (p->workers_wait > 0)
            pthread_cond_broadcast(&p->room);
        pthread_mutex_unlock(&p->lock);

        if (r.sum == NULL) {
            st->n_failed++;
            st->n_unreadable += r.rc < 0;
            if (r.rc < 0 && o->unreadable != NULL)
                o->unreadable(o->arg, p->logs[i], r.why ? r.why
                              : "cannot be read");
            else
                warn_log(o, p->logs[i], r.why ? r.why : "cannot be indexed");
        } else {
            if (r.rc == TOKIO_PARTIAL)
                warn_log(o, p->logs[i], "log is partial (a module ran out "
                         "of memory); indexed what it holds");
            if ((rc = db_ensure(d, p->db_path, o,
                                &st->n_existing_in_db)) < 0)
                goto stop;
            if (!d->in_txn) {
                if ((rc = db_exec(d, "BEGIN", "cannot start a "
                                  "transaction")) < 0)
                    goto stop;
                d->in_txn = 1;
                t0 = now_seconds();
            }
            if ((rc = db_insert(d, r.sum)) < 0)
                goto stop;
            st->n_indexed++;
            in_batch++;
        }
        if (d->in_txn && (in_batch >= batch ||
                          now_seconds() - t0 >= BATCH_SECONDS)) {
            d->in_txn = 0;
            if ((rc = db_exec(d, "COMMIT", "cannot commit")) < 0) {
                d->in_txn = 1;
                goto stop;
            }
            in_batch = 0;
        }
        log_sum_free(r.sum);
        free(r.why);
        if (o->progress != NULL)
            o->progress(o->arg, done_before + i + 1, total);
        continue;
stop:
        log_sum_free(r.sum);
        free(r.why);
        return rc;
    }
    if (d->in_txn) {
        d->in_txn = 0;
        if ((rc = db_exec(d, "COMMIT", "cannot commit")) < 0)
            d->in_txn = 1;
    }
    return rc;
}

static int
run_pool(struct pool *p, struct db *d,
         const struct tokio_darshan_index_opts *o,
         struct tokio_darshan_index_stats *st, size_t done_before,
         size_t total)
{
    unsigned threads = o->threads ? o->threads : 1;
    pthread_t *tids;
    unsigned started = 0;
    int rc;

    if (p->n == 0)
        return TOKIO_OK;
    if ((size_t)threads > p->n)
        threads = (unsigned)p->n;
    p->window = (size_t)threads * WINDOW_PER_THREAD;
    p->slots = tokio__calloc(p->window, sizeof(*p->slots));
    tids = tokio__calloc(threads, sizeof(*tids));
    if (p->slots == NULL || tids == NULL) {
        free(tids);
        return tokio__error(TOKIO_ENOMEM, "out of memory for the indexer");
    }
    for (; started < threads; started++)
        if (pthread_create(&tids[started], NULL, worker, p) != 0)
            break;
    if (started == 0) {
        free(tids);
        return tokio__error(TOKIO_ERR, "cannot start a worker thread");
    }
    rc = write_results(p, d, o, st, done_before, total);
    if (rc < 0) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_broadcast(&p->room);
        pthread_mutex_unlock(&p->lock);
    }
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    free(tids);
    /* results the writer never took (it stopped on an error) */
    for (size_t i = 0; i < p->window; i++) {
        log_sum_free(p->slots[i].sum);
        free(p->slots[i].why);
    }
    return rc;
}

/* An input and its base name, the key logs go by. */
struct given {
    const char *name;
    size_t i;
};

static int
cmp_given(const void *a, const void *b)
{
    const struct given *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c != 0 ? c : (x->i > y->i) - (x->i < y->i);
}

/* *out[i] is 1 where logs[i]'s base name was given before (the first
 * wins): sorting the names puts the repeats behind their first. */
static int
given_again(unsigned char **out, const char *const *logs, size_t n)
{
    struct given *g = tokio__calloc(n ? n : 1, sizeof(*g));

    if (g == NULL || (*out = tokio__calloc(n ? n : 1, 1)) == NULL) {
        free(g);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        g[i].name = base_name(logs[i]);
        g[i].i = i;
    }
    qsort(g, n, sizeof(*g), cmp_given);
    for (size_t k = 1; k < n; k++)
        if (strcmp(g[k].name, g[k - 1].name) == 0)
            (*out)[g[k].i] = 1;
    free(g);
    return TOKIO_OK;
}

int
tokio_darshan_index(const char *db_path, const char *const *logs, size_t n,
                    const struct tokio_config *cfg,
                    const struct tokio_darshan_index_opts *opts,
                    struct tokio_darshan_index_stats *stats_out)
{
    static const struct tokio_darshan_index_opts defaults = { 0 };
    const struct tokio_darshan_index_opts *o = opts ? opts : &defaults;
    struct tokio_darshan_index_stats st = { 0 };
    struct tokio_darshan_fsmap *map = NULL;
    struct db d = { 0 };
    char **listed = NULL;
    size_t n_listed = 0;
    const char **todo = NULL;
    size_t n_todo = 0;
    unsigned char *again = NULL;
    const char **share = NULL;
    struct pool p;
    struct stat sb;
    int rc;

    if (stats_out != NULL)
        memset(stats_out, 0, sizeof(*stats_out));
    if (db_path == NULL || (n > 0 && logs == NULL))
        return tokio__error(TOKIO_EINVAL, "no index or no logs given");
    if (o->max_mb < 0 || isnan(o->max_mb))
        return tokio__error(TOKIO_EINVAL, "max_mb must be 0 or more");
    if (o->shard_n > SHARD_MAX ||
        (o->shard_n > 0 && (o->shard_k < 1 || o->shard_k > o->shard_n)))
        return tokio__error(TOKIO_EINVAL, "shard %u/%u: K must be from 1 "
                            "to N, N at most %u", o->shard_k, o->shard_n,
                            SHARD_MAX);
    /* the configuration first: a bad pattern must not leave a new file */
    if ((rc = tokio_darshan_fsmap_new(&map, cfg)) < 0)
        return rc;
    if (n == 1 && stat(logs[0], &sb) == 0 && S_ISDIR(sb.st_mode)) {
        if ((rc = list_dir(&listed, &n_listed, logs[0])) < 0)
            goto out;
        logs = (const char *const *)listed;
        n = n_listed;
    }
    if (o->shard_n > 0) {
        size_t m = 0;
        if ((share = tokio__calloc(n ? n : 1, sizeof(*share))) == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < n; i++)
            if (tokio_darshan_in_shard(base_name(logs[i]), o->shard_k,
                                       o->shard_n))
                share[m++] = logs[i];
        logs = share;
        n = m;
    }
    st.n_inputs = n;
    /* a new index is made when the first log is written (db_ensure()) */
    struct stat db_st;
    int is_new = stat(db_path, &db_st) != 0 && errno == ENOENT;
    if (!is_new && (rc = db_ensure(&d, db_path, o,
                                   &st.n_existing_in_db)) < 0)
        goto out;
    if (is_new && (rc = folder_writable(db_path)) < 0)
        goto out;

    /* the reference's exclude list, and names given twice */
    if ((rc = given_again(&again, logs, n)) < 0)
        goto out;
    if (n > 0 && (todo = tokio__calloc(n, sizeof(*todo))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (d.h == NULL)
            rc = 0;
        else if ((rc = db_indexed(&d, base_name(logs[i]))) < 0)
            goto out;
        if (rc == 1)
            st.n_existing++;
        else if (again[i])
            st.n_duplicates++;
        else
            todo[n_todo++] = logs[i];
    }

    memset(&p, 0, sizeof(p));
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.ready, NULL);
    pthread_cond_init(&p.room, NULL);
    pthread_mutex_init(&p.lite_lock, NULL);
    p.logs = todo;
    p.n = n_todo;
    p.map = map;
    p.max_mb = o->max_mb;
    p.db_path = db_path;
    if (o->progress != NULL && n_todo < n)
        o->progress(o->arg, n - n_todo, n);
    rc = run_pool(&p, &d, o, &st, n - n_todo, n);
    /* nothing written: the (empty) index exists all the same, unless no
     * log given could be read at all */
    if (rc == TOKIO_OK && d.h == NULL &&
        !(st.n_unreadable > 0 &&
          st.n_unreadable + st.n_duplicates == st.n_inputs))
        rc = db_ensure(&d, db_path, o, &st.n_existing_in_db);
    free(p.slots);
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.ready);
    pthread_cond_destroy(&p.room);
    pthread_mutex_destroy(&p.lite_lock);

out:
    db_close(&d);
    free(again);
    free(todo);
    free(share);
    for (size_t i = 0; i < n_listed; i++)
        free(listed[i]);
    free(listed);
    tokio_darshan_fsmap_free(map);
    if (stats_out != NULL)
        *stats_out = st;
    return rc;
}

/* A log of a part being merged. */
struct mlog {
    char *name;
    size_t part;
    int64_t id;
};

static int
cmp_mlog(const void *a, const void *b)
{
    const struct mlog *x = a, *y = b;
    int c = strcmp(x->name, y->name);

    return c != 0 ? c : (x->part > y->part) - (x->part < y->part);
}

/* The schema of an open database as one text (type, name and SQL of
 * each object, by name); NULL when it cannot be read. */
static char *
schema_text(sqlite3 *h)
{
    struct tokio__sbuf b = { 0 };
    sqlite3_stmt *st = NULL;
    int step;

    if (sqlite3_prepare_v2(h, "SELECT type, name, tbl_name, "
                           "coalesce(sql, '') FROM sqlite_master ORDER BY "
                           "name", -1, &st, NULL) != SQLITE_OK)
        return NULL;
    tokio__sbuf_str(&b, "");
    while ((step = sqlite3_step(st)) == SQLITE_ROW)
        for (int c = 0; c < 4; c++) {
            const unsigned char *t = sqlite3_column_text(st, c);
            tokio__sbuf_str(&b, t ? (const char *)t : "");
            tokio__sbuf_str(&b, "\x1f");
        }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE || b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* Open the parts read-only, check each is an index of our schema, and
 * that tagged parts are distinct shards of one count. */
static int
merge_open_parts(sqlite3 **h, const char *const *parts, size_t n,
                 const char *want)
{
    int64_t *tag = tokio__calloc(n, sizeof(*tag));
    int rc = TOKIO_OK;

    if (tag == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < n && rc == TOKIO_OK; i++) {
        char *have = NULL;
        if (sqlite3_open_v2(parts[i], &h[i], SQLITE_OPEN_READONLY, NULL)
            != SQLITE_OK) {
            rc = h[i] == NULL
                 ? tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                                parts[i])
                 : tokio__error(TOKIO_EIO, "part '%s': cannot open: %s",
                                parts[i], sqlite3_errmsg(h[i]));
            break;
        }
        sqlite3_busy_timeout(h[i], BUSY_TIMEOUT_MS);
        if ((have = schema_text(h[i])) == NULL)
            rc = tokio__error(TOKIO_EFORMAT, "part '%s': not a Darshan "
                              "index: %s", parts[i], sqlite3_errmsg(h[i]));
        else if (strcmp(have, want) != 0)
            rc = tokio__error(TOKIO_EFORMAT, "part '%s': not the schema "
                              "of a Darshan index of this version",
                              parts[i]);
        else if (db_user_version(h[i], &tag[i]) < 0)
            rc = tokio__error(TOKIO_EIO, "part '%s': cannot read its "
                              "shard: %s", parts[i], sqlite3_errmsg(h[i]));
        free(have);
        for (size_t j = 0; j < i && rc == TOKIO_OK; j++) {
            if (tag[i] == 0 || tag[j] == 0)
                continue;
            if ((tag[i] >> 16) != (tag[j] >> 16))
                rc = tokio__error(TOKIO_EFORMAT, "parts '%s' (shard "
                                  "%u/%u) and '%s' (shard %u/%u) are of "
                                  "different runs", parts[j],
                                  (unsigned)(tag[j] & 0xffff),
                                  (unsigned)(tag[j] >> 16), parts[i],
                                  (unsigned)(tag[i] & 0xffff),
                                  (unsigned)(tag[i] >> 16));
            else if (tag[i] == tag[j])
                rc = tokio__error(TOKIO_EFORMAT, "parts '%s' and '%s' are "
                                  "both shard %u/%u", parts[j], parts[i],
                                  (unsigned)(tag[i] & 0xffff),
                                  (unsigned)(tag[i] >> 16));
        }
    }
    free(tag);
    return rc;
}

/* Every log of every part, by file name; two parts with one log are
 * overlapping shards. */
static int
merge_list_logs(struct mlog **out, size_t *n_out, sqlite3 **h,
                const char *const *parts, size_t n)
{
    struct mlog *v = NULL;
    size_t nv = 0, cap = 0;
    int rc = TOKIO_OK;

    for (size_t i = 0; i < n && rc == TOKIO_OK; i++) {
        sqlite3_stmt *st = NULL;
        int step;
        if (sqlite3_prepare_v2(h[i], "SELECT filename, log_id FROM headers",
                               -1, &st, NULL) != SQLITE_OK) {
            rc = tokio__error(TOKIO_EIO, "part '%s': %s", parts[i],
                              sqlite3_errmsg(h[i]));
            break;
        }
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            if (nv == cap) {
                size_t nc = cap ? cap * 2 : 256;
                struct mlog *more = tokio__reallocarray(v, nc, sizeof(*v));
                if (more == NULL)
                    break;
                v = more;
                cap = nc;
            }
            if ((v[nv].name = tokio__strdup(name ? name : "")) == NULL)
                break;
            v[nv].part = i;
            v[nv].id = sqlite3_column_int64(st, 1);
            nv++;
        }
        if (step == SQLITE_ROW)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory merging '%s'",
                              parts[i]);
        else if (step != SQLITE_DONE)
            rc = tokio__error(TOKIO_EIO, "part '%s': cannot read its "
                              "logs: %s", parts[i], sqlite3_errmsg(h[i]));
        sqlite3_finalize(st);
    }
    if (rc == TOKIO_OK && nv > 0)
        qsort(v, nv, sizeof(*v), cmp_mlog);
    for (size_t k = 1; rc == TOKIO_OK && k < nv; k++)
        if (strcmp(v[k].name, v[k - 1].name) == 0)
            rc = tokio__error(TOKIO_EFORMAT, "parts '%s' and '%s' both hold "
                              "log '%s': overlapping shards",
                              parts[v[k - 1].part], parts[v[k].part],
                              v[k].name);
    if (rc < 0) {
        for (size_t k = 0; k < nv; k++)
            free(v[k].name);
        free(v);
        return rc;
    }
    *out = v;
    *n_out = nv;
    return TOKIO_OK;
}

static const char merge_header_cols[] =
    "filename, end_time, exe, exename, jobid, nprocs, start_time, uid, "
    "username, version, walltime";

/* One log of a part into the new index, as db_insert() wrote it: its
 * mounts (in the order of its summaries), header, summaries. */
static int
merge_one(struct db *d, sqlite3 *src, const char *part, int64_t id,
          sqlite3_stmt *get_header, sqlite3_stmt *get_sums,
          sqlite3_stmt *put_header)
{
    int step, rc = TOKIO_OK;

    /* mounts first: they are numbered as the log first names them */
    sqlite3_bind_int64(get_sums, 1, id);
    while ((step = sqlite3_step(get_sums)) == SQLITE_ROW) {
        struct fs_sum f = { 0 };
        int64_t fs_id;
        f.mountpt = (char *)sqlite3_column_text(get_sums, 0);
        f.fsname = (char *)sqlite3_column_text(get_sums, 1);
        if (f.mountpt == NULL ||
            (rc = fs_id_of(d, &f, &fs_id)) < 0)
            break;
    }
    sqlite3_reset(get_sums);
    if (rc < 0)
        return rc;
    if (step != SQLITE_DONE && step != SQLITE_ROW)
        return tokio__error(TOKIO_EIO, "part '%s': %s", part,
                            sqlite3_errmsg(src));

    sqlite3_bind_int64(get_header, 1, id);
    if ((step = sqlite3_step(get_header)) != SQLITE_ROW) {
        sqlite3_reset(get_header);
        return tokio__error(TOKIO_EIO, "part '%s': %s", part,
                            sqlite3_errmsg(src));
    }
    for (int c = 0; c < 11; c++)
        sqlite3_bind_value(put_header, c + 1,
                           sqlite3_column_value(get_header, c));
    step = sqlite3_step(put_header);
    sqlite3_reset(put_header);
    sqlite3_clear_bindings(put_header);
    sqlite3_reset(get_header);
    if (step != SQLITE_DONE)
        return db_error(d, "cannot add a header");
    int64_t log_id = sqlite3_last_insert_rowid(d->h);

    sqlite3_bind_int64(get_sums, 1, id);
    while ((step = sqlite3_step(get_sums)) == SQLITE_ROW) {
        struct fs_sum f = { 0 };
        int64_t fs_id = 0;
        f.mountpt = (char *)sqlite3_column_text(get_sums, 0);
        f.fsname = (char *)sqlite3_column_text(get_sums, 1);
        if ((rc = fs_id_of(d, &f, &fs_id)) < 0)
            break;
        sqlite3_bind_int64(d->ins_summary, 1, log_id);
        sqlite3_bind_int64(d->ins_summary, 2, fs_id);
        for (int c = 0; c < N_INT + N_REAL; c++)
            sqlite3_bind_value(d->ins_summary, 3 + c,
                               sqlite3_column_value(get_sums, 2 + c));
        if ((rc = step_done(d, d->ins_summary, "cannot add a summary")) < 0)
            break;
    }
    sqlite3_reset(get_sums);
    if (rc < 0)
        return rc;
    if (step != SQLITE_DONE)
        return tokio__error(TOKIO_EIO, "part '%s': %s", part,
                            sqlite3_errmsg(src));
    return TOKIO_OK;
}

/* Copy the logs, in name order, from their parts into `d`. */
static int
merge_copy(struct db *d, sqlite3 **h, const char *const *parts, size_t n,
           const struct mlog *logs, size_t n_logs)
{
    sqlite3_stmt **gh = tokio__calloc(n, sizeof(*gh));
    sqlite3_stmt **gs = tokio__calloc(n, sizeof(*gs));
    sqlite3_stmt *put = NULL;
    struct tokio__sbuf q = { 0 };
    int rc = TOKIO_OK;

    tokio__sbuf_str(&q, "SELECT m.mountpt, m.fsname");
    for (int i = 0; i < N_INT; i++) {
        tokio__sbuf_str(&q, ", s.");
        tokio__sbuf_str(&q, int_names[i]);
    }
    for (int i = 0; i < N_REAL; i++) {
        tokio__sbuf_str(&q, ", s.");
        tokio__sbuf_str(&q, real_names[i]);
    }
    tokio__sbuf_str(&q, " FROM summaries AS s INNER JOIN mounts AS m ON "
                    "s.fs_id = m.fs_id WHERE s.log_id = ? ORDER BY s.rowid");
    if (gh == NULL || gs == NULL || q.failed) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory merging");
        goto done;
    }
    char hsql[256], psql[256];
    snprintf(hsql, sizeof(hsql), "SELECT %s FROM headers WHERE log_id = ?",
             merge_header_cols);
    snprintf(psql, sizeof(psql), "INSERT INTO headers (%s) VALUES (?, ?, ?, "
             "?, ?, ?, ?, ?, ?, ?, ?)", merge_header_cols);
    if (sqlite3_prepare_v2(d->h, psql, -1, &put, NULL) != SQLITE_OK) {
        rc = db_error(d, "cannot add headers");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (sqlite3_prepare_v2(h[i], hsql, -1, &gh[i], NULL) != SQLITE_OK ||
            sqlite3_prepare_v2(h[i], q.s, -1, &gs[i], NULL) != SQLITE_OK) {
            rc = tokio__error(TOKIO_EFORMAT, "part '%s': not a Darshan "
                              "index: %s", parts[i], sqlite3_errmsg(h[i]));
            goto done;
        }
    if ((rc = db_exec(d, "BEGIN", "cannot start a transaction")) < 0)
        goto done;
    d->in_txn = 1;
    for (size_t k = 0; k < n_logs && rc == TOKIO_OK; k++) {
        size_t i = logs[k].part;
        rc = merge_one(d, h[i], parts[i], logs[k].id, gh[i], gs[i], put);
    }
    if (rc == TOKIO_OK) {
        d->in_txn = 0;
        if ((rc = db_exec(d, "COMMIT", "cannot commit")) < 0)
            d->in_txn = 1;
    }
done:
    for (size_t i = 0; i < n; i++) {
        if (gh != NULL)
            sqlite3_finalize(gh[i]);
        if (gs != NULL)
            sqlite3_finalize(gs[i]);
    }
    sqlite3_finalize(put);
    free(gh);
    free(gs);
    free(q.s);
    return rc;
}

int
tokio_darshan_index_merge(const char *out_path, const char *const *parts,
                          size_t n_parts)
{
    sqlite3 **h = NULL;
    struct mlog *logs = NULL;
    size_t n_logs = 0;
    struct db ref = { 0 }, d = { 0 };
    char *want = NULL, *real = NULL, *tmp = NULL;
    int lock = -1, fd = -1, rc;

    if (out_path == NULL || n_parts == 0 || parts == NULL)
        return tokio__error(TOKIO_EINVAL, "no index or no parts to merge");
    pthread_once(&index_once, init_indexes);
    /* the schema this version writes, from an index made in memory */
    if ((rc = db_open(&ref, ":memory:")) < 0)
        return rc;
    want = schema_text(ref.h);
    db_close(&ref);
    if (want == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    if ((h = tokio__calloc(n_parts, sizeof(*h))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = merge_open_parts(h, parts, n_parts, want)) < 0 ||
        (rc = merge_list_logs(&logs, &n_logs, h, parts, n_parts)) < 0)
        goto out;

    /* the new index beside the old, renamed over it under its lock */
    if ((rc = tokio__replace_target(out_path, &real)) < 0 ||
        (rc = tokio__lock(real, TOKIO__LOCK_WAIT, &lock)) < 0 ||
        (rc = tokio__temporary(real, &tmp, &fd)) < 0)
        goto out;
    /* the mode a new index gets, or the one it replaces */
    struct stat sb;
    mode_t mask = umask(022);
    umask(mask);
    fchmod(fd, stat(real, &sb) == 0 ? sb.st_mode & 07777 : 0666 & ~mask);
    close(fd);
    if ((rc = db_open(&d, tmp)) < 0 ||
        (rc = merge_copy(&d, h, parts, n_parts, logs, n_logs)) < 0)
        goto out;
    db_close(&d);
    if (rename(tmp, real) != 0) {
        rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", out_path,
                          strerror(errno));
        goto out;
    }
    tokio__temporary_done(tmp, 0);
    free(tmp);
    tmp = NULL;

out:
    db_close(&d);
    if (tmp != NULL) {
        size_t len = strlen(tmp) + sizeof("-journal");
        char *journal = tokio__malloc(len);
        if (journal != NULL) {
            snprintf(journal, len, "%s-journal", tmp);
            unlink(journal);
            free(journal);
        }
        tokio__temporary_done(tmp, 1);
        free(tmp);
    }
    tokio__unlock(lock);
    free(real);
    for (size_t k = 0; k < n_logs; k++)
        free(logs[k].name);
    free(logs);
    for (size_t i = 0; h != NULL && i < n_parts; i++)
        sqlite3_close(h[i]);
    free(h);
    free(want);
    return rc;
}

/* ---- summarize_darshanlogs -------------------------------------------- */

static int
cmp_desc(const void *a, const void *b)
{
    return strcmp(*(const char *const *)b, *(const char *const *)a);
}

/* A log's POSIX bytes per mount point, record by record. */
struct per_fs {
    size_t n;                   /* 0 until the first record */
    const char **mounts;        /* distinct, reversed(sorted()) */
    int64_t *rd, *wr;
};

/* The reader's record callback: one POSIX record in. */
static int
per_fs_record(void *payload, const struct tokio_darshan *log, int mod,
              const struct tokio_darshan_record *r)
{
    struct per_fs *p = payload;
    size_t n = tokio_darshan_mount_count(log);
    int ci_r = posix_ci[0], ci_w = posix_ci[1];

    (void)mod;
    if (n == 0)
        return TOKIO_OK;
    if (p->mounts == NULL) {
        p->mounts = tokio__calloc(n, sizeof(*p->mounts));
        p->rd = tokio__calloc(n, sizeof(*p->rd));
        p->wr = tokio__calloc(n, sizeof(*p->wr));
        if (p->mounts == NULL || p->rd == NULL || p->wr == NULL)
            return TOKIO_ENOMEM;
        /* reversed(sorted(keys)): byte order is Python's code point order */
        for (size_t i = 0; i < n; i++) {
            const char *m = tokio_darshan_mount(log, i)->path;
            int dup = 0;
            for (size_t k = 0; k < p->n && !dup; k++)
                dup = strcmp(p->mounts[k], m) == 0;
            if (!dup)
                p->mounts[p->n++] = m;
        }
        qsort(p->mounts, p->n, sizeof(*p->mounts), cmp_desc);
    }
    const char *name = tokio_darshan_name(log, r->id);
    if (name == NULL)
        return TOKIO_OK;
    for (size_t k = 0; k < p->n; k++) {
        if (strncmp(name, p->mounts[k], strlen(p->mounts[k])) != 0)
            continue;
        if (ci_r >= 0 && (size_t)ci_r < r->n_counters)
            p->rd[k] = (int64_t)((uint64_t)p->rd[k] +
                                 (uint64_t)r->counters[ci_r]);
        if (ci_w >= 0 && (size_t)ci_w < r->n_counters)
            p->wr[k] = (int64_t)((uint64_t)p->wr[k] +
                                 (uint64_t)r->counters[ci_w]);
        break;
    }
    return TOKIO_OK;
}

int
tokio_darshan_bytes_per_fs(json_t **out, const char *path)
{
    struct per_fs p = { 0 };
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX),
        .record = per_fs_record,
        .payload = &p,
    };
    struct tokio_darshan *log = NULL;
    json_t *res = NULL;
    int rc;

    *out = NULL;
    if (path == NULL)
        return tokio__error(TOKIO_EINVAL, "no log to summarize");
    pthread_once(&index_once, init_indexes);
    if ((rc = tokio_darshan_open_select(&log, path, &sel)) < 0)
        goto done;
    if ((res = json_object()) == NULL)
        goto nomem;
    for (size_t k = 0; k < p.n; k++) {
        if (p.rd[k] == 0 && p.wr[k] == 0)
            continue;
        json_t *v = json_pack("{s:I, s:I}", "read_bytes",
                              (json_int_t)p.rd[k], "write_bytes",
                              (json_int_t)p.wr[k]);
        if (v == NULL || json_object_set_new(res, p.mounts[k], v) < 0)
            goto nomem;
    }
    goto done;

nomem:
    rc = tokio__error(TOKIO_ENOMEM, "out of memory summarizing '%s'", path);
    json_decref(res);
    res = NULL;
done:
    free(p.mounts);
    free(p.rd);
    free(p.wr);
    tokio_darshan_free(log);
    *out = res;
    return rc;
}

/* ---- merging summarize-darshanlogs' parts ---------------------------- */

static int
cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Part `i`'s logs into `all`, `from` remembering which part gave each. */
static int
take_part(json_t *all, json_t *from, const json_t *part,
          const char *const *parts, size_t i)
{
    const char *key;
    json_t *v;

    if (!json_is_object(part))
        return tokio__error(TOKIO_EFORMAT, "'%s' is not an output of "
                            "summarize-darshanlogs (not a JSON object)",
                            parts[i]);
    json_object_foreach((json_t *)part, key, v) {
        const json_t *had = json_object_get(from, key);
        if (had != NULL)
            return tokio__error(TOKIO_EFORMAT, "parts '%s' and '%s' both "
                                "hold log '%s': overlapping shards",
                                parts[json_integer_value(had)], parts[i],
                                key);
        if (json_object_set_new(from, key, json_integer((json_int_t)i)) < 0 ||
            json_object_set(all, key, v) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    return TOKIO_OK;
}

int
tokio_darshan_summaries_merge(json_t **out, const char *const *parts,
                              size_t n_parts)
{
    json_t *all = json_object(), *from = json_object(), *sorted = NULL;
    const char **keys = NULL, *key;
    size_t n = 0;
    json_t *v;
    int rc = all && from ? TOKIO_OK
                         : tokio__error(TOKIO_ENOMEM, "out of memory");

    *out = NULL;
    for (size_t i = 0; rc == TOKIO_OK && i < n_parts; i++) {
        json_error_t err;
        json_t *part = json_load_file(parts[i], 0, &err);
        if (part == NULL)
            rc = tokio__error(err.line > 0 ? TOKIO_EFORMAT : TOKIO_EIO,
                              "'%s' line %d: %s", parts[i], err.line,
                              err.text);
        else
            rc = take_part(all, from, part, parts, i);
        json_decref(part);
    }
    /* in name order, as one run over a folder adds them */
    if (rc == TOKIO_OK &&
        ((keys = tokio__calloc(json_object_size(all) + 1,
                               sizeof(*keys))) == NULL ||
         (sorted = json_object()) == NULL))
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    if (rc == TOKIO_OK) {
        json_object_foreach(all, key, v)
            keys[n++] = key;
        qsort(keys, n, sizeof(*keys), cmp_key);
        for (size_t k = 0; rc == TOKIO_OK && k < n; k++)
            if (json_object_set(sorted, keys[k],
                                json_object_get(all, keys[k])) < 0)
                rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    if (rc == TOKIO_OK) {
        *out = sorted;
        sorted = NULL;
    }
    free(keys);
    json_decref(sorted);
    json_decref(all);
    json_decref(from);
    return rc;
}
