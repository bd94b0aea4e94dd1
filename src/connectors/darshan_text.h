/*
 * src/connectors/darshan_text.h - what the reader (darshan.c,
 * darshan_modules.c) lends its views (darshan_derived.c, darshan_dxt.c,
 * darshan_json.c) besides the public API: the pieces of darshan-parser's
 * text every view repeats.  Views include this and the public header
 * only, so they depend on the reader and never the other way round.
 */
#ifndef TOKIO_CONNECTORS_DARSHAN_TEXT_H
#define TOKIO_CONNECTORS_DARSHAN_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/connectors/darshan.h"

/* The module's own description block of `darshan-parser --base`. */
void tokio__darshan_print_description(int mod, unsigned ver, FILE *fp);

/* The same without the column legend that follows it in --base (what
 * --total prints before its totals). */
void tokio__darshan_print_description_text(int mod, unsigned ver, FILE *fp);

/* ctime() of `t` in the local zone without its newline, in `buf`; NULL
 * where glibc's ctime() fails (darshan-parser then prints "(null)"). */
const char *tokio__darshan_ctime(int64_t t, char *buf, size_t size);

/* The preamble every darshan-parser mode prints (§10.2). */
void tokio__darshan_write_preamble(const struct tokio_darshan *log,
                                   FILE *fp);

/* A module's banner, and with a partial bit the --show-incomplete
 * warning.  Returns 0 when nothing follows (partial module without
 * data), else 1. */
int tokio__darshan_write_banner(const struct tokio_darshan *log, int mod,
                                FILE *fp);

/*
 * The counter lines of a record, as one visitor: every view that lists a
 * record's counters the way `darshan-parser --base` prints them (its text
 * here, the cache-darshan JSON in darshan_json.c) walks them with
 * tokio__darshan_visit_record(), so Lustre components with their pattern
 * and flag names, heatmap bins, MDHIM servers and the H5D/PNETCDF_VAR
 * file record ids are spelled, ordered and typed in one place (§10.4).
 */

/* A value as darshan-parser prints it: %lld, %llu, %f or %s. */
enum tokio__darshan_kind {
    TOKIO__DARSHAN_INT,
    TOKIO__DARSHAN_UINT,        /* record ids: POSIX_RENAMED_FROM, ... */
    TOKIO__DARSHAN_DOUBLE,
    TOKIO__DARSHAN_STRING       /* Lustre pattern, flags, pool name */
};

struct tokio__darshan_value {
    enum tokio__darshan_kind kind;
    union {
        int64_t i;
        uint64_t u;
        double d;
        const char *s;          /* valid during the callback only */
    } v;
};

/* Called once per line with the full counter name ("POSIX_OPENS",
 * "LUSTRE_COMP1_OST_ID_0"); a negative return stops the walk and is
 * returned by the visitor. */
typedef int (*tokio__darshan_counter_fn)(
    void *payload, const char *counter,
    const struct tokio__darshan_value *value);

/* Walk record `r` of module `mod` (decoded, id below
 * TOKIO_DARSHAN_KNOWN_MODULES) in darshan-parser's line order.  Returns
 * TOKIO_OK or the callback's first negative status. */
int tokio__darshan_visit_record(int mod, const struct tokio_darshan_record *r,
                                tokio__darshan_counter_fn fn, void *payload);

/* The name, mount point and fs type columns of a record's lines: the
 * name table's entry ("(null)" or "darshan-bgq-record" without one) and
 * its mount, except that DFS/DAOS put pool:container uuids and "N/A" in
 * the mount columns and DAOS names the object by its id.  The pointers
 * may point into *out itself: do not copy the struct. */
struct tokio__darshan_columns {
    const char *name, *mnt, *fs;
    char name_buf[48];          /* "<oid_hi>.<oid_lo>" */
    char mnt_buf[2 * 37];       /* "<pool uuid>:<container uuid>" */
};

void tokio__darshan_record_columns(const struct tokio_darshan *log, int mod,
                                   const struct tokio_darshan_record *r,
                                   struct tokio__darshan_columns *out);

/* All lines of one record in `darshan-parser --base`. */
void tokio__darshan_print_record(const struct tokio_darshan *log, int mod,
                                 const struct tokio_darshan_record *r,
                                 FILE *fp);

/* Mount point and fs type of record name `name` as darshan-util finds
 * them (first mount whose path is a byte prefix; "UNKNOWN" for both when
 * none matches or `name` is NULL).  Borrowed from the log. */
void tokio__darshan_mount_of(const struct tokio_darshan *log,
                             const char *name, const char **mnt_out,
                             const char **fs_out);

/* `v` as printf's "%12.4f" at `o` (room for 40 bytes; not terminated):
 * the end of what was written (darshan_dxt.c). */
char *tokio__darshan_put_f4(char *o, double v);

#endif
