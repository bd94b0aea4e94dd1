/*
 * src/core/csv.c - CSV as pandas' to_csv() writes it (the reference's
 * --csv outputs): minimal quoting, "\n" line ends; written field by field
 * and read back whole (tokio/csv.h).
 */
#include "tokio/csv.h"
#include "tokio/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokio/input.h"
#include "core/alloc.h"
#include "core/connector.h"
#include "core/error.h"
#include "core/text.h"

static int
needs_quotes(const char *field, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (field[i] == ',' || field[i] == '"' || field[i] == '\n' ||
            field[i] == '\r')
            return 1;
    return 0;
}

int
tokio_csv_write_field(FILE *fp, const char *field, size_t len)
{
    if (!needs_quotes(field, len)) {
        fwrite(field, 1, len, fp);
    } else {
        fputc('"', fp);
        for (size_t i = 0; i < len; i++) {
            if (field[i] == '"')
                fputc('"', fp);
            fputc(field[i], fp);
        }
        fputc('"', fp);
    }
    return tokio__write_check(fp, "writing CSV failed");
}

int
tokio_csv_write_row(FILE *fp, const char *const *fields, size_t n)
{
    /* Python's csv module quotes a row's only field when it is empty, so
     * the row does not read back as a blank line. */
    if (n == 1 && fields[0] != NULL && fields[0][0] == '\0') {
        fputs("\"\"\n", fp);
        return tokio__write_check(fp, "writing CSV failed");
    }
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            fputc(',', fp);
        const char *f = fields[i] ? fields[i] : "";
        int rc = tokio_csv_write_field(fp, f, strlen(f));
        if (rc < 0)
            return rc;
    }
    fputc('\n', fp);
    return tokio__write_check(fp, "writing CSV failed");
}

/* ---- records, as pandas writes a frame of them ----------------------- */

enum kind { K_INT, K_FLOAT, K_OBJECT };

/* What pandas makes of column `key`: int64 when every row has an
 * integer, float64 when every present value is a number (a missing one
 * makes it NaN), else object. */
static enum kind
column_kind(const json_t *rows, const char *key)
{
    enum kind k = K_INT;
    size_t i;
    json_t *row;

    json_array_foreach(rows, i, row) {
        const json_t *v = json_object_get(row, key);
        if (v == NULL || json_is_null(v) || json_is_real(v))
            k = K_FLOAT;
        else if (!json_is_integer(v))
            return K_OBJECT;
    }
    return k;
}

static void
write_cell(FILE *fp, const json_t *v, enum kind k, int date)
{
    char buf[64];

    if (v == NULL || json_is_null(v))
        return;
    if (date && json_is_number(v)) {
        time_t t = (time_t)json_number_value(v);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
        fputs(buf, fp);
    } else if (json_is_integer(v) && k != K_FLOAT) {
        fprintf(fp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_number(v)) {
        tokio_format_double(buf, sizeof(buf), json_number_value(v));
        fputs(buf, fp);
    } else if (json_is_string(v)) {
        tokio_csv_write_field(fp, json_string_value(v),
                              json_string_length(v));
    } else if (json_is_boolean(v)) {
        fputs(json_is_true(v) ? "True" : "False", fp);
    }
}

int
tokio_csv_write_records(const json_t *rows, FILE *fp, const char *index_label,
                        const char *const *dates, size_t n_dates)
{
    json_t *columns = json_object(), *row, *v;   /* key -> kind */
    const char *key;
    size_t i;

    if (columns == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing CSV");
    json_array_foreach(rows, i, row) {
        if (!json_is_object(row)) {
            json_decref(columns);
            return tokio__error(TOKIO_EINVAL, "record %zu is not an object",
                                i);
        }
        json_object_foreach(row, key, v)
            if (json_object_get(columns, key) == NULL &&
                json_object_set_new(columns, key, json_integer(
                                        column_kind(rows, key))) < 0) {
                json_decref(columns);
                return tokio__error(TOKIO_ENOMEM, "out of memory writing "
                                    "CSV");
            }
    }
    tokio_csv_write_field(fp, index_label, strlen(index_label));
    json_object_foreach(columns, key, v) {
        fputc(',', fp);
        tokio_csv_write_field(fp, key, strlen(key));
    }
    fputc('\n', fp);
    json_array_foreach(rows, i, row) {
        fprintf(fp, "%zu", i);
        json_object_foreach(columns, key, v) {
            int date = 0;
            for (size_t d = 0; d < n_dates; d++)
                date |= strcmp(dates[d], key) == 0;
            fputc(',', fp);
            write_cell(fp, json_object_get(row, key),
                       (enum kind)json_integer_value(v), date);
        }
        fputc('\n', fp);
    }
    json_decref(columns);
    return tokio__write_check(fp, "writing CSV failed");
}

/* ---- reading --------------------------------------------------------- */

struct tokio_csv {
    char *text;             /* the fields, unquoted, each NUL-ended */
    const char **cells;     /* rows * cols pointers into text, header first */
    size_t n_cells, cap_cells, cols;
};

static int
add_cell(struct tokio_csv *t, const char *cell)
{
    if (t->n_cells == t->cap_cells) {
        size_t cap = t->cap_cells ? 2 * t->cap_cells : 64;
        const char **c = tokio__reallocarray(t->cells, cap, sizeof(*c));
        if (c == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading CSV");
        t->cells = c;
        t->cap_cells = cap;
    }
    t->cells[t->n_cells++] = cell;
    return TOKIO_OK;
}

/* One field at buf[*i], unquoted into *w (which never outruns it). */
static int
parse_field(const char *buf, size_t len, size_t *i, char **w, size_t *line,
            const char *name)
{
    size_t start = *line;

    if (*i < len && buf[*i] == '"') {
        for ((*i)++;; (*i)++) {
            if (*i == len)
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: quote not "
                                    "closed", name, start);
            if (buf[*i] == '"' && (*i + 1 == len || buf[*i + 1] != '"'))
                break;
            *line += buf[*i] == '\n';
            *i += buf[*i] == '"';       /* "" is one quote */
            *(*w)++ = buf[*i];
        }
        (*i)++;
    }
    while (*i < len && buf[*i] != ',' && buf[*i] != '\n' && buf[*i] != '\r')
        *(*w)++ = buf[(*i)++];
    *(*w)++ = '\0';
    return TOKIO_OK;
}

/* Split `len` bytes into rows of fields, unquoted into one copy. */
static int
parse(struct tokio_csv *t, const char *buf, size_t len, const char *name)
{
    size_t i = 0, line = 1;
    char *w;
    int rc = TOKIO_OK;

    if (!tokio__text_valid(buf, len))
        return tokio__error(TOKIO_EFORMAT, "'%s': %s", name,
                            memchr(buf, '\0', len) ? "NUL byte"
                                                   : "invalid UTF-8");
    if ((t->text = w = tokio__malloc(len + 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    while (i < len && rc == TOKIO_OK) {
        size_t fields = 0;

        if (buf[i] == '\n' || buf[i] == '\r') {     /* a blank line */
            line += buf[i++] == '\n';
            continue;
        }
        for (;;) {
            char *cell = w;
            if ((rc = parse_field(buf, len, &i, &w, &line, name)) < 0 ||
                (rc = add_cell(t, cell)) < 0)
                return rc;
            fields++;
            if (i >= len || buf[i] != ',')
                break;
            i++;
        }
        if (i < len && buf[i] == '\r')
            i++;
        if (i < len && buf[i] == '\n')
            i++;
        if (t->cols == 0)
            t->cols = fields;
        else if (fields != t->cols)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %zu fields where "
                              "the header has %zu", name, line, fields,
                              t->cols);
        line++;
    }
    return rc;
}

/* The tables read are histories of runs, a summarize-job row (about a
 * kilobyte) per run: this is some 60,000 runs. */
#define CSV_MAX_BYTES ((size_t)64 << 20)

/* CSV is text: a NUL byte in its first bytes (a binary file, a sparse
 * one) says it is something else, before the rest is read. */
static int
bid_text(const char *head, size_t n)
{
    return memchr(head, '\0', n) == NULL;
}

static int
read_table(struct tokio_csv **out, struct tokio_input *in, const char *name)
{
    struct tokio_csv *t = NULL;
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio__read_whole(in, name, CSV_MAX_BYTES, bid_text, "CSV",
                                &buf, &len)) < 0)
        return rc;
    if ((t = tokio__calloc(1, sizeof(*t))) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    else
        rc = parse(t, (const char *)buf, len, name);
    free(buf);
    if (rc < 0) {
        tokio_csv_free(t);
        return rc;
    }
    *out = t;
    return TOKIO_OK;
}

int
tokio_csv_open(struct tokio_csv **out, const char *path)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    rc = read_table(out, in, path);
    tokio_input_close(in);
    return rc;
}

int
tokio_csv_open_mem(struct tokio_csv **out, const void *buf, size_t len,
                   const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    name = name != NULL ? name : "<memory>";
    if ((rc = tokio_input_open_mem(&in, buf, len, name)) < 0)
        return rc;
    rc = read_table(out, in, name);
    tokio_input_close(in);
    return rc;
}

size_t
tokio_csv_rows(const struct tokio_csv *t)
{
    return t->cols ? t->n_cells / t->cols - 1 : 0;
}

size_t
tokio_csv_cols(const struct tokio_csv *t)
{
    return t->cols;
}

const char *
tokio_csv_cell(const struct tokio_csv *t, size_t row, size_t col)
{
    if (col >= t->cols || row > tokio_csv_rows(t) || t->cols == 0)
        return NULL;
    return t->cells[row * t->cols + col];
}

long
tokio_csv_column(const struct tokio_csv *t, const char *name)
{
    for (size_t c = 0; c < t->cols; c++)
        if (strcmp(t->cells[c], name) == 0)
            return (long)c;
    return -1;
}

void
tokio_csv_free(struct tokio_csv *t)
{
    if (t == NULL)
        return;
    free(t->text);
    free(t->cells);
    free(t);
}
