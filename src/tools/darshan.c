/*
 * src/tools/darshan.c - finding Darshan logs in a site's repository and
 * reading a log's file name, as the reference's tokio.tools.darshan
 * (find_darshanlogs) and tokio.connectors.darshan.parse_filename_metadata.
 *
 * The finder is the reference's two passes of enumerate_dated_files():
 * first the repository folders that exist for the days asked (a repository
 * path may itself hold strftime fields), then <folder>/%-Y/%-m/%-d for the
 * same days; then a glob for the log names in each day folder.
 *
 * The name parser is the reference's regular expression
 *     ([^_/]+)_([^/]*?)_id(\d+)_(\d+)-(\d+)-(\d+)-(\d+)_(\d+).darshan
 * applied with re.search(), matched here by hand (see find_name()) so that
 * hostile names cost linear time and no regex engine is needed.
 *
 * Differs from pytokio: results are sorted; a repository none of whose
 * folders exists is an error; \d means ASCII digits only (Python's also
 * takes other scripts' digits); numbers too large for their field are
 * TOKIO_EFORMAT (Python's integers have no bound).
 *
 * The loader (the reference's load_darshanlogs) is the finder followed by
 * the Darshan connector's JSON of each log: it holds no format knowledge.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/darshanlogs/ and the
 * trees tests/tools/test_darshan.c builds.
 */
#include "tokio/tools/darshan.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/strlist.h"
#include "core/text.h"
#include "tokio/config.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/tools/common.h"

/* The reference's day-folder layout below the repository path. */
#define DAY_SUBDIRS "%-Y/%-m/%-d"

/* Longest part of a file name a message quotes. */
#define MAX_QUOTE 512

/* enumerate_dated_files() steps a day at a time here, as the reference. */
#define ONE_DAY 86400

/* ------------------------------------------------------------------ */
/* File names                                                           */

static int
is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* End of the run of ASCII digits starting at s[i]. */
static size_t
digits_end(const char *s, size_t i)
{
    while (is_digit((unsigned char)s[i]))
        i++;
    return i;
}

/*
 * Bytes of the one character Python's '.' matches at s[i] (a code point,
 * never '\n'), or 0 if none.  Names are UTF-8; a stray byte counts alone.
 */
static size_t
any_char(const char *s, size_t i)
{
    unsigned char c = (unsigned char)s[i];
    size_t want, n = 1;

    if (c == '\0' || c == '\n')
        return 0;
    want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    while (n < want && ((unsigned char)s[i + n] & 0xc0) == 0x80)
        n++;
    return n;
}

/* Where the fields of one match lie: group k is [b[k], e[k]). */
struct match {
    size_t b[8], e[8];
};

/*
 * Match "_id(\d+)_(\d+)-(\d+)-(\d+)-(\d+)_(\d+).darshan" at s[i].
 *
 * Each of the first five digit groups must be followed by a separator,
 * not a digit, so only its longest run can succeed and backtracking never
 * helps.  The last is followed by '.', which may take a digit: Python
 * tries the whole run first, then the run less one digit (any shorter
 * leaves a digit where "darshan" must start).
 */
static int
match_tail(const char *s, size_t i, struct match *m)
{
    static const char seps[] = "_---_";     /* after groups 2..6 */

    if (strncmp(s + i, "_id", 3) != 0)
        return 0;
    i += 3;
    for (int k = 2; k < 7; k++) {
        size_t end = digits_end(s, i);
        if (end == i)
            return 0;
        m->b[k] = i;
        m->e[k] = end;
        if (s[end] != seps[k - 2])
            return 0;
        i = end + 1;
    }
    size_t end = digits_end(s, i);
    if (end == i)
        return 0;
    size_t n = any_char(s, end);
    m->b[7] = i;
    if (n > 0 && strncmp(s + end + n, "darshan", 7) == 0) {
        m->e[7] = end;
        return 1;
    }
    if (end - i >= 2 && strncmp(s + end, "darshan", 7) == 0) {
        m->e[7] = end - 1;
        return 1;
    }
    return 0;
}

/*
 * re.search() of the whole pattern: the leftmost start that matches.
 *
 * The user group, [^_/]+, must end at a '_': only its longest run from a
 * start can do that, so every start inside one run ends it at the same
 * place and fares the same as the run's first character; only run starts
 * need trying.  The exe group, [^/]*?, is lazy: it ends at the first tail
 * match after the user's '_' with no '/' before it.  Starts and their
 * first candidates only move right, so one cursor serves all of them and
 * the whole search is linear in the name's length.
 */
static int
find_name(const char *s, struct match *m)
{
    size_t len = strlen(s);
    size_t cursor = 0;          /* no tail match starts in [.., cursor) */
    size_t slash = 0;           /* first '/' from the last exe on, or len */

    for (size_t start = 0; start < len; start++) {
        if (s[start] == '_' || s[start] == '/')
            continue;
        if (start > 0 && s[start - 1] != '_' && s[start - 1] != '/')
            continue;
        size_t user_end = start + strcspn(s + start, "_/");
        if (s[user_end] != '_')
            continue;
        size_t exe_begin = user_end + 1;
        /* the first '/' at or after the last exe_begin may still be it */
        if (slash < exe_begin)
            slash = exe_begin + strcspn(s + exe_begin, "/");
        if (cursor < exe_begin)
            cursor = exe_begin;

        int hit = 0;
        /* a tail after the '/' would need the exe to hold it */
        while (!hit && cursor < slash)
            if (!(hit = match_tail(s, cursor, m)))
                cursor++;
        if (!hit)
            continue;
        m->b[0] = start;
        m->e[0] = user_end;
        m->b[1] = exe_begin;
        m->e[1] = cursor;
        return 1;
    }
    return 0;
}

/* Digits [b, e) of `s` as a number no greater than `max`. */
static int
parse_number(const char *s, size_t b, size_t e, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;

    for (size_t i = b; i < e; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int
tokio_darshan_parse_filename(struct tokio_darshan_filename **out,
                             const char *filename)
{
    static const char *const names[8] = {
        "username", "exename", "jobid", "start_month", "start_day",
        "start_second_in_day", "logmod", "shutdown_secs"
    };
    struct tokio_darshan_filename *f;
    struct match m;
    uint64_t v[8];

    if (out == NULL || filename == NULL)
        return tokio__error(TOKIO_EINVAL,
                            "parse_filename: no file name or no output");
    *out = NULL;
    /* a hostile name may be megabytes long: quote only its start */
    int quote = strlen(filename) > MAX_QUOTE ? MAX_QUOTE : INT_MAX;
    const char *more = quote == MAX_QUOTE ? "..." : "";

    if (!find_name(filename, &m))
        return tokio__error(TOKIO_EFORMAT,
                            "'%.*s%s' is not named as a Darshan log "
                            "(<user>_<exe>_id<jobid>_<month>-<day>-<seconds>"
                            "-<logmod>_<n>.darshan)", quote, filename, more);
    for (int k = 3; k < 8; k++) {
        uint64_t max = k == 6 ? UINT64_MAX : INT64_MAX;
        if (parse_number(filename, m.b[k], m.e[k], max, &v[k]) < 0)
            return tokio__error(TOKIO_EFORMAT,
                                "'%.*s%s': %s %.*s is too large", quote,
                                filename, more, names[k],
                                (int)(m.e[k] - m.b[k]) > MAX_QUOTE
                                ? MAX_QUOTE : (int)(m.e[k] - m.b[k]),
                                filename + m.b[k]);
    }

    if ((f = tokio__calloc(1, sizeof(*f))) == NULL
        || (f->username = tokio__strndup(filename + m.b[0],
                                         m.e[0] - m.b[0])) == NULL
        || (f->exename = tokio__strndup(filename + m.b[1],
                                        m.e[1] - m.b[1])) == NULL
        || (f->jobid = tokio__strndup(filename + m.b[2],
                                      m.e[2] - m.b[2])) == NULL) {
        tokio_darshan_filename_free(f);
        return tokio__error(TOKIO_ENOMEM, "out of memory parsing '%.*s%s'",
                            quote, filename, more);
    }
    f->start_month = (int64_t)v[3];
    f->start_day = (int64_t)v[4];
    f->start_second_in_day = (int64_t)v[5];
    f->logmod = v[6];
    f->shutdown_secs = (int64_t)v[7];
    *out = f;
    return TOKIO_OK;
}

void
tokio_darshan_filename_free(struct tokio_darshan_filename *f)
{
    if (f == NULL)
        return;
    free(f->username);
    free(f->exename);
    free(f->jobid);
    free(f);
}

/* ------------------------------------------------------------------ */
/* Finding logs                                                         */

/* os.path.join(a, b): no second '/' when `a` already ends with one. */
static char *
join_path(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int slash = la > 0 && a[la - 1] != '/';
    char *p = tokio__malloc(la + (size_t)slash + lb + 1);

    if (p == NULL)
        return NULL;
    memcpy(p, a, la);
    if (slash)
        p[la] = '/';
    memcpy(p + la + (size_t)slash, b, lb + 1);
    return p;
}

/*
 * The repository entries `tmpl` resolves to under `key`, as
 * enumerate_dated_files() resolves them, quoted and comma-separated into
 * `buf` for a message; returns how many there are (0: `key` names none).
 * Only called after enumerate_dated_files() accepted `tmpl`, so its depth
 * is bounded and every leaf is a string.
 */
static size_t
describe(const json_t *tmpl, const char *key, char *buf, size_t size)
{
    size_t n = 0;

    if (json_is_string(tmpl)) {
        size_t used = strlen(buf);
        if (used < size)
            snprintf(buf + used, size - used, "%s'%s'", used ? ", " : "",
                     json_string_value(tmpl));
        return 1;
    }
    if (json_is_array(tmpl)) {
        size_t i;
        const json_t *item;
        json_array_foreach(tmpl, i, item)
            n += describe(item, key, buf, size);
        return n;
    }
    if (json_is_object(tmpl)) {
        if (key != NULL) {
            const json_t *value = json_object_get(tmpl, key);
            return value == NULL ? 0 : describe(value, key, buf, size);
        }
        const char *k;
        const json_t *value;
        /* json_object_foreach wants a non-const object; it only reads */
        json_object_foreach((json_t *)tmpl, k, value)
            n += describe(value, key, buf, size);
    }
    return n;
}

/*
 * The reference's glob pattern: every field "*" unless asked for.  The
 * <logmod> "*" also covers "_<n>", which the reference's pattern leaves
 * out.  Username and job id go in unescaped, so they are patterns too.
 */
static char *
log_pattern(const char *dir, const char *username, const char *jobid)
{
    const char *user = username != NULL && *username ? username : "*";
    const char *job = jobid != NULL ? jobid : "*";
    size_t size = strlen(user) + strlen(job) + 32;
    char *name = tokio__malloc(size);
    char *path;

    if (name == NULL)
        return NULL;
    snprintf(name, size, "%s_*_id%s_*-*-*-*.darshan", user, job);
    path = join_path(dir, name);
    free(name);
    return path;
}

/*
 * Add the logs in one day folder.  Python's glob.glob(): no backslash
 * escapes, hidden names only when the pattern starts with '.', unreadable
 * folders skipped rather than fatal.
 */
static int
glob_logs(struct tokio__strlist *found, const char *pattern)
{
    glob_t g;
    int grc = glob(pattern, GLOB_NOESCAPE, NULL, &g);
    int rc = TOKIO_OK;

    if (grc == GLOB_NOMATCH)
        return TOKIO_OK;
    if (grc == GLOB_NOSPACE) {
        globfree(&g);
        return tokio__error(TOKIO_ENOMEM, "out of memory globbing '%s'",
                            pattern);
    }
    if (grc != 0) {
        globfree(&g);
        return tokio__error(TOKIO_EIO, "cannot glob '%s'", pattern);
    }
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (tokio__strlist_add(found, g.gl_pathv[i]) < 0) {
            rc = tokio__error(TOKIO_ENOMEM,
                              "out of memory listing Darshan logs");
            break;
        }
    globfree(&g);
    return rc;
}

/* The day folders below one repository folder, then the logs in them. */
static int
search_base(struct tokio__strlist *found, const char *base, int64_t start,
            int64_t end, const struct tokio_find_darshanlogs_query *q)
{
    char *tmpl_text = join_path(base, DAY_SUBDIRS);
    json_t *tmpl = tmpl_text ? json_string(tmpl_text) : NULL;
    char **days = NULL;
    size_t n_days = 0;
    int rc;

    if (tmpl == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory searching '%s'",
                          base);
        goto done;
    }
    /*
     * The folder is formatted again as a template, as the reference does;
     * a '%' left in it after the first pass is formatted twice there too.
     */
    if ((rc = tokio_enumerate_dated_files(&days, &n_days, start, end, tmpl,
                                          q->system, 1, ONE_DAY, 0)) < 0)
        goto done;
    for (size_t i = 0; i < n_days && rc >= 0; i++) {
        char *pattern = log_pattern(days[i], q->username, q->jobid);
        if (pattern == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory searching '%s'",
                              days[i]);
            break;
        }
        rc = glob_logs(found, pattern);
        free(pattern);
    }

done:
    tokio_free_strings(days, n_days);
    json_decref(tmpl);
    free(tmpl_text);
    return rc;
}

int
tokio_find_darshanlogs(char ***paths_out, size_t *n_out,
                       const struct tokio_config *cfg,
                       const struct tokio_find_darshanlogs_query *q)
{
    struct tokio__strlist found = { NULL, 0, 0 };
    json_t *own_tmpl = NULL;
    const json_t *tmpl;
    char **bases = NULL;
    size_t n_bases = 0;
    int rc;

    if (paths_out == NULL || n_out == NULL || q == NULL)
        return tokio__error(TOKIO_EINVAL,
                            "find_darshanlogs: no query or no output");
    *paths_out = NULL;
    *n_out = 0;
    if (!q->have_start) {
        /* the reference asks the job databases (tools.jobinfo) */
        if (q->jobid == NULL)
            return tokio__error(TOKIO_EINVAL,
                                "a start date or a job id is needed to "
                                "find Darshan logs");
        return tokio__error(TOKIO_EINVAL,
                            "no start date: finding when job %s started is "
                            "not available yet; give a start date",
                            q->jobid);
    }
    int64_t start = q->start;
    int64_t end = q->have_end ? q->end : q->start;
    if (end < start)
        return tokio__error(TOKIO_EINVAL,
                            "end time %lld is before start time %lld",
                            (long long)end, (long long)start);

    if (q->log_dir != NULL) {
        if ((own_tmpl = json_string(q->log_dir)) == NULL)
            return tokio__error(TOKIO_ENOMEM,
                                "out of memory finding Darshan logs");
        tmpl = own_tmpl;
    } else {
        tmpl = cfg ? tokio_config_get(cfg, "darshan_log_dirs") : NULL;
        if (tmpl == NULL)
            return tokio__error(TOKIO_EINVAL,
                                "no Darshan log directory: give one, or set "
                                "darshan_log_dirs in the site configuration");
    }

    /*
     * With a system named, its first existing folder wins each day; with
     * none, every configured folder is searched (the reference's
     * match_first=(system is not None)).
     */
    rc = tokio_enumerate_dated_files(&bases, &n_bases, start, end, tmpl,
                                     q->system, q->system != NULL, ONE_DAY,
                                     0);
    if (rc < 0) {
        if (q->log_dir == NULL)
            tokio__error_prefix("darshan_log_dirs");
        goto done;
    }
    if (n_bases == 0) {
        char names[1024] = "";
        size_t n = describe(tmpl, q->system, names, sizeof(names));
        /* a system without an entry is no error: the reference's test */
        if (n == 1)
            rc = tokio__error(TOKIO_ENOTFOUND, "Darshan log directory %s "
                              "does not exist", names);
        else if (n > 1)
            rc = tokio__error(TOKIO_ENOTFOUND, "none of the Darshan log "
                              "directories exists: %s", names);
        goto done;
    }
    for (size_t i = 0; i < n_bases && rc >= 0; i++)
        rc = search_base(&found, bases[i], start, end, q);
    if (rc < 0)
        goto done;

    tokio__strlist_unique(&found);
    if (found.n > 0) {
        *paths_out = found.v;
        *n_out = found.n;
        found.v = NULL;
        found.n = 0;
    }

done:
    tokio_free_strings(found.v, found.n);
    tokio_free_strings(bases, n_bases);
    json_decref(own_tmpl);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Loading                                                              */

#define LOAD_ALL (TOKIO_DARSHAN_LOAD_BASE | TOKIO_DARSHAN_LOAD_TOTAL | \
                  TOKIO_DARSHAN_LOAD_PERF)

int
tokio_darshan_load_views(const char *which, unsigned *views_out)
{
    static const struct {
        const char *name;
        unsigned view;
    } names[] = {
        { "base", TOKIO_DARSHAN_LOAD_BASE },
        { "total", TOKIO_DARSHAN_LOAD_TOTAL },
        { "perf", TOKIO_DARSHAN_LOAD_PERF },
    };
    unsigned views = 0;

    *views_out = 0;
    if (which == NULL)
        return tokio__error(TOKIO_EINVAL, "which must be base, total, "
                            "and/or perf");
    /* the reference's which.split(','), each item lower()ed and looked
     * up whole: other items are ignored */
    for (const char *p = which;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
            if (len == strlen(names[i].name) &&
                strncasecmp(p, names[i].name, len) == 0)
                views |= names[i].view;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    if (views == 0)
        return tokio__error(TOKIO_EINVAL, "which must be base, total, "
                            "and/or perf, not '%.*s'", MAX_QUOTE, which);
    *views_out = views;
    return TOKIO_OK;
}

/* One log's JSON into *out; TOKIO_PARTIAL when the log says so. */
static int
load_one(const char *path, const struct tokio_darshan_json_opts *o,
         json_t **out)
{
    struct tokio_darshan *log = NULL;
    struct stat st;
    int rc, status;

    *out = NULL;
    /* a repository's 0-byte placeholder: the reference's darshan-parser
     * read nothing and its Darshan object stayed {} */
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        if ((*out = json_object()) == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory loading '%s'",
                                path);
        return TOKIO_OK;
    }
    if ((status = tokio_darshan_open(&log, path)) < 0)
        return status;
    rc = tokio_darshan_to_json(log, o, out);
    tokio_darshan_free(log);
    return rc < 0 ? rc : status;
}

int
tokio_load_darshanlogs(json_t **out, const struct tokio_config *cfg,
                       const struct tokio_find_darshanlogs_query *q,
                       unsigned views)
{
    struct tokio_darshan_json_opts o = { 0 };
    char **paths = NULL;
    size_t n = 0;
    json_t *all = NULL;
    int rc, partial = 0;

    *out = NULL;
    if ((views & LOAD_ALL) == 0)
        return tokio__error(TOKIO_EINVAL, "which must be base, total, "
                            "and/or perf");
    o.base = (views & TOKIO_DARSHAN_LOAD_BASE) != 0;
    o.total = (views & TOKIO_DARSHAN_LOAD_TOTAL) != 0;
    o.perf = (views & TOKIO_DARSHAN_LOAD_PERF) != 0;
    if ((rc = tokio_find_darshanlogs(&paths, &n, cfg, q)) < 0)
        return rc;
    if ((all = json_object()) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory loading Darshan "
                          "logs");
    for (size_t i = 0; rc >= 0 && i < n; i++) {
        json_t *one = NULL;
        if ((rc = load_one(paths[i], &o, &one)) < 0)
            break;
        partial |= rc == TOKIO_PARTIAL;
        /* A JSON key is UTF-8: a path that is not is keyed with '?' for
         * its bytes above 0x7f (issue 17 item 8: this said "out of
         * memory").  The setter consumes `one` even when it fails. */
        char *key = paths[i];
        if (!tokio__text_valid(key, strlen(key))) {
            if ((key = tokio__strdup(paths[i])) == NULL) {
                json_decref(one);
                rc = tokio__error(TOKIO_ENOMEM, "out of memory loading "
                                  "'%s'", paths[i]);
                break;
            }
            for (char *p = key; *p; p++)
                if ((unsigned char)*p >= 0x80)
                    *p = '?';
        }
        if (json_object_set_new(all, key, one) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory loading '%s'",
                              key);
        if (key != paths[i])
            free(key);
    }
    tokio_free_strings(paths, n);
    if (rc < 0) {
        json_decref(all);
        return rc;
    }
    *out = all;
    return partial ? TOKIO_PARTIAL : TOKIO_OK;
}
