/*
 * src/core/csv.c - CSV fields and rows as pandas' to_csv() writes them
 * (the reference's --csv outputs): minimal quoting, "\n" line ends.
 */
#include "tokio/output.h"

#include <errno.h>
#include <string.h>

#include "core/error.h"

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
