/*
 * fuzz/fuzz_json_scan.c - the strict pull reader (core/json_scan.h) on
 * arbitrary bytes, walked as the Slurm cache shape (an object of objects
 * of strings and lists of strings): it must never read past the input,
 * and whatever it accepts must be valid JSON that jansson reads to the
 * same strings.  Seeds: fuzz/corpus/json_scan/.
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
