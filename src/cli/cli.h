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
#include <stdint.h>
#include <stdio.h>

#include "tokio/timeseries.h"

/* Exit statuses of `tokio`. */
#define CLI_EXIT_OK      0
#define CLI_EXIT_FAILURE 1    /* runtime failure: the message names the input */
#define CLI_EXIT_USAGE   2    /* bad command line */

enum cli_opt_type {
    CLI_OPT_END = 0,
    CLI_OPT_FLAG,      /* int *: set to 1 */
    CLI_OPT_SET_INT,   /* int *: set to `set_value` (choices like -j/-c) */
    CLI_OPT_STRING,    /* const char **: the argument */
    CLI_OPT_FILE,      /* const char **: the argument, a path: not '' */
    CLI_OPT_OPTIONAL,  /* const char **: the argument, or "" when the next
                          word is an option or absent (argparse's
                          nargs='?', const='') */
    CLI_OPT_LIST,      /* struct cli_list *: appended, may repeat */
    CLI_OPT_INT,       /* long long *: a whole number, 0 or above (a
                          count, size, port or time step) */
    CLI_OPT_SIGNED,    /* long long *: a whole number */
    CLI_OPT_DOUBLE,    /* double *: a finite number */
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
#define OPT_FILE(s, l, v, a, h)     { CLI_OPT_FILE, (s), (l), (v), (a), (h), 0 }
#define OPT_OPTIONAL(s, l, v, a, h)  { CLI_OPT_OPTIONAL, (s), (l), (v), (a), (h), 0 }
#define OPT_LIST(s, l, v, a, h)     { CLI_OPT_LIST, (s), (l), (v), (a), (h), 0 }
#define OPT_INT(s, l, v, a, h)      { CLI_OPT_INT, (s), (l), (v), (a), (h), 0 }
#define OPT_SIGNED(s, l, v, a, h)   { CLI_OPT_SIGNED, (s), (l), (v), (a), (h), 0 }
#define OPT_DOUBLE(s, l, v, a, h)   { CLI_OPT_DOUBLE, (s), (l), (v), (a), (h), 0 }
#define OPT_END                     { CLI_OPT_END, 0, NULL, NULL, NULL, NULL, 0 }

/*
 * Split a comma-separated option value into `out` (pointers into `arg`,
 * which is modified), as Python's str.split(","): empty items are kept;
 * NULL or "" is no list.  Free out->items.  -1 when out of memory.
 */
int cli_split_commas(char *arg, struct cli_list *out);

/*
 * The times of an archive-* command, each YYYY-MM-DDTHH:MM:SS local time:
 * <start> <end> and --init-start/--init-end (NULL: the query's own).  Both
 * pairs in order, the query within the span of the file, and that span
 * at most TOKIO_HDF5_MAX_ROWS rows of `timestep` seconds (1 s to a year),
 * so that a runaway range (1900 to 2200) is refused before any work.
 * 0, or CLI_EXIT_USAGE after saying why.
 */
int cli_archive_times(const char *cmd, const char *start, const char *end,
                      const char *init_start, const char *init_end,
                      long long timestep, struct tokio_archive_range *out);

/* The output forms of the -j/--json, -c/--csv and -n/--native
 * alternatives (OPT_SET_INT on one variable: two of them are a usage
 * error). */
enum cli_form { CLI_FORM_JSON, CLI_FORM_CSV, CLI_FORM_NATIVE };

/* Options many commands share, spelled and documented once. */
#define OPT_OUTPUT(v) \
    OPT_FILE('o', "output", (v), "<file>", \
               "write to <file> (whole or not at all) instead of stdout")

/*
 * Parse the options of command `argv[0]`, in any order among the
 * positional arguments ("--" ends options).  What makes a bad command
 * line (exit 2) is decided here, once for every command: an unknown or
 * ambiguous option, a missing value, an empty word ('') as an argument
 * or as a file (OPT_FILE, OPT_OUTPUT, any --input or --output), a
 * number that is not one (a
 * negative OPT_INT, a NaN), and
 * two options that set one variable to different values (OPT_SET_INT
 * alternatives such as --json and --csv).  On success the positional
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
 * Times on the command line, one rule for every command: `text`, the
 * value of `what` ("<start>", "--end-time"), as local time in `format`
 * (NULL: "%Y-%m-%dT%H:%M:%S") into *out, else a usage error saying the
 * form expected.  cli_time_order(): a usage error unless the time of
 * `start_what` is before that of `end_what`.  Both return 0 or
 * CLI_EXIT_USAGE.
 */
int cli_time(const char *cmd, const char *what, const char *text,
             const char *format, int64_t *out);
int cli_time_order(const char *cmd, const char *start_what, int64_t start,
                   const char *end_what, int64_t end);

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

/* cli_write_output() for a result read from `input` (NULL: none): a
 * `write` failing with TOKIO_EFORMAT (the input cannot be shown in the
 * form asked for) is reported as "'INPUT': MESSAGE". */
int cli_write_output_from(const char *cmd, const char *path,
                          const char *input,
                          int (*write)(FILE *fp, void *ctx), void *ctx);

/*
 * Write `value` (borrowed) as JSON with `flags` (see tokio/output.h) to
 * `path` (NULL or "-": stdout), then a newline.  Returns an exit status;
 * failures are reported as cli_fail() does.
 */
int cli_write_json(const char *cmd, const char *path, const json_t *value,
                   unsigned flags);

/*
 * What --help writes (src/cli/man.c), chosen once before a command runs
 * so that a man page and the completion words come from the same option
 * table as the help: the help text (the default), a man page in roff
 * (`tokio help --man NAME`; `summary` is its NAME line), or every
 * spelling of every option on one line (`tokio completion bash`).
 */
enum cli_help_form { CLI_HELP_TEXT, CLI_HELP_MAN, CLI_HELP_WORDS };
void cli_set_help_form(enum cli_help_form form, const char *summary);

/* `text` for roff: backslashes, quotes and hyphens escaped, a leading
 * '.' or '\'' made text, characters past ASCII as \[uXXXX]; newlines
 * kept. */
void cli_roff(FILE *fp, const char *text);

/* The title lines of a tokio man page: .TH, and NAME's line. */
void cli_man_head(FILE *fp, const char *page, const char *summary);

/* A command's man page: SYNOPSIS from `usage`, DESCRIPTION, OPTIONS
 * from `opts` (--help included, as in its help), EXIT STATUS, SEE ALSO. */
void cli_print_man(FILE *fp, const char *cmd, const struct cli_option *opts,
                   const char *const *usage, const char *description,
                   const char *summary);

/* Every spelling of the options of `opts` ("--help", "-h" when the
 * command leaves it to help, "--long", "-s"), space-separated. */
void cli_print_option_words(FILE *fp, const struct cli_option *opts);

#endif
