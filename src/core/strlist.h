/*
 * src/core/strlist.h - a growable list of owned strings that ends sorted
 * and duplicate-free: what the file finders return (the reference returns
 * list(set(...)), whose order is arbitrary; ours is sorted).
 */
#ifndef TOKIO_CORE_STRLIST_H
#define TOKIO_CORE_STRLIST_H

#include <stddef.h>

struct tokio__strlist {
    char **v;
    size_t n, cap;
};

/* Append a copy of `s`; -1 when out of memory (the list stays valid). */
int tokio__strlist_add(struct tokio__strlist *l, const char *s);

/* Sort by bytes and drop duplicates, in place. */
void tokio__strlist_unique(struct tokio__strlist *l);

/* Free the strings and the array; the list is empty afterwards. */
void tokio__strlist_free(struct tokio__strlist *l);

#endif
