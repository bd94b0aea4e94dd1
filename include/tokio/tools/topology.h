/*
 * tokio/tools/topology.h - where a job's nodes sit in a Cray network: the
 * job's "radius" around the centre of mass of its nodes' x/y/z
 * coordinates, from its node list (Slurm) and the Cray SDB processor
 * table.  Mirrors tokio.tools.topology.get_job_diameter.
 */
#ifndef TOKIO_TOOLS_TOPOLOGY_H
#define TOKIO_TOOLS_TOPOLOGY_H

#include <jansson.h>
#include <stddef.h>

#include "tokio/common.h"
#include "tokio/connectors/craysdb.h"

/* A job's spread over the network, as the reference computes it. */
struct tokio_job_diameter {
    size_t n_nodes;       /* nodes placed; 0: no result (the reference's
                             {}), because the job has no nodes or one is
                             not named nidNNNNN (see bad_node) */
    char bad_node[64];    /* when n_nodes is 0: that node's name
                             (truncated), or "" when there were no nodes */
    double min_radius;    /* smallest node distance from the centre, at
                             most 10000.0 as in the reference */
    double max_radius;    /* largest, at least 0.0 */
    double avg_radius;    /* mean distance */
};

/**
 * The diameter of a job running on `nodes` (n of them, borrowed; Cray
 * names "nid05398"), placed with `map`.  Distances are Euclidean in
 * x/y/z coordinates with the reference's arithmetic, node by node in the
 * order given; only avg_radius depends on that order (the reference
 * summed over a Python set, so its last digit varies between runs).
 * @param[out] out  filled in on TOKIO_OK.
 * @return TOKIO_OK (n_nodes may be 0, see above); TOKIO_ENOTFOUND (a node
 *         is not in the table: the message names it); TOKIO_EFORMAT (a
 *         node name is not "nid" and a number, or its coordinates are not
 *         integers).
 */
TOKIO_API int tokio_topology_job_diameter(struct tokio_job_diameter *out,
                                          const struct tokio_craysdb *map,
                                          const char *const *nodes, size_t n);

/**
 * As the reference's get_job_diameter(): the node list of every task in
 * the Slurm cache `jobinfo_path` (the reference ignores `jobid` then), or
 * asked of sacct for `jobid` when `jobinfo_path` is NULL; the node map
 * read from `nodemap_path` (saved `xtdb2proc -f -` output or its JSON),
 * or from running xtdb2proc when `nodemap_path` is NULL.
 * @return as tokio_topology_job_diameter(), plus the statuses of
 *         tokio_slurm_open()/_query() and tokio_craysdb_open()/_query();
 *         TOKIO_EINVAL when neither `jobid` nor `jobinfo_path` is given.
 */
TOKIO_API int tokio_topology_get_job_diameter(struct tokio_job_diameter *out,
                                              const char *jobid,
                                              const char *nodemap_path,
                                              const char *jobinfo_path);

/**
 * The reference's result dict: {"job_avg_radius", "job_max_radius",
 * "job_min_radius"} as reals, or {} when `d->n_nodes` is 0.  A new
 * reference in `*out`.  @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_topology_diameter_to_json(
    const struct tokio_job_diameter *d, json_t **out);

#endif
