/*
 * tokio/tools/common.h - finding a site's time-indexed files
 * (tokio.tools.common in the reference).
 */
#ifndef TOKIO_TOOLS_COMMON_H
#define TOKIO_TOOLS_COMMON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

/**
 * The existing files named by a strftime `template` for every step from
 * `start` to `end` (local wall-clock stepping by `step_seconds`; every
 * calendar day from start's to end's inclusive is tried), as the
 * reference's enumerate_dated_files().
 *
 * `template` is a string, a list (each item a template), or an object:
 * with `lookup_key`, its value under that key (absent: nothing), without,
 * all of its values; resolved recursively.  With `match_first`, only the
 * first existing path among the templates counts for each step.  With
 * `use_glob`, each formatted path is a glob(3) pattern.
 *
 * @param[out] paths_out  sorted, duplicate-free; free each and the array
 *                        (tokio_free_strings()).  NULL when none.
 * @return TOKIO_OK (also when nothing exists), TOKIO_EINVAL (end before
 *         start, a template neither string, list nor object, step <= 0,
 *         more than 10 million steps), TOKIO_EIO (glob failed),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_enumerate_dated_files(char ***paths_out, size_t *n_out,
                                          int64_t start, int64_t end,
                                          const json_t *template_,
                                          const char *lookup_key,
                                          int match_first,
                                          int64_t step_seconds,
                                          int use_glob);

/** Free an array of `n` strings and the array; NULL is fine. */
TOKIO_API void tokio_free_strings(char **strings, size_t n);

#endif
