/*
 * src/tools/archive_esnet_snmp.c - ESnet SNMP rates into a TOKIO Time
 * Series file: the reference's archive_esnet_snmp (Archiver, then
 * init_hdf5_file() and commit_timeseries()), through the all-or-nothing
 * HDF5 update.
 *
 * Each interface's rates go to column "endpoint:interface" of
 * datatargets/readrates ("in") and datatargets/writerates ("out"), a
 * series over [start, end) every timestep seconds, at the
 * row of their timestamp; units "bytes/sec", version "1", group source
 * "esnet_snmp".  Missing datasets are first created empty over
 * [init_start, init_end), so a day's file fills up query by query.
 *
 * Differs from pytokio: the output is created or updated (the
 * reference's h5py-3 failure, see golden COMMANDS.md); a null rate is
 * left missing (numpy raised); the API is asked for the timestep and
 * the average it meant to ask for (see src/connectors/esnet_snmp.c); no
 * "Initialized"/"Writing out" lines.  Golden:
 * ../shared/testdata/golden/pytokio/archive_esnet_snmp/.
 */
#include "tokio/tools/archive_esnet_snmp.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/esnet_snmp.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/timeseries.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"

#define SCHEMA_VERSION "1"

/* The reference's Archiver.config: dataset, the rates it takes. */
static const char *const datasets[][2] = {
    { "datatargets/readrates", "in" },
    { "datatargets/writerates", "out" },
};

/* The columns, "endpoint:interface" in the order named (free() each and
 * the array). */
static int
column_names(const json_t *interfaces, char ***out, size_t *n_out)
{
    const char *endpoint;
    json_t *list, *iface;
    size_t n = 0, i;
    char **names;

    json_object_foreach((json_t *)interfaces, endpoint, list)
        n += json_array_size(list);
    *out = NULL;
    *n_out = 0;
    if (n == 0)
        return tokio__error(TOKIO_EINVAL, "no interfaces to archive");
    if ((names = tokio__calloc(n, sizeof(*names))) == NULL)
        return TOKIO_ENOMEM;
    n = 0;
    json_object_foreach((json_t *)interfaces, endpoint, list)
        json_array_foreach(list, i, iface) {
            size_t len = strlen(endpoint) + json_string_length(iface) + 2;

            if ((names[n] = tokio__malloc(len)) == NULL) {
                for (size_t k = 0; k < n; k++)
                    free(names[k]);
                free(names);
                return TOKIO_ENOMEM;
            }
            snprintf(names[n++], len, "%s:%s", endpoint,
                     json_string_value(iface));
        }
    *out = names;
    *n_out = n;
    return TOKIO_OK;
}

/* The rates of every interface from the API, checked as the reference
 * checks them: some data, and as many points each time. */
static int
query(struct tokio_esnet_snmp *e, const struct tokio_archive_esnet_snmp_options *o)
{
    const char *endpoint;
    json_t *list, *iface;
    size_t i, last = 0;
    int rc, first = 1;

    if ((rc = tokio_esnet_snmp_connect(e, o->url, o->timeout, o->stop)) < 0)
        return rc;
    json_object_foreach((json_t *)o->interfaces, endpoint, list)
        json_array_foreach(list, i, iface)
            for (size_t d = 0; d < 2; d++) {
                const char *name = json_string_value(iface);
                size_t n;

                if ((rc = tokio_esnet_snmp_get(e, endpoint, name,
                                               datasets[d][1], "average",
                                               o->range.timestep, &n)) < 0)
                    return rc;
                if (n == 0)
                    return tokio__error(TOKIO_EFORMAT, "'%s' %s:%s:%s "
                                        "returned no data", o->url, endpoint,
                                        name, datasets[d][1]);
                if (!first && n != last)
                    return tokio__error(TOKIO_EFORMAT, "'%s' %s:%s:%s "
                                        "returned %zu entries, but previous "
                                        "contained %zu", o->url, endpoint,
                                        name, datasets[d][1], n, last);
                first = 0;
                last = n;
            }
    return TOKIO_OK;
}

/* Dataset `d`'s series of the rates. */
static int
fill(struct tokio_timeseries **out, const struct tokio_esnet_snmp *e,
     const struct tokio_archive_esnet_snmp_options *o, size_t d,
     char **names, size_t n)
{
    struct tokio_timeseries *ts;
    const char *endpoint;
    json_t *list, *iface;
    size_t i, c = 0;
    int rc;

    if ((rc = tokio_timeseries_new(&ts, datasets[d][0], o->range.start,
                                   o->range.end, o->range.timestep, n,
                                   (const char *const *)names, n)) < 0)
        return rc;
    json_object_foreach((json_t *)o->interfaces, endpoint, list)
        json_array_foreach(list, i, iface) {
            const json_t *rates = tokio_esnet_snmp_rates(
                e, endpoint, json_string_value(iface), datasets[d][1]), *v;
            const char *key;

            if (rates == NULL) {
                tokio_timeseries_free(ts);
                return tokio__error(TOKIO_EFORMAT, "%s%s%sno \"%s\" rates of "
                                    "%s", o->input ? "'" : "",
                                    o->input ? o->input : "",
                                    o->input ? "': " : "", datasets[d][1],
                                    names[c]);
            }
            json_object_foreach((json_t *)rates, key, v) {
                int64_t t;

                if (json_is_null(v))
                    continue;
                tokio__py_int(key, strlen(key), &t);
                if ((rc = tokio_timeseries_insert_element(
                         ts, t, names[c], json_number_value(v),
                         TOKIO_TS_REPLACE, TOKIO_TS_LEFT)) < 0) {
                    tokio_timeseries_free(ts);
                    return rc;
                }
            }
            c++;
        }
    json_t *meta = tokio_timeseries_dataset_metadata(ts);
    if (json_object_set_new(meta, "version", json_string(SCHEMA_VERSION)) < 0
        || json_object_set_new(meta, "units", json_string("bytes/sec")) < 0
        || json_object_set_new(tokio_timeseries_group_metadata(ts), "source",
                               json_string("esnet_snmp")) < 0) {
        tokio_timeseries_free(ts);
        return TOKIO_ENOMEM;
    }
    *out = ts;
    return TOKIO_OK;
}

int
tokio_archive_esnet_snmp(const struct tokio_archive_esnet_snmp_options *o)
{
    struct tokio_esnet_snmp *e = NULL;
    struct tokio_timeseries *ts[2] = { NULL, NULL };
    struct tokio_hdf5_update *u = NULL;
    char **names = NULL;
    size_t n = 0;
    int rc;

    if ((rc = tokio_hdf5_check_range(&o->range, o->output)) < 0)
        return rc;
    if ((rc = column_names(o->interfaces, &names, &n)) < 0)
        return rc == TOKIO_ENOMEM ? tokio__error(rc, "out of memory") : rc;
    if (o->input != NULL)
        rc = tokio_esnet_snmp_open(&e, o->input, o->range.start,
                                   o->range.end);
    else if ((rc = tokio_esnet_snmp_new(&e, o->range.start,
                                        o->range.end)) >= 0)
        rc = query(e, o);
    for (size_t d = 0; d < 2 && rc >= 0; d++)
        rc = fill(&ts[d], e, o, d, names, n);
    if (rc >= 0 && o->stop != NULL && *o->stop)
        rc = tokio__error(TOKIO_EIO, "archive-esnet-snmp: interrupted: "
                          "'%s' not updated", o->output);
    if (rc >= 0)
        rc = tokio_hdf5_update_begin(&u, o->output);
    if (rc >= 0)
        rc = tokio_hdf5_update_set_version(u, SCHEMA_VERSION);
    for (size_t d = 0; d < 2 && rc >= 0; d++)
        rc = tokio_hdf5_update_init_dataset(u, datasets[d][0], o->range.init_start,
                                            o->range.init_end, o->range.timestep, n);
    for (size_t d = 0; d < 2 && rc >= 0; d++)
        rc = tokio_hdf5_update_commit(u, ts[d]);
    if (rc >= 0)
        rc = tokio_hdf5_update_finish(u);
    else
        tokio_hdf5_update_abort(u);
    if (rc == TOKIO_ENOMEM)
        tokio__error(rc, "out of memory archiving into '%s'", o->output);
    for (size_t d = 0; d < 2; d++)
        tokio_timeseries_free(ts[d]);
    for (size_t k = 0; k < n; k++)
        free(names[k]);
    free(names);
    tokio_esnet_snmp_free(e);
    return rc;
}
