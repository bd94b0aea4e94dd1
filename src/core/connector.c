/*
 * src/core/connector.c - opening any text connector's input: files,
 * memory, compression, collections, and the choice between the native
 * text and the JSON form, written once for all of them (connector.h).
 *
 * An input is read whole before it is parsed: saved monitoring outputs
 * are kilobytes to a few hundred megabytes, and a parser over one
 * NUL-ended buffer is the plainest there is.  The size budget of
 * tokio_input_read_all() bounds the memory a hostile input can claim.
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

/* Feed one decompressed input to `h`. */
static int
add_input(const struct tokio__connector *c, void *h, const char *text,
          size_t len, const char *name)
{
    json_t *json;
    int rc;

    if (c->add_json == NULL || !is_json(text, len))
        return c->add_text(h, text, len, name);
    if ((rc = tokio__json_parse_named(&json, text, len, 0, name)) < 0)
        return rc;
    if ((rc = c->add_json(h, json)) < 0 && rc != TOKIO_ENOMEM)
        tokio__error_prefix("'%s'", name);
    json_decref(json);
    return rc;
}

struct feed {
    const struct tokio__connector *c;
    void *h;
    const char *archive;        /* NULL: a folder's walk */
};

/* One member of a folder or archive, decompressed and fed. */
static int
add_member(const struct tokio_collection_member *m, void *payload)
{
    const struct feed *f = payload;
    struct tokio_input *in = NULL;
    unsigned char *text = NULL;
    size_t len = 0;
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
        rc = tokio_input_read_all(in, 0, &text, &len);
    if (rc == TOKIO_OK && f->c->set_mtime != NULL)
        f->c->set_mtime(f->h, m->mtime);
    if (rc == TOKIO_OK)
        rc = add_input(f->c, f->h, (const char *)text, len,
                       name ? name : m->name);
    tokio_input_close(in);
    free(text);
    free(name);
    return rc;
}

/* Feed `len` decompressed bytes: an archive's members, or one input. */
static int
add_bytes(const struct tokio__connector *c, void *h,
          const unsigned char *buf, size_t len, const char *name)
{
    if ((c->flags & TOKIO__CONNECTOR_COLLECTION) && is_tar(buf, len)) {
        struct feed f = { c, h, name };
        return tokio__walk_archive_mem(buf, len, name, 0, add_member, &f);
    }
    return add_input(c, h, (const char *)buf, len, name);
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
    unsigned char *buf = NULL;
    size_t len = 0;
    struct stat st;
    int rc;

    if ((c->flags & TOKIO__CONNECTOR_COLLECTION) && strcmp(path, "-") != 0 &&
        stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        struct feed f = { c, h, NULL };
        return tokio_walk_file_collection(path, add_member, &f);
    }
    if ((rc = tokio_read_file(path, 0, &buf, &len)) == TOKIO_OK)
        rc = add_bytes(c, h, buf, len, path);
    free(buf);
    return rc;
}

int
tokio__connector_open(const struct tokio__connector *c, void **out,
                      const char *path)
{
    return build(c, out, fill_path, path);
}

int
tokio__connector_add(const struct tokio__connector *c, void *h,
                     const char *path)
{
    int rc = fill_path(c, h, path);

    if (rc >= 0 && c->finish != NULL)
        rc = c->finish(h);
    return rc;
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
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    if ((rc = tokio_input_open_mem(&in, m->buf, m->len, m->name)) == 0)
        rc = tokio_input_read_all(in, 0, &buf, &len);
    if (rc == TOKIO_OK)
        rc = add_bytes(c, h, buf, len, m->name);
    tokio_input_close(in);
    free(buf);
    return rc;
}

int
tokio__connector_open_mem(const struct tokio__connector *c, void **out,
                          const void *buf, size_t len, const char *name)
{
    const struct mem m = { buf, len, name != NULL ? name : "<memory>" };

    return build(c, out, fill_mem, &m);
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
