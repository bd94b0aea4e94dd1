/*
 * tokio/connectors/esnet_snmp.h - data rates of ESnet routers'
 * interfaces from ESnet's SNMP REST API, and the reference's JSON cache
 * of them: {endpoint: {interface: {"in": {"<epoch>": bytes/s, ...},
 * "out": {...}, "units": "bytes/sec"}}}.  Mirrors
 * tokio.connectors.esnet_snmp.EsnetSnmp (pytokio 0.13).
 *
 * The API: GET <esnet_snmp_url>/<endpoint>/interface/<interface>/<in|out>
 * ?begin=<epoch>&end=<epoch>[&calc_func=<average|min|max>][&calc=<s>]
 * answers {"agg": "30", "begin_time": B, "end_time": E, "cf": "average",
 * "data": [[epoch, value], ...]}, both ends inclusive.
 */
#ifndef TOKIO_CONNECTORS_ESNET_SNMP_H
#define TOKIO_CONNECTORS_ESNET_SNMP_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_config;
struct tokio_esnet_snmp;

/**
 * The API's base URL: $PYTOKIO_ESNET_SNMP_URI (the site configuration's
 * esnet_snmp_uri it sets), else the configuration's esnet_snmp_url.
 * Borrowed from `cfg`.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (neither is set).
 */
TOKIO_API int tokio_esnet_snmp_url(const struct tokio_config *cfg,
                                   const char **url_out);

/**
 * The interfaces `spec` names, as the reference's commands read their
 * <endpoints> argument: a name of the site configuration's
 * esnet_snmp_interfaces ("nersc": {endpoint: [interface, ...]}), or
 * "endpoint:interface[,endpoint:interface]...".
 * @param[out] out  a new {endpoint: [interface, ...]} object, in order.
 * @return TOKIO_OK; TOKIO_EINVAL (nothing named: the message lists the
 *         configuration's names; a pair without ':'; a configured entry
 *         that is not a list of strings); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_esnet_snmp_interfaces(const struct tokio_config *cfg,
                                          const char *spec, json_t **out);

/**
 * An empty set of counters over [start, end] (both inclusive, as the API
 * treats them).
 * @param[out] out  free with tokio_esnet_snmp_free().
 * @return TOKIO_OK; TOKIO_EINVAL (start >= end); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_esnet_snmp_new(struct tokio_esnet_snmp **out,
                                   int64_t start, int64_t end);

/**
 * Read a cache (plain or compressed JSON; "-" is standard input); the
 * range is [start, end] as for tokio_esnet_snmp_new() (a cache is not
 * filtered by it, as in the reference).
 * @return TOKIO_OK; TOKIO_EIO; TOKIO_EFORMAT (not JSON; not objects of
 *         objects; a key of "in"/"out" that is not an integer, a value
 *         that is not a number: the message names the path);
 *         TOKIO_EINVAL; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_esnet_snmp_open(struct tokio_esnet_snmp **out,
                                    const char *path, int64_t start,
                                    int64_t end);

/** As tokio_esnet_snmp_open() over the parsed cache `json` (borrowed),
 *  named `name` in messages. */
TOKIO_API int tokio_esnet_snmp_from_json(struct tokio_esnet_snmp **out,
                                         const json_t *json,
                                         const char *name, int64_t start,
                                         int64_t end);

/**
 * Talk to the API at `url` with `timeout` seconds to connect and between
 * bytes, stopping when `*stop` (may be NULL) becomes non-zero.
 * @return TOKIO_OK; TOKIO_EINVAL (timeout); TOKIO_EIO; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_esnet_snmp_connect(struct tokio_esnet_snmp *e,
                                       const char *url, long timeout,
                                       volatile sig_atomic_t *stop);

/**
 * The reference's get_interface_counters(): GET the rates of `endpoint`
 * `interface` `direction` ("in" or "out") over the range, with
 * `agg_func` ("average", "min", "max"; NULL: the API's default) and
 * `interval` seconds (0: the API's default), and add them.
 * @param[out] n_out  data points the answer held (may be NULL).
 * @return TOKIO_OK; TOKIO_EINVAL (a direction neither in nor out; not
 *         connected); TOKIO_EIO (the request failed, an HTTP error: the
 *         message names the URL); TOKIO_EFORMAT (an answer that is not
 *         the API's JSON, naming the field); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_esnet_snmp_get(struct tokio_esnet_snmp *e,
                                   const char *endpoint,
                                   const char *interface,
                                   const char *direction,
                                   const char *agg_func, int64_t interval,
                                   size_t *n_out);

/** The data's timestep (the API's "agg"), 0 when unknown. */
TOKIO_API int64_t tokio_esnet_snmp_timestep(const struct tokio_esnet_snmp *e);

/**
 * The rates of one interface and direction: an object {"<epoch>": value
 * (a number or null)}, borrowed; NULL when absent.
 */
TOKIO_API const json_t *
tokio_esnet_snmp_rates(const struct tokio_esnet_snmp *e, const char *endpoint,
                       const char *interface, const char *direction);

/**
 * The counters as the reference's save_cache() writes them: a new
 * reference to an object to read, not change.
 * @return TOKIO_OK.
 */
TOKIO_API int tokio_esnet_snmp_to_json(const struct tokio_esnet_snmp *e,
                                       json_t **out);

/**
 * CSV as pandas prints the reference's to_dataframe(): columns
 * endpoint, interface, direction, timestamp (local "YYYY-MM-DD
 * HH:MM:SS"), data_rate after a row number; with `multiindex`,
 * timestamp, endpoint, interface, direction as the index and data_rate.
 * Rows in the counters' order; data_rate as reals when any is a real or
 * missing.  No rows at all is pandas' empty frame, a line `""`.
 * @return TOKIO_OK; TOKIO_EIO.
 */
TOKIO_API int tokio_esnet_snmp_write_csv(const struct tokio_esnet_snmp *e,
                                         FILE *fp, int multiindex);

/** Release; NULL is fine. */
TOKIO_API void tokio_esnet_snmp_free(struct tokio_esnet_snmp *e);

#endif
