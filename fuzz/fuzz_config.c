/*
 * fuzz/fuzz_config.c - the site configuration loader on arbitrary bytes,
 * once down each path: named .json (jansson when the text starts with '{',
 * else YAML) and named .yaml (libyaml always).  Seeds: fuzz/corpus/config/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tokio/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "fuzz.json", "fuzz.yaml" };
    static int env_set;

    if (!env_set) {
        /* give ${VAR} expansion something to substitute */
        setenv("TOKIO_FUZZ_VAR", "/expanded/value", 1);
        env_set = 1;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        struct tokio_config *cfg = NULL;

        if (tokio_config_open_mem(&cfg, (const char *)data, size,
                                  names[i]) >= 0) {
            /* walk what was built: every node must be reachable */
            const json_t *root = tokio_config_json(cfg);
            char *text = json_dumps(root, JSON_SORT_KEYS);
            free(text);
        }
        tokio_config_free(cfg);
    }
    return 0;
}
