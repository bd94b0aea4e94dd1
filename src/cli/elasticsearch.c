/*
 * src/cli/elasticsearch.c - the Elasticsearch server of a command's
 * options (see elasticsearch.h).
 */
#include "cli/elasticsearch.h"

#include "cli/cli.h"
#include "cli/interrupt.h"
#include "tokio/config.h"

int
cli_es_check(const char *cmd, const struct cli_es *es)
{
    if (es->port < 1 || es->port > 65535)
        return cli_usage_error(cmd, "--port must be a port number");
    if (es->timeout < 1 || es->timeout > 86400)
        return cli_usage_error(cmd, "--timeout must be 1 to 86400 seconds");
    return 0;
}

int
cli_es_open(struct tokio_es **out, const struct cli_es *es)
{
    struct tokio_es_options o = {
        .host = es->host, .port = (long)es->port, .index = es->index,
        .timeout = (long)es->timeout, .stop = &cli_interrupted,
    };
    struct tokio_config *cfg = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_config_open(&cfg, NULL)) < 0)
        return rc;
    /* the credentials are borrowed from cfg; the client keeps a copy */
    tokio_es_credentials(cfg, &o.user, &o.password);
    rc = tokio_es_open(out, &o);
    tokio_config_free(cfg);
    return rc;
}
