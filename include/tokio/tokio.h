/*
 * tokio/tokio.h - everything libtokio offers: every public header (the
 * build checks that none is missing).  Including only the ones a program
 * uses is as good.
 */
#ifndef TOKIO_TOKIO_H
#define TOKIO_TOKIO_H

#include "tokio/common.h"
#include "tokio/config.h"
#include "tokio/csv.h"
#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/util.h"

#include "tokio/connectors/cachingdb.h"
#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/craysdb.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/connectors/es.h"
#include "tokio/connectors/esnet_snmp.h"
#include "tokio/connectors/globuslogs.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/hpss.h"
#include "tokio/connectors/lfshealth.h"
#include "tokio/connectors/lmtdb.h"
#include "tokio/connectors/mmperfmon.h"
#include "tokio/connectors/nersc_globuslogs.h"
#include "tokio/connectors/nersc_isdct.h"
#include "tokio/connectors/nersc_jobsdb.h"
#include "tokio/connectors/nersc_lfsstate.h"
#include "tokio/connectors/slurm.h"

#include "tokio/tools/archive_collectdes.h"
#include "tokio/tools/archive_esnet_snmp.h"
#include "tokio/tools/archive_lmtdb.h"
#include "tokio/tools/archive_mmperfmon.h"
#include "tokio/tools/common.h"
#include "tokio/tools/darshan.h"
#include "tokio/tools/darshan_index.h"
#include "tokio/tools/darshan_indexer.h"
#include "tokio/tools/hdf5.h"
#include "tokio/tools/hdf5_summary.h"
#include "tokio/tools/jobinfo.h"
#include "tokio/tools/lfsstatus.h"
#include "tokio/tools/summarize_job.h"
#include "tokio/tools/topology.h"

#include "tokio/analysis/darshan_bad_ost.h"
#include "tokio/analysis/insights.h"
#include "tokio/analysis/report.h"
#include "tokio/analysis/stats.h"
#include "tokio/analysis/umami.h"

#endif
