/*
 * bench/bench_text.c - time one text connector's parse in-process, for the
 * bench-lfs.sh, bench-slurm.sh and bench-craysdb.sh scripts.
 *
 *   bench_text KIND FILE [MIN_SECONDS | once]
 *
 * KIND: lfs-df, lctl-dl (one snapshot, lfshealth.h), fullness, map
 * (BEGIN-separated histories, nersc_lfsstate.h), slurm, craysdb, or lines
 * (tokio_input_getline() alone: the floor every text connector stands on).
 * Opens and frees FILE until MIN_SECONDS (default 0.5) have passed, at
 * least once, timing each open (not the free), and prints one line:
 *
 *   best_seconds text_bytes items peak_rss_kib
 *
 * best_seconds is the fastest single open in CPU seconds (decompression
 * included: the connectors read the file themselves), text_bytes the uncompressed size,
 * items what the connector found (targets, snapshots, tasks, processors,
 * lines), peak_rss_kib the process's peak resident memory: one parsed
 * result at a time, as each is freed before the next.  With "once" it
 * opens FILE one time and prints nothing else: a process to time from
 * outside, start to end, as the reference's scripts are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tokio/connectors/craysdb.h"
#include "tokio/connectors/lfshealth.h"
#include "tokio/connectors/nersc_lfsstate.h"
#include "tokio/connectors/slurm.h"
#include "tokio/input.h"

/* CPU time, not wall time: on a machine shared with other jobs, time
 * spent waiting for a core says nothing about the parser. */
static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Lines of `path` through the line reader; -1 on error. */
static int
count_lines(const char *path, size_t *items)
{
    struct tokio_input *in;
    const char *line;
    size_t len;
    int rc;

    *items = 0;
    if (tokio_input_open(&in, path) < 0)
        return -1;
    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL)
        (*items)++;
    tokio_input_close(in);
    return rc < 0 ? -1 : 0;
}

/* The targets of an lfshealth snapshot's JSON form, {fs: {target}}. */
static size_t
count_targets(json_t *tree)
{
    const char *fs;
    json_t *targets;
    size_t n = 0;

    json_object_foreach(tree, fs, targets)
        n += json_object_size(targets);
    return n;
}

/* One open of `path` as `kind`, timed; the free after it is not (the
 * reference's side frees outside its timing too).  -1 on error, -2 for
 * an unknown kind. */
static int
parse_once(const char *kind, const char *path, size_t *items, double *secs)
{
    double t0 = now();
    int rc = 0;

    if (strcmp(kind, "lfs-df") == 0) {
        struct tokio_lfshealth_fullness *df;
        json_t *tree;
        if ((rc = tokio_lfshealth_fullness_open(&df, path)) >= 0) {
            *secs = now() - t0;
            tokio_lfshealth_fullness_to_json(df, &tree);
            *items = count_targets(tree);
            json_decref(tree);
            tokio_lfshealth_fullness_free(df);
        }
    } else if (strcmp(kind, "lctl-dl") == 0) {
        struct tokio_lfshealth_map *dl;
        json_t *tree;
        if ((rc = tokio_lfshealth_map_open(&dl, path)) >= 0) {
            *secs = now() - t0;
            tokio_lfshealth_map_to_json(dl, &tree);
            *items = count_targets(tree);
            json_decref(tree);
            tokio_lfshealth_map_free(dl);
        }
    } else if (strcmp(kind, "fullness") == 0 || strcmp(kind, "map") == 0) {
        struct tokio_nersc_lfsstate *s;
        if ((rc = tokio_nersc_lfsstate_open(&s, kind[0] == 'f'
                                            ? TOKIO_NERSC_LFSSTATE_FULLNESS
                                            : TOKIO_NERSC_LFSSTATE_MAP,
                                            path)) >= 0) {
            *secs = now() - t0;
            *items = tokio_nersc_lfsstate_count(s);
            tokio_nersc_lfsstate_free(s);
        }
    } else if (strcmp(kind, "slurm") == 0) {
        struct tokio_slurm *s;
        if ((rc = tokio_slurm_open(&s, path)) >= 0) {
            *secs = now() - t0;
            *items = tokio_slurm_count(s);
            tokio_slurm_free(s);
        }
    } else if (strcmp(kind, "craysdb") == 0) {
        struct tokio_craysdb *db;
        if ((rc = tokio_craysdb_open(&db, path)) >= 0) {
            *secs = now() - t0;
            *items = tokio_craysdb_count(db);
            tokio_craysdb_free(db);
        }
    } else if (strcmp(kind, "lines") == 0) {
        rc = count_lines(path, items);
        *secs = now() - t0;
    } else {
        return -2;
    }
    return rc < 0 ? -1 : 0;
}

/* Uncompressed size of `path`, read in chunks (no whole copy in memory). */
static int
text_bytes(const char *path, size_t *out)
{
    static unsigned char buf[1 << 16];
    struct tokio_input *in;
    size_t n;
    int rc;

    *out = 0;
    if (tokio_input_open(&in, path) < 0)
        return -1;
    while ((rc = tokio_input_read(in, buf, sizeof(buf), &n)) == TOKIO_OK &&
           n > 0)
        *out += n;
    tokio_input_close(in);
    return rc < 0 ? -1 : 0;
}

int
main(int argc, char **argv)
{
    double min_secs = 0.5, best = -1, start;
    size_t items = 0, bytes = 0;
    struct rusage ru;
    int rc;

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: bench_text lfs-df|lctl-dl|fullness|map|"
                        "slurm|craysdb|lines FILE [MIN_SECONDS | once]\n");
        return 2;
    }
    if (argc == 4 && strcmp(argv[3], "once") == 0) {
        double dt;
        if ((rc = parse_once(argv[1], argv[2], &items, &dt)) < 0)
            fprintf(stderr, "bench_text: %s\n", rc == -2 ? "unknown kind"
                                                        : tokio_errmsg());
        return rc < 0 ? 1 : 0;
    }
    if (argc == 4)
        min_secs = atof(argv[3]);
    start = now();
    do {
        double dt = 0;
        if ((rc = parse_once(argv[1], argv[2], &items, &dt)) < 0) {
            if (rc == -2)
                fprintf(stderr, "bench_text: unknown kind '%s'\n", argv[1]);
            else
                fprintf(stderr, "bench_text: %s\n", tokio_errmsg());
            return rc == -2 ? 2 : 1;
        }
        if (best < 0 || dt < best)
            best = dt;
    } while (now() - start < min_secs);
    getrusage(RUSAGE_SELF, &ru);
    if (text_bytes(argv[2], &bytes) < 0) {
        fprintf(stderr, "bench_text: %s\n", tokio_errmsg());
        return 1;
    }
    printf("%.6f %zu %zu %ld\n", best, bytes, items, ru.ru_maxrss);
    return 0;
}
