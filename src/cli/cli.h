/*
 * src/cli/cli.h - what every command shares: the option parser, messages
 * and exit codes, and writing results.
 *
 * Options are a table; `--help` is generated from the usage lines and the
 * table, so every command documents and parses options the same way.
 */
#ifndef TOKIO_CLI_H
#define TOKIO_CLI_H

#include <jansson.h>
#include <stdio.h>

/* Exit statuses of `tokio`. */
#define CLI_EXIT_OK      0
#define CLI_EXIT_FAILURE 1    /* runtime failure: the message names the input */
#define CLI_EXIT_USAGE   2    /* bad command line */

enum cli_opt_type {
    CLI_OPT_END = 0,
    CLI_OPT_FLAG,      /* int *: set to 1 */
    CLI_OPT_SET_INT,   /* int *: set to `set_value` (choices like -j/-c) */
    CLI_OPT_STRING,    /* const char **: the argument */
    CLI_OPT_OPTIONAL,  /* const char **: the argument, or "" when the next
                          word is an option or absent (argparse's
                          nargs='?', const='') */
    CLI_OPT_LIST,      /* struct cli_list *: appended, may repeat */
    CLI_OPT_INT,       /* long long *: a whole number */
    CLI_OPT_DOUBLE,    /* double * */
    CLI_OPT_HIDDEN_GROUP  /* a heading line in --help (help text only) */
};

struct cli_option {
    enum cli_opt_type type;
    int short_name;           /* 0: none */
    const char *long_name;    /* NULL: none */
    void *value;
    const char *argh;         /* argument placeholder shown in --help */
    const char *help;
    int set_value;
};

/* A repeatable option's values, borrowed from argv; free `items`. */
struct cli_list {
    const char **items;
    size_t n;
};

#define OPT_FLAG(s, l, v, h)        { CLI_OPT_FLAG, (s), (l), (v), NULL, (h), 1 }
#define OPT_SET_INT(s, l, v, x, h)  { CLI_OPT_SET_INT, (s), (l), (v), NULL, (h), (x) }
#define OPT_STRING(s, l, v, a, h)   { CLI_OPT_STRING, (s), (l), (v), (a), (h), 0 }
#define OPT_OPTIONAL(s, l, v, a, h)  { CLI_OPT_OPTIONAL, (s), (l), (v), (a), (h), 0 }
#define OPT_LIST(s, l, v, a, h)     { CLI_OPT_LIST, (s), (l), (v), (a), (h), 0 }
#define OPT_INT(s, l, v, a, h)      { CLI_OPT_INT, (s), (l), (v), (a), (h), 0 }
#define OPT_DOUBLE(s, l, v, a, h)   { CLI_OPT_DOUBLE, (s), (l), (v), (a), (h), 0 }
#define OPT_END                     { CLI_OPT_END, 0, NULL, NULL, NULL, NULL, 0 }

/*
 * Split a comma-separated option value into `out` (pointers into `arg`,
 * which is modified), as Python's str.split(","): empty items are kept;
 * NULL or "" is no list.  Free out->items.  -1 when out of memory.
 */
int cli_split_commas(char *arg, struct cli_list *out);

/* Options many commands share, spelled and documented once. */
#define OPT_OUTPUT(v) \
    OPT_STRING('o', "output", (v), "<file>", \
               "write to <file> (whole or not at all) instead of stdout")

/*
 * Parse the options of command `argv[0]`, in any order among the
 * positional arguments ("--" ends options).  On success the positional
 * arguments are moved to argv[1..] and their count is returned.  On
 * --help/-h the help is printed to stdout and CLI_PARSE_HELP returned; on
 * a bad option a message and a hint go to stderr and CLI_PARSE_ERROR is
 * returned.  cli_parse_exit() turns either into the exit status.
 */
#define CLI_PARSE_HELP  (-1)
#define CLI_PARSE_ERROR (-2)
int cli_parse(int argc, char **argv, const struct cli_option *opts,
              const char *const *usage, const char *description);
int cli_parse_exit(int rc);

/* Print the generated help of a command to `fp`. */
void cli_print_help(FILE *fp, const char *cmd, const struct cli_option *opts,
                    const char *const *usage, const char *description);

/*
 * "tokio CMD: MESSAGE" and "see 'tokio CMD --help'" on stderr; returns
 * CLI_EXIT_USAGE, so a command can `return cli_usage_error(...)`.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * "tokio CMD: error: MESSAGE" on stderr; returns CLI_EXIT_FAILURE.  With
 * a NULL `fmt`, the library's last message (tokio_errmsg()) is used.
 */
int cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Open `path` (NULL or "-": stdout), let `write` fill the stream (it
 * returns < 0, with the library's message set, on failure), and commit
 * the file, or discard it on failure so no partial file is left.
 * Returns an exit status; failures are reported as cli_fail() does.
 */
int cli_write_output(const char *cmd, const char *path,
                     int (*write)(FILE *fp, void *ctx), void *ctx);

/*
 * Write `value` (borrowed) as JSON with `flags` (see tokio/output.h) to
 * `path` (NULL or "-": stdout), then a newline.  Returns an exit status;
 * failures are reported as cli_fail() does.
 */
int cli_write_json(const char *cmd, const char *path, const json_t *value,
                   unsigned flags);

#endif
