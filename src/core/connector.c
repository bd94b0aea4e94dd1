/*
 * src/core/connector.c - opening any text connector's input: files,
 * memory, compression, collections, and the choice between the native
 * text and the JSON form, written once for all of them (connector.h).
 *
 * An input is read whole before it is parsed: saved monitoring outputs
 * are kilobytes to a few hundred megabytes, and a parser over one
 * NUL-ended buffer is the plainest there is.  Two things keep a hostile
 * input cheap: the first look (its first TOKIO__CONNECTOR_HEAD_BYTES
 * decide what it is, so a gigabyte of something else costs 64 KiB) and
 * each connector's budget of decompressed bytes (max_bytes), which with
 * the parsers' memory per byte of text bounds what any input can claim.
 */
#include "core/connector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tokio/input.h"
#include "core/alloc.h"
#include "core/collection.h"
#include "core/error.h"
#include "core/json.h"

/* 1 if the 512 bytes at `buf` are a tar header: its checksum (the sum of
 * its bytes, the checksum field counted as spaces) adds up (POSIX
 * ustar and the older formats alike). */
static int
is_tar(const unsigned char *buf, size_t len)
{
    unsigned long sum = 0, want = 0;
    size_t i;

    if (len < 512)
        return 0;
    for (i = 0; i < 512; i++)
        sum += (i >= 148 && i < 156) ? ' ' : buf[i];
    for (i = 148; i < 156 && buf[i] == ' '; i++)
        ;
    if (i == 156 || buf[i] < '0' || buf[i] > '7')
        return 0;
    for (; i < 156 && buf[i] >= '0' && buf[i] <= '7'; i++)
        want = want * 8 + (unsigned long)(buf[i] - '0');
    return sum == want;
}

/* The JSON form starts with '{' or '['; native texts never do. */
static int
is_json(const char *text, size_t len)
{
    size_t i = 0;

    while (i < len && text[i] != '\0' && strchr(" \t\r\n", text[i]) != NULL)
        i++;
    return i < len && (text[i] == '{' || text[i] == '[');
}

/* 1 if the `len` bytes at `text` are all white space (or none). */
static int
is_blank(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\0' || strchr(" \t\r\n\f\v", text[i]) == NULL)
            return 0;
    return 1;
}

/* Every failure names its input: messages made where the name is not
 * known (a JSON form's record, a drive of a dump, out of memory) get it
 * in front here. */
static int
named(int rc, const char *name)
{
    if (rc < 0 && strstr(tokio_errmsg(), name) == NULL)
        tokio__error_prefix("'%s'", name);
    return rc;
}

static size_t
budget(const struct tokio__connector *c)
{
    return c->max_bytes != 0 ? c->max_bytes : TOKIO__CONNECTOR_MAX_BYTES;
}

/* An input being read whole: `len` bytes at `buf` (NUL-ended past them
 * once read), room for `cap` and the NUL. */
struct whole {
    unsigned char *buf;
    size_t len, cap;
    int eof;
};

/* Read on until `w` holds `want` bytes or the input ends. */
static int
read_until(struct tokio_input *in, struct whole *w, size_t want,
           const char *name)
{
    while (w->len < want && !w->eof) {
        size_t n;
        int rc;

        if (w->len == w->cap) {
            size_t cap = w->cap < TOKIO__CONNECTOR_HEAD_BYTES
                             ? TOKIO__CONNECTOR_HEAD_BYTES : w->cap * 2;
            unsigned char *grown;

            if (cap > want)
                cap = want;
            if ((grown = tokio__realloc(w->buf, cap + 1)) == NULL)
                return tokio__error(TOKIO_ENOMEM, "out of memory reading "
                                    "'%s'", name);
            w->buf = grown;
            w->cap = cap;
        }
        if ((rc = tokio_input_read(in, w->buf + w->len, w->cap - w->len,
                                   &n)) < 0)
            return rc;
        w->len += n;
        w->eof = n == 0;
    }
    if (w->buf != NULL)
        w->buf[w->len] = '\0';
    return TOKIO_OK;
}

/* Read the rest of the input whose head `w` holds, within `max` bytes;
 * `reader` names the budget's reader in the message. */
static int
read_rest(struct tokio_input *in, struct whole *w, size_t max,
          const char *name, const char *reader)
{
    int rc;

    if ((rc = read_until(in, w, max + 1, name)) < 0)
        return rc;
    if (w->len > max)
        return tokio__error(TOKIO_EFORMAT, "'%s': more than %zu MiB after "
                            "decompression, the most the %s reader takes",
                            name, max >> 20, reader);
    return TOKIO_OK;
}

/* What the first look found an input to be. */
enum kind { KIND_TAR, KIND_JSON, KIND_TEXT, KIND_FOREIGN };

static enum kind
first_look(const struct tokio__connector *c, const struct whole *head,
           int member)
{
    const char *text = (const char *)head->buf;

    if (head->len == 0)
        return KIND_TEXT;
    if (!member && (c->flags & TOKIO__CONNECTOR_COLLECTION) &&
        is_tar(head->buf, head->len))
        return KIND_TAR;
    if (c->add_json != NULL && is_json(text, head->len))
        return KIND_JSON;
    /* white space alone is empty input, if that is all there is */
    if (is_blank(text, head->len))
        return head->eof ? KIND_TEXT : KIND_FOREIGN;
    return c->bid(text, head->len) > 0 ? KIND_TEXT : KIND_FOREIGN;
}

/*
 * Text nobody bids for, judged by its head: the connector's own message
 * when its whole lines there are wrong ("line 1: invalid UTF-8"), else
 * what the input is not.  Either way no more of it is read.
 */
static int
refuse(const struct tokio__connector *c, void *h, struct whole *head,
       const char *name)
{
    size_t n = head->len;
    int rc;

    if (!head->eof) {   /* a line cut by the head's end is not judged */
        while (n > 0 && head->buf[n - 1] != '\n')
            n--;
        head->buf[n] = '\0';
    }
    if ((rc = c->add_text(h, (const char *)head->buf, n, name)) < 0)
        return rc;
    return tokio__error(TOKIO_EFORMAT, "'%s': not %s", name, c->what);
}

/*
 * Read the input `in` (named `name`) whole, within the connector's
 * budget, after a first look at its head: `*kind_out` says what it is.
 * Foreign text is refused before more than its head is read, unless it
 * is a collection's `member` (which the caller feeds anyway, and counts).
 */
static int
read_input(const struct tokio__connector *c, void *h, struct tokio_input *in,
           const char *name, int member, struct whole *w,
           enum kind *kind_out)
{
    size_t max = budget(c);
    int rc;

    memset(w, 0, sizeof(*w));
    if ((rc = read_until(in, w, TOKIO__CONNECTOR_HEAD_BYTES, name)) < 0)
        return rc;
    *kind_out = first_look(c, w, member);
    if (*kind_out == KIND_FOREIGN && !member)
        return refuse(c, h, w, name);
    return read_rest(in, w, max, name, c->name);
}

/* Feed one decompressed input to `h`. */
static int
add_input(const struct tokio__connector *c, void *h, const char *text,
          size_t len, const char *name, enum kind kind)
{
    json_t *json;
    int rc;

    if (kind != KIND_JSON)
        return c->add_text(h, text, len, name);
    if ((rc = tokio__json_parse_named(&json, text, len, 0, name)) < 0)
        return rc;
    rc = c->add_json(h, json);
    json_decref(json);
    return named(rc, name);
}

struct feed {
    const struct tokio__connector *c;
    void *h;
    const char *archive;        /* NULL: a folder's walk */
    size_t members, known;      /* files fed but empty ones; those bid
                                   for (or JSON) */
};

/* One member of a folder or archive, decompressed and fed. */
static int
add_member(const struct tokio_collection_member *m, void *payload)
{
    struct feed *f = payload;
    struct tokio_input *in = NULL;
    struct whole w = { NULL, 0, 0, 0 };
    enum kind kind = KIND_TEXT;
    char *name = NULL;
    int rc;

    if (f->archive != NULL) {
        /* named as if the archive were a folder, as a folder's are */
        size_t n = strlen(f->archive) + strlen(m->name) + 2;
        if ((name = tokio__malloc(n)) == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                f->archive);
        snprintf(name, n, "%s/%s", f->archive, m->name);
    }
    if ((rc = tokio_input_open_mem(&in, m->data, m->len,
                                   name ? name : m->name)) == TOKIO_OK)
        rc = read_input(f->c, f->h, in, name ? name : m->name, 1, &w,
                        &kind);
    if (rc == TOKIO_OK && f->c->set_mtime != NULL)
        f->c->set_mtime(f->h, m->mtime);
    if (rc == TOKIO_OK) {
        /* empty files (a timestamp file) are neither */
        if (!is_blank((const char *)w.buf, w.len)) {
            f->members++;
            f->known += kind != KIND_FOREIGN;
        }
        rc = add_input(f->c, f->h, w.buf ? (const char *)w.buf : "", w.len,
                       name ? name : m->name, kind);
    }
    tokio_input_close(in);
    free(w.buf);
    free(name);
    return rc;
}

/* After a walk: a collection of files none of which is the connector's
 * (a tarball of something else) is no input of it. */
static int
walked(const struct feed *f, const char *name, int rc)
{
    if (rc >= 0 && f->members > 0 && f->known == 0)
        return tokio__error(TOKIO_EFORMAT, "'%s': not %s (no file in it "
                            "is)", name, f->c->what);
    return rc;
}

/* Read `in` and feed it: an archive's members, or one input. */
static int
add_stream(const struct tokio__connector *c, void *h, struct tokio_input *in,
           const char *name)
{
    struct whole w;
    enum kind kind;
    int rc;

    if ((rc = read_input(c, h, in, name, 0, &w, &kind)) < 0) {
        free(w.buf);
        return rc;
    }
    if (kind == KIND_TAR) {
        struct feed f = { c, h, name, 0, 0 };
        rc = tokio__walk_archive_mem(w.buf, w.len, name, budget(c),
                                     add_member, &f);
        rc = walked(&f, name, rc);
    } else {
        rc = add_input(c, h, w.buf ? (const char *)w.buf : "", w.len, name,
                       kind);
    }
    free(w.buf);
    return rc;
}

/* new(), then `fill`, then finish(): the handle in *out, or nothing. */
static int
build(const struct tokio__connector *c, void **out,
      int (*fill)(const struct tokio__connector *c, void *h,
                  const void *ctx),
      const void *ctx)
{
    void *h = NULL;
    int rc;

    *out = NULL;
    if ((rc = c->new(&h)) < 0)
        return rc;
    if ((rc = fill(c, h, ctx)) >= 0 && c->finish != NULL)
        rc = c->finish(h);
    if (rc < 0) {
        c->free(h);
        return rc;
    }
    *out = h;
    return rc;
}

static int
fill_path(const struct tokio__connector *c, void *h, const void *ctx)
{
    const char *path = ctx;
    struct tokio_input *in = NULL;
    struct stat st;
    int rc;

    if ((c->flags & TOKIO__CONNECTOR_COLLECTION) && strcmp(path, "-") != 0 &&
        stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        struct feed f = { c, h, NULL, 0, 0 };
        rc = tokio_walk_file_collection(path, add_member, &f);
        return walked(&f, path, rc);
    }
    if ((rc = tokio_input_open(&in, path)) == TOKIO_OK)
        rc = add_stream(c, h, in, path);
    tokio_input_close(in);
    return rc;
}

int
tokio__connector_open(const struct tokio__connector *c, void **out,
                      const char *path)
{
    return named(build(c, out, fill_path, path), path);
}

int
tokio__connector_add(const struct tokio__connector *c, void *h,
                     const char *path)
{
    int rc = fill_path(c, h, path);

    if (rc >= 0 && c->finish != NULL)
        rc = c->finish(h);
    return named(rc, path);
}

struct mem {
    const void *buf;
    size_t len;
    const char *name;
};

static int
fill_mem(const struct tokio__connector *c, void *h, const void *ctx)
{
    const struct mem *m = ctx;
    struct tokio_input *in = NULL;
    int rc;

    if ((rc = tokio_input_open_mem(&in, m->buf, m->len, m->name)) == 0)
        rc = add_stream(c, h, in, m->name);
    tokio_input_close(in);
    return rc;
}

int
tokio__connector_open_mem(const struct tokio__connector *c, void **out,
                          const void *buf, size_t len, const char *name)
{
    const struct mem m = { buf, len, name != NULL ? name : "<memory>" };

    return named(build(c, out, fill_mem, &m), m.name);
}

static int
fill_json(const struct tokio__connector *c, void *h, const void *ctx)
{
    if (c->add_json == NULL)
        return tokio__error(TOKIO_EINVAL, "%s has no JSON form", c->name);
    return c->add_json(h, ctx);
}

int
tokio__connector_from_json(const struct tokio__connector *c, void **out,
                           const json_t *json)
{
    return build(c, out, fill_json, json);
}

/* ---- readers outside the table ---------------------------------------- */

int
tokio__read_whole(struct tokio_input *in, const char *name, size_t max,
                  int (*bid)(const char *head, size_t n), const char *what,
                  unsigned char **buf_out, size_t *len_out)
{
    struct whole w;
    int rc;

    *buf_out = NULL;
    *len_out = 0;
    memset(&w, 0, sizeof(w));
    rc = read_until(in, &w, TOKIO__CONNECTOR_HEAD_BYTES, name);
    if (rc == TOKIO_OK && w.len > 0 && bid((const char *)w.buf, w.len) == 0)
        rc = tokio__error(TOKIO_EFORMAT, "'%s': not %s", name, what);
    if (rc == TOKIO_OK)
        rc = read_rest(in, &w, max != 0 ? max : TOKIO__CONNECTOR_MAX_BYTES,
                       name, what);
    if (rc == TOKIO_OK && w.buf == NULL &&
        (w.buf = tokio__calloc(1, 1)) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    if (rc < 0) {
        free(w.buf);
        return rc;
    }
    *buf_out = w.buf;
    *len_out = w.len;
    return TOKIO_OK;
}

int
tokio__bid_json(const char *head, size_t n)
{
    return is_json(head, n) ? 100 : 0;
}

int
tokio__read_json_file(const char *path, json_t **out)
{
    struct tokio_input *in = NULL;
    unsigned char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) == TOKIO_OK)
        rc = tokio__read_whole(in, path, 0, tokio__bid_json, "JSON", &text,
                               &len);
    tokio_input_close(in);
    if (rc == TOKIO_OK)
        rc = tokio__json_parse_named(out, (const char *)text, len, 0, path);
    free(text);
    return rc;
}
