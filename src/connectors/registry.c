/*
 * src/connectors/registry.c - the table of text connectors.
 *
 * Bidders that recognise a fixed header (sacct's "JobID|", lfs df's
 * "UUID") come before those that judge a line's shape, so that on a tie
 * the surer one wins.
 */
#include "connectors/registry.h"

#include <string.h>

const struct tokio__connector *const tokio__connectors[] = {
    &tokio__slurm_connector,
    &tokio__craysdb_connector,
    &tokio__hpss_connector,
    &tokio__globuslogs_connector,
    &tokio__nersc_globuslogs_connector,
    &tokio__nersc_isdct_connector,
    &tokio__nersc_lfsstate_fullness_connector,
    &tokio__nersc_lfsstate_map_connector,
    &tokio__lfshealth_fullness_connector,
    &tokio__lfshealth_map_connector,
    &tokio__mmperfmon_connector,
    NULL
};

const struct tokio__connector *
tokio__connector_find(const char *name)
{
    for (size_t i = 0; tokio__connectors[i] != NULL; i++)
        if (strcmp(tokio__connectors[i]->name, name) == 0)
            return tokio__connectors[i];
    return NULL;
}

const struct tokio__connector *
tokio__connector_bid(const char *head, size_t n)
{
    const struct tokio__connector *best = NULL;
    int best_bid = 0;

    for (size_t i = 0; tokio__connectors[i] != NULL; i++) {
        int bid = tokio__connectors[i]->bid(head, n);
        if (bid > best_bid) {
            best = tokio__connectors[i];
            best_bid = bid;
        }
    }
    return best;
}
