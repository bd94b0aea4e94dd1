/*
 * src/cli/cache-craysdb.c - `tokio cache-craysdb`: a Cray service
 * database processor table (connectors/craysdb, saved `xtdb2proc -f -`
 * output or JSON) as JSON, CSV or xtdb2proc text.
 *
 * The reference has no command for this connector; this one prints what
 * its CraySdbProc holds (json.dumps of it, sorted keys, indented by 4, as
 * the golden was made), its save_cache() text with --native, or a CSV
 * with one row per processor, on stdout or whole into -o.  Running
 * xtdb2proc itself is not supported: the input is a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/craysdb.h"
#include "tokio/input.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-craysdb [--json | --csv | --native] [-o <file>] <file>",
    NULL
};

static const char description[] =
    "Print a Cray XT/XC processor table saved from `xtdb2proc -f -` (plain\n"
    "or compressed) or written by this command with --json: per processor\n"
    "its cabinet, cage, slot, status and network coordinates.";

/*
 * One row per processor in table order; columns are the keys in order of
 * first appearance (the first record's, then any others); null and
 * missing values are empty cells.
 */
static int
write_csv(const struct tokio_craysdb *db, FILE *fp)
{
    json_t *table = NULL, *cols = NULL, *rec, *v;
    const char *id, *key;
    size_t i;
    int rc;

    if ((rc = tokio_craysdb_to_json(db, &table)) < 0)
        return rc;
    if ((cols = json_array()) == NULL)
        goto nomem;
    json_object_foreach(table, id, rec) {
        json_object_foreach(rec, key, v) {
            json_t *c;
            int seen = 0;
            json_array_foreach(cols, i, c)
                if (strcmp(json_string_value(c), key) == 0) {
                    seen = 1;
                    break;
                }
            if (!seen && json_array_append_new(cols, json_string(key)) < 0)
                goto nomem;
        }
    }
    for (i = 0; i < json_array_size(cols); i++) {
        const char *name = json_string_value(json_array_get(cols, i));
        if (i)
            fputc(',', fp);
        tokio_csv_write_field(fp, name, strlen(name));
    }
    fputc('\n', fp);
    json_object_foreach(table, id, rec) {
        for (i = 0; i < json_array_size(cols); i++) {
            v = json_object_get(rec, json_string_value(json_array_get(cols,
                                                                      i)));
            if (i)
                fputc(',', fp);
            if (json_is_integer(v))
                fprintf(fp, "%lld", (long long)json_integer_value(v));
            else if (json_is_string(v))
                tokio_csv_write_field(fp, json_string_value(v),
                                      json_string_length(v));
        }
        fputc('\n', fp);
    }
    json_decref(cols);
    json_decref(table);
    return ferror(fp) ? TOKIO_EIO : TOKIO_OK;
nomem:
    json_decref(cols);
    json_decref(table);
    return TOKIO_ENOMEM;
}

/*
 * A saved table: the JSON --json writes (an object) or xtdb2proc text.
 * Failures are reported here; returns 0 or -1.
 * NEEDSWORK: the connector reads only text; JSON input (and write_csv()
 * above) belong in src/connectors/craysdb.c.
 */
static int
open_table(struct tokio_craysdb **out, const char *cmd, const char *path)
{
    unsigned char *buf = NULL;
    size_t len = 0, i = 0;
    int rc;

    if (tokio_read_file(path, 0, &buf, &len) < 0)
        return cli_fail(cmd, NULL), -1;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
                       buf[i] == '\r'))
        i++;
    if (i < len && buf[i] == '{') {
        json_error_t err;
        json_t *json = json_loadb((const char *)buf, len, 0, &err);
        free(buf);
        if (json == NULL)
            return cli_fail(cmd, "'%s' line %d column %d: %s", path,
                            err.line, err.column, err.text), -1;
        rc = tokio_craysdb_from_json(out, json);
        json_decref(json);
        if (rc < 0)
            return cli_fail(cmd, "'%s': %s", path, tokio_errmsg()), -1;
        return 0;
    }
    rc = tokio_craysdb_open_mem(out, buf, len, path);
    free(buf);
    return rc < 0 ? (cli_fail(cmd, NULL), -1) : 0;
}

int
cmd_cache_craysdb(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int json = 0, csv = 0, native = 0;
    const struct cli_option opts[] = {
        OPT_FLAG('j', "json", &json, "JSON keyed by processor_id [default]"),
        OPT_FLAG('c', "csv", &csv, "CSV, one row per processor"),
        OPT_FLAG('n', "native", &native, "xtdb2proc text (key=value,...)"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_craysdb *db = NULL;
    struct tokio_output *o = NULL;
    json_t *j = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "an input file is required"
                                              : "only one input file");
    if (json + csv + native > 1)
        return cli_usage_error(cmd, "give only one of --json, --csv and "
                               "--native");
    if (open_table(&db, cmd, argv[1]) < 0)
        return CLI_EXIT_FAILURE;
    if (!csv && !native) {
        if (tokio_craysdb_to_json(db, &j) < 0) {
            rc = cli_fail(cmd, NULL);
        } else {
            rc = cli_write_json(cmd, output, j, TOKIO_JSON_SORT_KEYS |
                                                TOKIO_JSON_INDENT(4));
            json_decref(j);
        }
    } else if (tokio_output_open(&o, output) < 0) {
        rc = cli_fail(cmd, NULL);
    } else if ((rc = csv ? write_csv(db, tokio_output_fp(o))
                         : tokio_craysdb_write(db, tokio_output_fp(o))) < 0) {
        tokio_output_abort(o);
        rc = rc == TOKIO_ENOMEM ? cli_fail(cmd, "out of memory")
             : rc == TOKIO_EIO && csv ? cli_fail(cmd, "cannot write CSV")
             : cli_fail(cmd, NULL);
    } else {
        rc = tokio_output_commit(o) < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
    }
    tokio_craysdb_free(db);
    return rc;
}
