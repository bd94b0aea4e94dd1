/*
 * src/cli/cache-darshan.c - `tokio cache-darshan`: a Darshan log as the
 * reference's JSON (its cache_darshan): header, mount table, and the
 * records (--base, the default), per-module totals (--total, "_total")
 * and performance estimates (--perf, "_perf"), in any combination.
 *
 * Options are the reference's; --modules and --counters filter the base
 * records only, as there.  The reference printed `{}` for a log
 * darshan-parser could not read at all; we do that for a 0-byte log (the
 * placeholders of a log repository), with a warning naming it, and fail
 * on any other unreadable log.  Differs from pytokio: -o writes the same
 * JSON on one line (sorted keys) and prints no "Caching to" line; and
 * --total/--perf without --base read only the modules they derive
 * figures for, so damage in another module's region goes unnoticed
 * (darshan-parser failed on it); those modules' records are folded into
 * the figures as they are inflated, never kept (tokio_darshan_fold_record()).
 * The JSON is written as it is produced, never held as a tree
 * (tokio_darshan_write_json()), and has no DXT traces (tokio darshan-dxt
 * prints them): their regions are not read, so a log of gigabytes of
 * traces costs what its other modules cost.  Nor are the base records
 * held: beyond the first MiB they go to an unlinked temporary file in
 * $TMPDIR as they are decoded and come back one at a time in the JSON's
 * order (tokio_darshan_spool_record()), so memory is the log's name
 * table and 32 bytes a record (a million-record log: 62 MB, 1.07 GB
 * before; bench/bench-darshan-memory.sh).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-darshan [--base] [--total] [--perf] [--modules <list>] "
    "[--counters <list>] [-o <file>] <logfile>",
    NULL
};

static const char description[] =
    "Print a Darshan log as JSON: its header, its mount table and, under\n"
    "\"counters\", its records per module, record name and rank (--base,\n"
    "the default), each module's totals (--total) and performance\n"
    "estimates (--perf).  --modules and --counters are comma-separated\n"
    "lists (e.g. posix,mpiio and BYTES_READ,BYTES_WRITTEN) that filter\n"
    "the base records.";

/*
 * Split a comma-separated argument into `*items` (pointers into `arg`,
 * which is modified), as the reference's str.split(","): empty items are
 * kept.  NULL or "" means no list.  Returns -1 when out of memory.
 */
static int
split_list(char *arg, const char ***items, size_t *n)
{
    size_t count = 1;

    *items = NULL;
    *n = 0;
    if (arg == NULL || *arg == '\0')
        return 0;
    for (const char *p = arg; *p; p++)
        count += *p == ',';
    if ((*items = calloc(count, sizeof(**items))) == NULL)
        return -1;
    for (char *p = arg;; p++) {
        char *comma = strchr(p, ',');
        (*items)[(*n)++] = p;
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma;
    }
    return 0;
}

/* Where the base view's records go as they are decoded: the spool, and
 * the fold when --total or --perf come with it. */
struct sinks {
    struct tokio_darshan_spool *spool;
    struct tokio_darshan_fold *fold;
};

static int
spool_and_fold(void *payload, const struct tokio_darshan *log, int mod,
               const struct tokio_darshan_record *r)
{
    const struct sinks *k = payload;
    int rc = tokio_darshan_spool_record(k->spool, log, mod, r);

    if (rc >= 0 && k->fold != NULL)
        rc = tokio_darshan_fold_record(k->fold, log, mod, r);
    return rc;
}

/* Open the log, reading only what the views need and keeping no record:
 * --total and --perf fold the records of the modules they derive figures
 * for into *fold as they are inflated (alone, they read no record
 * names); the base view's records go to *spool, a temporary file. */
static int
open_log(struct tokio_darshan **log, struct tokio_darshan_fold **fold,
         struct tokio_darshan_spool **spool, const char *path,
         const struct tokio_darshan_json_opts *o)
{
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_DERIVED_MODULES,
        .skip_names = 1,
        .record = tokio_darshan_fold_record,
    };
    int base = o->base || (!o->total && !o->perf);
    struct sinks k = { NULL, NULL };

    if ((o->total || o->perf) &&
        tokio_darshan_fold_new(fold, (o->total ? TOKIO_DARSHAN_FOLD_TOTALS
                                               : 0) |
                               (o->perf ? TOKIO_DARSHAN_FOLD_PERF : 0)) < 0)
        return TOKIO_ENOMEM;
    sel.payload = *fold;
    if (!base)
        return tokio_darshan_open_select(log, path, &sel);
    /* the JSON has no DXT traces (darshan-dxt's text has them): their
     * regions, which can be most of a log, are not even inflated */
    if (tokio_darshan_spool_new(spool, o) < 0)
        return TOKIO_ENOMEM;
    sel.modules = UINT64_MAX &
                  ~(TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX) |
                    TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO));
    sel.skip_names = 0;
    sel.record = spool_and_fold;
    k.spool = *spool;
    k.fold = *fold;
    sel.payload = &k;
    return tokio_darshan_open_select(log, path, &sel);
}

/* What to write: the log, which parts, and how. */
struct darshan_job {
    const struct tokio_darshan *log;
    const struct tokio_darshan_json_opts *opts;
    unsigned flags;
};

static int
write_log_json(FILE *fp, void *ctx)
{
    const struct darshan_job *job = ctx;
    int rc = tokio_darshan_write_json(job->log, fp, job->opts, job->flags);

    if (rc >= 0)
        fputc('\n', fp);
    return rc;
}

/* The log's JSON to `output` (NULL: stdout), atomically for a file. */
static int
write_json(const char *cmd, const char *output,
           const struct tokio_darshan *log,
           const struct tokio_darshan_json_opts *o)
{
    struct darshan_job job = {
        log, o, output ? TOKIO_JSON_SORT_KEYS
                       : TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4)
    };

    return cli_write_output(cmd, output, write_log_json, &job);
}

int
cmd_cache_darshan(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *modules = NULL, *counters = NULL, *output = NULL;
    struct tokio_darshan_json_opts o = { 0 };
    const struct cli_option opts[] = {
        OPT_FLAG(0, "base", &o.base, "darshan log field data [default]"),
        OPT_FLAG(0, "total", &o.total, "aggregated darshan field data"),
        OPT_FLAG(0, "perf", &o.perf, "derived perf data"),
        OPT_STRING(0, "modules", &modules, "<list>",
                   "comma-delimited list of modules to return"),
        OPT_STRING(0, "counters", &counters, "<list>",
                   "comma-delimited list of counters to return"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_darshan *log = NULL;
    struct tokio_darshan_fold *fold = NULL;
    struct tokio_darshan_spool *spool = NULL;
    char *mod_arg = NULL, *ctr_arg = NULL;
    const char **mods = NULL, **ctrs = NULL;
    json_t *json;
    struct stat st;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "a Darshan log is required"
                                              : "only one log at a time");
    const char *path = argv[1];

    /* the reference printed {} when darshan-parser read nothing, which is
     * what a repository's 0-byte placeholder logs give */
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        fprintf(stderr, "tokio %s: warning: '%s' is empty (0 bytes); "
                "printing {}\n", cmd, path);
        json = json_object();
        if (json == NULL)
            return cli_fail(cmd, "out of memory");
        rc = cli_write_json(cmd, output, json, output ? TOKIO_JSON_SORT_KEYS
                            : TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
        json_decref(json);
        return rc;
    }

    if ((modules && (mod_arg = strdup(modules)) == NULL) ||
        (counters && (ctr_arg = strdup(counters)) == NULL) ||
        split_list(mod_arg, &mods, &o.n_modules) < 0 ||
        split_list(ctr_arg, &ctrs, &o.n_counters) < 0) {
        rc = cli_fail(cmd, "out of memory");
    } else if (o.modules = mods, o.counters = ctrs,
               open_log(&log, &fold, &spool, path, &o) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        o.fold = fold;
        o.spool = spool;
        /* the reference: indented and sorted on stdout, one line to -o;
         * written as it is produced (no tree: a big log's would be ten
         * times the log's decoded size), the records read back from the
         * spool one at a time */
        rc = write_json(cmd, output, log, &o);
    }
    tokio_darshan_free(log);
    tokio_darshan_fold_free(fold);
    tokio_darshan_spool_free(spool);
    free(mods);
    free(ctrs);
    free(mod_arg);
    free(ctr_arg);
    return rc;
}
