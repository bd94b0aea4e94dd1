/*
 * src/core/alloc.h - every allocation libtokio makes goes through these, so
 * tests can make the n-th one fail (SQLite's OOM loop) and check that each
 * caller fails cleanly with TOKIO_ENOMEM and leaks nothing.
 *
 * They are thin wrappers over the system allocator: memory they return is
 * released with plain free().  They do not set an error message; the caller
 * knows what it was allocating for and says so.
 */
#ifndef TOKIO_CORE_ALLOC_H
#define TOKIO_CORE_ALLOC_H

#include <stddef.h>

void *tokio__malloc(size_t size);
void *tokio__calloc(size_t count, size_t size);
void *tokio__realloc(void *ptr, size_t size);
/* realloc for count * size, failing (NULL) on overflow */
void *tokio__reallocarray(void *ptr, size_t count, size_t size);
/* While on, this thread's allocations never fail for a test: around
 * calls into jansson's parser, which mishandles a failed allocation. */
void tokio__alloc_spare(int on);
char *tokio__strdup(const char *s);
char *tokio__strndup(const char *s, size_t n);

/*
 * How many allocations through these have failed so far (it only grows):
 * for calls into libraries that do not report every failure (jansson's
 * lexer drops a byte it cannot append to a string and parses on).
 */
size_t tokio__alloc_failures(void);

/*
 * Allocation callbacks for zlib (alloc_func/free_func) and libbzip2
 * (bzalloc/bzfree), so their buffers count toward the same failure hook.
 */
void *tokio__zlib_alloc(void *opaque, unsigned items, unsigned size);
void tokio__zlib_free(void *opaque, void *ptr);
void *tokio__bz2_alloc(void *opaque, int items, int size);
void tokio__bz2_free(void *opaque, void *ptr);

/*
 * Tests only: make the n-th allocation from now fail (n = 1 is the next
 * one), and every later one too when `persistent`.  n = 0 turns failures
 * off.  Also routes jansson's allocations through the same counter.
 */
void tokio_test_fail_alloc_at(size_t n);
void tokio_test_fail_alloc_persistent(size_t n);

/*
 * Tests only: let allocations from now on ask for `budget` bytes in all
 * (reallocations count their new size again); every one after that
 * fails.  0, or arming one of the two above, removes the budget.
 */
void tokio_test_fail_alloc_bytes(size_t budget);

#endif
