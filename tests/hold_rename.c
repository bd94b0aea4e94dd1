/*
 * tests/hold_rename.c - put before the C library (LD_PRELOAD) in a tokio
 * command by tests/cli/test_writers.c: a rename() of a writer's
 * temporary (a name holding ".tokio-tmp-") first waits up to a minute
 * for a signal, so that the test's SIGINT, SIGTERM or SIGHUP reaches the
 * command while its temporary is there, written in full, however small
 * the output and fast the command.  Nothing else changes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

int rename(const char *from, const char *to);

int
rename(const char *from, const char *to)
{
    int (*real)(const char *, const char *);
    void *sym = dlsym(RTLD_NEXT, "rename");

    memcpy(&real, &sym, sizeof(real));
    if (strstr(from, ".tokio-tmp-") != NULL)
        for (int i = 0; i < 600; i++)
            usleep(100000);     /* a signal ends the command here */
    return real(from, to);
}
