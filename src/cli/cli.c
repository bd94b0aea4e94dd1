/*
 * src/cli/cli.c - the option parser, messages and output shared by every
 * command.
 *
 * Grammar: long options as "--name value" or "--name=value", short ones as
 * "-x value" or "-xvalue", flags bundled ("-ab"); options and positional
 * arguments may be mixed, and "--" ends options.  A lone "-" is a
 * positional argument (standard input or output).
 */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/common.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/output.h"
#include "tokio/time.h"

static int
takes_argument(const struct cli_option *o)
{
    return o->type == CLI_OPT_STRING || o->type == CLI_OPT_FILE ||
           o->type == CLI_OPT_LIST || o->type == CLI_OPT_INT ||
           o->type == CLI_OPT_SIGNED || o->type == CLI_OPT_DOUBLE;
}

/*
 * The option named `name` (`len` bytes): an exact match, else the only
 * option it abbreviates, as the reference's argparse allows ("--max" for
 * "--max-show").  `*ambiguous` is set when several options start so.
 */
static const struct cli_option *
find_long(const struct cli_option *opts, const char *name, size_t len,
          int *ambiguous)
{
    const struct cli_option *prefix_match = NULL;
    int n_prefix = 0;

    *ambiguous = 0;
    for (; opts->type != CLI_OPT_END; opts++) {
        if (opts->long_name == NULL ||
            strncmp(opts->long_name, name, len) != 0)
            continue;
        if (strlen(opts->long_name) == len)
            return opts;
        prefix_match = opts;
        n_prefix++;
    }
    if (n_prefix > 1)
        *ambiguous = 1;
    return n_prefix == 1 ? prefix_match : NULL;
}

static const struct cli_option *
find_short(const struct cli_option *opts, int c)
{
    for (; opts->type != CLI_OPT_END; opts++)
        if (opts->short_name == c)
            return opts;
    return NULL;
}

/* How an option is named in messages: --long, else -s. */
static void
option_name(char *buf, size_t size, const struct cli_option *o)
{
    if (o->long_name)
        snprintf(buf, size, "--%s", o->long_name);
    else
        snprintf(buf, size, "-%c", o->short_name);
}

/* An optional value: the next word unless it is an option or absent. */
static const char *
optional_value(int argc, char **argv, int *i)
{
    if (*i + 1 < argc && (argv[*i + 1][0] != '-' || argv[*i + 1][1] == '\0'))
        return argv[++*i];
    return "";
}

/* 1 if the option's value is a file: OPT_FILE, and --input and
 * --output in every command that has them, however declared. */
static int
names_file(const struct cli_option *o)
{
    return o->type == CLI_OPT_FILE ||
           (o->type == CLI_OPT_STRING && o->long_name != NULL &&
            (strcmp(o->long_name, "input") == 0 ||
             strcmp(o->long_name, "output") == 0));
}

/* Store one option's value; returns 0 or a usage-error status. */
static int
store(const char *cmd, const struct cli_option *o, const char *arg)
{
    char name[64];
    char *end;

    option_name(name, sizeof(name), o);
    switch (o->type) {
    case CLI_OPT_FLAG:
        *(int *)o->value = 1;
        return 0;
    case CLI_OPT_SET_INT:
        *(int *)o->value = o->set_value;
        return 0;
    case CLI_OPT_STRING:
    case CLI_OPT_FILE:
    case CLI_OPT_OPTIONAL:
        if (*arg == '\0' && names_file(o))
            return cli_usage_error(cmd, "%s needs a file name, not ''", name);
        *(const char **)o->value = arg;
        return 0;
    case CLI_OPT_LIST: {
        struct cli_list *list = o->value;
        const char **items = realloc(list->items,
                                     (list->n + 1) * sizeof(*items));
        if (items == NULL)
            return cli_fail(cmd, "out of memory");
        items[list->n++] = arg;
        list->items = items;
        return 0;
    }
    case CLI_OPT_INT:
    case CLI_OPT_SIGNED: {
        errno = 0;
        long long v = strtoll(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || errno == ERANGE)
            return cli_usage_error(cmd, "%s expects a whole number, not '%s'",
                                   name, arg);
        /* counts, sizes, ports, seconds: never below 0 */
        if (o->type == CLI_OPT_INT && v < 0)
            return cli_usage_error(cmd, "%s expects a number 0 or above, "
                                   "not '%s'", name, arg);
        *(long long *)o->value = v;
        return 0;
    }
    case CLI_OPT_DOUBLE: {
        errno = 0;
        double v = strtod(arg, &end);
        if (*arg == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
            return cli_usage_error(cmd, "%s expects a number, not '%s'",
                                   name, arg);
        *(double *)o->value = v;
        return 0;
    }
    default:
        return 0;
    }
}

/*
 * Options that set one variable to different values (-j/--json and
 * -c/--csv on `fmt`) are alternatives: giving two of them is a usage
 * error, as in argparse's mutually exclusive groups.  `*chosen` is the
 * option that set o->value so far, one slot per option of the table.
 */
static int
choose(const char *cmd, const struct cli_option *opts,
       const struct cli_option *o, const struct cli_option **chosen)
{
    char a[64], b[64];

    if (o->type != CLI_OPT_SET_INT)
        return 0;
    for (const struct cli_option *p = opts; p->type != CLI_OPT_END; p++) {
        const struct cli_option *c = chosen[p - opts];
        if (c != NULL && c->value == o->value &&
            c->set_value != o->set_value) {
            option_name(a, sizeof(a), c);
            option_name(b, sizeof(b), o);
            return cli_usage_error(cmd, "give %s or %s, not both", a, b);
        }
    }
    chosen[o - opts] = o;
    return 0;
}

/* choose(), then store(): 0 or a usage-error status */
static int
take(const char *cmd, const struct cli_option *opts,
     const struct cli_option *o, const char *arg,
     const struct cli_option **chosen)
{
    int rc = choose(cmd, opts, o, chosen);

    return rc != 0 ? rc : store(cmd, o, arg);
}

static int parse(int argc, char **argv, const struct cli_option *opts,
                 const char *const *usage, const char *description,
                 const struct cli_option **chosen);

/* The option table's size, for one slot per option. */
static size_t
count_options(const struct cli_option *opts)
{
    size_t n = 0;

    while (opts[n].type != CLI_OPT_END)
        n++;
    return n;
}

int
cli_parse(int argc, char **argv, const struct cli_option *opts,
          const char *const *usage, const char *description)
{
    const char *cmd = argv[0];
    const struct cli_option **chosen;
    int npos;

    if ((chosen = calloc(count_options(opts) + 1, sizeof(*chosen))) ==
        NULL) {
        cli_fail(cmd, "out of memory parsing the command line");
        return CLI_PARSE_ERROR;
    }
    npos = parse(argc, argv, opts, usage, description, chosen);
    free(chosen);
    if (npos < 0)
        return npos;
    /* an empty word is never a file, time or name: one rule for all */
    for (int i = 1; i <= npos; i++)
        if (argv[i][0] == '\0') {
            cli_usage_error(cmd, "argument %d is empty ('')", i);
            return CLI_PARSE_ERROR;
        }
    return npos;
}

static int
parse(int argc, char **argv, const struct cli_option *opts,
      const char *const *usage, const char *description,
      const struct cli_option **chosen)
{
    const char *cmd = argv[0];
    int npos = 0;
    int only_positional = 0;

    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];

        if (only_positional || arg[0] != '-' || arg[1] == '\0') {
            argv[++npos] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_positional = 1;
            continue;
        }
        /* -h is help unless the command names its own -h (the
         * reference's Elasticsearch commands: -h <host>) */
        if (strcmp(arg, "--help") == 0 ||
            (strcmp(arg, "-h") == 0 && find_short(opts, 'h') == NULL)) {
            cli_print_help(stdout, cmd, opts, usage, description);
            return CLI_PARSE_HELP;
        }
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            int ambiguous;
            const struct cli_option *o = find_long(opts, name, len,
                                                   &ambiguous);

            if (o == NULL) {
                cli_usage_error(cmd, "%s option '--%.*s'",
                                ambiguous ? "ambiguous" : "unknown", (int)len,
                                name);
                return CLI_PARSE_ERROR;
            }
            const char *value = NULL;
            if (o->type == CLI_OPT_OPTIONAL) {
                value = eq ? eq + 1 : optional_value(argc, argv, &i);
            } else if (takes_argument(o)) {
                if (eq)
                    value = eq + 1;
                else if (i + 1 < argc)
                    value = argv[++i];
                else {
                    cli_usage_error(cmd, "option '--%s' needs a value %s",
                                    o->long_name, o->argh ? o->argh : "");
                    return CLI_PARSE_ERROR;
                }
            } else if (eq) {
                cli_usage_error(cmd, "option '--%s' takes no value",
                                o->long_name);
                return CLI_PARSE_ERROR;
            }
            if (take(cmd, opts, o, value, chosen) != 0)
                return CLI_PARSE_ERROR;
            continue;
        }
        /* one or more short options bundled: -ab, -o FILE, -oFILE */
        for (const char *p = arg + 1; *p; p++) {
            const struct cli_option *o = find_short(opts, (unsigned char)*p);

            if (o == NULL) {
                cli_usage_error(cmd, "unknown option '-%c'", *p);
                return CLI_PARSE_ERROR;
            }
            if (o->type == CLI_OPT_OPTIONAL) {
                if (take(cmd, opts, o, p[1] ? p + 1
                                            : optional_value(argc, argv, &i),
                         chosen) != 0)
                    return CLI_PARSE_ERROR;
                break;
            }
            if (!takes_argument(o)) {
                if (take(cmd, opts, o, NULL, chosen) != 0)
                    return CLI_PARSE_ERROR;
                continue;
            }
            const char *value = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (value == NULL) {
                cli_usage_error(cmd, "option '-%c' needs a value %s", *p,
                                o->argh ? o->argh : "");
                return CLI_PARSE_ERROR;
            }
            if (take(cmd, opts, o, value, chosen) != 0)
                return CLI_PARSE_ERROR;
            break;
        }
    }
    argv[npos + 1] = NULL;
    return npos;
}

int
cli_parse_exit(int rc)
{
    return rc == CLI_PARSE_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

/* What --help writes (cli_set_help_form()), and a man page's summary. */
static enum cli_help_form help_form = CLI_HELP_TEXT;
static const char *help_summary;

void
cli_set_help_form(enum cli_help_form form, const char *summary)
{
    help_form = form;
    help_summary = summary;
}

void
cli_print_help(FILE *fp, const char *cmd, const struct cli_option *opts,
               const char *const *usage, const char *description)
{
    if (help_form == CLI_HELP_MAN) {
        cli_print_man(fp, cmd, opts, usage, description, help_summary);
        return;
    }
    if (help_form == CLI_HELP_WORDS) {
        cli_print_option_words(fp, opts);
        return;
    }
    for (size_t i = 0; usage && usage[i]; i++)
        fprintf(fp, "%s%s\n", i == 0 ? "usage: " : "   or: ", usage[i]);
    if (description)
        fprintf(fp, "\n%s\n", description);
    fprintf(fp, "\noptions:\n");
    fprintf(fp, "  %-28s %s\n", find_short(opts, 'h') ? "    --help"
            : "-h, --help", "show this help and exit");
    for (const struct cli_option *o = opts; o->type != CLI_OPT_END; o++) {
        char left[128];
        int n = 0;

        if (o->type == CLI_OPT_HIDDEN_GROUP) {
            fprintf(fp, "\n%s\n", o->help);
            continue;
        }
        if (o->short_name)
            n += snprintf(left + n, sizeof(left) - n, "-%c%s", o->short_name,
                          o->long_name ? ", " : "");
        else
            n += snprintf(left + n, sizeof(left) - n, "    ");
        if (o->long_name)
            n += snprintf(left + n, sizeof(left) - n, "--%s", o->long_name);
        if (takes_argument(o) && o->argh)
            snprintf(left + n, sizeof(left) - n, " %s", o->argh);
        else if (o->type == CLI_OPT_OPTIONAL && o->argh)
            snprintf(left + n, sizeof(left) - n, " [%s]", o->argh);
        if (strlen(left) > 28)
            fprintf(fp, "  %s\n  %-28s %s\n", left, "", o->help);
        else
            fprintf(fp, "  %-28s %s\n", left, o->help);
    }
    (void)cmd;
}

int
cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "tokio %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nsee 'tokio %s --help'\n", cmd);
    return CLI_EXIT_USAGE;
}

int
cli_time(const char *cmd, const char *what, const char *text,
         const char *format, int64_t *out)
{
    char form[64];
    size_t n = 0;

    if (format == NULL)
        format = "%Y-%m-%dT%H:%M:%S";
    if (tokio_time_parse_format(text, format, out) == 0)
        return 0;
    /* the form as people write it: %Y-%m-%dT%H:%M:%S as
     * YYYY-MM-DDTHH:MM:SS */
    for (const char *f = format; *f != '\0' && n + 5 < sizeof(form); f++) {
        const char *w = NULL;
        if (*f == '%' && f[1] != '\0') {
            switch (*++f) {
            case 'Y': w = "YYYY"; break;
            case 'm': w = "MM"; break;
            case 'd': w = "DD"; break;
            case 'H': w = "HH"; break;
            case 'M': w = "MM"; break;
            case 'S': w = "SS"; break;
            default: w = "?"; break;
            }
            n += (size_t)snprintf(form + n, sizeof(form) - n, "%s", w);
        } else {
            form[n++] = *f;
        }
    }
    form[n] = '\0';
    return cli_usage_error(cmd, "%s '%s' is not a time %s", what, text,
                           form);
}

int
cli_time_order(const char *cmd, const char *start_what, int64_t start,
               const char *end_what, int64_t end)
{
    if (start < end)
        return 0;
    return cli_usage_error(cmd, "%s is %s %s", end_what,
                           start == end ? "the same time as" : "before",
                           start_what);
}

int
cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "tokio %s: error: ", cmd);
    if (fmt == NULL) {
        fputs(tokio_errmsg(), stderr);
    } else {
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    return CLI_EXIT_FAILURE;
}

int
cli_write_output(const char *cmd, const char *path,
                 int (*write)(FILE *fp, void *ctx), void *ctx)
{
    return cli_write_output_from(cmd, path, NULL, write, ctx);
}

int
cli_write_output_from(const char *cmd, const char *path, const char *input,
                      int (*write)(FILE *fp, void *ctx), void *ctx)
{
    struct tokio_output *out;
    int rc;

    if (tokio_output_open(&out, path) < 0)
        return cli_fail(cmd, NULL);
    if ((rc = write(tokio_output_fp(out), ctx)) < 0) {
        /* a failed write (disk full) names the output it was for */
        int stream_failed = ferror(tokio_output_fp(out));
        tokio_output_abort(out);
        /* an input the output form cannot show names that input */
        if (!stream_failed && rc == TOKIO_EFORMAT && input != NULL)
            return cli_fail(cmd, "'%s': %s", input, tokio_errmsg());
        if (!stream_failed)
            return cli_fail(cmd, NULL);
        if (path == NULL || strcmp(path, "-") == 0)
            return cli_fail(cmd, "standard output: %s", tokio_errmsg());
        return cli_fail(cmd, "'%s': %s", path, tokio_errmsg());
    }
    if (tokio_output_commit(out) < 0)
        return cli_fail(cmd, NULL);
    return CLI_EXIT_OK;
}

/* What cli_write_json() writes: a value and its flags. */
struct json_job {
    const json_t *value;
    unsigned flags;
};

static int
write_json_line(FILE *fp, void *ctx)
{
    const struct json_job *job = ctx;
    int rc = tokio_json_write(job->value, fp, job->flags);

    if (rc >= 0)
        fputc('\n', fp);
    return rc;
}

int
cli_write_json(const char *cmd, const char *path, const json_t *value,
               unsigned flags)
{
    struct json_job job = { value, flags };

    return cli_write_output(cmd, path, write_json_line, &job);
}

int
cli_split_commas(char *arg, struct cli_list *out)
{
    size_t n = 1;

    out->items = NULL;
    out->n = 0;
    if (arg == NULL || *arg == '\0')
        return 0;
    for (const char *p = arg; *p; p++)
        n += *p == ',';
    if ((out->items = calloc(n, sizeof(*out->items))) == NULL)
        return -1;
    for (char *p = arg;;) {
        char *comma = strchr(p, ',');
        out->items[out->n++] = p;
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return 0;
}

int
cli_archive_times(const char *cmd, const char *start, const char *end,
                  const char *init_start, const char *init_end,
                  long long timestep, struct tokio_archive_range *out)
{
    if (cli_time(cmd, "<start>", start, NULL, &out->start) != 0 ||
        cli_time(cmd, "<end>", end, NULL, &out->end) != 0)
        return CLI_EXIT_USAGE;
    out->init_start = out->start;
    out->init_end = out->end;
    if ((init_start && cli_time(cmd, "--init-start", init_start, NULL,
                                &out->init_start) != 0) ||
        (init_end && cli_time(cmd, "--init-end", init_end, NULL,
                              &out->init_end) != 0))
        return CLI_EXIT_USAGE;
    if (out->start >= out->end)
        return cli_usage_error(cmd, "<start> must come before <end>");
    if (out->init_start >= out->init_end)
        return cli_usage_error(cmd, "--init-start must come before "
                               "--init-end");
    if (timestep < 1 || timestep > 86400 * 366)
        return cli_usage_error(cmd, "--timestep must be 1 s to a year");
    out->timestep = timestep;
    if (out->start < out->init_start || out->end > out->init_end)
        return cli_usage_error(cmd, "<start>..<end> must lie within "
                               "--init-start..--init-end");
    if (tokio_hdf5_rows(out->init_start, out->init_end, timestep) >
        TOKIO_HDF5_MAX_ROWS)
        return cli_usage_error(cmd, "--init-start..--init-end spans more "
                               "than the %zu rows of %lld s a file may "
                               "hold", TOKIO_HDF5_MAX_ROWS, timestep);
    return 0;
}
