/*
 * src/cli/man.c - a command's man page and its completion words, written
 * from the option table its --help is written from (cli_print_help()
 * hands over to these when cli_set_help_form() asked for them), so the
 * three cannot disagree.
 *
 * Roff: every text goes through cli_roff(), which escapes what roff would
 * read as markup (backslashes, quotes, a leading '.') and writes hyphens
 * as \- so options can be searched for and pasted from the rendered page.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "tokio/common.h"
#include "tokio/util.h"

/* The `len` bytes at `text` for roff (cli_roff()). */
static void
roff_span(FILE *fp, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    const unsigned char *end = s + len;
    int line_start = 1;

    while (s < end && *s) {
        unsigned char c = *s;

        /* a control line starts with '.' or '\'': this one is text */
        if (line_start && c == '.')
            fputs("\\&", fp);
        line_start = c == '\n';
        switch (c) {
        case '\\': fputs("\\(rs", fp); break;
        case '-':  fputs("\\-", fp); break;
        case '\'': fputs("\\(aq", fp); break;
        case '`':  fputs("\\(ga", fp); break;
        case '"':  fputs("\\(dq", fp); break;
        default:
            if (c >= 0x80) {    /* \[uXXXX]; bytes that do not decode: '?' */
                uint32_t cp = tokio_utf8_next(&s, end);
                if (cp == TOKIO_UTF8_INVALID)
                    fputc('?', fp);
                else
                    fprintf(fp, "\\[u%04" PRIX32 "]", cp);
                continue;
            }
            fputc(c < 0x20 && c != '\n' ? ' ' : c, fp);
        }
        s++;
    }
}

void
cli_roff(FILE *fp, const char *text)
{
    roff_span(fp, text, strlen(text));
}

/* 1 if the option is given a value: it is shown as `--name <arg>`. */
static int
takes_value(const struct cli_option *o)
{
    return o->type == CLI_OPT_STRING || o->type == CLI_OPT_FILE ||
           o->type == CLI_OPT_LIST || o->type == CLI_OPT_INT ||
           o->type == CLI_OPT_SIGNED || o->type == CLI_OPT_DOUBLE;
}

/* 1 if -h is help: the command has no -h of its own. */
static int
h_is_help(const struct cli_option *opts)
{
    for (; opts->type != CLI_OPT_END; opts++)
        if (opts->short_name == 'h')
            return 0;
    return 1;
}

void
cli_man_head(FILE *fp, const char *page, const char *summary)
{
    fputs(".TH \"", fp);
    for (const char *p = page; *p; p++)
        if (*p == '-')
            fputs("\\-", fp);
        else
            fputc(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p, fp);
    fputs("\" 1 \"\" \"tokio ", fp);
    cli_roff(fp, tokio_version());
    /* no words broken at a line's end: options are searched for */
    fputs("\" \"tokio manual\"\n.nh\n.ad l\n.SH NAME\n", fp);
    cli_roff(fp, page);
    fputs(" \\- ", fp);
    cli_roff(fp, summary ? summary : "");
    fputc('\n', fp);
}

/* One usage line: "tokio CMD" in bold, the rest as it is. */
static void
synopsis_line(FILE *fp, const char *cmd, const char *line)
{
    size_t n = strlen("tokio ") + strlen(cmd);

    if (strncmp(line, "tokio ", 6) == 0 && strncmp(line + 6, cmd,
                                                    strlen(cmd)) == 0 &&
        (line[n] == ' ' || line[n] == '\0')) {
        fputs("\\fBtokio ", fp);
        cli_roff(fp, cmd);
        fputs("\\fR", fp);
        line += n;
    }
    cli_roff(fp, line);
    fputc('\n', fp);
}

/*
 * The description's text: its lines fill one paragraph, a blank line
 * starts the next, and a line indented in the help stays a line of its
 * own, indented (an example or a list).
 */
static void
description_text(FILE *fp, const char *text)
{
    while (*text) {
        size_t len = strcspn(text, "\n");
        size_t indent = strspn(text, " ");

        if (indent >= len) {
            fputs(".PP\n", fp);
        } else if (indent > 0) {
            fputs(".br\n\\ \\ ", fp);
            roff_span(fp, text + indent, len - indent);
            fputs("\n.br\n", fp);
        } else {
            roff_span(fp, text, len);
            fputc('\n', fp);
        }
        text += text[len] == '\n' ? len + 1 : len;
    }
}

/* One option as its .TP entry: its spellings in bold, its argument in
 * italics, then its help. */
static void
option_entry(FILE *fp, const struct cli_option *o)
{
    fputs(".TP\n", fp);
    if (o->short_name) {
        char s[2] = { (char)o->short_name, '\0' };
        fputs("\\fB\\-", fp);
        cli_roff(fp, s);
        fputs(o->long_name ? "\\fR, " : "\\fR", fp);
    }
    if (o->long_name) {
        fputs("\\fB\\-\\-", fp);
        cli_roff(fp, o->long_name);
        fputs("\\fR", fp);
    }
    if (o->argh && (takes_value(o) || o->type == CLI_OPT_OPTIONAL)) {
        fputs(o->type == CLI_OPT_OPTIONAL ? " [\\fI" : " \\fI", fp);
        cli_roff(fp, o->argh);
        fputs(o->type == CLI_OPT_OPTIONAL ? "\\fR]" : "\\fR", fp);
    }
    fputc('\n', fp);
    cli_roff(fp, o->help ? o->help : "");
    fputc('\n', fp);
}

void
cli_print_man(FILE *fp, const char *cmd, const struct cli_option *opts,
              const char *const *usage, const char *description,
              const char *summary)
{
    char page[128];

    snprintf(page, sizeof(page), "tokio-%s", cmd);
    cli_man_head(fp, page, summary);
    fputs(".SH SYNOPSIS\n", fp);
    for (size_t i = 0; usage && usage[i]; i++) {
        if (i > 0)
            fputs(".br\n", fp);
        synopsis_line(fp, cmd, usage[i]);
    }
    if (description) {
        fputs(".SH DESCRIPTION\n", fp);
        description_text(fp, description);
    }
    fputs(".SH OPTIONS\n.TP\n", fp);
    fputs(h_is_help(opts) ? "\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"
                          : "\\fB\\-\\-help\\fR\n", fp);
    fputs("show this help and exit\n", fp);
    for (const struct cli_option *o = opts; o->type != CLI_OPT_END; o++) {
        if (o->type == CLI_OPT_HIDDEN_GROUP) {
            fputs(".SS ", fp);
            cli_roff(fp, o->help ? o->help : "");
            fputc('\n', fp);
            continue;
        }
        option_entry(fp, o);
    }
    fputs(".SH EXIT STATUS\n"
          "0 on success, 1 when the command failed (the message names the"
          " input and what is wrong), 2 on a bad command line.\n"
          ".SH SEE ALSO\n"
          "\\fBtokio\\fR(1)\n", fp);
}

void
cli_print_option_words(FILE *fp, const struct cli_option *opts)
{
    fputs(h_is_help(opts) ? "--help -h" : "--help", fp);
    for (const struct cli_option *o = opts; o->type != CLI_OPT_END; o++) {
        if (o->type == CLI_OPT_HIDDEN_GROUP)
            continue;
        if (o->long_name)
            fprintf(fp, " --%s", o->long_name);
        if (o->short_name)
            fprintf(fp, " -%c", o->short_name);
    }
}
