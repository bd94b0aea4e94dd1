/*
 * src/tools/lfsstatus.c - OST fullness and failover summaries of a Lustre
 * file system at a time, as tokio.tools.lfsstatus of pytokio 0.13
 * (get_fullness, get_failures), over the NERSC lfsstate histories the site
 * configuration names (lfsstatus_fullness_files, lfsstatus_map_files).
 *
 * Differs from pytokio:
 * - ost_next_timestamp is the next snapshot's timestamp; the reference
 *   wrote the chosen one's plus 1 second (timestamps[i] + 1 for
 *   timestamps[i + 1]).
 * - when every snapshot precedes the time asked for, the last one is the
 *   one immediately preceding it; the reference reported the first.
 *   (With NerscLfsOstMap dropping the last block, the reference answered
 *   cscratch at 2017-03-21T00:00:00 from the 02:03 snapshot of the day
 *   before.)
 * - an explicit history file is read directly; the reference still asked
 *   the hdf5 provider first, which never reads that file.
 * - when no provider has data (every one tried, none answering), the
 *   result is TOKIO_ENOTFOUND naming the providers; the reference printed
 *   {} when "hdf5" had been tried, and raised ConfigError otherwise.
 * The "hdf5" provider (lfsstatus_hdf5.c) lists its own differences.
 * - a file system whose OSTs all hold 0 KiB gets its first OST as the most
 *   full; an OST with 0 KiB total is TOKIO_EFORMAT (the reference crashed
 *   on both).
 */
#include "tokio/tools/lfsstatus.h"

#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/config.h"
#include "tokio/connectors/lfshealth.h"
#include "tokio/connectors/nersc_lfsstate.h"
#include "tokio/time.h"
#include "tokio/tools/common.h"
#include "tools/lfsstatus_private.h"

/* The reference's look-behind and look-ahead around the time asked for:
 * a day back because files are named by local date while samples are
 * epoch-stamped, an hour ahead to cover the sampling interval. */
#define LOOKBEHIND_SECONDS 86400
#define LOOKAHEAD_SECONDS  3600
#define DAY_SECONDS        86400

/* The backend name of a logical file system (scratch2 -> snx11035). */
static const char *
backend_name(const struct tokio_config *cfg, const char *fs)
{
    const json_t *map = cfg ? tokio_config_get(cfg, "fsname_to_backend_name")
                            : NULL;
    const char *v = json_string_value(json_object_get(map, fs));

    return v && *v ? v : fs;
}

/* Load the history from `cache_file`, or from every file the site's
 * template names around `when` (later files replace equal timestamps). */
static int
load_history(struct tokio_nersc_lfsstate **out, const struct tokio_config *cfg,
             enum tokio_nersc_lfsstate_kind kind, int64_t when,
             const char *cache_file)
{
    const char *key = kind == TOKIO_NERSC_LFSSTATE_FULLNESS
                          ? "lfsstatus_fullness_files"
                          : "lfsstatus_map_files";
    struct tokio_nersc_lfsstate *all = NULL;
    char **paths = NULL;
    size_t n = 0;
    int rc;

    *out = NULL;
    if (cache_file != NULL)
        return tokio_nersc_lfsstate_open(out, kind, cache_file);
    const json_t *tmpl = cfg ? tokio_config_get(cfg, key) : NULL;
    if (tmpl == NULL)
        return tokio__error(TOKIO_EINVAL, "the site configuration has no "
                            "%s", key);
    if ((rc = tokio_enumerate_dated_files(&paths, &n,
                                          when - LOOKBEHIND_SECONDS,
                                          when + LOOKAHEAD_SECONDS, tmpl,
                                          NULL, 1, DAY_SECONDS, 0)) < 0)
        return tokio__error_prefix("%s", key);
    if (n == 0) {
        char iso[32];
        tokio_time_to_iso(iso, sizeof(iso), when);
        return tokio__error(TOKIO_ENOTFOUND, "no OST health files (%s) "
                            "found for %s", key, iso);
    }
    for (size_t i = 0; i < n; i++) {
        struct tokio_nersc_lfsstate *one = NULL;
        if ((rc = tokio_nersc_lfsstate_open(&one, kind, paths[i])) < 0)
            break;
        if (all == NULL)
            all = one;
        else if ((rc = tokio_nersc_lfsstate_merge(all, one)) < 0)
            break;
    }
    tokio_free_strings(paths, n);
    if (rc < 0) {
        tokio_nersc_lfsstate_free(all);
        return rc;
    }
    *out = all;
    return TOKIO_OK;
}

/* The snapshot immediately preceding `when` (one at `when` exactly does
 * not count: it may overlap); the first when none precedes it. */
static size_t
pick_snapshot(const struct tokio_nersc_lfsstate *h, int64_t when)
{
    size_t n = tokio_nersc_lfsstate_count(h);

    for (size_t i = 0; i < n; i++)
        if (tokio_nersc_lfsstate_timestamp(h, i) >= when)
            return i == 0 ? 0 : i - 1;
    return n - 1;
}

/* The targets of file system `fs` in one lfs df snapshot, names borrowed
 * from `df`. */
static int
snapshot_of_df(struct tokio__fullness_snapshot *s,
               const struct tokio_lfshealth_fullness *df, const char *fs,
               int64_t ts)
{
    json_t *tree, *rec;
    const char *name;

    tokio_lfshealth_fullness_to_json(df, &tree);
    const json_t *targets = json_object_get(tree, fs);
    size_t n = json_object_size(targets);
    json_decref(tree);                  /* still held by `df` */
    if (n == 0)
        return tokio__error(TOKIO_ENOTFOUND, "file system '%s' is not in "
                            "the snapshot of %lld", fs, (long long)ts);
    if ((s->targets = tokio__calloc(n, sizeof(*s->targets))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    json_object_foreach((json_t *)targets, name, rec)
        s->targets[s->n_targets++] = (struct tokio__ost_fullness){
            .name = name,
            .used_kib = json_integer_value(json_object_get(rec, "used_kib")),
            .total_kib = json_integer_value(json_object_get(rec,
                                                            "total_kib")),
            .target_index = json_integer_value(json_object_get(
                rec, "target_index")) };
    s->timestamp = ts;
    return TOKIO_OK;
}

/* The reference's _summarize_fullness() of one snapshot of `fs`. */
static int
summarize_fullness(json_t *res, const struct tokio__fullness_snapshot *s,
                   const char *fs)
{
    const struct tokio__ost_fullness *least = NULL, *most = NULL;
    const struct tokio__ost_fullness *first = NULL;
    int64_t count = 0, sum_used = 0, sum_total = 0, most_kib = 0;
    long long ts = (long long)s->timestamp;

    for (size_t i = 0; i < s->n_targets; i++) {
        const struct tokio__ost_fullness *t = &s->targets[i];
        /* only OSTs, not MDTs or MGTs */
        if (strncasecmp(t->name, "ost", 3) != 0)
            continue;
        if (t->total_kib == 0)
            return tokio__error(TOKIO_EFORMAT, "%s %s at %lld: 0 KiB total",
                                fs, t->name, ts);
        if (__builtin_add_overflow(sum_used, t->used_kib, &sum_used) ||
            __builtin_add_overflow(sum_total, t->total_kib, &sum_total))
            return tokio__error(TOKIO_EFORMAT, "%s at %lld: KiB sums "
                                "overflow", fs, ts);
        count++;
        if (first == NULL)
            first = t;
        /* strict comparisons: the first of equals wins, in file order */
        if (least == NULL || least->used_kib > t->used_kib)
            least = t;
        if (most_kib < t->used_kib) {
            most_kib = t->used_kib;
            most = t;
        }
    }
    if (count == 0)
        return tokio__error(TOKIO_ENOTFOUND, "file system '%s' has no OST "
                            "in the snapshot of %lld", fs, ts);
    if (most == NULL)
        most = first;
    /* the reference's arithmetic, operation for operation */
    int64_t avg_kib = (int64_t)((double)sum_used / (double)count);
    double avg_pct = 100.0 * (double)avg_kib / (double)sum_total *
                     (double)count;
    if (json_object_set_new(res, "ost_count", json_integer(count)) < 0 ||
        json_object_set_new(res, "ost_avg_full_kib",
                            json_integer(avg_kib)) < 0 ||
        json_object_set_new(res, "ost_avg_full_pct", json_real(avg_pct)) < 0 ||
        json_object_set_new(res, "ost_least_full_kib",
                            json_integer(least->used_kib)) < 0 ||
        json_object_set_new(res, "ost_least_full_name",
                            json_string(least->name)) < 0 ||
        json_object_set_new(res, "ost_least_full_pct",
                            json_real(100.0 * (double)least->used_kib /
                                      (double)least->total_kib)) < 0 ||
        json_object_set_new(res, "ost_least_full_id",
                            json_integer(least->target_index)) < 0 ||
        json_object_set_new(res, "ost_most_full_kib",
                            json_integer(most->used_kib)) < 0 ||
        json_object_set_new(res, "ost_most_full_name",
                            json_string(most->name)) < 0 ||
        json_object_set_new(res, "ost_most_full_pct",
                            json_real(100.0 * (double)most->used_kib /
                                      (double)most->total_kib)) < 0 ||
        json_object_set_new(res, "ost_most_full_id",
                            json_integer(most->target_index)) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

/* The sample's times; Differs from pytokio: the next one's own time,
 * not ts + 1. */
static int
stamp(json_t *res, int64_t ts, int has_next, int64_t next, int64_t when)
{
    if ((has_next &&
         json_object_set_new(res, "ost_next_timestamp",
                             json_integer(next)) < 0) ||
        json_object_set_new(res, "ost_actual_timestamp",
                            json_integer(ts)) < 0 ||
        json_object_set_new(res, "ost_requested_timestamp",
                            json_integer(when)) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static int
summarize_failover(json_t *res, const struct tokio_lfshealth_map *dl,
                   const char *fs, int64_t ts)
{
    json_t *all = NULL;
    int rc;

    if ((rc = tokio_lfshealth_map_failovers(dl, &all)) < 0)
        return rc;
    const json_t *f = json_object_get(all, fs);
    if (f == NULL) {
        json_decref(all);
        return tokio__error(TOKIO_ENOTFOUND, "file system '%s' is not in "
                            "the OST map of %lld", fs, (long long)ts);
    }
    const json_t *abnormal = json_object_get(f, "abnormal_ips");
    int64_t mode = json_integer_value(json_object_get(f, "mode"));
    size_t n_ips = json_object_size(abnormal), n_osts = 0;
    const char *ip;
    const json_t *list;
    double avg = 0.0, factor = 1.0;

    json_object_foreach((json_t *)abnormal, ip, list)
        n_osts += json_array_size(list);
    if (n_ips > 0) {
        avg = (double)n_osts / (double)n_ips;
        factor = avg / (double)mode;
    }
    json_decref(all);
    if (json_object_set_new(res, "ost_overloaded_oss_count",
                            json_integer((json_int_t)n_ips)) < 0 ||
        json_object_set_new(res, "ost_overloaded_ost_count",
                            json_integer((json_int_t)n_osts)) < 0 ||
        json_object_set_new(res, "ost_avg_overloaded_ost_per_oss",
                            json_real(avg)) < 0 ||
        json_object_set_new(res, "ost_avg_overloaded_overload_factor",
                            json_real(factor)) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

/* The reference's get_lfsstate(): load, pick, summarize, stamp. */
static int
get_lfsstate(json_t **out, const struct tokio_config *cfg, const char *fs,
             int64_t when, enum tokio_nersc_lfsstate_kind kind,
             const char *cache_file)
{
    struct tokio_nersc_lfsstate *h = NULL;
    json_t *res = NULL;
    int rc;

    *out = NULL;
    if ((rc = load_history(&h, cfg, kind, when, cache_file)) < 0)
        return rc;
    size_t n = tokio_nersc_lfsstate_count(h);
    if (n == 0) {
        rc = tokio__error(TOKIO_ENOTFOUND, "no 'BEGIN <epoch>' snapshot in "
                          "%s", cache_file ? cache_file : "the files found");
        goto done;
    }
    size_t i = pick_snapshot(h, when);
    int64_t ts = tokio_nersc_lfsstate_timestamp(h, i);
    if ((res = json_object()) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
        goto done;
    }
    if (kind == TOKIO_NERSC_LFSSTATE_FULLNESS) {
        struct tokio__fullness_snapshot snap = { 0 };
        struct tokio_lfshealth_fullness *df = NULL;
        if ((rc = tokio_nersc_lfsstate_fullness(h, i, &df)) >= 0 &&
            (rc = snapshot_of_df(&snap, df, fs, ts)) >= 0)
            rc = summarize_fullness(res, &snap, fs);
        tokio__fullness_snapshot_free(&snap);
        tokio_lfshealth_fullness_free(df);
    } else {
        struct tokio_lfshealth_map *dl = NULL;
        if ((rc = tokio_nersc_lfsstate_map(h, i, &dl)) >= 0)
            rc = summarize_failover(res, dl, fs, ts);
        tokio_lfshealth_map_free(dl);
    }
    if (rc >= 0)
        rc = stamp(res, ts, i + 1 < n,
                   i + 1 < n ? tokio_nersc_lfsstate_timestamp(h, i + 1) : 0,
                   when);
done:
    tokio_nersc_lfsstate_free(h);
    if (rc < 0) {
        /* what was read, named: the file, or the configuration's files */
        const char *key = kind == TOKIO_NERSC_LFSSTATE_FULLNESS
                              ? "lfsstatus_fullness_files"
                              : "lfsstatus_map_files";
        if (cache_file == NULL)
            tokio__error_prefix("%s", key);
        else if (strstr(tokio_errmsg(), cache_file) == NULL)
            tokio__error_prefix("'%s'", cache_file);
        json_decref(res);
        return rc;
    }
    *out = res;
    return TOKIO_OK;
}

/* The "hdf5" provider: *out stays NULL when it has no data. */
static int
get_hdf5(json_t **out, const struct tokio_config *cfg,
         const char *file_system, int64_t when)
{
    struct tokio__fullness_snapshot snap;
    json_t *res = NULL;
    int found, rc;

    *out = NULL;
    if ((rc = tokio__lfsstatus_hdf5_fullness(&snap, &found, cfg, file_system,
                                             when)) < 0 || !found)
        return rc;
    if ((res = json_object()) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    if (rc >= 0)
        rc = summarize_fullness(res, &snap, file_system);
    if (rc >= 0)
        rc = stamp(res, snap.timestamp, snap.has_next, snap.next_timestamp,
                   when);
    tokio__fullness_snapshot_free(&snap);
    if (rc < 0) {
        json_decref(res);
        return rc;
    }
    *out = res;
    return TOKIO_OK;
}

int
tokio_lfsstatus_get_fullness(json_t **out, const struct tokio_config *cfg,
                             const char *file_system, int64_t when,
                             const char *cache_file)
{
    const json_t *providers =
        cfg ? tokio_config_get(cfg, "lfsstatus_fullness_providers") : NULL;
    const char *fs = backend_name(cfg, file_system);
    int rc = TOKIO_OK, tried = 0;

    *out = NULL;
    if (cache_file != NULL)
        return get_lfsstate(out, cfg, fs, when,
                            TOKIO_NERSC_LFSSTATE_FULLNESS, cache_file);
    /* the reference's DEFAULT_FULLNESS_PROVIDERS, when none configured */
    size_t n = providers == NULL ? 2
               : json_is_array(providers) ? json_array_size(providers) : 1;
    for (size_t i = 0; i < n; i++) {
        const char *p = providers == NULL ? (i == 0 ? "hdf5"
                                                    : "nersc_lfsstate")
                        : json_is_array(providers)
                            ? json_string_value(json_array_get(providers, i))
                            : json_string_value(providers);
        if (p != NULL && strcmp(p, "hdf5") == 0) {
            /* without hdf5_files it does not apply (the reference's
             * KeyError, which made it skip the provider) */
            if (cfg == NULL || tokio_config_get(cfg, "hdf5_files") == NULL)
                continue;
            tried = 1;
            /* the logical name: hdf5_files is keyed by it */
            rc = get_hdf5(out, cfg, file_system, when);
            if (rc < 0 || *out != NULL)
                return rc;
        } else if (p != NULL && strcmp(p, "nersc_lfsstate") == 0) {
            tried = 1;
            rc = get_lfsstate(out, cfg, fs, when,
                              TOKIO_NERSC_LFSSTATE_FULLNESS, NULL);
            /* no files for that day: as the reference, try the next one */
            if (rc != TOKIO_ENOTFOUND || *out != NULL)
                return rc;
        }
    }
    if (tried && rc < 0)
        return rc;
    if (tried)
        return tokio__error(TOKIO_ENOTFOUND, "no fullness data for '%s' at "
                            "%lld from lfsstatus_fullness_providers",
                            file_system, (long long)when);
    return tokio__error(TOKIO_EINVAL, "no usable lfsstatus_fullness_providers"
                        " (known: hdf5, which needs hdf5_files, and "
                        "nersc_lfsstate)");
}

int
tokio_lfsstatus_get_failures(json_t **out, const struct tokio_config *cfg,
                             const char *file_system, int64_t when,
                             const char *cache_file)
{
    return get_lfsstate(out, cfg, backend_name(cfg, file_system), when,
                        TOKIO_NERSC_LFSSTATE_MAP, cache_file);
}
