/*
 * src/tools/common.c - finding a site's time-indexed files, as the
 * reference's tokio.tools.common.enumerate_dated_files().
 *
 * Sites name their daily or hourly files with strftime templates in
 * site.json ("inputs/%Y-%m-%d/sample.hdf5"); given a time range, this walks
 * it step by step, formats each template and keeps the paths that exist.
 *
 * The walk is the reference's: a naive local datetime advanced by a
 * timedelta, so steps are wall-clock ones (a one-day step stays at the
 * same hour across a DST change), and it goes on while the step's calendar
 * day is not after the end's, so the end day is always tried whole.
 *
 * Differs from pytokio: the result is sorted rather than in set order, and
 * the walk is refused beyond MAX_STEPS instead of running for hours.
 */
#include "tokio/tools/common.h"

#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/strlist.h"

/*
 * Each step costs a strftime and a stat per template; ten million steps is
 * a year and a month at one-second steps, far past any real query, while a
 * typo (1000 years at 1 s) is refused at once instead of running forever.
 */
#define MAX_STEPS 10000000

/* site.json nests a few levels; a deeper template is hostile input */
#define MAX_DEPTH 32

/* a formatted path longer than this is not a path */
#define MAX_PATH_LEN (1 << 20)

/*
 * Flatten `tmpl` into the list of template strings it stands for (borrowed
 * from the JSON), in the reference's order: list items in order, object
 * values in insertion order, `lookup_key` applied at every object level.
 */
static int
expand(const json_t *tmpl, const char *lookup_key, int depth,
       const char ***out, size_t *n_out, size_t *cap)
{
    if (depth > MAX_DEPTH)
        return tokio__error(TOKIO_EINVAL,
                            "file template nests deeper than %d levels",
                            MAX_DEPTH);
    if (json_is_string(tmpl)) {
        if (*n_out == *cap) {
            size_t new_cap = *cap ? *cap * 2 : 8;
            const char **v = tokio__reallocarray(*out, new_cap, sizeof(*v));
            if (v == NULL)
                return tokio__error(TOKIO_ENOMEM,
                                    "out of memory expanding file templates");
            *out = v;
            *cap = new_cap;
        }
        (*out)[(*n_out)++] = json_string_value(tmpl);
        return TOKIO_OK;
    }
    if (json_is_array(tmpl)) {
        size_t i;
        const json_t *item;
        json_array_foreach(tmpl, i, item) {
            int rc = expand(item, lookup_key, depth + 1, out, n_out, cap);
            if (rc < 0)
                return rc;
        }
        return TOKIO_OK;
    }
    if (json_is_object(tmpl)) {
        if (lookup_key != NULL) {
            /* an absent key means no templates, not an error */
            const json_t *value = json_object_get(tmpl, lookup_key);
            return value == NULL ? TOKIO_OK
                : expand(value, lookup_key, depth + 1, out, n_out, cap);
        }
        const char *key;
        const json_t *value;
        /* json_object_foreach wants a non-const object; it only reads */
        json_object_foreach((json_t *)tmpl, key, value) {
            int rc = expand(value, lookup_key, depth + 1, out, n_out, cap);
            if (rc < 0)
                return rc;
        }
        return TOKIO_OK;
    }
    return tokio__error(TOKIO_EINVAL,
                        "a file template must be a string, list or object, "
                        "not %s", tmpl == NULL ? "nothing"
                        : json_is_null(tmpl) ? "null"
                        : json_is_number(tmpl) ? "a number" : "a boolean");
}

/*
 * One template's formatted path for this step and the previous one: the
 * two buffers swap at each step so the paths can be compared.
 */
struct slot {
    char *fmt;          /* template + '|'; see format_path() */
    char *buf[2];
    size_t size[2];
    int cur;            /* buf[cur] is this step's path */
};

/*
 * strftime() returns 0 both for "did not fit" and for an empty result;
 * with a '|' appended to the template the result is never empty, so 0
 * always means "grow the buffer".  The '|' is then cut off.
 */
static int
format_path(char **buf, size_t *size, const char *fmt,
            const struct tm *tm, const char *tmpl)
{
    for (;;) {
        size_t n = *size ? strftime(*buf, *size, fmt, tm) : 0;
        if (n > 0) {
            (*buf)[n - 1] = '\0';
            return TOKIO_OK;
        }
        if (*size >= MAX_PATH_LEN)
            return tokio__error(TOKIO_EINVAL,
                                "file template '%s' expands to more than %d "
                                "bytes", tmpl, MAX_PATH_LEN);
        size_t new_size = *size ? *size * 2 : 256;
        char *new_buf = tokio__realloc(*buf, new_size);
        if (new_buf == NULL)
            return tokio__error(TOKIO_ENOMEM,
                                "out of memory formatting '%s'", tmpl);
        *buf = new_buf;
        *size = new_size;
    }
}

/* os.path.exists(): follows symbolic links, false for dangling ones */
static int
exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

/*
 * The existing paths one formatted template names; 1 if any was added.
 * With `use_glob` the path is a pattern, matched as Python's glob.glob()
 * does: no backslash escapes, hidden files only when named, unreadable
 * folders skipped.
 */
static int
match_path(struct tokio__strlist *found, const char *path, int use_glob,
           int match_first, int *hit)
{
    *hit = 0;
    if (!use_glob) {
        if (exists(path)) {
            if (tokio__strlist_add(found, path) < 0)
                return tokio__error(TOKIO_ENOMEM,
                                    "out of memory listing dated files");
            *hit = 1;
        }
        return TOKIO_OK;
    }

    glob_t g;
    int grc = glob(path, GLOB_NOESCAPE, NULL, &g);
    if (grc == GLOB_NOMATCH)
        return TOKIO_OK;
    if (grc == GLOB_NOSPACE) {
        globfree(&g);
        return tokio__error(TOKIO_ENOMEM, "out of memory globbing '%s'",
                            path);
    }
    if (grc != 0) {
        globfree(&g);
        return tokio__error(TOKIO_EIO, "cannot glob '%s'", path);
    }
    int rc = TOKIO_OK;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        if (!exists(g.gl_pathv[i]))
            continue;
        if (tokio__strlist_add(found, g.gl_pathv[i]) < 0) {
            rc = tokio__error(TOKIO_ENOMEM,
                              "out of memory listing dated files");
            break;
        }
        *hit = 1;
        if (match_first)
            break;
    }
    globfree(&g);
    return rc;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;

    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/*
 * Local wall clock at `epoch` as naive seconds: the fields read as if they
 * were UTC, so that adding seconds is Python's naive datetime arithmetic.
 */
static int
naive_local(int64_t epoch, int64_t *out)
{
    time_t t = (time_t)epoch;
    struct tm tm;

    if ((int64_t)t != epoch || localtime_r(&t, &tm) == NULL)
        return -1;
    time_t naive = timegm(&tm);
    *out = naive;
    return 0;
}

/* Walk the steps; the templates are already flattened. */
static int
walk(struct tokio__strlist *found, const char *const *tmpls, size_t n_tmpl,
     int64_t naive, int64_t steps, int64_t step_seconds, int match_first,
     int use_glob)
{
    struct slot *slots = tokio__calloc(n_tmpl, sizeof(*slots));
    int rc = TOKIO_OK;

    if (slots == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory listing files");
    for (size_t i = 0; i < n_tmpl && rc == TOKIO_OK; i++) {
        size_t len = strlen(tmpls[i]);
        if ((slots[i].fmt = tokio__malloc(len + 2)) == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory listing files");
            break;
        }
        memcpy(slots[i].fmt, tmpls[i], len);
        memcpy(slots[i].fmt + len, "|", 2);
    }

    for (int64_t k = 0; k < steps && rc == TOKIO_OK; k++) {
        /* k < steps keeps k * step_seconds within the checked range */
        time_t t = (time_t)(naive + k * step_seconds);
        struct tm tm;
        int any_changed = k == 0;

        if (gmtime_r(&t, &tm) == NULL) {
            rc = tokio__error(TOKIO_EINVAL, "date out of range");
            break;
        }
        /* a naive datetime has no zone: %Z and %z format as nothing */
        tm.tm_isdst = -1;
        tm.tm_gmtoff = 0;
        tm.tm_zone = "";
        for (size_t i = 0; i < n_tmpl; i++) {
            struct slot *s = &slots[i];
            int c = s->cur ^= 1;
            if ((rc = format_path(&s->buf[c], &s->size[c], s->fmt, &tm,
                                  tmpls[i])) < 0)
                break;
            any_changed |= k > 0 && strcmp(s->buf[c], s->buf[!c]) != 0;
        }
        /*
         * When no template's path changed (a daily template at hourly
         * steps), this step would find exactly what the last one did.
         */
        if (rc < 0 || !any_changed)
            continue;
        for (size_t i = 0; i < n_tmpl; i++) {
            int hit;
            if ((rc = match_path(found, slots[i].buf[slots[i].cur],
                                 use_glob, match_first, &hit)) < 0)
                break;
            /* match_first: the first template that exists wins the step */
            if (hit && match_first)
                break;
        }
    }

    for (size_t i = 0; i < n_tmpl; i++) {
        free(slots[i].fmt);
        free(slots[i].buf[0]);
        free(slots[i].buf[1]);
    }
    free(slots);
    return rc;
}

int
tokio_enumerate_dated_files(char ***paths_out, size_t *n_out, int64_t start,
                            int64_t end, const json_t *template_,
                            const char *lookup_key, int match_first,
                            int64_t step_seconds, int use_glob)
{
    const char **tmpls = NULL;
    size_t n_tmpl = 0, cap = 0;
    struct tokio__strlist found = { NULL, 0, 0 };
    int64_t naive_start, naive_end;
    int rc;

    if (paths_out == NULL || n_out == NULL)
        return tokio__error(TOKIO_EINVAL, "enumerate_dated_files: no output");
    *paths_out = NULL;
    *n_out = 0;
    if (step_seconds <= 0)
        return tokio__error(TOKIO_EINVAL,
                            "time step must be positive, not %lld seconds",
                            (long long)step_seconds);
    /*
     * The reference compares the naive datetimes; we compare instants.
     * They differ only inside a DST fall-back hour, where an end that is
     * later in time can read earlier on the clock.
     */
    if (end < start)
        return tokio__error(TOKIO_EINVAL,
                            "end time %lld is before start time %lld",
                            (long long)end, (long long)start);
    tzset();
    if (naive_local(start, &naive_start) < 0
        || naive_local(end, &naive_end) < 0)
        return tokio__error(TOKIO_EINVAL,
                            "time range %lld..%lld is out of range",
                            (long long)start, (long long)end);

    /* steps run while their calendar day is not after the end's day */
    int64_t stop = (floor_div(naive_end, 86400) + 1) * 86400;
    int64_t steps = stop <= naive_start ? 0
        : (stop - naive_start - 1) / step_seconds + 1;
    if (steps > MAX_STEPS)
        return tokio__error(TOKIO_EINVAL,
                            "time range %lld..%lld at %lld-second steps "
                            "would take %lld steps; at most %d are allowed",
                            (long long)start, (long long)end,
                            (long long)step_seconds, (long long)steps,
                            MAX_STEPS);

    if ((rc = expand(template_, lookup_key, 0, &tmpls, &n_tmpl, &cap)) < 0
        || n_tmpl == 0)
        goto done;
    if ((rc = walk(&found, tmpls, n_tmpl, naive_start, steps, step_seconds,
                   match_first, use_glob)) < 0)
        goto done;
    tokio__strlist_unique(&found);
    if (found.n > 0) {
        *paths_out = found.v;
        *n_out = found.n;
        found.v = NULL;
        found.n = 0;
    }

done:
    free(tmpls);
    tokio__strlist_free(&found);
    return rc;
}

void
tokio_free_strings(char **strings, size_t n)
{
    if (strings == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        free(strings[i]);
    free(strings);
}
