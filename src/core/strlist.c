/*
 * src/core/strlist.c - growable, sortable lists of owned strings.
 */
#include "core/strlist.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

static int
compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void
tokio__strlist_unique(struct tokio__strlist *l)
{
    size_t k = 0;

    if (l->n == 0)
        return;
    qsort(l->v, l->n, sizeof(*l->v), compare_strings);
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(l->v[i], l->v[k]) == 0)
            free(l->v[i]);
        else
            l->v[++k] = l->v[i];
    }
    l->n = k + 1;
}

/*
 * When the array is full it is first deduplicated, and only grown if that
 * freed less than half: a long walk that finds the same daily file at
 * every hourly step stays small.
 */
int
tokio__strlist_add(struct tokio__strlist *l, const char *s)
{
    if (l->n == l->cap) {
        tokio__strlist_unique(l);
        if (l->n >= l->cap / 2) {
            size_t cap = l->cap ? l->cap * 2 : 16;
            char **v = tokio__reallocarray(l->v, cap, sizeof(*v));
            if (v == NULL)
                return -1;
            l->v = v;
            l->cap = cap;
        }
    }
    if ((l->v[l->n] = tokio__strdup(s)) == NULL)
        return -1;
    l->n++;
    return 0;
}

void
tokio__strlist_free(struct tokio__strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
