/*
 * tokio/connectors/slurm.h - Slurm job accounting (`sacct --parsable`
 * output) as the reference's tokio.connectors.slurm.Slurm: a table keyed
 * by task id ("123", "123.batch", "123.extern", "123.4") whose values map
 * lower-cased sacct field names to values.  Three fields are recast as in
 * the reference: "start" and "end" must be zone-less local times
 * ("2017-03-20T01:59:02"), "nodelist" becomes the list of node names.
 * Also Slurm node-list expansion and compaction, done natively so that no
 * `scontrol` is needed.
 */
#ifndef TOKIO_CONNECTORS_SLURM_H
#define TOKIO_CONNECTORS_SLURM_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_slurm;

/* The node lists of one input (or one tokio_slurm_nodelist_expand()) may
 * expand to this many names in all: a ten-byte "n[0-99999999999]" must
 * not become a terabyte of names, nor a few hundred lines of
 * "n[0-9999999]" thousands of millions.  A name takes some 90 bytes in
 * the table. */
#define TOKIO_SLURM_MAX_NODES ((size_t)10000000)
/* Nor may their names take more bytes than this (NULs counted):
 * "n[0-9999999]" is 90 MB. */
#define TOKIO_SLURM_MAX_NODE_BYTES ((size_t)256 << 20)

/**
 * Read a saved table: the reference's JSON cache (an object of tasks, as
 * `tokio cache-slurm --json` writes), or `sacct -p`/`--parsable2` text
 * (header line of field names, then one pipe-delimited line per task);
 * plain or compressed; "-" is standard input.  The form is told by
 * content: JSON starts with '{'.  Empty input is an empty table, as in
 * the reference.
 * @param[out] out  the table; release with tokio_slurm_free().  NULL on
 *                  failure.
 * @return TOKIO_OK; TOKIO_EIO (unreadable, named); TOKIO_EFORMAT (the
 *         message names the file and line, or the JSON task: wrong field
 *         count, a bad time or node list, malformed JSON); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_open(struct tokio_slurm **out, const char *path);

/** As tokio_slurm_open() over `len` bytes (not kept; may be compressed);
 *  `name` for messages (may be NULL). */
TOKIO_API int tokio_slurm_open_mem(struct tokio_slurm **out, const void *buf,
                                   size_t len, const char *name);

/**
 * Ask Slurm: run `sacct --jobs JOBID --format=jobidraw,start,end,nodelist
 * --parsable2` (found on PATH, run without a shell) and parse its output.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (no sacct on PATH, or it printed no
 *         task); TOKIO_EIO (sacct failed: the message quotes its stderr);
 *         TOKIO_EFORMAT, TOKIO_ENOMEM; TOKIO_EINVAL (empty, or not a job
 *         id: a job id starts with a digit).
 */
TOKIO_API int tokio_slurm_query(struct tokio_slurm **out, const char *jobid);

/**
 * The jobs that were running at some time from `start` to `end` (epoch
 * seconds, given to sacct as local times): `sacct --parsable --starttime
 * --endtime --state R --allusers --format KEYS`.  `keys` (n_keys of them)
 * default to jobidraw,start,end when NULL.  Statuses as
 * tokio_slurm_query(), except that no job is an empty table, not an error.
 */
TOKIO_API int tokio_slurm_jobs_running_between(struct tokio_slurm **out,
                                               int64_t start, int64_t end,
                                               const char *const *keys,
                                               size_t n_keys);

/**
 * Build from the JSON form (borrowed): an object of task objects whose
 * "start"/"end" are time strings and "nodelist" a list of names or a
 * compact node-list string.  The table holds new task objects but shares
 * their values with `json` (jansson references): change neither.
 * @return TOKIO_OK, TOKIO_EFORMAT (naming the task and field),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_from_json(struct tokio_slurm **out,
                                    const json_t *json);

/** Number of tasks. */
TOKIO_API size_t tokio_slurm_count(const struct tokio_slurm *s);

/**
 * Keep only the tasks of job `jobid`: "JOBID" itself and "JOBID.*".
 * @return TOKIO_OK, TOKIO_ENOTFOUND (no such task: the table is then
 *         unchanged), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_select_job(struct tokio_slurm *s, const char *jobid);

/**
 * The job ids: task ids without a '.', in input order.
 * @param[out] ids_out  an array (free() it) of strings borrowed from the
 *                      table until it changes or is freed; NULL when
 *                      there are none.
 * @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_get_job_ids(const struct tokio_slurm *s,
                                      const char ***ids_out, size_t *n_out);

/**
 * Every node any task ran on, once each, sorted as Python's sorted()
 * (byte order).
 * @param[out] nodes_out  an array (free() it) of strings borrowed from
 *                        the table until it changes or is freed; NULL
 *                        when there are none.
 * @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_get_job_nodes(const struct tokio_slurm *s,
                                        const char ***nodes_out,
                                        size_t *n_out);

/**
 * Earliest start and latest end over all tasks, as epoch seconds (the
 * zone-less times read as local time).  Tasks whose time is "Unknown" (a
 * running job's end) are passed over.
 * @return TOKIO_OK, TOKIO_ENOTFOUND (no task has both a start and an end).
 */
TOKIO_API int tokio_slurm_get_job_startend(const struct tokio_slurm *s,
                                           int64_t *start_out,
                                           int64_t *end_out);

/**
 * The JSON form (the reference's to_json/save_cache): a new reference in
 * `*out` to the table's own object of tasks (read it, do not change it),
 * in input order, node lists as arrays of names.  Written by
 * tokio_json_write() with no flags it is the reference's cache file;
 * cache_slurm --json printed it with TOKIO_JSON_SORT_KEYS |
 * TOKIO_JSON_INDENT(4).
 * @return TOKIO_OK.
 */
TOKIO_API int tokio_slurm_to_json(const struct tokio_slurm *s, json_t **out);

/**
 * The native text form (the reference's str()): "jobidraw" then the first
 * task's other fields as the header, one '|'-joined line per task, node
 * lists comma-joined, no newline after the last line.  This is sacct text
 * again, so it reads back.  @return TOKIO_OK, TOKIO_EIO (write failed),
 * TOKIO_EFORMAT (a task lacks a header field).
 */
TOKIO_API int tokio_slurm_write_native(const struct tokio_slurm *s, FILE *fp);

/**
 * CSV as the reference's to_dataframe().to_csv(): a row index column,
 * then the native form's columns; start/end as "YYYY-MM-DD HH:MM:SS",
 * other columns typed as pandas infers them (integers, floats, text).
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_write_csv(const struct tokio_slurm *s, FILE *fp);

/** Release; NULL is fine. */
TOKIO_API void tokio_slurm_free(struct tokio_slurm *s);

/**
 * Expand a Slurm node list: comma-separated host names, each with any
 * number of bracket groups of numbers and ranges ("nid0[5032-5159,5200]",
 * "a[1-2]b[3-4]"); zero padding of a range's lower bound is kept.
 * Duplicates are kept, order is as written (bracket groups vary the last
 * fastest).  "" and "None assigned" (sacct, pending job) give no names.
 * @param[out] names_out  `*n_out` new strings; tokio_slurm_free_names().
 * @return TOKIO_OK; TOKIO_EFORMAT (unbalanced or nested brackets, empty
 *         name or range, high below low, more than 16 bracket groups in a
 *         name, more than TOKIO_SLURM_MAX_NODES
 *         names or TOKIO_SLURM_MAX_NODE_BYTES bytes: the message quotes
 *         the text); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_nodelist_expand(const char *text, char ***names_out,
                                          size_t *n_out);

/**
 * Compact node names into a Slurm node list, as `scontrol show hostlist`:
 * names sharing a prefix and a number width are merged into one bracket
 * group of sorted ranges ("nid0[5032-5159,5200]"); duplicates dropped.
 * Expanding the result gives the same set of names.
 * @param[out] out  a new string (free()).  @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_slurm_nodelist_compact(const char *const *names, size_t n,
                                           char **out);

/** Free `n` names and their array; NULL is fine. */
TOKIO_API void tokio_slurm_free_names(char **names, size_t n);

#endif
