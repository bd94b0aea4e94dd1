/*
 * tokio/config.h - the site configuration (tokio.config in the reference).
 *
 * A site describes where its monitoring data lives in one file: mount
 * points to file system names, strftime path templates of daily files,
 * provider lists.  It is JSON (site.json) or YAML with ${VAR} expansion.
 */
#ifndef TOKIO_CONFIG_H
#define TOKIO_CONFIG_H

#include <jansson.h>

#include "tokio/common.h"

struct tokio_config;

/*
 * The configuration variables whose PYTOKIO_<NAME> environment variable
 * overrides the file (value JSON-decoded when it parses, else the string).
 */
#define TOKIO_CONFIG_OVERRIDES                                              \
    "HDF5_FILES", "ISDCT_FILES", "LFSSTATUS_FULLNESS_FILES",                \
    "LFSSTATUS_MAP_FILES", "DARSHAN_LOG_DIRS", "ESNET_SNMP_URI"

/**
 * Load the site configuration.
 *
 * `path` names the file; when NULL, $PYTOKIO_CONFIG, else $TOKIO_CONFIG,
 * else the installed default (TOKIO_DEFAULT_CONFIG).  A file named
 * explicitly or by the environment must exist; a missing installed
 * default gives an empty configuration, as in the reference.
 *
 * A file ending in .yaml or .yml, or whose first non-blank character is
 * not '{', is read as YAML; in unquoted YAML scalars $VAR and ${VAR} are
 * expanded from the environment.  Top-level keys are lower-cased; keys
 * starting with '_' are skipped (comments).  Then the PYTOKIO_* overrides
 * are applied.
 *
 * @param[out] out  the configuration; release with tokio_config_free().
 * @return TOKIO_OK; TOKIO_EIO (unreadable file, named); TOKIO_EFORMAT
 *         (malformed: message has file, line and column, or the top level
 *         is not a mapping); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_config_open(struct tokio_config **out, const char *path);

/** Parse configuration text; `name` is used in messages. */
TOKIO_API int tokio_config_open_mem(struct tokio_config **out,
                                    const char *text, size_t len,
                                    const char *name);

/** The value of `key` (lower-case), borrowed; NULL when absent. */
TOKIO_API const json_t *tokio_config_get(const struct tokio_config *cfg,
                                         const char *key);

/** The whole effective configuration, an object; borrowed. */
TOKIO_API const json_t *tokio_config_json(const struct tokio_config *cfg);

/** The file it was loaded from, or NULL (empty default, or from memory). */
TOKIO_API const char *tokio_config_path(const struct tokio_config *cfg);

/** Release; NULL is fine. */
TOKIO_API void tokio_config_free(struct tokio_config *cfg);

#endif
