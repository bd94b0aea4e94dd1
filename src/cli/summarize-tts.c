/*
 * src/cli/summarize-tts.c - `tokio summarize-tts`: bytes read and written
 * in a TOKIO Time Series (or H5LMT) file, with missing data points, and
 * optionally per timestep and per column (the reference's summarize_tts),
 * as text or JSON.  The numbers come from tokio/tools/hdf5_summary.h.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/output.h"
#include "tokio/tools/hdf5_summary.h"

static const char *const usage[] = {
    "tokio summarize-tts [-j] [--timesteps] [--columns] [-o <file>] <file>",
    NULL
};

static const char description[] =
    "Summarize datatargets/readbytes and writebytes of a TOKIO Time Series\n"
    "HDF5 file (or an H5LMT file): total bytes, missing data points and\n"
    "the first and last rows holding data; --timesteps adds the bytes of\n"
    "each timestep, --columns those of each column.";

static int
write_summary(FILE *fp, void *summary)
{
    return tokio_hdf5_summary_tts_print(fp, summary);
}

int
cmd_summarize_tts(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int json = 0, timesteps = 0, columns = 0;
    const struct cli_option opts[] = {
        OPT_FLAG('j', "json", &json, "output as json"),
        OPT_FLAG(0, "timesteps", &timesteps,
                 "print a summary at each timestep"),
        OPT_FLAG(0, "columns", &columns, "print a summary of each column"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_hdf5 *h = NULL;
    json_t *summary = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "an HDF5 file is required"
                                              : "only one file at a time");
    if (tokio_hdf5_open(&h, argv[1], 0) < 0 ||
        tokio_hdf5_summary_tts(h, (timesteps ? TOKIO_HDF5_SUMMARY_TIMESTEPS
                                             : 0u)
                               | (columns ? TOKIO_HDF5_SUMMARY_COLUMNS : 0u),
                               &summary) < 0) {
        rc = cli_fail(cmd, NULL);
    } else if (json) {
        rc = cli_write_json(cmd, output, summary,
                            TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
    } else {
        rc = cli_write_output(cmd, output, write_summary, summary);
    }
    json_decref(summary);
    tokio_hdf5_free(h);
    return rc;
}
