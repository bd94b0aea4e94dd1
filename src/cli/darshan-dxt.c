/*
 * src/cli/darshan-dxt.c - `tokio darshan-dxt`: the DXT traces of a
 * Darshan log as darshan-dxt-parser 3.5.0 prints them (with
 * --show-incomplete), byte for byte: one line per read or write segment,
 * POSIX segments annotated with the Lustre OSTs they touched; or, with
 * --heatmap N, the bytes each rank read and wrote in each of N time bins
 * of the job's run, as JSON.
 *
 * The log is read as it is printed (tokio_darshan_stream_dxt(),
 * tokio_darshan_dxt_heatmap()): a trace of gigabytes costs a few hundred
 * KiB of memory (the heat map: its cells).  pytokio had no such command;
 * it is here because darshan-dxt-parser needs the whole trace in memory
 * (darshan issues 779, 802).
 */
#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/darshan.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio darshan-dxt [--heatmap <bins>] [-o <file>] <logfile>",
    NULL
};

static const char description[] =
    "Print the DXT_POSIX and DXT_MPIIO trace segments of a Darshan log as\n"
    "darshan-dxt-parser --show-incomplete does, reading the log as it\n"
    "prints (memory does not grow with the number of segments).  With\n"
    "--heatmap, print instead the bytes each rank read and wrote in each\n"
    "of that many equal time bins of the job's run, as JSON.";

static int
write_dxt(FILE *fp, void *ctx)
{
    /* a trace's text is gigabytes: 256 KiB writes, not st_blksize's */
    (void)setvbuf(fp, NULL, _IOFBF, 256u << 10);
    return tokio_darshan_stream_dxt(ctx, fp);
}

/* The heat map as JSON: its shape, then one row of bins per rank. */
static json_t *
heatmap_json(const struct tokio_darshan_dxt_heatmap *h)
{
    json_t *o = json_object(), *rd = json_array(), *wr = json_array();
    int bad = o == NULL || rd == NULL || wr == NULL;

    for (size_t r = 0; r < h->nranks && !bad; r++) {
        json_t *a = json_array(), *b = json_array();
        bad = a == NULL || b == NULL;
        for (size_t i = 0; i < h->nbins && !bad; i++)
            bad = json_array_append_new(
                      a, json_real(h->read_bytes[r * h->nbins + i])) < 0 ||
                  json_array_append_new(
                      b, json_real(h->write_bytes[r * h->nbins + i])) < 0;
        bad = bad || json_array_append_new(rd, a) < 0 ||
              json_array_append_new(wr, b) < 0;
        if (bad) {
            json_decref(a);
            json_decref(b);
        }
    }
    if (!bad)
        bad = json_object_set_new(o, "bin_seconds",
                                  json_real(h->bin_seconds)) < 0 ||
              json_object_set_new(o, "bins",
                                  json_integer((json_int_t)h->nbins)) < 0 ||
              json_object_set_new(o, "ranks",
                                  json_integer((json_int_t)h->nranks)) < 0 ||
              json_object_set_new(o, "segments",
                                  json_integer((json_int_t)h->segments)) < 0 ||
              json_object_set_new(o, "segments_outside_ranks",
                                  json_integer((json_int_t)h->skipped)) < 0 ||
              json_object_set(o, "read_bytes", rd) < 0 ||
              json_object_set(o, "write_bytes", wr) < 0;
    json_decref(rd);
    json_decref(wr);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int
cmd_darshan_dxt(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    long long bins = -1;        /* no --heatmap */
    const struct cli_option opts[] = {
        OPT_INT(0, "heatmap", &bins, "<bins>",
                "bytes by rank and time bin (1 - 100000 bins), as JSON"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    int npos = cli_parse(argc, argv, opts, usage, description);

    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "a Darshan log is required"
                                              : "only one log at a time");
    if (bins < 0)
        return cli_write_output(cmd, output, write_dxt, argv[1]);
    if (bins == 0 || bins > 100000)
        return cli_usage_error(cmd, "--heatmap takes 1 to 100000 bins");

    struct tokio_darshan_dxt_heatmap *h = NULL;
    if (tokio_darshan_dxt_heatmap(argv[1], (size_t)bins, 3, &h) < 0)
        return cli_fail(cmd, NULL);
    json_t *j = heatmap_json(h);
    tokio_darshan_dxt_heatmap_free(h);
    if (j == NULL)
        return cli_fail(cmd, "out of memory");
    int rc = cli_write_json(cmd, output, j, TOKIO_JSON_SORT_KEYS);
    json_decref(j);
    return rc;
}
