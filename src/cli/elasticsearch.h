/*
 * src/cli/elasticsearch.h - the Elasticsearch server of the commands that
 * query one (cache-collectdes, cache-nersc-globuslogs,
 * archive-collectdes): its options, their checks, and the client they
 * name, spelled once.
 */
#ifndef TOKIO_CLI_ELASTICSEARCH_H
#define TOKIO_CLI_ELASTICSEARCH_H

#include "tokio/connectors/es.h"

/* -h/--host, -p/--port, -i/--index and --timeout. */
struct cli_es {
    const char *host;
    long long port;
    const char *index;
    long long timeout;
};

/* The reference's defaults, with the command's index. */
#define CLI_ES_DEFAULTS(default_index) \
    { "localhost", TOKIO_ES_DEFAULT_PORT, (default_index), \
      TOKIO_ES_DEFAULT_TIMEOUT }

/* The option table entries -h, -p and -i (`default_index`, a string
 * literal, for --help), and --timeout, which some commands list apart. */
#define OPT_ES_SERVER(es, default_index) \
    OPT_STRING('h', "host", &(es)->host, "<host>", \
               "hostname of ElasticSearch endpoint (default: " \
               "localhost; https://<host> for TLS)"), \
    OPT_INT('p', "port", &(es)->port, "<port>", \
            "port of ElasticSearch endpoint (default: 9200)"), \
    OPT_STRING('i', "index", &(es)->index, "<index>", \
               "ElasticSearch index to query (default: " default_index ")")
#define OPT_ES_TIMEOUT(es) \
    OPT_INT(0, "timeout", &(es)->timeout, "<s>", \
            "ElasticSearch timeout time (default: 30)")

/* A usage error (CLI_EXIT_USAGE, said) for a port or timeout out of
 * range; else 0. */
int cli_es_check(const char *cmd, const struct cli_es *es);

/*
 * A client of the server `es` names, with the basic auth of the site
 * configuration (tokio_es_credentials()), stopped by cli_interrupted.
 * Returns what tokio_config_open() or tokio_es_open() does: < 0 with the
 * library's message set (report it with cli_fail(cmd, NULL)).
 */
int cli_es_open(struct tokio_es **out, const struct cli_es *es);

#endif
