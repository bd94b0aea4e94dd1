/*
 * fuzz/fuzz_json_scan.c - the strict pull reader (core/json_scan.h) on
 * arbitrary bytes, walked as the Slurm cache shape (an object of objects
 * of strings and lists of strings) or, when the input starts with '[',
 * as a list of scalars and skipped values: it must never read past the
 * input, and whatever it accepts must be valid JSON that jansson reads
 * to the same strings, numbers and literals.  Seeds:
 * fuzz/corpus/json_scan/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/json_scan.h"
#include "tokio/common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Strings seen, copied out, checked against jansson's reading after. */
static size_t n_seen, used;
static char *dst;
static size_t seen_at[4096], seen_n[4096];

static void
saw(size_t at, size_t n)
{
    if (n_seen < sizeof(seen_at) / sizeof(seen_at[0])) {
        seen_at[n_seen] = at;
        seen_n[n_seen++] = n;
    }
}

static int
string(struct tokio__jscan *js)
{
    size_t n;

    if (tokio__jscan_string(js, dst + used, &n) < 0)
        return -1;
    saw(used, n);
    used += n + 1;
    return 0;
}

/* The Slurm cache shape; 0 when the whole input was read. */
static int
walk(struct tokio__jscan *js)
{
    int more;

    if (tokio__jscan_eat(js, '{') < 0)
        return -1;
    if (tokio__jscan_peek(js) == '}') {
        js->p++;
        return tokio__jscan_end(js);
    }
    do {
        if (string(js) < 0 || tokio__jscan_eat(js, ':') < 0 ||
            tokio__jscan_eat(js, '{') < 0)
            return -1;
        if (tokio__jscan_peek(js) == '}') {
            js->p++;
            continue;
        }
        do {
            if (string(js) < 0 || tokio__jscan_eat(js, ':') < 0)
                return -1;
            if (tokio__jscan_peek(js) != '[') {
                if (string(js) < 0)
                    return -1;
                continue;
            }
            size_t n, u;
            if (tokio__jscan_strings(js, dst + used, &n, &u) < 0)
                return -1;
            for (size_t i = 0, at = used; i < n; i++) {
                size_t len = strlen(dst + at);
                saw(at, len);
                at += len + 1;
            }
            used += u;
        } while ((more = tokio__jscan_next(js, '}')) == 1);
        if (more < 0)
            return -1;
    } while ((more = tokio__jscan_next(js, '}')) == 1);
    return more < 0 ? -1 : tokio__jscan_end(js);
}

/* Every string of `v` in document order must be the next one seen. */
static void
compare(const json_t *v, size_t *k)
{
    const char *key;
    json_t *item;
    size_t i;

    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, item) {
            if (*k < n_seen && (strlen(key) != seen_n[*k] ||
                                memcmp(key, dst + seen_at[*k],
                                       seen_n[*k]) != 0))
                abort();
            ++*k;
            compare(item, k);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, item)
            compare(item, k);
    } else if (json_is_string(v)) {
        if (*k < n_seen && (json_string_length(v) != seen_n[*k] ||
                            memcmp(json_string_value(v), dst + seen_at[*k],
                                   seen_n[*k]) != 0))
            abort();
        ++*k;
    } else {
        abort();
    }
}

/* A list of values: scalars read (and checked against jansson's list),
 * lists and objects skipped. */
static void
scalars(const char *text, size_t size)
{
    struct tokio__jscan js;
    struct tokio__jscalar v[64];
    int skipped[64];
    size_t n = 0;
    int more;

    tokio__jscan_init(&js, text, size, "fuzz");
    if (tokio__jscan_eat(&js, '[') < 0)
        return;
    if (tokio__jscan_peek(&js) == ']') {
        js.p++;
    } else {
        do {
            int c = tokio__jscan_peek(&js), rc;
            if (n == 64)
                return;
            skipped[n] = c == '[' || c == '{';
            rc = skipped[n] ? tokio__jscan_skip(&js)
                            : tokio__jscan_scalar(&js, dst + used, &v[n]);
            if (rc < 0)
                return;
            if (!skipped[n] && v[n].type == TOKIO__JSTRING)
                used += v[n].len + 1;
            n++;
        } while ((more = tokio__jscan_next(&js, ']')) == 1);
        if (more < 0)
            return;
    }
    if (tokio__jscan_end(&js) < 0)
        return;
    json_t *j = json_loadb(text, size, 0, NULL), *item;
    if (j == NULL || json_array_size(j) != n)
        abort();    /* accepted text that is not JSON, or not the same */
    used = 0;
    for (size_t i = 0; i < n; i++) {
        item = json_array_get(j, i);
        if (skipped[i]) {
            if (!json_is_array(item) && !json_is_object(item))
                abort();
            continue;
        }
        switch (v[i].type) {
        case TOKIO__JNULL:
            if (!json_is_null(item))
                abort();
            break;
        case TOKIO__JTRUE:
        case TOKIO__JFALSE:
            if (!json_is_boolean(item) ||
                json_is_true(item) != (v[i].type == TOKIO__JTRUE))
                abort();
            break;
        case TOKIO__JINT:
            if (!json_is_integer(item) || json_integer_value(item) != v[i].i)
                abort();
            break;
        case TOKIO__JREAL: {
            double want = json_is_real(item) ? json_real_value(item) : 0;
            if (!json_is_real(item) ||
                memcmp(&want, &v[i].d, sizeof(want)) != 0)
                abort();
            break;
        }
        case TOKIO__JSTRING:
            if (!json_is_string(item) ||
                json_string_length(item) != v[i].len ||
                memcmp(json_string_value(item), dst + used, v[i].len) != 0)
                abort();
            used += v[i].len + 1;
            break;
        }
    }
    json_decref(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* copies of exactly the size needed, so any over-read or over-write
     * is caught */
    char *copy = malloc(size ? size : 1);
    struct tokio__jscan js;

    dst = malloc(size + TOKIO__JSCAN_SLACK);
    if (copy == NULL || dst == NULL)
        abort();
    memcpy(copy, data, size);
    n_seen = used = 0;
    if (size > 0 && copy[0] == '[') {
        scalars(copy, size);
        free(dst);
        free(copy);
        return 0;
    }
    tokio__jscan_init(&js, copy, size, "fuzz");
    if (walk(&js) == 0) {
        /* jansson keeps a repeated key once: compare only without them */
        json_t *j = json_loadb(copy, size, JSON_REJECT_DUPLICATES, NULL);
        size_t k = 0;
        if (j == NULL) {
            json_t *any = json_loadb(copy, size, 0, NULL);
            if (any == NULL)
                abort();    /* accepted text that is not JSON */
            json_decref(any);
        } else {
            compare(j, &k);
            if (n_seen < sizeof(seen_at) / sizeof(seen_at[0]) && k != n_seen)
                abort();
            json_decref(j);
        }
    }
    free(dst);
    free(copy);
    return 0;
}
