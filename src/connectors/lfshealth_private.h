/*
 * src/connectors/lfshealth_private.h - building lfshealth snapshots line by
 * line, for nersc_lfsstate.c, whose cron files are many `lfs df` or
 * `lctl dl -t` snapshots behind `BEGIN <epoch>` lines.  The reference's
 * nersc_lfsstate builds on lfshealth the same way.
 */
#ifndef TOKIO_CONNECTORS_LFSHEALTH_PRIVATE_H
#define TOKIO_CONNECTORS_LFSHEALTH_PRIVATE_H

#include <stddef.h>

#include "tokio/connectors/lfshealth.h"

/* An empty snapshot to feed lines to; NULL when out of memory. */
struct tokio_lfs_df *tokio__lfs_df_new(void);
struct tokio_lfs_dl *tokio__lfs_dl_new(void);

/*
 * Parse one line (`len` bytes, no newline) of input `name` at `lineno`:
 * 1 when it was a target line and was added, 0 when the reference skips
 * it, or a negative status (TOKIO_EFORMAT naming file and line,
 * TOKIO_ENOMEM).  Accessors are valid only after _finish().
 */
int tokio__lfs_df_add_line(struct tokio_lfs_df *df, const char *line,
                           size_t len, const char *name, size_t lineno);
int tokio__lfs_dl_add_line(struct tokio_lfs_dl *dl, const char *line,
                           size_t len, const char *name, size_t lineno);

/* Size an empty snapshot's first allocations as those `like` (finished)
 * ended with: what a history's next snapshot will most likely need. */
void tokio__lfs_df_size_like(struct tokio_lfs_df *df,
                             const struct tokio_lfs_df *like);
void tokio__lfs_dl_size_like(struct tokio_lfs_dl *dl,
                             const struct tokio_lfs_dl *like);

/* Order the targets and publish them to the accessors. */
int tokio__lfs_df_finish(struct tokio_lfs_df *df);
int tokio__lfs_dl_finish(struct tokio_lfs_dl *dl);

#endif
