/*
 * src/cli/shard.h - `--shard K/N` of the commands over many Darshan logs
 * (index-darshanlogs, summarize-darshanlogs): shard K of N, K from 1 to
 * N, takes the inputs whose name hashes into it
 * (tokio_darshan_in_shard()), so N Slurm array tasks or cron jobs share
 * the inputs without talking to each other.
 */
#ifndef TOKIO_CLI_SHARD_H
#define TOKIO_CLI_SHARD_H

/* The --shard value `text` (NULL: no sharding, *k = *n = 0) into *k and
 * *n; 0, or CLI_EXIT_USAGE after saying what is wrong ('0/0', '5/4'). */
int cli_shard(const char *cmd, const char *text, unsigned *k, unsigned *n);

/* Help text of the option, the same for every command. */
#define CLI_SHARD_HELP \
    "take only shard K of N of the logs (K from 1 to N, by a hash of the " \
    "log's name) and write a partial output to merge later"

#endif
