/*
 * src/tools/hdf5_summary.c - what `tokio summarize-tts` and `tokio
 * summarize-h5lmt` compute: byte totals, per-timestep and per-column sums
 * of a TOKIO Time Series or H5LMT file, and the same data cut into bins
 * with CPU loads and missing-data counts.  Mirrors the computations of the
 * reference's tokio.cli.summarize_tts and tokio.cli.summarize_h5lmt
 * (pytokio 0.13), which live in its command modules; here they are a
 * library so that the commands only parse options and print.
 *
 * The reference sums with numpy, whose float sums depend on the order of
 * the elements in memory: pairwise summation along a contiguous run,
 * plain accumulation across runs.  H5LMT datasets are stored column x
 * time and the reference sums their transposed view in that order, so
 * frames remember which way the reference's array was laid out (struct
 * frame) and every sum below walks it the way numpy did; the results are
 * then equal to the last bit, which the goldens' JSON needs.
 *
 * Test inputs: the .hdf5 and .h5lmt files of
 * ../shared/testdata/pytokio-inputs/ and
 * goldens golden/pytokio/summarize_tts/, summarize_h5lmt/.
 */
#include "tokio/tools/hdf5_summary.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokio/timeseries.h"
#include "core/alloc.h"
#include "core/error.h"

/* numpy's pairwise summation: below 8 elements a plain loop, up to
 * PW_BLOCKSIZE eight interleaved accumulators, above that halves cut on
 * a multiple of 8 (numpy/core/src/umath/loops_utils.h.src). */
#define PW_BLOCKSIZE 128

/* numpy's reductions hand the inner loop at most its buffer size (8192
 * elements) at a time, so a long run is summed as consecutive pairwise
 * blocks of that size (numpy's NPY_BUFSIZE). */
#define NPY_BUFSIZE 8192

/*
 * A dataset as the reference's numpy array saw it: cell (r, c) is
 * base[r * rs + c * cs].  TTS datasets are row-major (rs = cols, cs = 1);
 * H5LMT ones are the transpose of a row-major column x time array
 * (rs = 1, cs = rows).
 */
struct frame {
    struct tokio_timeseries *ts;
    double *colmajor;           /* owned copy for H5LMT, else NULL */
    const double *base;
    size_t rows, cols, rs, cs;
};

static void
frame_free(struct frame *f)
{
    tokio_timeseries_free(f->ts);
    free(f->colmajor);
    memset(f, 0, sizeof(*f));
}

/*
 * Every sum, average and extreme below is a finite number (JSON holds no
 * other) when every cell is and their magnitudes add up to well within
 * a double.  Differs from pytokio: a NaN or an infinity is refused
 * naming its cell, where the reference printed NaN (and JSON that is
 * not JSON).
 */
static int
check_finite(struct tokio_hdf5 *h, const char *name, const struct frame *f)
{
    double total = 0.0;

    for (size_t r = 0; r < f->rows; r++) {
        for (size_t c = 0; c < f->cols; c++) {
            const double x = f->base[r * f->rs + c * f->cs];

            if (!isfinite(x))
                return tokio__error(TOKIO_EFORMAT, "'%s': '%s' holds %s at "
                                    "row %zu, column %zu: not a number to "
                                    "add up", tokio_hdf5_path(h), name,
                                    isnan(x) ? "NaN" : "an infinity", r, c);
            total += fabs(x);
        }
    }
    if (!(total < DBL_MAX / 4))
        return tokio__error(TOKIO_EFORMAT, "'%s': '%s' holds values too "
                            "large to add up", tokio_hdf5_path(h), name);
    return TOKIO_OK;
}

static int
frame_load(struct tokio_hdf5 *h, const char *name, struct frame *f)
{
    int rc;

    memset(f, 0, sizeof(*f));
    if ((rc = tokio_hdf5_to_timeseries(h, name, &f->ts)) < 0)
        return rc;
    f->rows = tokio_timeseries_rows(f->ts);
    f->cols = tokio_timeseries_cols(f->ts);
    f->base = tokio_timeseries_cdata(f->ts);
    f->rs = f->cols;
    f->cs = 1;
    if ((rc = check_finite(h, name, f)) < 0) {
        frame_free(f);
        return rc;
    }
    /* a file without a schema version is H5LMT, whose provider transposes
     * a column x time array: keep that memory order */
    if (tokio_hdf5_schema_version(h) == NULL && f->cols > 1) {
        const double *src = f->base;

        if ((f->colmajor = tokio__malloc(f->rows * f->cols
                                         * sizeof(double) + 1)) == NULL) {
            frame_free(f);
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' "
                                "from '%s'", name, tokio_hdf5_path(h));
        }
        for (size_t r = 0; r < f->rows; r++)
            for (size_t c = 0; c < f->cols; c++)
                f->colmajor[c * f->rows + r] = src[r * f->cols + c];
        f->base = f->colmajor;
        f->rs = 1;
        f->cs = f->rows;
    }
    return TOKIO_OK;
}

static double
pairwise(const double *a, size_t n, size_t stride)
{
    if (n < 8) {
        double res = 0.0;

        for (size_t i = 0; i < n; i++)
            res += a[i * stride];
        return res;
    }
    if (n <= PW_BLOCKSIZE) {
        double r[8], res;
        size_t i;

        for (int j = 0; j < 8; j++)
            r[j] = a[(size_t)j * stride];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += a[(i + (size_t)j) * stride];
        res = ((r[0] + r[1]) + (r[2] + r[3])) +
              ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += a[i * stride];
        return res;
    }
    size_t n2 = n / 2;

    n2 -= n2 % 8;
    return pairwise(a, n2, stride) +
           pairwise(a + n2 * stride, n - n2, stride);
}

/* One inner run of a numpy add-reduction, added to the accumulator. */
static double
run_sum(double acc, const double *a, size_t n, size_t stride)
{
    for (size_t done = 0; done < n; done += NPY_BUFSIZE) {
        size_t len = n - done < NPY_BUFSIZE ? n - done : NPY_BUFSIZE;

        acc += pairwise(a + done * stride, len, stride);
    }
    return acc;
}

/* Rows r0 .. r0 + n - 1 of a column-major frame, read column after
 * column: the order numpy copies a non-contiguous slice into its buffer. */
struct colrun {
    const struct frame *f;
    size_t r0, n;
};

static double
colrun_at(const struct colrun *cr, size_t k)
{
    return cr->f->base[(cr->r0 + k % cr->n) * cr->f->rs
                       + (k / cr->n) * cr->f->cs];
}

/* pairwise() over elements k0 .. k0 + n - 1 of a colrun */
static double
pairwise_colrun(const struct colrun *cr, size_t k0, size_t n)
{
    if (n < 8) {
        double res = 0.0;

        for (size_t i = 0; i < n; i++)
            res += colrun_at(cr, k0 + i);
        return res;
    }
    if (n <= PW_BLOCKSIZE) {
        double r[8], res;
        size_t i;

        for (int j = 0; j < 8; j++)
            r[j] = colrun_at(cr, k0 + (size_t)j);
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += colrun_at(cr, k0 + i + (size_t)j);
        res = ((r[0] + r[1]) + (r[2] + r[3])) +
              ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += colrun_at(cr, k0 + i);
        return res;
    }
    size_t n2 = n / 2;

    n2 -= n2 % 8;
    return pairwise_colrun(cr, k0, n2) +
           pairwise_colrun(cr, k0 + n2, n - n2);
}

/* numpy's x[r0:r1, :].sum(): one run in memory order when the rows are
 * contiguous; else numpy copies the slice, column after column, into
 * its buffer and sums that (checked against the H5LMT goldens). */
static double
block_sum(const struct frame *f, size_t r0, size_t r1)
{
    const size_t n = r1 - r0;
    const struct colrun cr = { f, r0, n };
    double acc = 0.0;

    if (f->cs == 1 || n == f->rows || f->cols == 1)
        return run_sum(acc, f->base + r0 * f->rs, n * f->cols, 1);
    for (size_t done = 0; done < n * f->cols; done += NPY_BUFSIZE) {
        const size_t left = n * f->cols - done;

        acc += pairwise_colrun(&cr, done, left < NPY_BUFSIZE ? left
                                                            : NPY_BUFSIZE);
    }
    return acc;
}

/* numpy's x.sum(axis=1)[r]: pairwise along a contiguous row, else the
 * columns accumulated one by one into the row's total. */
static double
row_sum(const struct frame *f, size_t r)
{
    double acc = 0.0;

    if (f->cs == 1)
        return run_sum(acc, f->base + r * f->rs, f->cols, 1);
    for (size_t c = 0; c < f->cols; c++)
        acc += f->base[r * f->rs + c * f->cs];
    return acc;
}

/* numpy's x[:, c].sum() */
static double
col_sum(const struct frame *f, size_t c)
{
    return run_sum(0.0, f->base + c * f->cs, f->rows, f->rs);
}

/* numpy's x[r0:r1, :].max() / .min(): NaN wins; -0.0 counts as below
 * 0.0.  NEEDSWORK: numpy 1.24's vectorized min/max pick between -0.0 and
 * 0.0 by lane order, so a few sample_tokiots.hdf5 bins holding both get
 * the other sign than the goldens (equal by value). */
static void
block_extrema(const struct frame *f, size_t r0, size_t r1, double *max_out,
              double *min_out)
{
    const int by_row = f->cs == 1;
    const size_t outer = by_row ? r1 - r0 : f->cols;
    const size_t inner = by_row ? f->cols : r1 - r0;
    int first = 1;
    double mx = 0.0, mn = 0.0;

    for (size_t o = 0; o < outer; o++) {
        for (size_t i = 0; i < inner; i++) {
            const double x = by_row
                ? f->base[(r0 + o) * f->rs + i * f->cs]
                : f->base[(r0 + i) * f->rs + o * f->cs];
            if (first) {
                mx = mn = x;
                first = 0;
                continue;
            }
            if (!isnan(mx) && (x > mx || isnan(x) ||
                               (x == mx && signbit(mx) && !signbit(x))))
                mx = x;
            if (!isnan(mn) && (x < mn || isnan(x) ||
                               (x == mn && !signbit(mn) && signbit(x))))
                mn = x;
        }
    }
    *max_out = mx;
    *min_out = mn;
}

/* ------------------------------------------------------------------ */
/* summarize_tts                                                       */

static const char READ_NAME[] = "datatargets/readbytes";
static const char WRITE_NAME[] = "datatargets/writebytes";

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory summarizing");
}

/* Set out[key][field] = value, creating out[key] in insertion order. */
static int
set_nested(json_t *out, const char *key, const char *field, double value)
{
    json_t *inner = json_object_get(out, key);

    if (inner == NULL) {
        if ((inner = json_object()) == NULL ||
            json_object_set_new(out, key, inner) < 0)
            return oom();
    }
    if (json_object_set_new(inner, field, json_real(value)) < 0)
        return oom();
    return TOKIO_OK;
}

static int
tts_total(const struct frame *rd, const struct frame *wr, json_t **out)
{
    int64_t missing = 0, first = -1, last = -1;
    const int64_t total = (int64_t)(rd->rows * rd->cols);

    /* the reference counts -0.0 cells (never written) of readbytes only:
     * read and write rates arrive in the same message */
    for (size_t r = 0; r < rd->rows; r++) {
        size_t present = 0;

        for (size_t c = 0; c < rd->cols; c++) {
            if (tokio_timeseries_is_missing(rd->base[r * rd->rs
                                                     + c * rd->cs]))
                missing++;
            else
                present++;
        }
        if (present > 0) {
            if (first < 0)
                first = (int64_t)r;
            last = (int64_t)r;
        }
    }
    /* Differs from pytokio: an empty dataset gives 0% missing instead of
     * a ZeroDivisionError */
    const double pct = total ? 100.0 * (double)missing / (double)total : 0.0;

    *out = json_pack("{s:f, s:f, s:I, s:I, s:f, s:I, s:I}",
                     "read_bytes", block_sum(rd, 0, rd->rows),
                     "write_bytes", block_sum(wr, 0, wr->rows),
                     "missing_pts", (json_int_t)missing,
                     "total_pts", (json_int_t)total,
                     "missing_pct", pct,
                     "first_nonzero_idx", (json_int_t)first,
                     "last_nonzero_idx", (json_int_t)last);
    return *out ? TOKIO_OK : oom();
}

static int
tts_timesteps(const struct frame *rd, const struct frame *wr, json_t **out)
{
    /* writebytes first: the reference's dict order, which its text
     * form prints */
    const struct frame *frames[2] = { wr, rd };
    const char *fields[2] = { "write_bytes", "read_bytes" };
    int rc = TOKIO_OK;

    if ((*out = json_object()) == NULL)
        return oom();
    for (int k = 0; k < 2 && rc >= 0; k++) {
        const int64_t *ts = tokio_timeseries_timestamps(frames[k]->ts);

        for (size_t r = 0; r < frames[k]->rows && rc >= 0; r++) {
            char key[32];

            snprintf(key, sizeof(key), "%" PRId64, ts[r]);
            rc = set_nested(*out, key, fields[k], row_sum(frames[k], r));
        }
    }
    if (rc < 0) {
        json_decref(*out);
        *out = NULL;
    }
    return rc;
}

static int
tts_columns(const struct frame *rd, const struct frame *wr, json_t **out)
{
    const struct frame *frames[2] = { rd, wr };
    const char *fields[2] = { "read_bytes", "write_bytes" };
    int rc = TOKIO_OK;

    if ((*out = json_object()) == NULL)
        return oom();
    for (int k = 0; k < 2 && rc >= 0; k++) {
        const size_t n = tokio_timeseries_n_names(frames[k]->ts);

        for (size_t c = 0; c < n && rc >= 0; c++)
            rc = set_nested(*out, tokio_timeseries_column(frames[k]->ts, c),
                            fields[k], col_sum(frames[k], c));
    }
    if (rc < 0) {
        json_decref(*out);
        *out = NULL;
    }
    return rc;
}

int
tokio_hdf5_summary_tts(struct tokio_hdf5 *h, unsigned flags, json_t **out)
{
    struct frame rd, wr;
    json_t *result = NULL, *part = NULL;
    int rc;

    *out = NULL;
    memset(&wr, 0, sizeof(wr));
    if ((rc = frame_load(h, READ_NAME, &rd)) < 0)
        return rc;
    if ((rc = frame_load(h, WRITE_NAME, &wr)) < 0)
        goto done;
    if ((result = json_object()) == NULL) {
        rc = oom();
        goto done;
    }
    if ((rc = tts_total(&rd, &wr, &part)) < 0 ||
        (rc = json_object_set_new(result, "total", part) < 0 ? oom() : 0))
        goto done;
    if ((flags & TOKIO_HDF5_SUMMARY_TIMESTEPS) &&
        ((rc = tts_timesteps(&rd, &wr, &part)) < 0 ||
         (rc = json_object_set_new(result, "timesteps", part) < 0 ? oom()
                                                                  : 0)))
        goto done;
    if ((flags & TOKIO_HDF5_SUMMARY_COLUMNS) &&
        ((rc = tts_columns(&rd, &wr, &part)) < 0 ||
         (rc = json_object_set_new(result, "columns", part) < 0 ? oom()
                                                                : 0)))
        goto done;
    *out = result;
    result = NULL;
done:
    json_decref(result);
    frame_free(&rd);
    frame_free(&wr);
    return rc;
}

/* The reference's humanize_units(): base-2 units up to TiB. */
static double
humanize(double bytes, const char **unit)
{
    static const char *const units[] = {
        "bytes", "KiB", "MiB", "GiB", "TiB"
    };
    size_t i = 0;

    while (i < sizeof(units) / sizeof(units[0]) - 1) {
        const double next = bytes / 1024.0;

        if (next < 1.0)
            break;
        i++;
        bytes = next;
    }
    *unit = units[i];
    return bytes;
}

static double
num(const json_t *obj, const char *key)
{
    return json_number_value(json_object_get(obj, key));
}

static long long
integer(const json_t *obj, const char *key)
{
    return (long long)json_integer_value(json_object_get(obj, key));
}

/* "%12s %14.2f read, %14.2f written" per timestep or column */
static void
print_pairs(FILE *fp, const json_t *pairs, int is_time)
{
    const char *key;
    const json_t *v;

    json_object_foreach((json_t *)pairs, key, v) {
        const char *shown = key;    /* `key` itself drives the loop */
        char label[64];

        if (is_time) {
            /* the reference: str(datetime.fromtimestamp(t)), local time */
            const time_t t = (time_t)strtoll(key, NULL, 10);
            struct tm tm;

            if (localtime_r(&t, &tm) == NULL ||
                strftime(label, sizeof(label), "%Y-%m-%d %H:%M:%S",
                         &tm) == 0)
                snprintf(label, sizeof(label), "%s", key);
            shown = label;
        }
        fprintf(fp, "%12s %14.2f read, %14.2f written\n", shown,
                num(v, "read_bytes"), num(v, "write_bytes"));
    }
}

int
tokio_hdf5_summary_tts_print(FILE *fp, const json_t *summary)
{
    const json_t *t = json_object_get(summary, "total");
    const json_t *part;
    const char *unit;
    double x;

    if (!json_is_object(t))
        return tokio__error(TOKIO_EINVAL, "not a summary of a TTS file");
    x = humanize(num(t, "read_bytes"), &unit);
    fprintf(fp, "Data Read:            %5.1f %s\n", x, unit);
    x = humanize(num(t, "write_bytes"), &unit);
    fprintf(fp, "Data Written:         %5.1f %s\n", x, unit);
    fprintf(fp, "Missing data points:  %9lld\n", integer(t, "missing_pts"));
    fprintf(fp, "Expected data points: %9lld\n", integer(t, "total_pts"));
    fprintf(fp, "Percent data missing: %8.1f%%\n", num(t, "missing_pct"));
    fprintf(fp, "First non-empty row:  %9lld\n",
            integer(t, "first_nonzero_idx"));
    fprintf(fp, "Last non-empty row:   %9lld\n",
            integer(t, "last_nonzero_idx"));
    if ((part = json_object_get(summary, "timesteps")) != NULL)
        print_pairs(fp, part, 1);
    if ((part = json_object_get(summary, "columns")) != NULL)
        print_pairs(fp, part, 0);
    return tokio__write_check(fp, "cannot write the summary");
}

/* ------------------------------------------------------------------ */
/* summarize_h5lmt                                                     */

/* The reference's DATASETS_TO_BIN_KEYS, in its order: a key found in
 * several datasets keeps the first one's value. */
static const struct {
    const char *dataset;
    const char *key;
} BIN_DATASETS[] = {
    { "datatargets/readbytes", "ost_read" },
    { "datatargets/writebytes", "ost_write" },
    { "dataservers/cpuload", "oss_cpu" },
    { "mdservers/cpuload", "mds_cpu" },
};

static const char *const AGGREGATES[] = { "max", "min", "ave", "sum" };
static const char *const UNIT_SUFFIX[] = {
    "bytes", "kibs", "mibs", "gibs", "tibs"
};

/* The bin's timestamps as the reference's datetime.fromtimestamp() and
 * back through time.mktime(): the same epoch except in a DST fold. */
static int64_t
local_roundtrip(int64_t epoch)
{
    const time_t t = (time_t)epoch;
    struct tm tm;

    if (localtime_r(&t, &tm) == NULL)
        return epoch;
    tm.tm_isdst = -1;
    const time_t back = mktime(&tm);
    return back == (time_t)-1 ? epoch : (int64_t)back;
}

static int
set_real(json_t *obj, const char *key, double value)
{
    return json_object_set_new(obj, key, json_real(value)) < 0 ? oom() : 0;
}

static int
set_int(json_t *obj, const char *key, int64_t value)
{
    return json_object_set_new(obj, key, json_integer((json_int_t)value)) < 0
           ? oom() : 0;
}

static int
add_warning(json_t *warnings, size_t num_bins, size_t steps)
{
    char msg[128];
    size_t i;
    json_t *w;

    if (warnings == NULL)
        return TOKIO_OK;
    snprintf(msg, sizeof(msg), "Bin count %zu does not evenly divide into "
             "FSStepsDataSet size %zu", num_bins, steps);
    json_array_foreach(warnings, i, w)
        if (strcmp(json_string_value(w), msg) == 0)
            return TOKIO_OK;        /* Python shows a warning once */
    return json_array_append_new(warnings, json_string(msg)) < 0 ? oom() : 0;
}

/* The aggregates of one bin of one dataset (the reference's
 * bin_dataset()), added to `bin`. */
static int
fill_bin(json_t *bin, const struct frame *f, const int8_t *missing,
         const char *key, size_t i0, size_t i1)
{
    char name[64];
    double mx, mn, sum, ave;
    int64_t n_missing = 0;
    /* the reference divides by the number of column names; a dataset
     * without names counts its width instead of dividing by zero */
    const size_t names = tokio_timeseries_n_names(f->ts);
    const size_t width = names ? names : f->cols;
    const int64_t n_total = (int64_t)((i1 - i0) * width);
    int rc;

    block_extrema(f, i0, i1, &mx, &mn);
    sum = block_sum(f, i0, i1);
    ave = sum / (double)(i1 - i0);
    ave /= (double)width;
    for (size_t i = i0 * f->cols; i < i1 * f->cols; i++)
        n_missing += missing[i];

    const double values[4] = { mx, mn, ave, sum };

    for (int a = 0; a < 4; a++) {
        snprintf(name, sizeof(name), "%s_%s", AGGREGATES[a], key);
        if ((rc = set_real(bin, name, values[a])) < 0)
            return rc;
    }
    snprintf(name, sizeof(name), "missing_%s", key);
    if ((rc = set_int(bin, name, n_missing)) < 0)
        return rc;
    snprintf(name, sizeof(name), "num_%s", key);
    if ((rc = set_int(bin, name, n_total)) < 0)
        return rc;
    snprintf(name, sizeof(name), "frac_missing_%s", key);
    if ((rc = set_real(bin, name, n_total ? (double)n_missing
                                            / (double)n_total : 1.0)) < 0)
        return rc;
    if (strncmp(key, "ost_", 4) != 0)
        return TOKIO_OK;
    for (int a = 0; a < 4; a++) {
        double x = values[a];

        for (int u = 0; u < 5; u++) {
            snprintf(name, sizeof(name), "%s_%s_%s", AGGREGATES[a], key,
                     UNIT_SUFFIX[u]);
            if ((rc = set_real(bin, name, x)) < 0)
                return rc;
            x /= 1024.0;
        }
    }
    return TOKIO_OK;
}

/* Bins of one dataset merged into `bins`; `first` says whether an
 * earlier dataset already set the bins' rows and times. */
static int
bin_one(struct tokio_hdf5 *h, const char *dataset, const char *key,
        size_t num_bins, json_t *bins, json_t *warnings, int *first)
{
    struct frame f;
    int8_t *missing = NULL;
    size_t steps, mrows, mcols;
    int rc;

    if ((rc = frame_load(h, dataset, &f)) < 0)
        return rc == TOKIO_ENOTFOUND ? TOKIO_OK : rc; /* h5py's get() */

    const int64_t *ts = tokio_timeseries_timestamps(f.ts);

    /* an H5LMT file has one more timestep than intervals */
    steps = f.rows;
    if (tokio_hdf5_schema_version(h) == NULL && steps > 0)
        steps--;
    if (f.cols == 0) {
        /* Differs from pytokio: numpy raised on the empty maximum */
        rc = tokio__error(TOKIO_EFORMAT, "'%s': '%s' has no columns to "
                          "summarize", tokio_hdf5_path(h), dataset);
        goto done;
    }
    if (num_bins > steps) {
        /* Differs from pytokio: it crashed on empty bins */
        rc = tokio__error(TOKIO_EINVAL, "'%s': %zu bins are more than the "
                          "%zu timesteps of '%s'", tokio_hdf5_path(h),
                          num_bins, steps, dataset);
        goto done;
    }
    if (steps % num_bins != 0 && (rc = add_warning(warnings, num_bins,
                                                   steps)) < 0)
        goto done;
    if (tokio_hdf5_schema_version(h) != NULL) {
        /* a TTS file marks missing cells with -0.0 */
        if ((missing = tokio__malloc(f.rows * f.cols + 1)) == NULL) {
            rc = oom();
            goto done;
        }
        for (size_t r = 0; r < f.rows; r++)
            for (size_t c = 0; c < f.cols; c++)
                missing[r * f.cols + c] = (int8_t)tokio_timeseries_is_missing(
                    f.base[r * f.rs + c * f.cs]);
    } else if ((rc = tokio_hdf5_get_missing(h, dataset, 0, &missing, &mrows,
                                            &mcols)) < 0) {
        goto done;
    } else if (mrows != f.rows || mcols != f.cols) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': the missing mask of '%s' "
                          "is %zu x %zu, its data %zu x %zu",
                          tokio_hdf5_path(h), dataset, mrows, mcols, f.rows,
                          f.cols);
        goto done;
    }

    const size_t dt = steps / num_bins;

    for (size_t b = 0; b < num_bins; b++) {
        const size_t i0 = b * dt, i1 = (b + 1) * dt;
        const int64_t tstart = local_roundtrip(ts[i0]);
        const int64_t tend = local_roundtrip(ts[i1 - 1]);
        char idx[32];
        json_t *bin;

        snprintf(idx, sizeof(idx), "%" PRId64, tstart);
        bin = json_object_get(bins, idx);
        if (!*first) {
            /* the reference: "Not all timesteps are the same in HDF5" */
            if (bin == NULL || integer(bin, "index0") != (long long)i0 ||
                integer(bin, "indexf") != (long long)i1 ||
                integer(bin, "tend") != (long long)tend) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s': the timesteps of "
                                  "'%s' differ from those of '%s'",
                                  tokio_hdf5_path(h), dataset,
                                  BIN_DATASETS[0].dataset);
                goto done;
            }
        } else {
            if ((bin = json_object()) == NULL ||
                json_object_set_new(bins, idx, bin) < 0) {
                rc = oom();
                goto done;
            }
            if ((rc = set_int(bin, "index0", (int64_t)i0)) < 0 ||
                (rc = set_int(bin, "indexf", (int64_t)i1)) < 0 ||
                (rc = set_int(bin, "tstart", tstart)) < 0 ||
                (rc = set_int(bin, "tend", tend)) < 0)
                goto done;
        }
        if ((rc = fill_bin(bin, &f, missing, key, i0, i1)) < 0)
            goto done;
    }
    *first = 0;
done:
    free(missing);
    frame_free(&f);
    return rc;
}

int
tokio_hdf5_summary_bins(struct tokio_hdf5 *h, size_t num_bins, json_t **out,
                        json_t **warnings_out)
{
    json_t *bins = json_object();
    json_t *warnings = warnings_out ? json_array() : NULL;
    int first = 1, rc = TOKIO_OK;

    *out = NULL;
    if (warnings_out)
        *warnings_out = NULL;
    if (bins == NULL || (warnings_out && warnings == NULL)) {
        rc = oom();
    } else if (num_bins == 0) {
        rc = tokio__error(TOKIO_EINVAL, "the bin count must be at least 1");
    } else {
        for (size_t i = 0; i < sizeof(BIN_DATASETS) / sizeof(BIN_DATASETS[0])
                           && rc >= 0; i++)
            rc = bin_one(h, BIN_DATASETS[i].dataset, BIN_DATASETS[i].key,
                         num_bins, bins, warnings, &first);
        if (rc >= 0 && first)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' holds none of "
                              "datatargets/readbytes, datatargets/writebytes,"
                              " dataservers/cpuload, mdservers/cpuload",
                              tokio_hdf5_path(h));
    }
    if (rc < 0) {
        json_decref(bins);
        json_decref(warnings);
        return rc;
    }
    *out = bins;
    if (warnings_out)
        *warnings_out = warnings;
    return TOKIO_OK;
}

/* Bin keys in time order: numeric, as the reference sorted int keys. */
static int
cmp_epoch(const void *a, const void *b)
{
    const long long x = strtoll(*(const char *const *)a, NULL, 10);
    const long long y = strtoll(*(const char *const *)b, NULL, 10);

    return (x > y) - (x < y);
}

static int
sorted_keys(const json_t *bins, const char ***out, size_t *n_out)
{
    const char *key;
    const json_t *v;
    size_t n = 0;

    *n_out = json_object_size(bins);
    if ((*out = tokio__calloc(*n_out + 1, sizeof(**out))) == NULL)
        return oom();
    json_object_foreach((json_t *)bins, key, v)
        (*out)[n++] = key;
    qsort(*out, n, sizeof(**out), cmp_epoch);
    return TOKIO_OK;
}

static int
has(const json_t *obj, const char *key)
{
    return json_object_get(obj, key) != NULL;
}

int
tokio_hdf5_summary_reduce(const json_t *bins, json_t **out)
{
    static const char *const bases[] = {
        "ost_read", "ost_write", "oss_cpu", "mds_cpu"
    };
    const char **keys = NULL;
    size_t n_keys;
    int64_t n = 0, missing[4] = { 0 }, total[4] = { 0 };
    double sum_read = 0.0, sum_write = 0.0;
    double oss_ave = -0.0, oss_max = -0.0, mds_ave = -0.0, mds_max = -0.0;
    char name[64];
    json_t *t = NULL;
    int rc;

    *out = NULL;
    if (!json_is_object(bins) || json_object_size(bins) == 0)
        return tokio__error(TOKIO_EINVAL, "no bins to summarize");
    if ((rc = sorted_keys(bins, &keys, &n_keys)) < 0)
        return rc;
    for (size_t i = 0; i < n_keys; i++) {
        const json_t *d = json_object_get(bins, keys[i]);
        const int64_t points = integer(d, "indexf") - integer(d, "index0");

        if (!has(d, "sum_ost_read") || !has(d, "sum_ost_write")) {
            rc = tokio__error(TOKIO_EINVAL, "bin %s has no OST bytes "
                              "(no datatargets/readbytes or writebytes)",
                              keys[i]);
            free(keys);
            return rc;
        }
        sum_read += num(d, "sum_ost_read");
        sum_write += num(d, "sum_ost_write");
        n += points;
        if (has(d, "ave_oss_cpu"))
            oss_ave += num(d, "ave_oss_cpu") * (double)points;
        if (has(d, "ave_mds_cpu"))
            mds_ave += num(d, "ave_mds_cpu") * (double)points;
        if (has(d, "max_oss_cpu") && num(d, "max_oss_cpu") > oss_max)
            oss_max = num(d, "max_oss_cpu");
        if (has(d, "max_mds_cpu") && num(d, "max_mds_cpu") > mds_max)
            mds_max = num(d, "max_mds_cpu");
        for (int b = 0; b < 4; b++) {
            snprintf(name, sizeof(name), "missing_%s", bases[b]);
            missing[b] += integer(d, name);
            snprintf(name, sizeof(name), "num_%s", bases[b]);
            total[b] += integer(d, name);
        }
    }
    free(keys);

    const double dn = (double)n;
    double rd[5], wr[5];

    rd[0] = sum_read;
    wr[0] = sum_write;
    for (int u = 1; u < 5; u++) {
        rd[u] = rd[u - 1] / 1024.0;
        wr[u] = wr[u - 1] / 1024.0;
    }
    if ((t = json_object()) == NULL)
        return oom();
    rc = set_int(t, "n", n);
    for (int u = 0; u < 5 && rc >= 0; u++) {
        snprintf(name, sizeof(name), "sum_%s_read", UNIT_SUFFIX[u]);
        if ((rc = set_real(t, name, rd[u])) < 0)
            break;
        snprintf(name, sizeof(name), "sum_%s_write", UNIT_SUFFIX[u]);
        rc = set_real(t, name, wr[u]);
    }
    /* "tibs" per dt are really GiB per dt in the reference; kept */
    if (rc >= 0 &&
        ((rc = set_real(t, "ave_bytes_read_per_dt", rd[0] / dn)) < 0 ||
         (rc = set_real(t, "ave_bytes_write_per_dt", wr[0] / dn)) < 0 ||
         (rc = set_real(t, "ave_gibs_read_per_dt", rd[3] / dn)) < 0 ||
         (rc = set_real(t, "ave_gibs_write_per_dt", wr[3] / dn)) < 0 ||
         (rc = set_real(t, "ave_tibs_read_per_dt", rd[3] / dn)) < 0 ||
         (rc = set_real(t, "ave_tibs_write_per_dt", wr[3] / dn)) < 0 ||
         (rc = set_real(t, "oss_ave", oss_ave / dn)) < 0 ||
         (rc = set_real(t, "oss_max", oss_max)) < 0 ||
         (rc = set_real(t, "mds_ave", mds_ave / dn)) < 0 ||
         (rc = set_real(t, "mds_max", mds_max)) < 0))
        goto done;
    for (int b = 0; b < 4 && rc >= 0; b++) {
        snprintf(name, sizeof(name), "missing_%s", bases[b]);
        if ((rc = set_int(t, name, missing[b])) < 0)
            break;
        snprintf(name, sizeof(name), "num_%s", bases[b]);
        if ((rc = set_int(t, name, total[b])) < 0)
            break;
        snprintf(name, sizeof(name), "frac_missing_%s", bases[b]);
        if (total[b] > 0)
            rc = set_real(t, name, (double)missing[b] / (double)total[b]);
    }
done:
    if (rc < 0) {
        json_decref(t);
        return rc;
    }
    *out = t;
    return TOKIO_OK;
}

/* The reference's unit words: "byte" prints "bytes read", "sum_bytes". */
static const char *const UNIT_NAME[] = { "byte", "KiB", "MiB", "GiB", "TiB" };

static int
check_units(enum tokio_hdf5_units units)
{
    return (unsigned)units <= TOKIO_UNITS_TIB ? TOKIO_OK
           : tokio__error(TOKIO_EINVAL, "unknown units %d", (int)units);
}

int
tokio_hdf5_summary_print_header(FILE *fp, enum tokio_hdf5_units units)
{
    char rd[32], wr[32];
    int rc;

    if ((rc = check_units(units)) < 0)
        return rc;
    /* the reference's "%ss" of the lower-cased unit: "bytes", "gibs" */
    snprintf(rd, sizeof(rd), "%s read", UNIT_SUFFIX[units]);
    snprintf(wr, sizeof(wr), "%s writ", UNIT_SUFFIX[units]);
    fprintf(fp, "%28s %12s %12s %5s %5s %5s %5s %5s\n", "date/time", rd, wr,
            "ossav", "ossmx", "mdsav", "mdsmx", "mssng");
    return tokio__write_check(fp, "cannot write the table");
}

static void
print_cpu(FILE *fp, const json_t *d, const char *key, const char *sep)
{
    if (has(d, key))
        fprintf(fp, "%5.1f%s", num(d, key), sep);
    else
        fprintf(fp, "%5s%s", "", sep);
}

int
tokio_hdf5_summary_print_bins(FILE *fp, const json_t *bins,
                              enum tokio_hdf5_units units)
{
    const char **keys = NULL;
    size_t n_keys;
    char name[64];
    int rc;

    if ((rc = check_units(units)) < 0 ||
        (rc = sorted_keys(bins, &keys, &n_keys)) < 0)
        return rc;
    for (size_t i = 0; i < n_keys; i++) {
        const json_t *d = json_object_get(bins, keys[i]);
        const time_t t0 = (time_t)integer(d, "tstart");
        const time_t t1 = (time_t)integer(d, "tend");
        struct tm tm0, tm1;
        char s0[32] = "", s1[32] = "";

        if (!has(d, "sum_ost_read") || !has(d, "sum_ost_write")) {
            rc = tokio__error(TOKIO_EINVAL, "bin %s has no OST bytes "
                              "(no datatargets/readbytes or writebytes)",
                              keys[i]);
            free(keys);
            return rc;
        }
        /* the per-line "mssng" counts OST bytes only, not CPU loads */
        const double frac =
            (double)(integer(d, "missing_ost_read")
                     + integer(d, "missing_ost_write"))
            / (double)(integer(d, "num_ost_read")
                       + integer(d, "num_ost_write"));

        if (localtime_r(&t0, &tm0) != NULL)
            strftime(s0, sizeof(s0), "%Y-%m-%d %H:%M:%S", &tm0);
        if (localtime_r(&t1, &tm1) != NULL)
            strftime(s1, sizeof(s1), "%H:%M:%S", &tm1);
        fprintf(fp, "%19s-%8s ", s0, s1);
        snprintf(name, sizeof(name), "sum_ost_read_%s", UNIT_SUFFIX[units]);
        fprintf(fp, "%12.2f ", num(d, name));
        snprintf(name, sizeof(name), "sum_ost_write_%s", UNIT_SUFFIX[units]);
        fprintf(fp, "%12.2f ", num(d, name));
        print_cpu(fp, d, "ave_oss_cpu", " ");
        print_cpu(fp, d, "max_oss_cpu", " ");
        print_cpu(fp, d, "ave_mds_cpu", " ");
        print_cpu(fp, d, "max_mds_cpu", "");
        fprintf(fp, "%6.1f\n", 100.0 * frac);
    }
    free(keys);
    return tokio__write_check(fp, "cannot write the table");
}

/* ", %5.1f%% missing" when the fraction is known */
static void
print_missing(FILE *fp, const json_t *t, const char *base)
{
    char name[64];

    snprintf(name, sizeof(name), "frac_missing_%s", base);
    if (has(t, name))
        fprintf(fp, ", %5.1f%% missing\n", 100.0 * num(t, name));
    else
        fputc('\n', fp);
}

int
tokio_hdf5_summary_print_totals(FILE *fp, const json_t *totals,
                                enum tokio_hdf5_units units)
{
    char name[64];
    int rc;

    if ((rc = check_units(units)) < 0)
        return rc;
    if (!json_is_object(totals))
        return tokio__error(TOKIO_EINVAL, "not a summary of bins");
    snprintf(name, sizeof(name), "sum_%s_read", UNIT_SUFFIX[units]);
    fprintf(fp, "Total read:  %14.2f %s", num(totals, name),
            UNIT_NAME[units]);
    print_missing(fp, totals, "ost_read");
    snprintf(name, sizeof(name), "sum_%s_write", UNIT_SUFFIX[units]);
    fprintf(fp, "Total write: %14.2f %s", num(totals, name),
            UNIT_NAME[units]);
    print_missing(fp, totals, "ost_write");
    /* the reference shows CPU loads only when a maximum above -0.0 (the
     * "never set" value) was seen */
    if (!signbit(num(totals, "oss_max"))) {
        fprintf(fp, "Average OSS CPU:        %6.2f%%",
                num(totals, "oss_ave"));
        print_missing(fp, totals, "oss_cpu");
        fprintf(fp, "Max OSS CPU:            %6.2f%%\n",
                num(totals, "oss_max"));
    }
    if (!signbit(num(totals, "mds_max"))) {
        fprintf(fp, "Average MDS CPU:        %6.2f%%",
                num(totals, "mds_ave"));
        print_missing(fp, totals, "mds_cpu");
        fprintf(fp, "Max MDS CPU:            %6.2f%%\n",
                num(totals, "mds_max"));
    }
    return tokio__write_check(fp, "cannot write the summary");
}
