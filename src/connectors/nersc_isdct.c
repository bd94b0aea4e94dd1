/*
 * src/connectors/nersc_isdct.c - NERSC's daily dumps of Intel SSD
 * counters: the text outputs of Intel's ISDCT tool (3.x, as NERSC's
 * script runs it on Cray burst-buffer nodes), one file per command per
 * drive, in a folder per node (nid01234/ssd0_smart_info.txt), all in a
 * folder or tarball, maybe with an empty timestamp_YYYYmmddHHMMSS file;
 * or such a dump saved as JSON.  Mirrors tokio.connectors.nersc_isdct
 * (pytokio 0.13) and the diff reductions of tokio.cli.compare_isdct.
 *
 * A member's header line names its drive and how the rest reads:
 *   "- Intel SSD DC P3608 Series CVF...-1 -"    show -a, -sensor,
 *                                               -performance: Key : value
 *   "- SMART and Health Information CVF...-1 -" show -smarthealthinfo
 *   "- SMART Attributes CVF...-1 -"             show -smart: registers,
 *       each "- AB -" then Key : value lines, as SMART_<Description>_Key
 * Keys become snake_case, values are recast as recast_string() does;
 * temperature, throttle_status and endurance_analyzer lose their unit to
 * a "<name>_unit" counter; then *_bytes and the write amplification
 * factor are synthesized.
 *
 * The dump is the reference's dict as a jansson object: serial number ->
 * counters, in the order first read.  The generic reader
 * (src/core/connector.c) walks folders and archives, feeding each member
 * to add_text(); finish() does what the reference does after its walk.
 * Inputs: ../shared/testdata/pytokio-inputs/sample_nersc_isdct*,
 * tests/connectors/nersc_isdct/; goldens: golden/pytokio/{cache_isdct,
 * nersc_isdct,compare_isdct}/.  Speed (bench/bench-isdct.sh, 100 times
 * the samples): jansson reads a saved dump 4 times slower than the
 * reference's json module does, so on saved dumps the commands are but
 * 2.0 (compare-isdct) and 4.3 (cache-isdct) times the reference's speed
 * end to end; on tarballs 9 times.
 *
 * Differs from pytokio, all on input ISDCT never prints:
 * - After a drive's header line, a line that is neither blank nor
 *   "key : value" (nor, in SMART output, "- ID -") is TOKIO_EFORMAT naming
 *   member and line (the reference skipped it, dropping counters or
 *   merging a second drive's into the first; "-" crashed it), as are a
 *   NUL byte, invalid UTF-8 and a node folder's name not in UTF-8.
 * - Lines end at "\n" only; white space and letter case are ASCII's.
 *   Folders are walked in sorted order, not os.walk()'s: where two
 *   members of a drive disagree, the last one read wins in both.
 * - Members are named "ARCHIVE/MEMBER": one at the top of an archive
 *   takes the archive's name as its node's (the reference: the current
 *   folder's).  Only a member whose own name holds "timestamp_" is the
 *   timestamp file, which must end in exactly 14 digits.
 * - A folder without outputs is an empty dump (the reference failed); an
 *   empty tar archive, all zeros, is no archive to the generic reader and
 *   TOKIO_EFORMAT, as a single text file is (as there).  An empty
 *   temperature, throttle_status or endurance_analyzer has no unit (the
 *   reference raised IndexError).
 * - Integers that leave int64 become reals (Python's have no limit); a
 *   synthesized or diffed number that is not finite, or text where a
 *   number is needed (the reference repeated the string 512000 times or
 *   raised TypeError) is TOKIO_EFORMAT naming drive and counter.  A
 *   counter that is text in one drive's diff and a number in a later one
 *   is reduced over its numbers (the reference raised KeyError).
 * As there, a counter that is null (or text against a number) in the two
 * dumps cannot be compared (None - None), but for endurance_analyzer.
 */
#define _XOPEN_SOURCE 700   /* strptime() */
#include "tokio/connectors/nersc_isdct.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/output.h"
#include "tokio/util.h"
#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text.h"

/* The header kinds of the reference's REX_SERIAL_NO; the second's lines
 * come in SMART registers. */
static const char *const HEADER_KINDS[] = {
    "Intel SSD", "SMART Attributes", "SMART and Health Information"
};
#define SMART_ATTRIBUTES 1

/* A member whose name holds this is the dump's time, not ISDCT output. */
#define TIMESTAMP_MARK "timestamp_"

/* Units of the native counters (nersc_isdct.py, _synthesize_metrics):
 * data units are thousands of 512-byte blocks, SMART F4/F5 raw values
 * 32 MiB. */
#define DATA_UNIT_BYTES ((int64_t)1000 * 512)
#define SMART_RAW_BYTES ((int64_t)32 * 1024 * 1024)

/* Longest SMART description used as a key prefix: real ones are under 64
 * bytes, and each of a register's keys is prefixed with it, so a long one
 * would multiply the input's size. */
#define SMART_PREFIX_MAX 256

/* compare_isdct's ERROR_KEYS: a change in any of these flags the drive. */
static const char *const ERROR_KEYS[] = {
    "crc_error_count", "critical_warnings",
    "end_to_end_error_detection_count", "erase_fail_count", "media_errors",
    "number_of_error_info_log_entries", "pci_link_gen_speed",
    "pci_link_width", "program_fail_count", "smart_crc_error_count_raw",
    "smart_endto_end_error_detection_count_raw",
    "smart_erase_fail_count_raw", "smart_pli_lock_loss_count_raw",
    "smart_program_fail_count_raw", "thermal_throttle_count",
};
#define N_ERROR_KEYS (sizeof(ERROR_KEYS) / sizeof(ERROR_KEYS[0]))

#define IS_UPPER(c) ((c) >= 'A' && (c) <= 'Z')
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')

struct tokio_nersc_isdct {
    json_t *drives;         /* serial number -> counters */
    /* what finish() needs of a folder's or archive's walk */
    int member;             /* the input fed next is a member ... */
    int64_t mtime;          /* ... last modified then */
    int have_mtime;
    int64_t min_mtime;      /* of the members but the timestamp file */
    char *ts_name;          /* the last timestamp file seen, if any */
};

/* ---- small helpers ---------------------------------------------------- */

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading an ISDCT dump");
}

static int
counter_error(const char *sn, const char *key, const char *what)
{
    return tokio__error(TOKIO_EFORMAT, "drive '%s' counter '%s': %s", sn,
                        key, what);
}

/* `res` into *out when rc is TOKIO_OK, else released, and rc returned
 * (running out of memory `doing` told). */
static int
hand_over(json_t *res, int rc, const char *doing, json_t **out)
{
    *out = rc == TOKIO_OK ? res : NULL;
    if (rc != TOKIO_OK)
        json_decref(res);
    return rc == TOKIO_ENOMEM ? tokio__error(rc, "out of memory %s", doing)
                              : rc;
}

/* obj[key] = value (stolen, may be NULL): TOKIO_OK or TOKIO_ENOMEM. */
static int
set_new(json_t *obj, const char *key, json_t *value)
{
    return json_object_set_new(obj, key, value) < 0 ? TOKIO_ENOMEM
                                                    : TOKIO_OK;
}

/* From p on (to e), past the white space (`space`) or the rest. */
static const char *
skip(const char *p, const char *e, int space)
{
    while (p < e && (tokio__py_space((unsigned char)*p) != 0) == space)
        p++;
    return p;
}

static void
strip(const char **b, const char **e)
{
    *b = skip(*b, *e, 1);
    while (*e > *b && tokio__py_space((unsigned char)(*e)[-1]))
        (*e)--;
}

/* Python's str() of a counter value: its text, or `buf` (64 bytes). */
static const char *
str_of(const json_t *v, char *buf)
{
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_integer(v))
        snprintf(buf, 64, "%" PRId64, (int64_t)json_integer_value(v));
    else if (json_is_real(v))
        tokio_format_double(buf, 64, json_real_value(v));
    else
        strcpy(buf, json_is_true(v) ? "True" : json_is_false(v) ? "False"
                                                               : "None");
    return buf;
}

/* ---- numbers as Python computes with them ----------------------------- */

/* An int, float or bool counter; bools count as 0 and 1, as in Python. */
struct num {
    int is_int;
    int64_t i;
    double d;           /* the value, for ints too */
};

static int
get_num(const json_t *v, struct num *n)
{
    n->is_int = json_is_integer(v) || json_is_boolean(v);
    n->i = json_is_integer(v) ? json_integer_value(v) : json_is_true(v);
    n->d = json_is_real(v) ? json_real_value(v) : (double)n->i;
    return n->is_int || json_is_real(v);
}

/* a - b, a + b or a * b ('-', '+', '*') as Python computes them: exact
 * while integers fit int64, else reals. */
static struct num
arith(char op, const struct num *a, const struct num *b)
{
    struct num r = { 1, 0, 0 };

    if (!a->is_int || !b->is_int ||
        (op == '-' ? __builtin_sub_overflow(a->i, b->i, &r.i)
         : op == '+' ? __builtin_add_overflow(a->i, b->i, &r.i)
                     : __builtin_mul_overflow(a->i, b->i, &r.i))) {
        r.is_int = 0;
        r.d = op == '-' ? a->d - b->d : op == '+' ? a->d + b->d : a->d * b->d;
        return r;
    }
    r.d = (double)r.i;
    return r;
}

/* a < b exactly, as Python compares an int with a float. */
static int
num_less(const struct num *a, const struct num *b)
{
    if (a->is_int && b->is_int)
        return a->i < b->i;
    if (a->d != b->d)
        return a->d < b->d;
    /* equal as doubles: an int side is exactly representable in range,
     * so compare it with the other side's integral value */
    if (a->is_int && fabs(b->d) < 9.2e18)
        return a->i < (int64_t)b->d;
    if (b->is_int && fabs(a->d) < 9.2e18)
        return (int64_t)a->d < b->i;
    return 0;
}

static int
num_finite(const struct num *n)
{
    return n->is_int || isfinite(n->d);
}

/* The number as JSON (a new reference; NULL when out of memory). */
static json_t *
num_json(const struct num *n)
{
    return n->is_int ? json_integer(n->i) : json_real(n->d);
}

/* ---- one member: the output of one isdct command ---------------------- */

/*
 * _normalize_key(): Intel's mix of CamelCase and spaced words into
 * snake_case, as a new string (NULL when out of memory): strip; spaces
 * become "_", dashes vanish; "NVMe" and "SMBus" are lowered first so they
 * stay one word; then "_" goes before a capital that follows a
 * non-capital, or that ends a run of capitals (IOQueue -> io_queue);
 * repeated "_" collapse; all lower case.
 */
static char *
normalize_key(const char *b, const char *e)
{
    size_t m = 0, k = 0;
    char *tmp, *out;

    strip(&b, &e);
    if ((tmp = tokio__malloc(3 * (size_t)(e - b) + 2)) == NULL)
        return NULL;
    for (const char *p = b; p < e; p++)
        if (*p != '-')
            tmp[m++] = *p == ' ' ? '_' : *p;
    tmp[m] = '\0';
    /* same-length replacements, the first everywhere before the second */
    for (char *p = tmp; (p = strstr(p, "NVMe")) != NULL; p += 4)
        memcpy(p, "nvme", 4);
    for (char *p = tmp; (p = strstr(p, "SMBus")) != NULL; p += 5)
        memcpy(p, "smbus", 5);
    out = tmp + m + 1;
    for (size_t i = 0; i < m; i++) {
        char c = tmp[i], last = i > 0 ? tmp[i - 1] : 0, next = tmp[i + 1];

        if (i > 0 && c == '_' && last == '_')
            continue;
        if (i > 0 && last != '_' && IS_UPPER(c) &&
            (!IS_UPPER(last) || (next != '\0' && !IS_UPPER(next) &&
                                 next != '_')))
            out[k++] = '_';
        out[k++] = IS_UPPER(c) ? (char)(c - 'A' + 'a') : c;
    }
    memmove(tmp, out, k);
    tmp[k] = '\0';
    return tmp;
}

/*
 * re.search(r'(Intel SSD|SMART Attributes|SMART and Health
 * Information).*(CVF[^ ]+-\d+)', line): the leftmost kind, then, the .*
 * being greedy, the rightmost "CVF" after it from which a run of
 * non-spaces reaches a "-<digit>"; the serial runs to the last such dash
 * of that run and its digits.  Returns the kind's index, or -1.
 */
static int
find_serial(const char *s, size_t len, size_t *sn_b, size_t *sn_e)
{
    /* the rightmost p with "CVF" at p, a non-space at p+3 and "-<digit>"
     * at some q >= p+4 in the non-space run; `dash` is the last such q
     * of the run seen so far from the right (SIZE_MAX: none) */
    size_t p = SIZE_MAX, q = 0, dash = SIZE_MAX;

    for (size_t j = len; j-- > 0 && p == SIZE_MAX;) {
        if (s[j] == ' ') {
            dash = SIZE_MAX;
            continue;
        }
        if (dash == SIZE_MAX && s[j] == '-' && j + 1 < len &&
            IS_DIGIT(s[j + 1]))
            dash = j;
        if (j >= 3 && dash != SIZE_MAX && dash >= j + 1 &&
            memcmp(s + j - 3, "CVF", 3) == 0) {
            p = j - 3;
            q = dash;
        }
    }
    for (size_t i = 0; p != SIZE_MAX && i <= p; i++) {
        for (int k = 0; k < 3; k++) {
            size_t kl = strlen(HEADER_KINDS[k]);
            if (kl > len - i || memcmp(s + i, HEADER_KINDS[k], kl) != 0)
                continue;
            if (i + kl > p)
                return -1;
            *sn_b = p;
            for (*sn_e = q + 1; *sn_e < len && IS_DIGIT(s[*sn_e]); (*sn_e)++)
                ;
            return k;
        }
    }
    return -1;
}

/*
 * _decode_nersc_nid(): the last folder of os.path.abspath(name), the
 * current folder's name for a bare file name, as a new string (NULL when
 * out of memory).  The components are read from the end, each ".."
 * passing over the next real one, as normpath() resolves them.
 */
static char *
node_name(const char *name)
{
    char cwd[4096];
    const char *parts[2] = { name, NULL };
    size_t skip = 0, found = 0;

    if (name[0] != '/')
        parts[1] = getcwd(cwd, sizeof(cwd)) != NULL ? cwd : "/";
    for (int k = 0; k < 2 && parts[k] != NULL; k++) {
        for (const char *e = parts[k] + strlen(parts[k]), *b; e > parts[k];
             e = b > parts[k] ? b - 1 : b) {
            size_t l;
            for (b = e; b > parts[k] && b[-1] != '/'; b--)
                ;
            l = (size_t)(e - b);
            if (l == 2 && b[0] == '.' && b[1] == '.')
                skip++;
            else if (l > 0 && !(l == 1 && b[0] == '.') && skip > 0)
                skip--;
            else if (l > 0 && !(l == 1 && b[0] == '.') && found++ == 1)
                return tokio__strndup(b, l);
        }
    }
    return tokio__strdup("");
}

/* The member being read.  Its values stay text: finish() recasts them. */
struct member {
    json_t *drives;
    const char *name;
    size_t lineno;
    json_t *drive;      /* the drive's counters once its header is read */
    int smart;          /* SMART Attributes: registers of lines */
    json_t *reg;        /* the register being read: key -> value text */
};

static int
line_error(const struct member *m, const char *what)
{
    return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", m->name,
                        m->lineno, what);
}

/*
 * _rekey_smart_buffer(): a register's lines as counters of the drive,
 * named SMART_<Description>_<key> (SMART_<ID>_<key> without a
 * description), dashes dropped, spaces as "_", then normalized twice, as
 * the reference did (not always a no-op: a tab left last by dropping a
 * dash is stripped then).
 */
static int
flush_register(struct member *m)
{
    const json_t *pv = json_object_get(m->reg, "description");
    const char *prefix = "None", *key;
    json_t *v;
    int rc = TOKIO_OK;

    if (pv == NULL)
        pv = json_object_get(m->reg, "_id");
    if (pv != NULL)
        prefix = json_string_value(pv);
    if (strlen(prefix) > SMART_PREFIX_MAX)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: SMART register "
                            "description or id longer than %d bytes",
                            m->name, m->lineno, SMART_PREFIX_MAX);
    json_object_foreach(m->reg, key, v) {
        const char *kb = key, *ke = key + strlen(key);
        char *raw, *w, *once = NULL, *twice = NULL;

        strip(&kb, &ke);
        if ((raw = tokio__malloc(strlen(prefix) + (size_t)(ke - kb) + 8)) ==
            NULL)
            return TOKIO_ENOMEM;
        w = raw + sprintf(raw, "SMART_%s_%.*s", prefix, (int)(ke - kb), kb);
        for (char *r = raw, *o = raw; r <= w; r++)     /* with the NUL */
            if (*r != '-')
                *o++ = *r == ' ' ? '_' : *r;
        if ((once = normalize_key(raw, raw + strlen(raw))) == NULL ||
            (twice = normalize_key(once, once + strlen(once))) == NULL)
            rc = TOKIO_ENOMEM;
        else
            rc = set_new(m->drive, twice, json_incref(v));
        free(raw);
        free(once);
        free(twice);
        if (rc < 0)
            return rc;
    }
    json_object_clear(m->reg);
    return TOKIO_OK;
}

/* The header line: the drive's counters, found or made, and its node. */
static int
start_drive(struct member *m, const char *line, int kind, size_t sn_b,
            size_t sn_e)
{
    char *node;
    int rc;

    m->drive = json_object_getn(m->drives, line + sn_b, sn_e - sn_b);
    if (m->drive == NULL &&
        ((m->drive = json_object()) == NULL ||
         json_object_setn_new(m->drives, line + sn_b, sn_e - sn_b,
                              m->drive) < 0))
        return TOKIO_ENOMEM;
    if ((node = node_name(m->name)) == NULL)
        return TOKIO_ENOMEM;
    if (!tokio__text_valid(node, strlen(node)))
        rc = line_error(m, "the node's folder name is not UTF-8");
    else
        rc = set_new(m->drive, "node_name", json_string(node));
    free(node);
    m->smart = kind == SMART_ATTRIBUTES;
    if (m->smart && (m->reg = json_object()) == NULL)
        return TOKIO_ENOMEM;
    return rc;
}

/* One stripped line of parse_counters_fileobj(). */
static int
parse_line(struct member *m, const char *b, const char *e)
{
    size_t n = (size_t)(e - b), sn_b, sn_e;
    const char *colon = memchr(b, ':', n), *t, *te;
    char *key;
    int kind, rc;

    if (m->drive == NULL) {
        kind = find_serial(b, n, &sn_b, &sn_e);
        return kind < 0 ? TOKIO_OK : start_drive(m, b, kind, sn_b, sn_e);
    }
    if (colon != NULL) {
        const char *vb = colon + 1, *ve = e;
        if ((key = normalize_key(b, colon)) == NULL)
            return TOKIO_ENOMEM;
        strip(&vb, &ve);
        rc = set_new(m->smart ? m->reg : m->drive, key,
                     json_stringn(vb, (size_t)(ve - vb)));
        free(key);
        return rc;
    }
    if (n == 0)
        return TOKIO_OK;
    if (!m->smart || b[0] != '-' || e[-1] != '-')
        return line_error(m, m->smart ? "expected 'key : value' or '- ID -'"
                                      : "expected 'key : value'");
    /* "- AB -": a new register, named by the line's second word */
    t = skip(skip(b, e, 0), e, 1);
    if ((te = skip(t, e, 0)) == t)
        return line_error(m, "SMART register line without an id");
    if ((rc = flush_register(m)) < 0)
        return rc;
    return set_new(m->reg, "_id", json_stringn(t, (size_t)(te - t)));
}

/*
 * parse_counters_fileobj() and _merge_parsed_counters() in one: the
 * counters of the one drive a member describes go straight into that
 * drive's, later members updating earlier ones in place, which is what
 * dict.update() did.  A member naming no drive adds nothing (the
 * reference warned and skipped it).
 */
static int
parse_member(json_t *drives, const char *text, size_t len, const char *name)
{
    struct member m = { drives, name, 0, NULL, 0, NULL };
    const char *p = text, *end = text + len;
    int valid = tokio__text_valid(text, len), rc = TOKIO_OK;

    while (rc == TOKIO_OK && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *b = p, *e = nl != NULL ? nl : end;

        p = nl != NULL ? nl + 1 : end;
        m.lineno++;
        if (!valid && !tokio__text_valid(b, (size_t)(e - b))) {
            rc = line_error(&m, memchr(b, '\0', (size_t)(e - b))
                                    ? "NUL byte" : "not UTF-8 text");
            break;
        }
        strip(&b, &e);
        rc = parse_line(&m, b, e);
    }
    if (rc == TOKIO_OK && m.smart)
        rc = flush_register(&m);
    /* a placeholder, so that the timestamp finish() sets lands where the
     * reference put it: after the counters of the drive's first member */
    if (rc == TOKIO_OK && m.drive != NULL &&
        json_object_get(m.drive, "timestamp") == NULL)
        rc = set_new(m.drive, "timestamp", json_null());
    json_decref(m.reg);
    if (rc == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory reading '%s'", name);
    return rc;
}

/* ---- after the walk: time, types, units, synthesized counters --------- */

/* strptime(text, "%Y%m%d%H%M%S") in local time, then mktime(). */
static int
parse_timestamp(const char *text, int64_t *out)
{
    struct tm tm;
    const char *end;
    int mday, mon;

    memset(&tm, 0, sizeof(tm));
    if (strlen(text) != 14 || strspn(text, "0123456789") != 14 ||
        (end = strptime(text, "%Y%m%d%H%M%S", &tm)) == NULL || *end != '\0'
        || tm.tm_year < 1 - 1900)
        return 0;
    mday = tm.tm_mday;
    mon = tm.tm_mon;
    tm.tm_isdst = -1;
    *out = (int64_t)mktime(&tm);
    /* strptime refuses 31 February; mktime would roll it over */
    return tm.tm_mday == mday && tm.tm_mon == mon;
}

/* datetime.fromtimestamp(t) then mktime(timetuple()): the same second,
 * except in a repeated hour of a daylight-saving change. */
static int64_t
local_roundtrip(int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;

    if (localtime_r(&tt, &tm) == NULL)
        return t;
    tm.tm_isdst = -1;
    return (int64_t)mktime(&tm);
}

/*
 * The recasting of _merge_parsed_counters(), after the walk as there, and
 * the dump's time: every value recast; temperature, throttle_status and
 * endurance_analyzer give their second word to a "<name>_unit" counter
 * (which leaves "27 Celsius" text); a text endurance_analyzer becomes
 * null, a numeric one without a unit is in years.  The units go after
 * the drive's counters, as there.
 */
static int
recast_drive(json_t *drive, int64_t ts)
{
    char ukey[3][32];
    json_t *unit[3];
    size_t nunits = 0;
    int rc = 0;

    for (void *it = json_object_iter(drive); it != NULL && rc == 0;
         it = json_object_iter_next(drive, it)) {
        const char *key = json_object_iter_key(it), *b, *e, *t;
        json_t *v = json_object_iter_value(it), *nv, *u = NULL;
        int endurance = strcmp(key, "endurance_analyzer") == 0;

        if (strcmp(key, "timestamp") == 0) {
            rc = json_object_iter_set_new(drive, it, json_integer(ts));
            continue;
        }
        b = json_string_value(v);
        if ((nv = tokio_recast_string(b)) == NULL) {
            rc = -1;
            break;
        }
        if (!endurance && strcmp(key, "temperature") != 0 &&
            strcmp(key, "throttle_status") != 0) {
            rc = json_object_iter_set_new(drive, it, nv);
            continue;
        }
        e = b + json_string_length(v);
        t = skip(skip(b, e, 0), e, 1);      /* the unit */
        if (endurance && json_is_string(nv)) {
            json_decref(nv);
            nv = json_null();
        } else if ((t < e || endurance) &&
                   (u = t < e ? json_stringn(t, (size_t)(e - t))
                              : json_string("years")) == NULL) {
            rc = -1;    /* a bare endurance is in years */
        }
        if (json_object_iter_set_new(drive, it, nv) < 0)
            rc = -1;
        if (u != NULL) {
            snprintf(ukey[nunits], sizeof(ukey[0]), "%s_unit", key);
            unit[nunits++] = u;
        }
    }
    for (size_t i = 0; i < nunits; i++)
        if (rc == 0)
            rc = set_new(drive, ukey[i], unit[i]);
        else
            json_decref(unit[i]);
    return rc < 0 ? TOKIO_ENOMEM : TOKIO_OK;
}

/* A drive whose counters synthesize() sets. */
struct drive_ref {
    json_t *drives;
    const char *sn;
    json_t *drive;
    int shared;         /* still the JSON's it was read from */
};

/* drive[key] = v (stolen), unless it holds that already (a saved dump
 * holds all that synthesize() computes again); a shared drive is copied
 * before it is changed. */
static int
put(struct drive_ref *r, const char *key, json_t *v)
{
    json_t *copy;

    if (v == NULL)
        return TOKIO_ENOMEM;
    if (json_equal(json_object_get(r->drive, key), v)) {
        json_decref(v);
        return TOKIO_OK;
    }
    if (r->shared) {
        if ((copy = tokio__json_copy(r->drive)) == NULL ||
            json_object_set_new(r->drives, r->sn, copy) < 0) {
            json_decref(v);
            return TOKIO_ENOMEM;
        }
        r->drive = copy;
        r->shared = 0;
    }
    return set_new(r->drive, key, v);
}

/* _synthesize_metrics(): bytes from native units, and the write
 * amplification factor (NAND writes over host writes). */
static int
synthesize(struct drive_ref *r)
{
    static const struct {
        const char *from, *to;
        int64_t factor;
    } scaled[] = {
        { "data_units_read", "data_units_read_bytes", DATA_UNIT_BYTES },
        { "data_units_written", "data_units_written_bytes", DATA_UNIT_BYTES },
        { "smart_nand_bytes_written_raw", "smart_nand_bytes_written_bytes",
          SMART_RAW_BYTES },
        { "smart_host_bytes_written_raw", "smart_host_bytes_written_bytes",
          SMART_RAW_BYTES },
    };
    const json_t *nand, *host;
    struct num a, b;

    for (size_t i = 0; i < sizeof(scaled) / sizeof(scaled[0]); i++) {
        const json_t *v = json_object_get(r->drive, scaled[i].from);
        struct num f = { 1, scaled[i].factor, (double)scaled[i].factor };
        if (v == NULL)
            continue;
        if (!get_num(v, &a))
            return counter_error(r->sn, scaled[i].from, "not a number");
        b = arith('*', &a, &f);
        if (!num_finite(&b))
            return counter_error(r->sn, scaled[i].from, "too large");
        if (put(r, scaled[i].to, num_json(&b)) < 0)
            return TOKIO_ENOMEM;
    }
    nand = json_object_get(r->drive, "smart_nand_bytes_written_raw");
    host = json_object_get(r->drive, "smart_host_bytes_written_raw");
    if (nand == NULL || host == NULL || json_is_null(nand) ||
        json_is_null(host))
        return TOKIO_OK;
    if (!get_num(host, &b))
        return counter_error(r->sn, "smart_host_bytes_written_raw",
                             "not a number");
    if (!(b.is_int ? b.i > 0 : b.d > 0))
        return TOKIO_OK;
    if (!get_num(nand, &a))
        return counter_error(r->sn, "smart_nand_bytes_written_raw",
                             "not a number");
    return put(r, "write_amplification_factor", json_real(a.d / b.d));
}

/* Every drive synthesized; `shared`: they are the JSON's read. */
static int
synthesize_all(struct tokio_nersc_isdct *d, int shared)
{
    const char *sn;
    json_t *drive;
    int rc;

    json_object_foreach(d->drives, sn, drive) {
        struct drive_ref r = { d->drives, sn, drive, shared };
        if ((rc = synthesize(&r)) < 0)
            return rc == TOKIO_ENOMEM ? oom() : rc;
    }
    return TOKIO_OK;
}

/* ---- the connector interface (src/core/connector.h) ------------------- */

static int
new_dump(void **out)
{
    struct tokio_nersc_isdct *d = tokio__calloc(1, sizeof(*d));

    *out = d;
    if (d != NULL && (d->drives = json_object()) != NULL)
        return TOKIO_OK;
    free(d);
    *out = NULL;
    return oom();
}

static void
set_mtime(void *h, int64_t mtime)
{
    struct tokio_nersc_isdct *d = h;

    d->member = 1;
    d->mtime = mtime;
}

static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    struct tokio_nersc_isdct *d = h;
    const char *base = strrchr(name, '/');

    if (!d->member)     /* empty input is an empty dump */
        return len == 0 ? TOKIO_OK
            : tokio__error(TOKIO_EFORMAT, "'%s': not a folder or tar "
                           "archive of ISDCT outputs, nor a saved JSON dump",
                           name);
    d->member = 0;
    if (strstr(base != NULL ? base + 1 : name, TIMESTAMP_MARK) != NULL) {
        /* the last one seen wins, as in the reference */
        free(d->ts_name);
        return (d->ts_name = tokio__strdup(name)) == NULL ? oom() : TOKIO_OK;
    }
    /* the earliest member's time stands for the dump's, as there */
    if (!d->have_mtime || d->mtime < d->min_mtime)
        d->min_mtime = d->mtime;
    d->have_mtime = 1;
    return parse_member(d->drives, text, len, name);
}

/* The saved JSON form: drives of scalar counters, the synthesized ones
 * computed again, as the reference does on loading. */
static int
add_json(void *h, const json_t *json)
{
    struct tokio_nersc_isdct *d = h;
    const char *sn, *key;
    json_t *c, *v;

    if (d->member)
        return tokio__error(TOKIO_EFORMAT, "a JSON dump among ISDCT "
                            "outputs");
    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "an ISDCT dump is a JSON object "
                            "keyed by serial number");
    json_object_foreach((json_t *)json, sn, c) {
        if (!json_is_object(c))
            return tokio__error(TOKIO_EFORMAT, "drive '%s' is not an "
                                "object of counters", sn);
        json_object_foreach(c, key, v)
            if (json_is_object(v) || json_is_array(v))
                return counter_error(sn, key, "not a number, text, boolean "
                                     "or null");
        if (set_new(d->drives, sn, json_incref(c)) < 0)
            return oom();
    }
    return synthesize_all(d, 1);
}

/* What the reference's load_native() does after its walk. */
static int
finish(void *h)
{
    struct tokio_nersc_isdct *d = h;
    const char *sn;
    json_t *drive;
    int64_t ts = d->have_mtime ? local_roundtrip(d->min_mtime) : 0;

    if (!d->have_mtime && d->ts_name == NULL)
        return TOKIO_OK;        /* no member: JSON, or nothing */
    if (d->ts_name != NULL &&
        !parse_timestamp(strrchr(d->ts_name, '_') + 1, &ts))
        return tokio__error(TOKIO_EFORMAT, "'%s': '%s' is not a time as "
                            "YYYYmmddHHMMSS", d->ts_name,
                            strrchr(d->ts_name, '_') + 1);
    json_object_foreach(d->drives, sn, drive)
        if (recast_drive(drive, ts) < 0)
            return oom();
    return synthesize_all(d, 0);
}

/* ISDCT output: a line naming a drive, as parse_member() looks for one.
 * Such a file alone is still refused (add_text()): ISDCT outputs come in
 * folders and archives only, as the reference reads them; the bid tells
 * a collection of them from one of something else. */
static int
bid(const char *head, size_t n)
{
    const char *p = head, *end = head + n;
    size_t sn_b, sn_e;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl != NULL ? nl : end;

        if (find_serial(p, (size_t)(e - p), &sn_b, &sn_e) >= 0)
            return 80;
        p = nl != NULL ? nl + 1 : end;
    }
    return 0;
}

static int
to_json(const void *h, json_t **out)
{
    return tokio_nersc_isdct_to_json(h, out);
}

static int
write_csv(const void *h, FILE *fp)
{
    return tokio_nersc_isdct_write_csv(h, fp, 0);
}

static void
free_dump(void *h)
{
    tokio_nersc_isdct_free(h);
}

const struct tokio__connector tokio__nersc_isdct_connector = {
    .name = "nersc_isdct",
    .flags = TOKIO__CONNECTOR_COLLECTION,
    .what = "a folder or tar archive of ISDCT outputs, nor a saved JSON "
            "dump",
    .bid = bid,
    .new = new_dump,
    .add_text = add_text,
    .add_json = add_json,
    .set_mtime = set_mtime,
    .finish = finish,
    .to_json = to_json,
    .write_csv = write_csv,
    .free = free_dump,
};

/* ---- the public API ---------------------------------------------------- */

TOKIO__CONNECTOR_OPEN_FUNCTIONS(nersc_isdct)

size_t
tokio_nersc_isdct_count(const struct tokio_nersc_isdct *d)
{
    return d == NULL ? 0 : json_object_size(d->drives);
}

const json_t *
tokio_nersc_isdct_device(const struct tokio_nersc_isdct *d,
                         const char *serial)
{
    return d == NULL || serial == NULL ? NULL
                                       : json_object_get(d->drives, serial);
}

int
tokio_nersc_isdct_to_json(const struct tokio_nersc_isdct *d, json_t **out)
{
    *out = json_incref(d->drives);
    return TOKIO_OK;
}

void
tokio_nersc_isdct_free(struct tokio_nersc_isdct *d)
{
    if (d == NULL)
        return;
    json_decref(d->drives);
    free(d->ts_name);
    free(d);
}

/* ---- CSV: pandas.DataFrame.from_dict(orient='index').to_csv() --------- */

/* How pandas types a column built from Python values. */
enum col_kind { COL_INT, COL_FLOAT, COL_BOOL, COL_OBJECT };

/* A column and what its cells hold (nulls and absent cells are gaps). */
struct column {
    const char *name;
    size_t n_int, n_real, n_bool, n_str;
    struct num first;       /* the first number, for unique() */
    int varies;
    enum col_kind kind;
};

/* A drive, and where pandas puts its row. */
struct row {
    const char *sn;
    const json_t *drive;
    size_t first_col, pos;
};

static int
cmp_row(const void *a, const void *b)
{
    const struct row *x = a, *y = b;

    if (x->first_col != y->first_col)
        return x->first_col < y->first_col ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
cmp_column_name(const void *a, const void *b)
{
    return strcmp((*(struct column *const *)a)->name,
                  (*(struct column *const *)b)->name);
}

/* One cell into its column's counts. */
static void
count_cell(struct column *c, const json_t *v)
{
    struct num n;

    c->n_str += json_is_string(v);
    if (!get_num(v, &n))
        return;
    if (c->n_int + c->n_real + c->n_bool == 0)
        c->first = n;
    c->varies |= num_less(&c->first, &n) || num_less(&n, &c->first);
    c->n_int += json_is_integer(v);
    c->n_real += json_is_real(v);
    c->n_bool += json_is_boolean(v);
}

/* Its kind; `*constant` when pandas' unique() finds one value in it
 * (all NaN, or one number). */
static enum col_kind
column_kind(const struct column *c, size_t nrows, int *constant)
{
    size_t n_num = c->n_int + c->n_real + c->n_bool;
    size_t gaps = nrows - n_num - c->n_str;

    *constant = n_num == 0 || (n_num == nrows && !c->varies);
    if (c->n_str > 0 || (c->n_bool > 0 && c->n_int + c->n_real + gaps > 0))
        return COL_OBJECT;
    if (c->n_bool > 0)
        return COL_BOOL;
    /* numbers with gaps, or nothing but gaps, are reals */
    return c->n_real == 0 && gaps == 0 && c->n_int > 0 ? COL_INT : COL_FLOAT;
}

/* One cell as pandas prints it (nothing for a gap). */
static void
write_cell(FILE *fp, const json_t *v, enum col_kind kind)
{
    char buf[64];
    struct num n;

    if (json_is_string(v)) {
        tokio_csv_write_field(fp, json_string_value(v),
                              json_string_length(v));
    } else if (kind == COL_FLOAT && get_num(v, &n)) {
        tokio_format_double(buf, sizeof(buf), n.d);
        fputs(buf, fp);
    } else if (v != NULL && !json_is_null(v)) {
        fputs(str_of(v, buf), fp);
    }
}

/*
 * The frame as pandas builds it: columns in first-seen order over the
 * drives; rows in the order they first appear going through the columns
 * (a drive missing the first columns moves down; one with no counters
 * vanishes); each column typed by its values.  With `only_numeric`, as
 * to_dataframe(only_numeric=True): node_name, then the sorted int64 and
 * float64 columns that vary (all of them, for one row).
 */
int
tokio_nersc_isdct_write_csv(const struct tokio_nersc_isdct *d, FILE *fp,
                            int only_numeric)
{
    size_t nrows = 0, ncols = 0, nsel = 0, nkeys = 0;
    json_t *index = json_object();      /* column name -> its number */
    struct row *rows;
    struct column *cols, **sel;
    const char *sn, *key;
    json_t *drive, *v;
    int rc = TOKIO_ENOMEM, constant;

    json_object_foreach(d->drives, sn, drive)
        nkeys += json_object_size(drive);
    rows = tokio__calloc(json_object_size(d->drives) + 1, sizeof(*rows));
    cols = tokio__calloc(nkeys + 1, sizeof(*cols));
    sel = tokio__calloc(nkeys + 2, sizeof(*sel));
    if (index == NULL || rows == NULL || cols == NULL || sel == NULL)
        goto done;
    json_object_foreach(d->drives, sn, drive) {
        struct row *r = &rows[nrows];
        *r = (struct row){ sn, drive, SIZE_MAX, nrows };
        json_object_foreach(drive, key, v) {
            const json_t *ix = json_object_get(index, key);
            size_t k = ix != NULL ? (size_t)json_integer_value(ix) : ncols;
            if (ix == NULL) {
                if (set_new(index, key, json_integer((json_int_t)k)) < 0)
                    goto done;
                cols[ncols++].name = key;
            }
            r->first_col = k < r->first_col ? k : r->first_col;
            count_cell(&cols[k], v);
        }
        nrows += r->first_col != SIZE_MAX;  /* no counters: no row */
    }
    qsort(rows, nrows, sizeof(*rows), cmp_row);
    for (size_t k = 0; k < ncols; k++) {
        cols[k].kind = column_kind(&cols[k], nrows, &constant);
        if (!only_numeric || (cols[k].kind <= COL_FLOAT &&
                              (nrows <= 1 || !constant)))
            sel[nsel++] = &cols[k];
    }
    if (only_numeric) {
        const json_t *ix = json_object_get(index, "node_name");
        qsort(sel, nsel, sizeof(*sel), cmp_column_name);
        if (ix != NULL) {
            memmove(sel + 1, sel, nsel++ * sizeof(*sel));
            sel[0] = &cols[json_integer_value(ix)];
        }
    }
    /* write errors show in ferror() */
    fputs("serial_number", fp);
    for (size_t i = 0; i < nsel; i++) {
        fputc(',', fp);
        tokio_csv_write_field(fp, sel[i]->name, strlen(sel[i]->name));
    }
    for (size_t r = 0; r < nrows; r++) {
        fputc('\n', fp);
        tokio_csv_write_field(fp, rows[r].sn, strlen(rows[r].sn));
        for (size_t i = 0; i < nsel; i++) {
            fputc(',', fp);
            write_cell(fp, json_object_get(rows[r].drive, sel[i]->name),
                       sel[i]->kind);
        }
    }
    fputc('\n', fp);
    rc = tokio__write_check(fp, "cannot write CSV");
done:
    json_decref(index);
    free(rows);
    free(cols);
    free(sel);
    return rc == TOKIO_ENOMEM
        ? tokio__error(rc, "out of memory writing an ISDCT dump as CSV") : rc;
}

/* ---- diff and its reduction (compare_isdct) --------------------------- */

/* One counter's change, as NerscIsdct.diff(): *out the change (a new
 * reference), or NULL when it is left out. */
static int
diff_counter(const char *sn, const char *key, const json_t *old,
             const json_t *now, int report_zeros, json_t **out)
{
    int endurance = strcmp(key, "endurance_analyzer") == 0;
    struct num a, b, r;
    char buf[64], *s;
    const char *o;

    *out = NULL;
    if (json_is_string(now) && !endurance) {
        if (json_equal(now, old))
            return report_zeros && (*out = json_string("")) == NULL
                ? TOKIO_ENOMEM : TOKIO_OK;
        o = str_of(old, buf);
        if ((s = tokio__malloc(json_string_length(now) + strlen(o) + 8)) !=
            NULL) {
            sprintf(s, "+++%s ---%s", json_string_value(now), o);
            *out = json_string(s);
            free(s);
        }
        return *out == NULL ? TOKIO_ENOMEM : TOKIO_OK;
    }
    if (!get_num(now, &a) || !get_num(old, &b))
        return endurance ? TOKIO_OK
            : tokio__error(TOKIO_EFORMAT, "incompatible numeric types for "
                           "%s/%s", sn, key);
    r = arith('-', &a, &b);
    if (!num_finite(&r))
        return counter_error(sn, key, "difference out of range");
    if (!report_zeros && (r.is_int ? r.i == 0 : r.d == 0.0))
        return TOKIO_OK;
    return (*out = num_json(&r)) == NULL ? TOKIO_ENOMEM : TOKIO_OK;
}

int
tokio_nersc_isdct_diff(const struct tokio_nersc_isdct *old_dump,
                       const struct tokio_nersc_isdct *new_dump,
                       int report_zeros, json_t **out)
{
    json_t *res = json_pack("{s:[], s:[], s:{}}", "added_devices",
                            "removed_devices", "devices"), *drive, *v;
    json_t *added = json_object_get(res, "added_devices");
    json_t *removed = json_object_get(res, "removed_devices");
    json_t *devices = json_object_get(res, "devices");
    const char *sn, *key;
    int rc = res == NULL ? TOKIO_ENOMEM : TOKIO_OK;

    *out = NULL;
    json_object_foreach(new_dump->drives, sn, drive) {
        const json_t *old = json_object_get(old_dump->drives, sn);
        json_t *changes, *ch;
        if (rc < 0)
            break;
        if (old == NULL) {
            if (json_array_append_new(added, json_string(sn)) < 0)
                rc = TOKIO_ENOMEM;
            continue;
        }
        rc = set_new(devices, sn, changes = json_object());
        json_object_foreach(drive, key, v) {
            const json_t *ov = json_object_get(old, key);
            /* a counter the old drive lacks: the reference warned */
            if (rc < 0 || ov == NULL)
                continue;
            if ((rc = diff_counter(sn, key, ov, v, report_zeros, &ch)) == 0 &&
                ch != NULL)
                rc = set_new(changes, key, ch);
        }
    }
    json_object_foreach(old_dump->drives, sn, drive)
        if (rc == TOKIO_OK && json_object_get(new_dump->drives, sn) == NULL &&
            json_array_append_new(removed, json_string(sn)) < 0)
            rc = TOKIO_ENOMEM;
    return hand_over(res, rc, "comparing ISDCT dumps", out);
}

/* convert_byte_keys() of one change into `to`: a "_bytes" counter in
 * GiB, each "_bytes" of its name as "_gibs" (str.replace()). */
static int
put_gibs(json_t *to, const char *sn, const char *key, json_t *v)
{
    size_t n = strlen(key);
    struct num x;
    char *name, *q;
    int rc;

    if (n < 6 || strcmp(key + n - 6, "_bytes") != 0)
        return set_new(to, key, json_incref(v));
    if (!get_num(v, &x))
        return counter_error(sn, key, "not a number");
    if ((q = name = tokio__malloc(n + 1)) == NULL)
        return TOKIO_ENOMEM;
    for (const char *p = key; *p != '\0';)
        if (strncmp(p, "_bytes", 6) == 0) {
            q += sprintf(q, "_gibs");
            p += 6;
        } else {
            *q++ = *p++;
        }
    *q = '\0';
    rc = set_new(to, name, json_real(x.d * 0x1p-30));
    free(name);
    return rc;
}

int
tokio_nersc_isdct_diff_gibs(const json_t *diff, json_t **out)
{
    const json_t *devs = json_object_get(diff, "devices");
    json_t *res = tokio__json_copy((json_t *)diff), *ndevs = json_object();
    json_t *c, *v;
    const char *sn, *key;
    int rc = set_new(res, "devices", ndevs);

    *out = NULL;
    if (!json_is_object(devs))
        rc = tokio__error(TOKIO_EFORMAT, "not an ISDCT diff: no devices");
    json_object_foreach((json_t *)devs, sn, c) {
        json_t *nc;
        if (rc < 0 || (rc = set_new(ndevs, sn, nc = json_object())) < 0)
            break;
        json_object_foreach(c, key, v)
            if (rc == TOKIO_OK)
                rc = put_gibs(nc, sn, key, v);
    }
    return hand_over(res, rc, "converting to GiB", out);
}

/* One drive's change `x` into the reduction of counter `key`: red[] are
 * the sums, minimums, maximums and counts. */
static int
reduce_one(json_t *red[4], const char *key, const json_t *x)
{
    const json_t *count = json_object_get(red[3], key);
    const json_t *sum = json_object_get(red[0], key);
    struct num v, s, lo, hi;

    if (set_new(red[3], key, json_integer(count != NULL
                                ? json_integer_value(count) + 1 : 1)) < 0)
        return TOKIO_ENOMEM;
    if (!get_num(x, &v))
        return TOKIO_OK;        /* text changes are only counted */
    if (sum == NULL)    /* the first number (bools as ints, as there) */
        return set_new(red[0], key, num_json(&v)) < 0 ||
               set_new(red[1], key, num_json(&v)) < 0 ||
               set_new(red[2], key, num_json(&v)) < 0
            ? TOKIO_ENOMEM : TOKIO_OK;
    get_num(sum, &s);
    get_num(json_object_get(red[1], key), &lo);
    get_num(json_object_get(red[2], key), &hi);
    s = arith('+', &s, &v);
    if (!num_finite(&s))
        return tokio__error(TOKIO_EFORMAT, "counter '%s': sum over the "
                            "drives out of range", key);
    /* min(value, cur) and max(value, cur) as Python picks */
    if (set_new(red[0], key, num_json(&s)) < 0 ||
        (!num_less(&lo, &v) && set_new(red[1], key, num_json(&v)) < 0) ||
        (!num_less(&v, &hi) && set_new(red[2], key, num_json(&v)) < 0))
        return TOKIO_ENOMEM;
    return TOKIO_OK;
}

int
tokio_nersc_isdct_reduce_diff(const json_t *diff, json_t **out)
{
    static const char *const names[4] = { "sum_", "min_", "max_", "count_" };
    const json_t *devs = json_object_get(diff, "devices");
    json_t *red[4] = { json_object(), json_object(), json_object(),
                       json_object() };
    json_t *res = json_object(), *c, *v;
    const char *sn, *key;
    int rc = TOKIO_OK;

    *out = NULL;
    if (!json_is_object(devs))
        rc = tokio__error(TOKIO_EFORMAT, "not an ISDCT diff: no devices");
    else if (!red[0] || !red[1] || !red[2] || !red[3] || !res)
        rc = TOKIO_ENOMEM;
    json_object_foreach((json_t *)devs, sn, c)
        json_object_foreach(c, key, v)
            if (rc == TOKIO_OK)
                rc = reduce_one(red, key, v);
    /* the reference's order: sum (each with its ave), min, max, count */
    for (int k = 0; k < 4 && rc == TOKIO_OK; k++) {
        json_object_foreach(red[k], key, v) {
            char *name = tokio__malloc(strlen(key) + 8);
            struct num n;
            if (name == NULL) {
                rc = TOKIO_ENOMEM;
                break;
            }
            sprintf(name, "%s%s", names[k], key);
            rc = set_new(res, name, json_incref(v));
            if (rc == TOKIO_OK && k == 0 && get_num(v, &n)) {
                sprintf(name, "ave_%s", key);
                rc = set_new(res, name, json_real(n.d / (double)
                    json_integer_value(json_object_get(red[3], key))));
            }
            free(name);
            if (rc < 0)
                break;
        }
    }
    for (int k = 0; k < 4; k++)
        json_decref(red[k]);
    return hand_over(res, rc, "reducing an ISDCT diff", out);
}

/* ---- the summary (compare_isdct --summary) ---------------------------- */

/* datetime.fromtimestamp(first drive's timestamp) as str() prints it. */
static int
dump_time(const struct tokio_nersc_isdct *d, const char *which, char *buf,
          size_t size)
{
    void *it = json_object_iter(d->drives);
    const json_t *ts;
    struct num n;
    struct tm tm;
    double whole;
    long usec;
    time_t t;
    size_t k;

    if (it == NULL)
        return tokio__error(TOKIO_EFORMAT, "the %s ISDCT dump is empty",
                            which);
    ts = json_object_get(json_object_iter_value(it), "timestamp");
    if (ts == NULL || json_is_boolean(ts) || !get_num(ts, &n))
        return tokio__error(TOKIO_EFORMAT, "drive '%s' of the %s ISDCT dump "
                            "has no timestamp", json_object_iter_key(it),
                            which);
    whole = n.is_int ? n.d : floor(n.d);
    usec = n.is_int ? 0 : lround((n.d - whole) * 1e6);
    whole += usec >= 1000000;
    usec %= 1000000;
    t = (time_t)whole;
    if (!(fabs(whole) < 1e15) || localtime_r(&t, &tm) == NULL)
        return tokio__error(TOKIO_EFORMAT, "the %s ISDCT dump's timestamp "
                            "is out of range", which);
    k = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
    if (usec != 0 && k > 0)
        snprintf(buf + k, size - k, ".%06ld", usec);
    return TOKIO_OK;
}

/* A drive's node_name as %s prints it; NULL (the error set) if none. */
static const char *
node_of(const struct tokio_nersc_isdct *d, const char *sn, char *buf)
{
    const json_t *node = json_object_get(json_object_get(d->drives, sn),
                                         "node_name");

    if (node == NULL)
        tokio__error(TOKIO_EFORMAT, "drive '%s' has no node_name", sn);
    return node == NULL ? NULL : str_of(node, buf);
}

/* A reduced counter as a float, 0 when absent (dict.get(key, 0)). */
static double
reduced_get(const json_t *reduced, const char *key)
{
    struct num n;

    return get_num(json_object_get(reduced, key), &n) ? n.d : 0.0;
}

int
tokio_nersc_isdct_write_summary(const struct tokio_nersc_isdct *old_dump,
                                const struct tokio_nersc_isdct *new_dump,
                                const json_t *diff, FILE *fp)
{
    static const char *const heads[2] = {
        "\n=== Devices Removed ===\n", "\n=== Devices Installed ===\n"
    };
    static const char *const lists[2] = { "removed_devices", "added_devices" };
    const json_t *devs = json_object_get(diff, "devices"), *c, *sv;
    json_t *reduced = NULL;
    char t0[64], t1[64], buf[64], vbuf[64];
    const char *sn, *node;
    double rd, wr;
    int rc, nerr = 0;
    size_t i;

    if ((rc = tokio_nersc_isdct_reduce_diff(diff, &reduced)) < 0 ||
        (rc = dump_time(old_dump, "old", t0, sizeof(t0))) < 0 ||
        (rc = dump_time(new_dump, "new", t1, sizeof(t1))) < 0)
        goto done;
    fprintf(fp, "=== ISDCT Summary: %s - %s ===\n", t0, t1);
    /* summarize_errors(): drives in diff order, keys in ERROR_KEYS order */
    json_object_foreach((json_t *)devs, sn, c) {
        for (size_t k = 0; k < N_ERROR_KEYS; k++) {
            const json_t *v = json_object_get(c, ERROR_KEYS[k]);
            if (v == NULL)
                continue;
            if ((node = node_of(new_dump, sn, buf)) == NULL) {
                rc = TOKIO_EFORMAT;
                goto done;
            }
            fprintf(fp, "%s%s %s %s %s\n", nerr++ == 0
                    ? "\n*** Errors Detected! ***\n" : "", node, sn,
                    ERROR_KEYS[k], str_of(v, vbuf));
        }
    }
    for (int w = 0; w < 2; w++) {
        const json_t *list = json_object_get(diff, lists[w]);
        if (json_array_size(list) > 0)
            fputs(heads[w], fp);
        json_array_foreach(list, i, sv) {
            if (!json_is_string(sv)) {
                rc = tokio__error(TOKIO_EFORMAT, "not an ISDCT diff");
                goto done;
            }
            if ((node = node_of(w == 0 ? old_dump : new_dump,
                                json_string_value(sv), buf)) == NULL) {
                rc = TOKIO_EFORMAT;
                goto done;
            }
            fprintf(fp, "%s %s\n", node, json_string_value(sv));
        }
    }
    /* summarize_reduced_diffs(): "TiB" from bytes, or the GiB sums as
     * they are when --gibs converted them (the reference's labels) */
    if (json_object_get(reduced, "sum_data_units_read_gibs") == NULL) {
        rd = reduced_get(reduced, "sum_data_units_read_bytes") * 0x1p-40;
        wr = reduced_get(reduced, "sum_data_units_written_bytes") * 0x1p-40;
    } else {
        rd = reduced_get(reduced, "sum_data_units_read_gibs");
        wr = reduced_get(reduced, "sum_data_units_written_gibs");
    }
    fprintf(fp, "\n=== Workload Statistics ===\n"
            "Read:    %10.2f TiB, %10.2f MOps\n"
            "Written: %10.2f TiB, %10.2f MOps\nWAF:     %+10.4f\n\n", rd,
            reduced_get(reduced, "sum_host_read_commands") / 1000000.0, wr,
            reduced_get(reduced, "sum_host_write_commands") / 1000000.0,
            reduced_get(reduced, "max_write_amplification_factor"));
    rc = tokio__write_check(fp, "cannot write the summary");
done:
    json_decref(reduced);
    return rc;
}
