/*
 * src/cli/config.c - `tokio config`: the effective site configuration
 * (file, then PYTOKIO_* overrides), whole or one key, as JSON.
 *
 * The reference has no such tool; its configuration is only visible from
 * Python (tokio.config.CONFIG).  This prints the same object so a site can
 * check what tokio will use before running anything else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio config [--config <file>] [<key>]",
    "tokio config [--config <file>] --path",
    NULL
};

static const char description[] =
    "Print the site configuration tokio uses: the file named by --config,\n"
    "$PYTOKIO_CONFIG, $TOKIO_CONFIG or the installed default, with the\n"
    "PYTOKIO_* overrides applied.  With <key>, print only that value; a\n"
    "dotted key (darshan_log_dirs.testsystem, hdf5_files.fs.0) walks into\n"
    "objects and lists.";

/*
 * Find `path` under `v`.  Object keys may hold dots themselves (regular
 * expressions in mount_to_fsname do), so at each level the whole rest is
 * tried as one key first, then each split at a dot from the left.
 */
static const json_t *
lookup(const json_t *v, const char *path)
{
    if (json_is_object(v)) {
        const json_t *whole = json_object_get(v, path);
        if (whole != NULL)
            return whole;
    }
    for (const char *dot = strchr(path, '.'); dot; dot = strchr(dot + 1, '.')) {
        size_t len = (size_t)(dot - path);
        const json_t *child = NULL;

        if (json_is_object(v)) {
            child = json_object_getn(v, path, len);
        } else if (json_is_array(v) && len > 0 && len < 20 &&
                   strspn(path, "0123456789") >= len) {
            child = json_array_get(v, strtoull(path, NULL, 10));
        }
        if (child != NULL) {
            const json_t *found = lookup(child, dot + 1);
            if (found != NULL)
                return found;
        }
    }
    if (json_is_array(v) && path[0] != '\0' && strlen(path) < 20 &&
        strspn(path, "0123456789") == strlen(path))
        return json_array_get(v, strtoull(path, NULL, 10));
    return NULL;
}

int
cmd_config(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *file = NULL;
    int show_path = 0;
    const struct cli_option opts[] = {
        OPT_FILE(0, "config", &file, "<file>",
                 "read this site configuration (JSON or YAML)"),
        OPT_FLAG(0, "path", &show_path,
                 "print which file was loaded, then exit"),
        OPT_END
    };
    struct tokio_config *cfg;
    int rc;

    int npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos > 1)
        return cli_usage_error(cmd, "one <key> at most, not %d", npos);
    if (show_path && npos > 0)
        return cli_usage_error(cmd, "--path takes no <key>");
    const char *key = npos ? argv[1] : NULL;

    if (tokio_config_open(&cfg, file) < 0)
        return cli_fail(cmd, NULL);
    const char *loaded = tokio_config_path(cfg);
    if (show_path) {
        if (loaded != NULL)
            printf("%s\n", loaded);
        else
            fprintf(stderr, "tokio %s: no configuration file was loaded "
                    "(%s does not exist)\n", cmd, TOKIO_DEFAULT_CONFIG);
        tokio_config_free(cfg);
        return CLI_EXIT_OK;
    }
    if (key == NULL) {
        rc = cli_write_json(cmd, NULL, tokio_config_json(cfg),
                            TOKIO_JSON_INDENT(4) | TOKIO_JSON_SORT_KEYS);
    } else {
        const json_t *v = lookup(tokio_config_json(cfg), key);
        if (v == NULL) {
            if (loaded != NULL)
                rc = cli_fail(cmd, "no key '%s' in '%s'", key, loaded);
            else
                rc = cli_fail(cmd, "no key '%s': no configuration file was "
                              "loaded (%s does not exist)", key,
                              TOKIO_DEFAULT_CONFIG);
        } else {
            rc = cli_write_json(cmd, NULL, v, TOKIO_JSON_SORT_KEYS);
        }
    }
    tokio_config_free(cfg);
    return rc;
}
