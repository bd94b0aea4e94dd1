/*
 * src/cli/commands.h - one entry point per command file in src/cli/.
 * Each takes the command's own argv (argv[0] is the command name) and
 * returns the exit status.
 */
#ifndef TOKIO_CLI_COMMANDS_H
#define TOKIO_CLI_COMMANDS_H

int cmd_archive_collectdes(int argc, char **argv);
int cmd_archive_esnet_snmp(int argc, char **argv);
int cmd_archive_lmtdb(int argc, char **argv);
int cmd_archive_mmperfmon(int argc, char **argv);
int cmd_cache_collectdes(int argc, char **argv);
int cmd_cache_craysdb(int argc, char **argv);
int cmd_cache_darshan(int argc, char **argv);
int cmd_cache_esnet_snmp(int argc, char **argv);
int cmd_cache_globuslogs(int argc, char **argv);
int cmd_cache_hpss(int argc, char **argv);
int cmd_cache_isdct(int argc, char **argv);
int cmd_cache_lfsstatus(int argc, char **argv);
int cmd_cache_lmtdb(int argc, char **argv);
int cmd_cache_mmperfmon(int argc, char **argv);
int cmd_cache_nersc_globuslogs(int argc, char **argv);
int cmd_cache_nersc_jobsdb(int argc, char **argv);
int cmd_cache_slurm(int argc, char **argv);
int cmd_cache_topology(int argc, char **argv);
int cmd_compare_isdct(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_darshan_bad_ost(int argc, char **argv);
int cmd_darshan_dxt(int argc, char **argv);
int cmd_darshan_scoreboard(int argc, char **argv);
int cmd_export_tts(int argc, char **argv);
int cmd_find_darshanlogs(int argc, char **argv);
int cmd_index_darshanlogs(int argc, char **argv);
int cmd_insights(int argc, char **argv);
int cmd_merge_index(int argc, char **argv);
int cmd_merge_summaries(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_summarize_darshanlogs(int argc, char **argv);
int cmd_summarize_h5lmt(int argc, char **argv);
int cmd_summarize_job(int argc, char **argv);
int cmd_summarize_tts(int argc, char **argv);
int cmd_umami(int argc, char **argv);

#endif
