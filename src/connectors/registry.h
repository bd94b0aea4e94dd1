/*
 * src/connectors/registry.h - the table of text connectors
 * (src/core/connector.h), for the code that serves them all alike: the
 * fuzz driver and the tests' malformed-input, round-trip and
 * out-of-memory loops.
 */
#ifndef TOKIO_CONNECTORS_REGISTRY_H
#define TOKIO_CONNECTORS_REGISTRY_H

#include "core/connector.h"

/* Each connector's entry, defined at the end of its own file. */
extern const struct tokio__connector tokio__craysdb_connector;
extern const struct tokio__connector tokio__hpss_connector;
extern const struct tokio__connector tokio__slurm_connector;
extern const struct tokio__connector tokio__globuslogs_connector;
extern const struct tokio__connector tokio__nersc_globuslogs_connector;
extern const struct tokio__connector tokio__nersc_isdct_connector;
extern const struct tokio__connector tokio__lfshealth_fullness_connector;
extern const struct tokio__connector tokio__lfshealth_map_connector;
extern const struct tokio__connector tokio__nersc_lfsstate_fullness_connector;
extern const struct tokio__connector tokio__nersc_lfsstate_map_connector;
extern const struct tokio__connector tokio__mmperfmon_connector;

/* Every entry, NULL-ended. */
extern const struct tokio__connector *const tokio__connectors[];

/* The connector named `name` ("craysdb"), or NULL. */
const struct tokio__connector *tokio__connector_find(const char *name);

/* The connector bidding highest for an input starting with the `n`
 * bytes at `head` (decompressed), or NULL when none bids. */
const struct tokio__connector *tokio__connector_bid(const char *head,
                                                    size_t n);

#endif
