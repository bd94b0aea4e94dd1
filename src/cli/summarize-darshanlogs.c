/*
 * src/cli/summarize-darshanlogs.c - `tokio summarize-darshanlogs`: POSIX
 * bytes read and written per log and mount point, as JSON (the
 * reference's summarize_darshanlogs, as its Quick Start shows it; pytokio
 * removed the module in 2019 in favour of index_darshanlogs, and its
 * last version is what we follow):
 *
 *   { "<log path>": { "<mount point>": { "read_bytes": n,
 *                                        "write_bytes": n } } }
 *
 * Logs without POSIX I/O are left out; logs that cannot be read are
 * reported on stderr and left out, and the exit status stays 0, as in
 * the reference.  Standard output is json.dumps(sort_keys, indent=4);
 * -o FILE writes json.dump()'s one line (written whole or not at all)
 * and says how many summaries it added.  -i FILE starts from an earlier
 * output and skips the logs it has.  Differs from pytokio: --threads is
 * accepted and ignored (a native parse is faster than the reference's
 * process start-up; NEEDSWORK: use the indexer's pool if it matters);
 * a folder argument is listed in name order.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/output.h"
#include "tokio/tools/darshan_indexer.h"

static const char *const usage[] = {
    "tokio summarize-darshanlogs [<options>] <log>...",
    "tokio summarize-darshanlogs [<options>] <folder>",
    NULL
};

static const char description[] =
    "Print, per Darshan log and mount point, the bytes its POSIX\n"
    "records read and wrote, as JSON.  One folder argument stands for\n"
    "the files in it.";

static int
skip_filter(const struct dirent *e)
{
    return strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
}

static int
summarize_one(const char *cmd, json_t *all, const char *path,
              long long max_mb)
{
    struct stat st;
    json_t *res = NULL;

    if (json_object_get(all, path) != NULL)
        return 0;
    if (max_mb > 0 && stat(path, &st) == 0 &&
        (double)st.st_size / 1048576.0 > (double)max_mb) {
        fprintf(stderr, "tokio %s: warning: skipping '%s' due to size "
                "(%lld MiB)\n", cmd, path,
                (long long)(st.st_size / 1048576));
        return 0;
    }
    if (tokio_darshan_bytes_per_fs(&res, path) < 0) {
        if (tokio_errcode() == TOKIO_ENOMEM)
            return -1;
        /* the reader's message names the log */
        fprintf(stderr, "tokio %s: warning: skipping: %s\n", cmd,
                tokio_errmsg());
        return 0;
    }
    if (json_object_size(res) > 0 && json_object_set(all, path, res) < 0) {
        json_decref(res);
        return -1;
    }
    json_decref(res);
    return 0;
}

/* The summaries as the reference saves them: compact, no newline. */
static int
write_compact(FILE *fp, void *ctx)
{
    return tokio_json_write(ctx, fp, 0);
}

int
cmd_summarize_darshanlogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL;
    long long threads = 1, max_mb = 0;
    const struct cli_option opts[] = {
        OPT_INT('t', "threads", &threads, "<n>",
                "accepted for compatibility; logs are read one by one"),
        OPT_STRING('i', "input", &input, "<file>",
                   "an earlier output to update (its logs are skipped)"),
        OPT_STRING('o', "output", &output, "<file>",
                   "write one-line JSON to <file> instead of stdout"),
        OPT_INT('m', "max-mb", &max_mb, "<MiB>",
                "skip logs larger than this (default: 0, no limit)"),
        OPT_END
    };
    json_t *all;
    size_t start_ct = 0;
    struct stat st;
    int npos, rc = CLI_EXIT_OK;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos == 0)
        return cli_usage_error(cmd, "no Darshan logs given");
    if (threads < 1)
        return cli_usage_error(cmd, "--threads must be 1 or more");

    if (input != NULL) {
        json_error_t err;
        all = json_load_file(input, 0, &err);
        if (all == NULL)
            return cli_fail(cmd, "cannot read '%s' line %d: %s", input,
                            err.line, err.text);
        if (!json_is_object(all)) {
            json_decref(all);
            return cli_fail(cmd, "'%s' is not a JSON object", input);
        }
        start_ct = json_object_size(all);
    } else if ((all = json_object()) == NULL) {
        return cli_fail(cmd, "out of memory");
    }

    if (npos == 1 && stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode)) {
        struct dirent **ents = NULL;
        int n = scandir(argv[1], &ents, skip_filter, alphasort);
        if (n < 0) {
            json_decref(all);
            return cli_fail(cmd, "cannot read folder '%s'", argv[1]);
        }
        for (int i = 0; i < n; i++) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", argv[1], ents[i]->d_name);
            if (rc == CLI_EXIT_OK && stat(path, &st) == 0 &&
                S_ISREG(st.st_mode) &&
                summarize_one(cmd, all, path, max_mb) < 0)
                rc = cli_fail(cmd, "out of memory");
            free(ents[i]);
        }
        free(ents);
    } else {
        for (int i = 1; i <= npos && rc == CLI_EXIT_OK; i++)
            if (summarize_one(cmd, all, argv[i], max_mb) < 0)
                rc = cli_fail(cmd, "out of memory");
    }

    if (rc == CLI_EXIT_OK && output == NULL) {
        rc = cli_write_json(cmd, NULL, all, TOKIO_JSON_SORT_KEYS |
                            TOKIO_JSON_INDENT(4));
    } else if (rc == CLI_EXIT_OK) {
        rc = cli_write_output(cmd, output, write_compact, all);
        if (rc == CLI_EXIT_OK) {
            printf("Added %zu log summaries to %s\n",
                   json_object_size(all) - start_ct, output);
        }
    }
    json_decref(all);
    return rc;
}
