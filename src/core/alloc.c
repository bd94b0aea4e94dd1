/*
 * src/core/alloc.c - allocation wrappers with a failure hook for tests.
 *
 * The counters are process-wide atomics: a test arms them, runs one call,
 * disarms them.  Production code never arms them, so the cost is one
 * relaxed load per allocation.
 */
#include <jansson.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static atomic_size_t fail_countdown;   /* 0: never fail */
static atomic_bool fail_persistent;
static atomic_bool fail_tripped;
static atomic_size_t byte_budget;      /* 0: no budget */
static atomic_size_t bytes_asked;
static atomic_size_t failures;         /* allocations that returned NULL */
/* jansson 2.14's lexer does not check that growing its token buffer
 * worked (akheron/jansson#362: it asserts, or reads past the buffer), so
 * no test makes an allocation fail while it parses; what follows the
 * parse still meets every failure.  Never set outside tests' reach:
 * nothing fails unless a test armed the hook. */
static _Thread_local int sparing;

/* `p`, counted as a failure when NULL */
static void *
counted(void *p)
{
    if (p == NULL)
        atomic_fetch_add_explicit(&failures, 1, memory_order_relaxed);
    return p;
}

void
tokio__alloc_spare(int on)
{
    sparing = on;
}

size_t
tokio__alloc_failures(void)
{
    return atomic_load_explicit(&failures, memory_order_relaxed);
}

/* Whether the allocation of `size` bytes about to be made must fail. */
static int
should_fail(size_t size)
{
    size_t n = atomic_load_explicit(&fail_countdown, memory_order_relaxed);
    size_t budget = atomic_load_explicit(&byte_budget, memory_order_relaxed);

    if (sparing)
        return 0;
    if (budget != 0) {
        size_t asked = atomic_fetch_add(&bytes_asked, size) + size;

        if (asked > budget || asked < size)
            return 1;
    }
    if (n == 0)
        return 0;
    if (atomic_load(&fail_tripped))
        return atomic_load(&fail_persistent);
    if (atomic_fetch_sub(&fail_countdown, 1) == 1) {
        atomic_store(&fail_tripped, 1);
        /* keep the countdown non-zero so later calls reach the check above */
        atomic_store(&fail_countdown, 1);
        return 1;
    }
    return 0;
}

void *
tokio__malloc(size_t size)
{
    return counted(should_fail(size) ? NULL : malloc(size ? size : 1));
}

void *
tokio__calloc(size_t count, size_t size)
{
    if (should_fail(size != 0 && count > SIZE_MAX / size ? SIZE_MAX
                                                         : count * size))
        return counted(NULL);
    return counted(calloc(count ? count : 1, size ? size : 1));
}

void *
tokio__realloc(void *ptr, size_t size)
{
    return counted(should_fail(size) ? NULL : realloc(ptr, size ? size : 1));
}

void *
tokio__reallocarray(void *ptr, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    return tokio__realloc(ptr, count * size);
}

char *
tokio__strndup(const char *s, size_t n)
{
    char *copy = tokio__malloc(n + 1);

    if (copy == NULL)
        return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

char *
tokio__strdup(const char *s)
{
    return tokio__strndup(s, strlen(s));
}

void *
tokio__zlib_alloc(void *opaque, unsigned items, unsigned size)
{
    (void)opaque;
    return tokio__reallocarray(NULL, items, size);
}

void
tokio__zlib_free(void *opaque, void *ptr)
{
    (void)opaque;
    free(ptr);
}

void *
tokio__bz2_alloc(void *opaque, int items, int size)
{
    (void)opaque;
    if (items < 0 || size < 0)
        return NULL;
    return tokio__reallocarray(NULL, (size_t)items, (size_t)size);
}

void
tokio__bz2_free(void *opaque, void *ptr)
{
    (void)opaque;
    free(ptr);
}

/* jansson's allocations count toward the same failure countdown */
static void *
json_malloc_hook(size_t size)
{
    return tokio__malloc(size);
}

static void
arm(size_t n, int persistent)
{
    json_set_alloc_funcs(json_malloc_hook, free);
    atomic_store(&fail_tripped, 0);
    atomic_store(&fail_persistent, persistent);
    atomic_store(&fail_countdown, n);
    atomic_store(&byte_budget, 0);
}

void
tokio_test_fail_alloc_at(size_t n)
{
    arm(n, 0);
}

void
tokio_test_fail_alloc_persistent(size_t n)
{
    arm(n, 1);
}

void
tokio_test_fail_alloc_bytes(size_t budget)
{
    arm(0, 0);
    atomic_store(&bytes_asked, 0);
    atomic_store(&byte_budget, budget);
}
