/*
 * src/cli/shard.c - parsing --shard K/N (shard.h).
 */
#include "cli/shard.h"

#include <errno.h>
#include <stdlib.h>

#include "cli/cli.h"

int
cli_shard(const char *cmd, const char *text, unsigned *k, unsigned *n)
{
    unsigned long kk, nn;
    char *end;

    *k = *n = 0;
    if (text == NULL)
        return 0;
    errno = 0;
    kk = text[0] >= '0' && text[0] <= '9' ? strtoul(text, &end, 10) : 0;
    if (kk == 0 || errno != 0 || *end != '/' || end[1] < '0' || end[1] > '9')
        goto bad;
    nn = strtoul(end + 1, &end, 10);
    if (errno != 0 || *end != '\0' || nn == 0 || nn > 65535 || kk > nn)
        goto bad;
    *k = (unsigned)kk;
    *n = (unsigned)nn;
    return 0;
bad:
    return cli_usage_error(cmd, "--shard '%s': must be K/N with 1 <= K <= "
                           "N <= 65535", text);
}
