/*
 * src/analysis/insights_private.h - what the three parts of insights
 * share: insights.c (thresholds, findings, output), insights_client.c
 * (reading the Darshan log, the client-side rules) and
 * insights_server.c (the site's data, the server-side rules).
 */
#ifndef TOKIO_ANALYSIS_INSIGHTS_PRIVATE_H
#define TOKIO_ANALYSIS_INSIGHTS_PRIVATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "tokio/analysis/darshan_bad_ost.h"
#include "tokio/analysis/insights.h"
#include "tokio/connectors/darshan.h"

#define TOKIO__INSIGHTS_TOP_MAX 32
#define TOKIO__INSIGHTS_TOP_DEFAULT 5

/* ---- findings (insights.c) ---------------------------------------------- */

enum tokio__level {
    TOKIO__HIGH,
    TOKIO__WARNING,
    TOKIO__INFO,
    TOKIO__OK
};

/* The findings of one log as they are made.  A failed allocation sets
 * `failed` and every later call does nothing, so rules need no checks
 * of their own; the caller turns `failed` into TOKIO_ENOMEM. */
struct tokio__findings {
    json_t *list;               /* the findings, in rule order */
    json_t *notes;              /* strings */
    const json_t *thresholds;   /* {name: value}, borrowed */
    int top;
    int failed;
    char *file_system;          /* the job's, once the server side knows */
};

/* A new finding `code` from `source`, not evaluated until
 * tokio__found() or tokio__not_evaluated(); borrowed from f->list (NULL
 * when out of memory: the helpers below accept it). */
json_t *tokio__finding(struct tokio__findings *f, const char *code,
                       const char *source);
/* The finding's level and title (printf-style). */
void tokio__found(struct tokio__findings *f, json_t *finding,
                  enum tokio__level level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The finding could not be evaluated: the title says why. */
void tokio__not_evaluated(struct tokio__findings *f, json_t *finding,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The finding's source, when known only once the data is read. */
void tokio__source(struct tokio__findings *f, json_t *finding,
                   const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tokio__recommend(struct tokio__findings *f, json_t *finding,
                      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* numbers[name] = v (NaN and infinities: null). */
void tokio__number(struct tokio__findings *f, json_t *finding,
                   const char *name, double v);
/* The threshold `name`'s value, recorded in the finding's thresholds. */
double tokio__threshold(struct tokio__findings *f, json_t *finding,
                        const char *name);
/* One entry of the finding's files (name NULL: a rank; bytes or value
 * NaN: null). */
void tokio__file(struct tokio__findings *f, json_t *finding,
                 const char *name, int64_t rank, double bytes,
                 double value);
void tokio__note(struct tokio__findings *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "1.5 GiB" into buf (64 bytes fit). */
const char *tokio__bytes_text(char *buf, size_t size, double bytes);

/* ---- the Darshan log (insights_darshan.c) ------------------------------- */

/* One of a few biggest: a record (file or dataset, and rank), or a rank
 * (id 0). */
struct tokio__top_entry {
    uint64_t id;
    int64_t rank;
    double key;                 /* what it is ranked by */
    double bytes;               /* NaN: unknown */
    char *name;                 /* resolved at the end; NULL: none */
};

struct tokio__top {
    size_t n, max;
    struct tokio__top_entry e[TOKIO__INSIGHTS_TOP_MAX];
};

/* A direction's counts of one module. */
struct tokio__io {
    double ops, bytes, small, seq, consec;
};

/* One OST the job's files were striped on. */
struct tokio__ost {
    int64_t id;
    size_t n_files;
    uint64_t last;                          /* the last file added */
    uint64_t ids[TOKIO__INSIGHTS_TOP_MAX];  /* the first few files */
    char *names[TOKIO__INSIGHTS_TOP_MAX];   /* theirs, at the end */
};

/* Per rank: what it moved to and spent on files of its own. */
struct tokio__rank {
    double read, written, meta;
    int own;                    /* has records of its own */
};

/* Everything the rules need from one log, gathered in one pass over its
 * records with memory bounded by the job's ranks and OSTs, never by its
 * records. */
struct tokio__client {
    const char *path;
    /* the job */
    int64_t jobid, nprocs, start, end;
    char *exe;
    long cb_nodes;              /* the "h" metadata's cb_nodes; -1: none */
    int partial;
    size_t records[TOKIO_DARSHAN_KNOWN_MODULES];
    int present[TOKIO_DARSHAN_KNOWN_MODULES];
    uint64_t undecoded;         /* modules present but not decoded */
    char *mount;                /* the mount point with most POSIX/STDIO
                                   bytes; NULL: none */
    /* POSIX */
    struct tokio__io p_read, p_write;
    double mem_not_aligned, file_not_aligned, file_alignment;
    double meta_time, read_time, write_time;
    double redundant_read, redundant_write;     /* bytes */
    struct tokio__io sh_read, sh_write;         /* shared (rank -1) */
    size_t shared_files;
    size_t straggler_bytes_files, straggler_time_files;
    double straggler_bytes_max, straggler_time_max;
    double shared_meta;         /* F_META_TIME of shared records */
    struct tokio__rank *ranks;  /* nprocs of them; NULL: too many */
    size_t bad_rank_records;    /* records naming a rank >= nprocs */
    /* MPI-IO */
    double m_indep_reads, m_coll_reads, m_indep_writes, m_coll_writes;
    double m_split_reads, m_split_writes, m_nb_reads, m_nb_writes;
    double m_bytes;
    /* STDIO */
    double s_bytes;
    /* HDF5 */
    size_t h5f_mpiio;           /* H5F records opened with MPI-IO */
    struct tokio__io h_read, h_write;
    double h_coll_ops;          /* ops of datasets with collective I/O */
    /* PnetCDF */
    struct tokio__io n_read, n_write;
    double n_coll_ops, n_nb_ops;
    /* LUSTRE */
    size_t lustre_without_osts;
    double stripe_size;         /* the largest seen */
    struct tokio__ost *osts;
    size_t n_osts, cap_osts, osts_dropped;
    /* the performance summarize-job reports */
    int has_perf;
    double agg_perf, io_time;
    /* the few biggest, per rule */
    struct tokio__top top_stdio, top_small_read, top_small_write,
        top_sh_small_read, top_sh_small_write, top_mem, top_file,
        top_red_read, top_red_write, top_rand_read, top_rand_write,
        top_strag_bytes, top_strag_time, top_indep_read, top_indep_write,
        top_h5_small, top_h5_indep, top_nc_small, top_nc_indep;
    /* darshan-bad-ost over the job's files; NULL: not asked or none */
    struct tokio_darshan_bad_ost_result *bad_ost;
    size_t n_bad_ost, bad_ost_files;
    int bad_ost_done;
    double small_bytes;         /* the effective small size (a bin edge) */
    /* the job's nodes, set before the rules run (0: unknown, and why) */
    size_t nodes;
    char nodes_why[512];
};

/* Read `path` into `c` (zeroed by the caller): the one place Darshan
 * data is read.  Requests of at most `small_bytes` are small; shared
 * files whose ranks differ by more than `straggler` are counted; `top`
 * of the biggest are kept per rule.  With `slow_ost`, darshan-bad-ost's
 * correlation over the job's files too.
 * @return TOKIO_OK, the reader's failures (naming the log), ENOMEM. */
int tokio__insights_read(struct tokio__client *c, const char *path,
                         double small_bytes, double straggler, int top,
                         int slow_ost);
void tokio__insights_client_free(struct tokio__client *c);
/* Why the table of ranks is missing (static text). */
const char *tokio__ranks_why(const struct tokio__client *c);
/* Keep (id, rank) if `key` is among the t->max biggest. */
void tokio__top_add(struct tokio__top *t, uint64_t id, int64_t rank,
                    double key, double bytes);
/* Biggest first. */
void tokio__top_sort(struct tokio__top *t);

/* ---- the client-side rules (insights_client.c) -------------------------- */

/* The client-side rules, in order (cb_nodes reads c->nodes). */
void tokio__insights_client_rules(struct tokio__findings *f,
                                  const struct tokio__client *c);

/* ---- the server side (insights_server.c) -------------------------------- */

/* c->nodes and c->nodes_why: the job's nodes from the site's job
 * records (tools/jobinfo), asked only when a rule needs them.
 * @return TOKIO_OK, TOKIO_ENOMEM (anything else is a reason in why). */
int tokio__insights_job_nodes(struct tokio__client *c,
                              const struct tokio_config *cfg,
                              const struct tokio_insights_opts *o);
/* The server-side rules, in order.  `row` is summarize-job's row of the
 * job (NULL: made here); *fs_out the file system's name (borrowed from
 * the row or the configuration; NULL: unknown).
 * @return TOKIO_OK; TOKIO_EFORMAT/TOKIO_EIO for an unreadable history;
 * TOKIO_ENOMEM.  Missing site data is a finding not evaluated. */
int tokio__insights_server_rules(struct tokio__findings *f,
                                 const struct tokio__client *c,
                                 const struct tokio_config *cfg,
                                 const json_t *row,
                                 const struct tokio_insights_opts *o);
/* The server-side findings, each not evaluated for `why`. */
void tokio__insights_server_skipped(struct tokio__findings *f,
                                    const char *why);
/* The few biggest of a list as a finding's files. */
void tokio__top_files(struct tokio__findings *f, json_t *finding,
                      const struct tokio__top *t);

/* ---- --dxt (insights_dxt.c) --------------------------------------------- */

/* The finding dxt_concentration from the DXT traces of the log at `path`
 * (one rank, or one short burst, moving most of the traced bytes):
 * TOKIO_OK, or TOKIO_ENOMEM; traces that cannot be read or are absent
 * make it not evaluated. */
int tokio__insights_dxt_rule(struct tokio__findings *f, const char *path);

#endif
