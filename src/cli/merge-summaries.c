/*
 * src/cli/merge-summaries.c - `tokio merge-summaries OUT PARTS...`: merge
 * the partial outputs of `summarize-darshanlogs --shard K/N -o PART` runs
 * into the one-line JSON one run over all the logs (given in name order,
 * as a folder is listed) writes with -o.  A log in two parts (overlapping
 * shards) or a part that is not such an output is refused, naming the
 * parts; OUT is replaced whole, under its lock.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio merge-summaries <out> <part>...",
    NULL
};

static const char description[] =
    "Merge the partial outputs of `tokio summarize-darshanlogs --shard\n"
    "K/N -o <part>` into <out>, replacing it: what one run over all the\n"
    "logs writes.";

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
write_compact(FILE *fp, void *ctx)
{
    return tokio_json_write(ctx, fp, 0);
}

int
cmd_merge_summaries(int argc, char **argv)
{
    const char *cmd = argv[0];
    const struct cli_option opts[] = { OPT_END };
    json_t **parts = NULL, *all = NULL, *from = NULL;
    const char **keys = NULL;
    size_t n_keys = 0;
    int npos, lock = -1, rc = CLI_EXIT_OK;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos < 2)
        return cli_usage_error(cmd, "an output and at least one part are "
                               "required");
    if (tokio_output_lock(argv[1], &lock) < 0)
        return cli_fail(cmd, NULL);
    if ((parts = calloc((size_t)npos, sizeof(*parts))) == NULL ||
        (from = json_object()) == NULL) {
        rc = cli_fail(cmd, "out of memory");
        goto out;
    }
    for (int i = 2; i <= npos && rc == CLI_EXIT_OK; i++) {
        json_error_t err;
        const char *key;
        json_t *v;
        json_t *p = parts[i - 1] = json_load_file(argv[i], 0, &err);
        if (p == NULL) {
            rc = cli_fail(cmd, "cannot read '%s' line %d: %s", argv[i],
                          err.line, err.text);
            break;
        }
        if (!json_is_object(p)) {
            rc = cli_fail(cmd, "'%s' is not an output of "
                          "summarize-darshanlogs (not a JSON object)",
                          argv[i]);
            break;
        }
        json_object_foreach(p, key, v) {
            json_t *had = json_object_get(from, key);
            if (had != NULL) {
                rc = cli_fail(cmd, "parts '%s' and '%s' both hold log "
                              "'%s': overlapping shards",
                              argv[json_integer_value(had)], argv[i], key);
                break;
            }
            if (json_object_set_new(from, key, json_integer(i)) < 0) {
                rc = cli_fail(cmd, "out of memory");
                break;
            }
        }
    }
    if (rc != CLI_EXIT_OK)
        goto out;
    /* in name order, as one run over a folder adds them */
    if ((keys = calloc(json_object_size(from) + 1, sizeof(*keys))) == NULL ||
        (all = json_object()) == NULL) {
        rc = cli_fail(cmd, "out of memory");
        goto out;
    }
    const char *key;
    json_t *v;
    json_object_foreach(from, key, v)
        keys[n_keys++] = key;
    qsort(keys, n_keys, sizeof(*keys), cmp_str);
    for (size_t k = 0; k < n_keys; k++) {
        json_t *p = parts[json_integer_value(json_object_get(from, keys[k]))
                          - 1];
        if (json_object_set(all, keys[k], json_object_get(p, keys[k])) < 0) {
            rc = cli_fail(cmd, "out of memory");
            goto out;
        }
    }
    rc = cli_write_output(cmd, argv[1], write_compact, all);
out:
    tokio_output_unlock(lock);
    for (int i = 0; parts != NULL && i < npos; i++)
        json_decref(parts[i]);
    free(parts);
    free(keys);
    json_decref(all);
    json_decref(from);
    return rc;
}
