/*
 * src/connectors/nersc_isdct.c - NERSC's daily dumps of Intel SSD
 * counters: the text outputs of Intel's ISDCT tool (3.x, as run by NERSC's
 * collection script on Cray burst-buffer nodes), one file per command per
 * drive, in a folder per node (nid01234/ssd0_smart_info.txt), all in a
 * folder or tarball, optionally with an empty timestamp_YYYYmmddHHMMSS
 * file; or such a dump saved as JSON.  Mirrors
 * tokio.connectors.nersc_isdct.NerscIsdct (pytokio 0.13) and the diff
 * reductions of tokio.cli.compare_isdct.
 *
 * Every flavour the reference reads is recognised by its header line:
 *   "- Intel SSD DC P3608 Series CVF...-1 -"   (show -a, -sensor,
 *                                              -performance): Key : value
 *   "- SMART and Health Information CVF...-1 -" (show -smarthealthinfo):
 *                                              Key : value
 *   "- SMART Attributes CVF...-1 -"            (show -smart): registers,
 *       each "- AB -" then Key : value lines, renamed SMART_<Description>_Key
 * Keys become snake_case; values are recast as tokio.common.recast_string
 * does; temperature, throttle_status and endurance_analyzer lose their
 * unit to a "<name>_unit" counter; then *_bytes and the write
 * amplification factor are synthesized.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/sample_nersc_isdct*.
 * Goldens: ../shared/testdata/golden/pytokio/{cache_isdct,nersc_isdct,
 * compare_isdct}/.
 *
 * Differs from pytokio, all on input ISDCT never prints:
 * - After a drive's header line, a line that is neither blank nor
 *   "key : value" (nor, in SMART output, a "- ID -" register line) is
 *   TOKIO_EFORMAT naming the archive, member and line: the reference
 *   skipped it (or, for a lone "-", crashed), silently dropping counters
 *   or merging a second drive's counters into the first.  So are a NUL
 *   byte and invalid UTF-8 (the reference failed to decode).
 * - Lines end at "\n" only, whitespace and letter case are ASCII's (so a
 *   non-ASCII capital in a key does not start a new word).  A node folder
 *   whose name is not UTF-8 is TOKIO_EFORMAT.
 * - Folders are walked in sorted order (src/core/collection.c), not in
 *   os.walk()'s directory order; where two members of a drive disagree
 *   (-performance and -smarthealthinfo both give host_read_commands),
 *   the last one read wins in both, so the winner can differ.
 * - The timestamp file's name must end in exactly 14 digits making a
 *   valid local time (strptime takes some shorter forms too).
 * - An empty temperature/throttle_status/endurance_analyzer value has no
 *   unit (the reference raised IndexError).
 * - Integer arithmetic that leaves int64 gives a real (Python integers
 *   have no limit); a synthesized or diffed number that is not finite, or
 *   a text value where a number is needed (the reference repeated the
 *   string 512000 times or raised TypeError) is TOKIO_EFORMAT naming the
 *   drive and counter.
 * As in pytokio, a counter that is null (or text against a number) in the
 * two dumps cannot be compared (None - None), but for endurance_analyzer.
 */
#include "tokio/connectors/nersc_isdct.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/util.h"
#include "core/alloc.h"
#include "core/collection.h"
#include "core/error.h"
#include "core/text.h"
#include "core/json.h"

/* The three header kinds the reference's REX_SERIAL_NO knows; the first
 * two hold "Key : value" lines, the last SMART registers. */
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

/* compare_isdct's ERROR_KEYS: a change in any of these flags the drive. */
static const char *const ERROR_KEYS[] = {
    "crc_error_count",
    "critical_warnings",
    "end_to_end_error_detection_count",
    "erase_fail_count",
    "media_errors",
    "number_of_error_info_log_entries",
    "pci_link_gen_speed",
    "pci_link_width",
    "program_fail_count",
    "smart_crc_error_count_raw",
    "smart_endto_end_error_detection_count_raw",
    "smart_erase_fail_count_raw",
    "smart_pli_lock_loss_count_raw",
    "smart_program_fail_count_raw",
    "thermal_throttle_count",
};
#define N_ERROR_KEYS (sizeof(ERROR_KEYS) / sizeof(ERROR_KEYS[0]))

struct tokio_nersc_isdct {
    json_t *devices;    /* serial -> counters object, first-seen order */
};

/* A SMART register has half a dozen lines; past this many its keys are
 * looked up through an index instead of one by one, so that a garbled
 * register of a million lines costs no million squared comparisons. */
#define SMART_LINEAR_MAX 32

/* Longest SMART description used as a key prefix: real ones are under 64
 * bytes, and each of a register's keys is prefixed with it, so a long one
 * would multiply the input's size. */
#define SMART_PREFIX_MAX 256

/* Values 0 .. SHARED_INTS-1 are one json_t each, shared by all drives:
 * most counters are small, and one allocation less per counter counts. */
#define SHARED_INTS 1024

/* One line of a SMART register: key (normalized, borrowed from the key
 * cache) and value (a span of the member being parsed). */
struct smart_kv {
    const char *key;
    const char *v;
    size_t vlen;
};

struct parse {
    json_t *devices;
    json_t *keys;           /* raw key -> normalized key, see cached_key */
    json_t *smart_keys;     /* the same for composed SMART keys */
    json_t *texts;          /* raw text -> its (text) value, shared */
    json_t *ints[SHARED_INTS];  /* small integer values, shared */
    struct smart_kv *smart; /* the register being read, reused */
    size_t n_smart, cap_smart;
    json_t *smart_index;    /* key -> its place, once a register is big */
    char *scratch;          /* composed SMART keys, reused */
    size_t cap_scratch;
    const char *arch;       /* the archive or folder, for messages */
    char *cwd;              /* for node names of bare member names */
    char *ts_text;          /* the timestamp file's digits, if any */
    char *ts_member_copy;
    int have_mtime;
    int64_t min_mtime;
};

/* ---- small helpers ---------------------------------------------------- */

static void
strip(const char **b, const char **e)
{
    while (*b < *e && tokio__py_space((unsigned char)**b))
        (*b)++;
    while (*e > *b && tokio__py_space((unsigned char)(*e)[-1]))
        (*e)--;
}

static int
is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A JSON string of valid UTF-8 bytes (checked by the caller). */
static json_t *
string_n(const char *s, size_t len)
{
    return json_stringn_nocheck(s, len);
}

/* Set `key` (NUL-ended, valid UTF-8) to `value` (stolen). */
static int
set_new(json_t *obj, const char *key, json_t *value)
{
    if (value == NULL || json_object_set_new_nocheck(obj, key, value) < 0)
        return TOKIO_ENOMEM;
    return TOKIO_OK;
}

/* ---- numbers as Python computes with them ----------------------------- */

/* An int, float or bool counter; bools count as 0 and 1, as in Python. */
struct num {
    int is_int;
    int64_t i;
    double d;
};

static int
get_num(const json_t *v, struct num *n)
{
    if (json_is_integer(v)) {
        n->is_int = 1;
        n->i = json_integer_value(v);
        n->d = (double)n->i;
    } else if (json_is_real(v)) {
        n->is_int = 0;
        n->d = json_real_value(v);
    } else if (json_is_boolean(v)) {
        n->is_int = 1;
        n->i = json_is_true(v);
        n->d = (double)n->i;
    } else {
        return 0;
    }
    return 1;
}

static double
num_double(const struct num *n)
{
    return n->is_int ? (double)n->i : n->d;
}

/* The value of `n`, NULL if out of memory or not finite (jansson holds
 * no inf; *bad_out tells which). */
static json_t *
num_json(const struct num *n, int *bad_out)
{
    *bad_out = 0;
    if (n->is_int)
        return json_integer(n->i);
    if (!isfinite(n->d)) {
        *bad_out = 1;
        return NULL;
    }
    return json_real(n->d);
}

static struct num
num_sub(const struct num *a, const struct num *b)
{
    struct num r = { 1, 0, 0 };

    if (a->is_int && b->is_int && !__builtin_sub_overflow(a->i, b->i, &r.i))
        return r;
    r.is_int = 0;
    r.d = num_double(a) - num_double(b);
    return r;
}

static struct num
num_add(const struct num *a, const struct num *b)
{
    struct num r = { 1, 0, 0 };

    if (a->is_int && b->is_int && !__builtin_add_overflow(a->i, b->i, &r.i))
        return r;
    r.is_int = 0;
    r.d = num_double(a) + num_double(b);
    return r;
}

static struct num
num_mul(const struct num *a, int64_t factor)
{
    struct num r = { 1, 0, 0 };

    if (a->is_int && !__builtin_mul_overflow(a->i, factor, &r.i))
        return r;
    r.is_int = 0;
    r.d = num_double(a) * (double)factor;
    return r;
}

/* a < b exactly, as Python compares an int with a float. */
static int
num_less(const struct num *a, const struct num *b)
{
    if (a->is_int && b->is_int)
        return a->i < b->i;
    double x = num_double(a), y = num_double(b);
    if (x != y)
        return x < y;
    /* equal as doubles: an int side is exactly representable in range,
     * so compare it with the other side's integral value */
    if (a->is_int && !b->is_int && fabs(y) < 9.2e18)
        return a->i < (int64_t)y;
    if (b->is_int && !a->is_int && fabs(x) < 9.2e18)
        return (int64_t)x < b->i;
    return 0;
}

static int
num_is_zero(const struct num *n)
{
    return n->is_int ? n->i == 0 : n->d == 0.0;
}

/* Python's str() of a non-text counter value into `buf` (>= 64 bytes). */
static void
py_str_number(const json_t *v, char *buf, size_t size)
{
    if (json_is_integer(v))
        snprintf(buf, size, "%" PRId64, (int64_t)json_integer_value(v));
    else if (json_is_real(v))
        tokio_format_double(buf, size, json_real_value(v));
    else if (json_is_true(v))
        snprintf(buf, size, "True");
    else if (json_is_false(v))
        snprintf(buf, size, "False");
    else if (json_is_null(v))
        snprintf(buf, size, "None");
    else
        snprintf(buf, size, "?");
}

/* Python's str() of a counter value into a new string (caller frees). */
static char *
py_str(const json_t *v)
{
    char buf[64];

    if (json_is_string(v))
        return tokio__strndup(json_string_value(v), json_string_length(v));
    py_str_number(v, buf, sizeof(buf));
    return tokio__strdup(buf);
}

/* ---- key normalization (nersc_isdct.py, _normalize_key) -------------- */

/*
 * Intel's mix of CamelCase and spaced words into snake_case, into a new
 * string: strip; spaces become "_", dashes vanish; "NVMe" and "SMBus" are
 * lowered first so they stay one word; then "_" goes before a capital
 * that follows a non-capital, or that ends a run of capitals (IOQueue ->
 * io_queue); repeated "_" collapse; all lower case.
 */
static char *
normalize_key(const char *b, const char *e)
{
    strip(&b, &e);
    size_t n = (size_t)(e - b), m = 0;
    char *tmp = tokio__malloc(n + 1), *out;

    if (tmp == NULL)
        return NULL;
    for (const char *p = b; p < e; p++) {
        if (*p == '-')
            continue;
        tmp[m++] = *p == ' ' ? '_' : *p;
    }
    tmp[m] = '\0';
    /* same-length replacements, the first everywhere before the second */
    for (char *p = tmp; (p = strstr(p, "NVMe")) != NULL; p += 4)
        memcpy(p, "nvme", 4);
    for (char *p = tmp; (p = strstr(p, "SMBus")) != NULL; p += 5)
        memcpy(p, "smbus", 5);

    if ((out = tokio__malloc(2 * m + 1)) == NULL) {
        free(tmp);
        return NULL;
    }
    size_t k = 0;
    int have_last = 0;
    char last = 0;
    for (size_t i = 0; i < m; i++) {
        char c = tmp[i];
        int have_next = i + 1 < m;
        char next = have_next ? tmp[i + 1] : 0;

        if (c == '_' && have_last && last == '_')
            continue;
        if (have_last && last != '_' && is_upper(c)) {
            if (!is_upper(last))
                out[k++] = '_';
            else if (have_next && !is_upper(next) && next != '_')
                out[k++] = '_';
        }
        out[k++] = c;
        last = c;
        have_last = 1;
    }
    out[k] = '\0';
    for (size_t i = 0; i < k; i++)
        if (is_upper(out[i]))
            out[i] = (char)(out[i] - 'A' + 'a');
    free(tmp);
    return out;
}

/* ---- the header line (nersc_isdct.py, REX_SERIAL_NO) ------------------ */

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
    /* rightmost candidate first: p such that s[p..] = "CVF", s[p+3] is
     * not a space, and the non-space run from p+3 holds "-<digit>" at
     * q >= p+4; `dash` is the last such q in the run seen so far from the
     * right (SIZE_MAX when none). */
    size_t best_p = SIZE_MAX, best_q = 0, dash = SIZE_MAX;

    for (size_t j = len; j-- > 0;) {
        if (s[j] == ' ') {
            dash = SIZE_MAX;
            continue;
        }
        if (dash == SIZE_MAX && s[j] == '-' && j + 1 < len &&
            is_digit(s[j + 1]))
            dash = j;
        /* j is p+3 of a candidate? (dash >= j + 1 means q >= p + 4) */
        if (j >= 3 && dash != SIZE_MAX && dash >= j + 1 &&
            memcmp(s + j - 3, "CVF", 3) == 0) {
            best_p = j - 3;
            best_q = dash;
            break;
        }
    }
    if (best_p == SIZE_MAX)
        return -1;
    for (size_t i = 0; i <= best_p; i++) {
        for (int k = 0; k < 3; k++) {
            size_t kl = strlen(HEADER_KINDS[k]);
            if (kl <= len - i && memcmp(s + i, HEADER_KINDS[k], kl) == 0) {
                if (i + kl > best_p)
                    return -1;
                size_t e = best_q + 1;
                while (e < len && is_digit(s[e]))
                    e++;
                *sn_b = best_p;
                *sn_e = e;
                return k;
            }
        }
    }
    return -1;
}

/*
 * 0 when no int(), float() or int(x, 16) could take `s`: it holds an
 * ASCII letter that is neither a hex digit nor in "inf"/"nan"/"infinity"
 * /"x", or punctuation other than "+-._".  Other bytes (non-ASCII digits
 * are digits to Python) leave the answer to the general parser.
 */
static int
maybe_number(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80 || is_digit((char)c) || strchr("+-._", c) != NULL)
            continue;
        c |= 0x20;
        if (c >= 'a' && c <= 'z' && strchr("abcdefintxy", c) != NULL)
            continue;
        return 0;
    }
    return 1;
}

/*
 * Hex digits alone ("AB", "8B1B0130") that int() and float() refuse, so
 * int(x, 16) takes them: any letter but e/E, or an e/E that float() could
 * not read as an exponent (first, last, or twice: "1E5" is 100000.0).
 */
static int
bare_hex(const char *s, size_t n, int64_t *out)
{
    size_t n_e = 0, other = 0;
    int64_t v = 0;

    for (size_t i = 0; i < n; i++) {
        int c = s[i] | 0x20;
        if (is_digit(s[i]))
            v = v * 16 + (s[i] - '0');
        else if (c >= 'a' && c <= 'f')
            v = v * 16 + (c - 'a' + 10);
        else
            return 0;
        n_e += c == 'e';
        other += c >= 'a' && c <= 'f' && c != 'e';
    }
    if (other == 0 && !(n_e >= 2 || (s[0] | 0x20) == 'e' ||
                        (s[n - 1] | 0x20) == 'e'))
        return 0;
    *out = v;
    return 1;
}

/*
 * tokio_recast_string() with the common cases first: most counters are
 * plain decimals or 0x-hex that fit easily, and text holding a space can
 * be no number (int() and float() take no inner blanks); both skip the
 * general parser, which was a sixth of the time.
 */
static json_t *
recast(struct parse *p, const char *s, size_t n)
{
    int64_t v = 0;

    if (n > 2 && n <= 17 && s[0] == '0' && (s[1] | 0x20) == 'x') {
        size_t k = 2;
        for (; k < n; k++) {
            int c = s[k] | 0x20;
            if (is_digit(s[k]))
                v = v * 16 + (s[k] - '0');
            else if (c >= 'a' && c <= 'f')
                v = v * 16 + (c - 'a' + 10);
            else
                break;
        }
        if (k == n)
            return json_integer(v);
    } else if (n > 0 && n <= 18) {
        size_t i = s[0] == '-' || s[0] == '+', k = i;
        while (k < n && is_digit(s[k]))
            v = v * 10 + (s[k++] - '0');
        if (k == n && k > i) {
            if (s[0] == '-' || v >= SHARED_INTS)
                return json_integer(s[0] == '-' ? -v : v);
            if (p->ints[v] == NULL && (p->ints[v] = json_integer(v)) == NULL)
                return NULL;
            return json_incref(p->ints[v]);
        }
    }
    if (n > 0 && n <= 15 && bare_hex(s, n, &v))
        return json_integer(v);
    if (n == 4 && memcmp(s, "True", 4) == 0)
        return json_true();
    if (n == 5 && memcmp(s, "False", 5) == 0)
        return json_false();
    if (n == 4 && memcmp(s, "null", 4) == 0)
        return json_null();
    /* text values repeat across drives ("Pass", descriptions, models):
     * share them; a failure to remember one only costs speed */
    json_t *value = json_object_getn(p->texts, s, n);
    if (value != NULL)
        return json_incref(value);
    if (memchr(s, ' ', n) != NULL || !maybe_number(s, n)) {
        value = json_stringn_nocheck(s, n);
    } else {
        /* `s` is a span of the member: the general parser wants a C
         * string */
        char small[128], *copy = n < sizeof(small) ? small
                                                   : tokio__malloc(n + 1);
        if (copy == NULL)
            return NULL;
        memcpy(copy, s, n);
        copy[n] = '\0';
        value = tokio_recast_string(copy);
        if (copy != small)
            free(copy);
    }
    if (json_is_string(value) && n < 128)
        (void)json_object_setn_nocheck(p->texts, s, n, value);
    return value;
}

/* Counters whose unit the reference splits off after the merge, so they
 * stay text until then (recast_units()). */
static int
has_unit(const char *key)
{
    if (key[0] != 't' && key[0] != 'e')
        return 0;
    return strcmp(key, "temperature") == 0 ||
           strcmp(key, "throttle_status") == 0 ||
           strcmp(key, "endurance_analyzer") == 0;
}

/*
 * A native counter's value.  The reference recast every value once all
 * members were merged; recasting as each is stored gives the same, the
 * last value stored being the one recast, except for the counters with
 * a unit, kept as text for recast_units().
 */
static json_t *
native_value(struct parse *p, const char *key, const char *v, size_t n)
{
    return has_unit(key) ? json_stringn_nocheck(v, n) : recast(p, v, n);
}


/* ---- one member: the output of one isdct command ---------------------- */

/*
 * normalize_key() through a cache: every drive repeats the same couple of
 * hundred keys, and normalizing each anew was a fifth of the parse.  With
 * `twice`, the key is normalized a second time, as the reference does
 * for SMART registers (not always a no-op: a tab left last by dropping a
 * dash is stripped then), and cached apart.  The key (a string value,
 * for its length) is borrowed from the cache; NULL when out of memory.
 */
static const json_t *
cached_key(struct parse *p, const char *b, const char *e, int twice)
{
    json_t *cache = twice ? p->smart_keys : p->keys, *hit, *v;
    size_t n = (size_t)(e - b);
    char *k, *k2;

    if ((hit = json_object_getn(cache, b, n)) != NULL)
        return hit;
    if ((k = normalize_key(b, e)) == NULL)
        return NULL;
    if (twice) {
        k2 = normalize_key(k, k + strlen(k));
        free(k);
        if ((k = k2) == NULL)
            return NULL;
    }
    v = json_string_nocheck(k);
    free(k);
    if (v == NULL || json_object_setn_new_nocheck(cache, b, n, v) < 0)
        return NULL;
    return v;
}

/* data[key] = value (stolen), key a string value from the cache. */
static int
set_key(json_t *data, const json_t *key, json_t *value)
{
    if (value == NULL ||
        json_object_setn_new_nocheck(data, json_string_value(key),
                                     json_string_length(key), value) < 0)
        return TOKIO_ENOMEM;
    return TOKIO_OK;
}

/*
 * The node a member belongs to, as _decode_nersc_nid(): the last folder
 * of os.path.abspath(name) - a member without folders takes the current
 * folder's name, as the reference's abspath() did.
 */
static char *
node_name(struct parse *p, const char *member)
{
    const char *comp[2] = { NULL, NULL };   /* the last two components */
    size_t clen[2] = { 0, 0 };
    /* components of cwd + member, normalised; only the stack's top two
     * matter, but ".." can uncover older ones, so keep them all */
    size_t cap = 16, n = 0;
    const char **stack = tokio__malloc(cap * sizeof(*stack));
    size_t *lens = tokio__malloc(cap * sizeof(*lens));
    char *out = NULL;
    const char *parts[2] = { NULL, member };

    if (stack == NULL || lens == NULL)
        goto done;
    if (member[0] != '/') {
        if (p->cwd == NULL) {
            char buf[4096];
            p->cwd = tokio__strdup(getcwd(buf, sizeof(buf)) ? buf : "/");
            if (p->cwd == NULL)
                goto done;
        }
        parts[0] = p->cwd;
    }
    for (int k = 0; k < 2; k++) {
        const char *s = parts[k];
        while (s != NULL && *s != '\0') {
            const char *e = strchr(s, '/');
            size_t l = e ? (size_t)(e - s) : strlen(s);
            if (l == 0 || (l == 1 && s[0] == '.')) {
                /* nothing */
            } else if (l == 2 && s[0] == '.' && s[1] == '.') {
                if (n > 0)
                    n--;
            } else {
                if (n == cap) {
                    const char **ns = tokio__reallocarray(stack, cap * 2,
                                                          sizeof(*ns));
                    if (ns == NULL)
                        goto done;
                    stack = ns;
                    size_t *nl = tokio__reallocarray(lens, cap * 2,
                                                     sizeof(*nl));
                    if (nl == NULL)
                        goto done;
                    lens = nl;
                    cap *= 2;
                }
                stack[n] = s;
                lens[n++] = l;
            }
            s = e ? e + 1 : s + l;
        }
    }
    if (n >= 2) {
        comp[0] = stack[n - 2];
        clen[0] = lens[n - 2];
    }
    out = comp[0] ? tokio__strndup(comp[0], clen[0]) : tokio__strdup("");
done:
    free(stack);
    free(lens);
    return out;
}

/* smart_buffer[key] = value: a new key goes last, a known one keeps its
 * place (a dict). */
static size_t
smart_find(const struct parse *p, const char *key)
{
    if (p->n_smart > SMART_LINEAR_MAX) {
        const json_t *ix = json_object_get(p->smart_index, key);
        return ix == NULL ? SIZE_MAX : (size_t)json_integer_value(ix);
    }
    for (size_t i = 0; i < p->n_smart; i++)
        if (strcmp(p->smart[i].key, key) == 0)
            return i;
    return SIZE_MAX;
}

static int
smart_set(struct parse *p, const char *key, const char *v, size_t n)
{
    size_t i = smart_find(p, key);

    if (i != SIZE_MAX) {
        p->smart[i].v = v;
        p->smart[i].vlen = n;
        return TOKIO_OK;
    }
    if (p->n_smart == p->cap_smart) {
        size_t cap = p->cap_smart ? 2 * p->cap_smart : 16;
        struct smart_kv *g = tokio__reallocarray(p->smart, cap, sizeof(*g));
        if (g == NULL)
            return TOKIO_ENOMEM;
        p->smart = g;
        p->cap_smart = cap;
    }
    i = p->n_smart;
    p->smart[i].key = key;
    p->smart[i].v = v;
    p->smart[i].vlen = n;
    if (i == SMART_LINEAR_MAX) {
        /* from now on through the index: put the first ones in */
        if (p->smart_index == NULL && (p->smart_index = json_object()) == NULL)
            return TOKIO_ENOMEM;
        for (size_t k = 0; k < i; k++)
            if (set_new(p->smart_index, p->smart[k].key,
                        json_integer((json_int_t)k)) < 0)
                return TOKIO_ENOMEM;
    }
    if (i >= SMART_LINEAR_MAX &&
        set_new(p->smart_index, key, json_integer((json_int_t)i)) < 0)
        return TOKIO_ENOMEM;
    p->n_smart++;
    return TOKIO_OK;
}

static const struct smart_kv *
smart_get(const struct parse *p, const char *key)
{
    size_t i = smart_find(p, key);
    return i == SIZE_MAX ? NULL : &p->smart[i];
}

/* Forget the register: the next "- ID -" line starts another. */
static void
smart_reset(struct parse *p)
{
    if (p->n_smart > SMART_LINEAR_MAX)
        json_object_clear(p->smart_index);
    p->n_smart = 0;
}

/* _rekey_smart_buffer(): a register's lines as SMART_<Description>_<key>
 * counters (or SMART_<ID>_<key> without a description) into `data`. */
static int
flush_smart(struct parse *p, json_t *data, const char *member, size_t lineno)
{
    const struct smart_kv *pv = smart_get(p, "description");
    const char *prefix = "None";
    size_t plen = 4;

    if (pv == NULL)
        pv = smart_get(p, "_id");
    if (pv != NULL) {
        prefix = pv->v;
        plen = pv->vlen;
    }
    if (plen > SMART_PREFIX_MAX)
        return tokio__error(TOKIO_EFORMAT, "'%s' member '%s' line %zu: "
                            "SMART register description or id longer than "
                            "%d bytes", p->arch, member, lineno,
                            SMART_PREFIX_MAX);
    for (size_t i = 0; i < p->n_smart; i++) {
        const char *kb = p->smart[i].key, *ke = kb + strlen(kb);
        strip(&kb, &ke);
        size_t kl = (size_t)(ke - kb), need = plen + kl + 8;
        if (need > p->cap_scratch) {
            char *g = tokio__realloc(p->scratch, need);
            if (g == NULL)
                return TOKIO_ENOMEM;
            p->scratch = g;
            p->cap_scratch = need;
        }
        char *raw = p->scratch;
        size_t m = 0;
        memcpy(raw, "SMART_", 6);
        m = 6;
        memcpy(raw + m, prefix, plen);
        m += plen;
        raw[m++] = '_';
        memcpy(raw + m, kb, kl);
        m += kl;
        /* .replace("-", "").replace(" ", "_") before normalizing */
        size_t w = 0;
        for (size_t r = 0; r < m; r++) {
            if (raw[r] == '-')
                continue;
            raw[w++] = raw[r] == ' ' ? '_' : raw[r];
        }
        /* normalized by _rekey_smart_buffer(), then by the caller */
        const json_t *key = cached_key(p, raw, raw + w, 1);
        if (key == NULL)
            return TOKIO_ENOMEM;
        const char *vb = p->smart[i].v, *ve = vb + p->smart[i].vlen;
        strip(&vb, &ve);
        int rc = set_key(data, key, native_value(p, json_string_value(key),
                                                 vb, (size_t)(ve - vb)));
        if (rc < 0)
            return rc;
    }
    smart_reset(p);
    return TOKIO_OK;
}

static int
line_error(const struct parse *p, const char *member, size_t lineno,
           const char *what)
{
    return tokio__error(TOKIO_EFORMAT, "'%s' member '%s' line %zu: %s",
                        p->arch, member, lineno, what);
}

/* data[normalize(key)] = strip(value), or into the SMART register being
 * read when `data` is NULL. */
static int
set_pair(struct parse *p, json_t *data, const char *b, const char *colon,
         const char *e)
{
    const json_t *key = cached_key(p, b, colon, 0);
    const char *vb = colon + 1, *ve = e;

    if (key == NULL)
        return TOKIO_ENOMEM;
    strip(&vb, &ve);
    if (data == NULL)
        return smart_set(p, json_string_value(key), vb, (size_t)(ve - vb));
    return set_key(data, key, native_value(p, json_string_value(key), vb,
                                           (size_t)(ve - vb)));
}

/*
 * parse_counters_fileobj() and _merge_parsed_counters() in one: the
 * counters of the one drive a member describes go straight into that
 * drive's object, later members updating earlier ones in place, which is
 * what dict.update() did.  A member naming no drive adds nothing (the
 * reference warned and skipped it).
 */
static int
parse_lines(struct parse *p, const char *member, const unsigned char *buf,
            size_t len)
{
    const char *s = (const char *)buf, *end = s + len;
    json_t *data = NULL;
    int mode = -1, rc = TOKIO_OK;
    size_t lineno = 0;

    smart_reset(p);
    while (s < end && rc == TOKIO_OK) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *b = s, *e = nl ? nl : end;

        s = nl ? nl + 1 : end;
        lineno++;
        if (memchr(b, '\0', (size_t)(e - b)) != NULL) {
            rc = line_error(p, member, lineno, "NUL byte");
            break;
        }
        if (!tokio__utf8_valid((const unsigned char *)b, (size_t)(e - b))) {
            rc = line_error(p, member, lineno, "not UTF-8 text");
            break;
        }
        strip(&b, &e);
        size_t n = (size_t)(e - b);
        const char *colon = memchr(b, ':', n);

        if (data == NULL) {
            size_t snb, sne;
            int kind = find_serial(b, n, &snb, &sne);
            if (kind < 0)
                continue;
            data = json_object_getn(p->devices, b + snb, sne - snb);
            if (data == NULL &&
                ((data = json_object()) == NULL ||
                 json_object_setn_new_nocheck(p->devices, b + snb,
                                              sne - snb, data) < 0)) {
                data = NULL;
                rc = TOKIO_ENOMEM;
                break;
            }
            char *name = node_name(p, member);
            if (name == NULL) {
                rc = TOKIO_ENOMEM;
            } else if (!tokio__utf8_valid((const unsigned char *)name,
                                   strlen(name))) {
                rc = line_error(p, member, lineno,
                                "the node's folder name is not UTF-8");
            } else {
                rc = set_new(data, "node_name",
                             native_value(p, "node_name", name,
                                          strlen(name)));
            }
            free(name);
            mode = kind == SMART_ATTRIBUTES;
        } else if (colon != NULL) {
            rc = set_pair(p, mode == 1 ? NULL : data, b, colon, e);
        } else if (n == 0) {
            continue;
        } else if (mode == 1 && b[0] == '-' && e[-1] == '-') {
            /* "- AB -": a new register, named by the second word */
            const char *t = b;
            while (t < e && !tokio__py_space((unsigned char)*t))
                t++;
            while (t < e && tokio__py_space((unsigned char)*t))
                t++;
            const char *te = t;
            while (te < e && !tokio__py_space((unsigned char)*te))
                te++;
            if (t == te) {
                rc = line_error(p, member, lineno,
                                "SMART register line without an id");
                break;
            }
            if ((rc = flush_smart(p, data, member, lineno)) < 0)
                break;
            rc = smart_set(p, "_id", t, (size_t)(te - t));
        } else {
            rc = line_error(p, member, lineno, mode == 1
                            ? "expected 'key : value' or '- ID -'"
                            : "expected 'key : value'");
        }
    }
    if (rc == TOKIO_OK && mode == 1)
        rc = flush_smart(p, data, member, lineno);
    /* placeholder, so the timestamp lands where the reference put it:
     * after the counters of the drive's first member */
    if (rc == TOKIO_OK && data != NULL &&
        json_object_get(data, "timestamp") == NULL)
        rc = set_new(data, "timestamp", json_null());
    if (rc == TOKIO_ENOMEM)
        rc = tokio__error(rc, "'%s' member '%s': out of memory", p->arch,
                          member);
    return rc;
}

static int
visit_member(const struct tokio_collection_member *m, void *payload)
{
    struct parse *p = payload;

    if (strstr(m->name, TIMESTAMP_MARK) != NULL) {
        /* the last one seen wins, as in the reference */
        free(p->ts_text);
        free(p->ts_member_copy);
        p->ts_text = tokio__strdup(strrchr(m->name, '_') + 1);
        p->ts_member_copy = tokio__strdup(m->name);
        if (p->ts_text == NULL || p->ts_member_copy == NULL)
            return tokio__error(TOKIO_ENOMEM, "'%s': out of memory",
                                p->arch);
        return TOKIO_OK;
    }
    if (!p->have_mtime || m->mtime < p->min_mtime)
        p->min_mtime = m->mtime;
    p->have_mtime = 1;
    return parse_lines(p, m->name, m->data, m->len);
}

/* ---- after the walk: time, types, units, synthesized counters --------- */

/* strptime(text, "%Y%m%d%H%M%S") in local time, then mktime(). */
static int
parse_timestamp(const char *text, int64_t *out)
{
    struct tm tm;
    int f[6];
    static const int width[6] = { 4, 2, 2, 2, 2, 2 };
    const char *s = text;

    if (strlen(text) != 14)
        return 0;
    for (int i = 0; i < 6; i++) {
        f[i] = 0;
        for (int k = 0; k < width[i]; k++, s++) {
            if (!is_digit(*s))
                return 0;
            f[i] = f[i] * 10 + (*s - '0');
        }
    }
    if (f[0] < 1 || f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 ||
        f[3] > 23 || f[4] > 59 || f[5] > 61)
        return 0;
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = f[0] - 1900;
    tm.tm_mon = f[1] - 1;
    tm.tm_mday = f[2];
    tm.tm_hour = f[3];
    tm.tm_min = f[4];
    tm.tm_sec = f[5];
    tm.tm_isdst = -1;
    time_t t = mktime(&tm);
    /* strptime refuses 31 February; mktime would roll it over */
    if (tm.tm_mday != f[2] || tm.tm_mon != f[1] - 1)
        return 0;
    *out = (int64_t)t;
    return 1;
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

static int
counter_error(const char *sn, const char *key, const char *what)
{
    return tokio__error(TOKIO_EFORMAT, "drive '%s' counter '%s': %s", sn,
                        key, what);
}

/*
 * The rest of the reference's type recasting (_merge_parsed_counters):
 * temperature, throttle_status and endurance_analyzer recast and given a
 * "<name>_unit" from their second word (which leaves "27 Celsius" text),
 * and a text endurance_analyzer becomes null while a numeric one without
 * a unit is in years.
 */
static int
recast_units(json_t *counters)
{
    /* units are added after the walk, as the reference collects them */
    json_t *units = json_object();

    if (units == NULL)
        return TOKIO_ENOMEM;
    for (void *it = json_object_iter(counters); it != NULL;
         it = json_object_iter_next(counters, it)) {
        const char *key = json_object_iter_key(it);
        json_t *val = json_object_iter_value(it);
        const char *unit = NULL;
        size_t unit_len = 0;
        int endurance = strcmp(key, "endurance_analyzer") == 0;

        /* everything else was recast as it was stored */
        if (!json_is_string(val) || !has_unit(key))
            continue;
        const char *s = json_string_value(val);
        const char *b = s, *e = s + json_string_length(val), *t = b;
        while (t < e && !tokio__py_space((unsigned char)*t))
            t++;
        while (t < e && tokio__py_space((unsigned char)*t))
            t++;
        if (t < e) {
            unit = t;
            unit_len = (size_t)(e - t);
        }
        json_t *nv = tokio_recast_string(s);
        if (nv == NULL)
            goto oom;
        if (endurance) {
            if (json_is_string(nv)) {
                json_decref(nv);
                nv = json_null();
                unit = NULL;
            } else if (unit == NULL) {
                unit = "years";
                unit_len = 5;
            }
        }
        if (unit != NULL) {
            size_t kl = strlen(key);
            char *ukey = tokio__malloc(kl + 6);
            if (ukey == NULL) {
                json_decref(nv);
                goto oom;
            }
            memcpy(ukey, key, kl);
            memcpy(ukey + kl, "_unit", 6);
            int rc = set_new(units, ukey, string_n(unit, unit_len));
            free(ukey);
            if (rc < 0) {
                json_decref(nv);
                goto oom;
            }
        }
        if (json_object_iter_set_new(counters, it, nv) < 0)
            goto oom;
    }
    if (json_object_update(counters, units) < 0)
        goto oom;
    json_decref(units);
    return TOKIO_OK;
oom:
    json_decref(units);
    return TOKIO_ENOMEM;
}

/* counters[to] = counters[from] * factor, when `from` is there. */
static int
scale(json_t *counters, const char *sn, const char *from, const char *to,
      int64_t factor)
{
    const json_t *v = json_object_get(counters, from);
    struct num n = { 0, 0, 0 }, r = { 0, 0, 0 };
    int bad;

    if (v == NULL)
        return TOKIO_OK;
    if (!get_num(v, &n))
        return counter_error(sn, from, "not a number");
    r = num_mul(&n, factor);
    json_t *j = num_json(&r, &bad);
    if (bad)
        return counter_error(sn, from, "too large");
    return j == NULL ? TOKIO_ENOMEM : set_new(counters, to, j);
}

/* _synthesize_metrics(): bytes from native units, and the write
 * amplification factor (NAND writes over host writes). */
static int
synthesize(json_t *devices)
{
    const char *sn;
    json_t *c;
    int rc;

    json_object_foreach(devices, sn, c) {
        if ((rc = scale(c, sn, "data_units_read", "data_units_read_bytes",
                        DATA_UNIT_BYTES)) < 0 ||
            (rc = scale(c, sn, "data_units_written",
                        "data_units_written_bytes", DATA_UNIT_BYTES)) < 0 ||
            (rc = scale(c, sn, "smart_nand_bytes_written_raw",
                        "smart_nand_bytes_written_bytes",
                        SMART_RAW_BYTES)) < 0 ||
            (rc = scale(c, sn, "smart_host_bytes_written_raw",
                        "smart_host_bytes_written_bytes",
                        SMART_RAW_BYTES)) < 0)
            return rc;
        const json_t *nand = json_object_get(c, "smart_nand_bytes_written_raw");
        const json_t *host = json_object_get(c, "smart_host_bytes_written_raw");
        struct num a = { 0, 0, 0 }, b = { 0, 0, 0 };
        if (nand == NULL || host == NULL || json_is_null(nand) ||
            json_is_null(host))
            continue;
        if (!get_num(host, &b))
            return counter_error(sn, "smart_host_bytes_written_raw",
                                 "not a number");
        if (!(num_double(&b) > 0) && !(b.is_int && b.i > 0))
            continue;
        if (!get_num(nand, &a))
            return counter_error(sn, "smart_nand_bytes_written_raw",
                                 "not a number");
        if ((rc = set_new(c, "write_amplification_factor",
                          json_real(num_double(&a) / num_double(&b)))) < 0)
            return rc;
    }
    return TOKIO_OK;
}

static int
finish_native(struct parse *p)
{
    int64_t ts;
    const char *sn;
    json_t *c;
    int rc;

    if (p->ts_text != NULL) {
        if (!parse_timestamp(p->ts_text, &ts))
            return tokio__error(TOKIO_EFORMAT, "'%s' member '%s': '%s' is "
                                "not a time as YYYYmmddHHMMSS", p->arch,
                                p->ts_member_copy, p->ts_text);
    } else if (p->have_mtime) {
        ts = local_roundtrip(p->min_mtime);
    } else {
        return tokio__error(TOKIO_EFORMAT, "'%s': no ISDCT output files",
                            p->arch);
    }
    json_object_foreach(p->devices, sn, c) {
        if (set_new(c, "timestamp", json_integer(ts)) < 0 ||
            recast_units(c) < 0)
            return tokio__error(TOKIO_ENOMEM, "'%s': out of memory",
                                p->arch);
    }
    if ((rc = synthesize(p->devices)) < 0) {
        if (rc == TOKIO_ENOMEM)
            return tokio__error(rc, "'%s': out of memory", p->arch);
        return tokio__error_prefix("'%s'", p->arch);
    }
    return TOKIO_OK;
}

/* ---- opening ---------------------------------------------------------- */

static struct tokio_nersc_isdct *
dump_new(json_t *devices)
{
    struct tokio_nersc_isdct *d = tokio__calloc(1, sizeof(*d));

    if (d == NULL) {
        json_decref(devices);
        return NULL;
    }
    d->devices = devices;
    return d;
}

/* Check the JSON form: drives of scalar counters. */
static int
check_json(const json_t *json)
{
    const char *sn, *key;
    const json_t *c, *v;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "an ISDCT dump is a JSON object "
                            "keyed by serial number");
    json_object_foreach((json_t *)json, sn, c) {
        if (!json_is_object(c))
            return tokio__error(TOKIO_EFORMAT, "drive '%s' is not an "
                                "object of counters", sn);
        json_object_foreach((json_t *)c, key, v) {
            if (json_is_object(v) || json_is_array(v))
                return counter_error(sn, key, "not a number, text, "
                                     "boolean or null");
        }
    }
    return TOKIO_OK;
}

int
tokio_nersc_isdct_from_json(struct tokio_nersc_isdct **out,
                            const json_t *json)
{
    json_t *copy;
    int rc;

    *out = NULL;
    if ((rc = check_json(json)) < 0)
        return rc;
    if ((copy = json_deep_copy(json)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory copying an ISDCT "
                            "dump");
    if ((rc = synthesize(copy)) < 0) {
        json_decref(copy);
        return rc == TOKIO_ENOMEM
            ? tokio__error(rc, "out of memory reading an ISDCT dump") : rc;
    }
    if ((*out = dump_new(copy)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading an ISDCT "
                            "dump");
    return TOKIO_OK;
}

/* Native from a directory (buf NULL) or archive bytes. */
static int
open_native(struct tokio_nersc_isdct **out, const char *path,
            const void *buf, size_t len)
{
    struct parse p;
    int rc;

    memset(&p, 0, sizeof(p));
    p.arch = path;
    if ((p.devices = json_object()) == NULL ||
        (p.keys = json_object()) == NULL ||
        (p.smart_keys = json_object()) == NULL ||
        (p.texts = json_object()) == NULL) {
        json_decref(p.devices);
        json_decref(p.keys);
        json_decref(p.smart_keys);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", path);
    }
    if (buf == NULL)
        rc = tokio_walk_file_collection(path, visit_member, &p);
    else
        rc = tokio__walk_archive_mem(buf, len, path, 0, visit_member, &p);
    if (rc >= 0)
        rc = finish_native(&p);
    if (rc >= 0) {
        if ((*out = dump_new(p.devices)) == NULL)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                              path);
        p.devices = NULL;
    }
    json_decref(p.devices);
    json_decref(p.keys);
    json_decref(p.smart_keys);
    json_decref(p.texts);
    json_decref(p.smart_index);
    for (size_t i = 0; i < SHARED_INTS; i++)
        json_decref(p.ints[i]);
    free(p.smart);
    free(p.scratch);
    free(p.cwd);
    free(p.ts_text);
    free(p.ts_member_copy);
    return rc;
}

/* Bytes already decompressed: a tar archive, or else JSON. */
static int
open_bytes(struct tokio_nersc_isdct **out, const unsigned char *buf,
           size_t len, const char *name)
{
    size_t i = 0;

    while (i < len && tokio__py_space(buf[i]))
        i++;
    /* a tar header has "ustar" at 257; JSON starts with "{" */
    int is_tar = len >= 262 && memcmp(buf + 257, "ustar", 5) == 0;
    if (is_tar || i == len || buf[i] != '{')
        return open_native(out, name, buf, len);

    json_error_t err;
    int oom = 0;
    json_t *json = tokio__json_parse((const char *)buf, len, 0, &err, &oom);
    if (json == NULL) {
        if (oom)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
        return tokio__error(TOKIO_EFORMAT, "'%s' line %d column %d: %s",
                            name, err.line, err.column, err.text);
    }
    int rc = tokio_nersc_isdct_from_json(out, json);
    json_decref(json);
    if (rc < 0 && rc != TOKIO_ENOMEM)
        return tokio__error_prefix("'%s'", name);
    return rc;
}

int
tokio_nersc_isdct_open(struct tokio_nersc_isdct **out, const char *path)
{
    struct stat st;
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if (path == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_nersc_isdct_open: no path");
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return open_native(out, path, NULL, 0);
    if ((rc = tokio_read_file(path, 0, &buf, &len)) < 0)
        return rc;
    rc = open_bytes(out, buf, len, path);
    free(buf);
    return rc;
}

int
tokio_nersc_isdct_open_mem(struct tokio_nersc_isdct **out, const void *buf,
                           size_t len, const char *name)
{
    struct tokio_input *in = NULL;
    unsigned char *plain = NULL;
    size_t plen = 0;
    int rc;

    *out = NULL;
    if (name == NULL)
        name = "<memory>";
    if ((rc = tokio_input_open_mem(&in, buf, len, name)) < 0)
        return rc;
    rc = tokio_input_read_all(in, 0, &plain, &plen);
    tokio_input_close(in);
    if (rc < 0)
        return rc;
    rc = open_bytes(out, plain, plen, name);
    free(plain);
    return rc;
}

/* ---- accessors and JSON ----------------------------------------------- */

size_t
tokio_nersc_isdct_count(const struct tokio_nersc_isdct *d)
{
    return d == NULL ? 0 : json_object_size(d->devices);
}

const json_t *
tokio_nersc_isdct_json(const struct tokio_nersc_isdct *d)
{
    return d == NULL ? NULL : d->devices;
}

const json_t *
tokio_nersc_isdct_device(const struct tokio_nersc_isdct *d,
                         const char *serial)
{
    return d == NULL || serial == NULL ? NULL
                                       : json_object_get(d->devices, serial);
}

int
tokio_nersc_isdct_to_json(const struct tokio_nersc_isdct *d, json_t **out)
{
    if ((*out = json_deep_copy(d->devices)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory copying an ISDCT "
                            "dump");
    return TOKIO_OK;
}

void
tokio_nersc_isdct_free(struct tokio_nersc_isdct *d)
{
    if (d == NULL)
        return;
    json_decref(d->devices);
    free(d);
}

/* ---- CSV: pandas.DataFrame.from_dict(orient='index').to_csv() --------- */

/* How pandas types a column built from Python values. */
enum col_kind { COL_INT, COL_FLOAT, COL_BOOL, COL_OBJECT };

struct frame {
    const char **cols;      /* column names, first-seen order */
    size_t ncols;
    enum col_kind *kind;
    unsigned char *constant;    /* numeric column holding one value only */
    const char **rows;      /* serials in the frame's order */
    json_t **rowc;          /* their counters */
    size_t nrows;
    json_t *index;          /* column name -> its number */
};

static void
frame_free(struct frame *f)
{
    free(f->cols);
    free(f->kind);
    free(f->constant);
    free(f->rows);
    free(f->rowc);
    json_decref(f->index);
}

struct row_order {
    size_t first_col, pos;
};

static int
cmp_row_order(const void *a, const void *b)
{
    const struct row_order *x = a, *y = b;

    if (x->first_col != y->first_col)
        return x->first_col < y->first_col ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* What one column holds, counted in one pass over the cells. */
struct col_stats {
    size_t n_int, n_real, n_bool, n_null, n_str;
    const json_t *first;    /* first number, for the constancy test */
    int varies;
};

static enum col_kind
column_kind(const struct col_stats *c, size_t nrows)
{
    size_t n_gap = nrows - (c->n_int + c->n_real + c->n_bool + c->n_str);

    if (c->n_str > 0)
        return COL_OBJECT;
    if (c->n_bool > 0)
        return c->n_int + c->n_real + n_gap == 0 ? COL_BOOL : COL_OBJECT;
    if (c->n_real == 0 && n_gap == 0 && c->n_int > 0)
        return COL_INT;
    return COL_FLOAT;       /* numbers with gaps, or nothing but gaps */
}

/*
 * Type every column as pandas does: a pass over the cells present (a
 * pass per column would cost rows x columns on sparse input).  A numeric
 * column is constant when pandas' unique() finds one value: all NaN, or
 * no gap and one number.
 */
static int
frame_type_columns(struct frame *f)
{
    struct col_stats *st = tokio__calloc(f->ncols + 1, sizeof(*st));
    const char *key;
    json_t *v;

    if (st == NULL ||
        (f->kind = tokio__calloc(f->ncols + 1, sizeof(*f->kind))) == NULL ||
        (f->constant = tokio__calloc(f->ncols + 1, 1)) == NULL) {
        free(st);
        return TOKIO_ENOMEM;
    }
    for (size_t r = 0; r < f->nrows; r++) {
        json_object_foreach(f->rowc[r], key, v) {
            struct col_stats *c =
                &st[json_integer_value(json_object_get(f->index, key))];
            struct num a = { 0, 0, 0 }, b = { 0, 0, 0 };
            if (json_is_null(v)) {
                c->n_null++;
                continue;
            }
            if (json_is_integer(v))
                c->n_int++;
            else if (json_is_real(v))
                c->n_real++;
            else if (json_is_boolean(v))
                c->n_bool++;
            else
                c->n_str++;
            if (!get_num(v, &b))
                continue;
            if (c->first == NULL) {
                c->first = v;
            } else if (!c->varies) {
                get_num(c->first, &a);
                c->varies = num_less(&a, &b) || num_less(&b, &a);
            }
        }
    }
    for (size_t k = 0; k < f->ncols; k++) {
        struct col_stats *c = &st[k];
        size_t n_num = c->n_int + c->n_real + c->n_bool;
        f->kind[k] = column_kind(c, f->nrows);
        f->constant[k] = n_num == 0 || (n_num == f->nrows && !c->varies);
    }
    free(st);
    return TOKIO_OK;
}

/*
 * The frame as pandas builds it: columns in first-seen order over the
 * rows; rows in the order they first appear going through the columns
 * (a row missing the first columns moves down; a row with no counters
 * vanishes); each column typed by its values.
 */
static int
frame_build(struct frame *f, const json_t *devices)
{
    size_t n = json_object_size(devices), cap = 0;
    struct row_order *order = NULL;
    const char *sn, *key;
    json_t *c, *v;

    memset(f, 0, sizeof(*f));
    if ((f->index = json_object()) == NULL ||
        (f->rows = tokio__calloc(n + 1, sizeof(*f->rows))) == NULL ||
        (f->rowc = tokio__calloc(n + 1, sizeof(*f->rowc))) == NULL ||
        (order = tokio__calloc(n + 1, sizeof(*order))) == NULL)
        goto oom;
    size_t pos = 0;
    json_object_foreach((json_t *)devices, sn, c) {
        size_t first = SIZE_MAX;
        json_object_foreach(c, key, v) {
            json_t *ix = json_object_get(f->index, key);
            size_t col;
            if (ix == NULL) {
                if (f->ncols == cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    const char **g = tokio__reallocarray(f->cols, nc,
                                                         sizeof(*g));
                    if (g == NULL)
                        goto oom;
                    f->cols = g;
                    cap = nc;
                }
                col = f->ncols;
                if (set_new(f->index, key, json_integer((json_int_t)col)) < 0)
                    goto oom;
                f->cols[f->ncols++] = key;
            } else {
                col = (size_t)json_integer_value(ix);
            }
            if (col < first)
                first = col;
        }
        order[pos].first_col = first;
        order[pos].pos = pos;
        f->rows[pos] = sn;
        f->rowc[pos] = c;
        pos++;
    }
    qsort(order, n, sizeof(*order), cmp_row_order);
    const char **rows = tokio__calloc(n + 1, sizeof(*rows));
    json_t **rowc = tokio__calloc(n + 1, sizeof(*rowc));
    if (rows == NULL || rowc == NULL) {
        free(rows);
        free(rowc);
        goto oom;
    }
    f->nrows = 0;
    for (size_t i = 0; i < n; i++) {
        if (order[i].first_col == SIZE_MAX)
            continue;           /* no counters: not a row to pandas */
        rows[f->nrows] = f->rows[order[i].pos];
        rowc[f->nrows++] = f->rowc[order[i].pos];
    }
    free(f->rows);
    free(f->rowc);
    f->rows = rows;
    f->rowc = rowc;
    free(order);
    order = NULL;
    if (frame_type_columns(f) < 0)
        goto oom;
    return TOKIO_OK;
oom:
    free(order);
    frame_free(f);
    memset(f, 0, sizeof(*f));
    return tokio__error(TOKIO_ENOMEM, "out of memory making a table of an "
                        "ISDCT dump");
}

/* One cell as pandas prints it; write errors show in ferror(fp). */
static void
write_cell(FILE *fp, const json_t *v, enum col_kind kind)
{
    char buf[64];

    if (v == NULL || json_is_null(v))
        return;
    if (kind == COL_FLOAT) {
        struct num n = { 0, 0, 0 };
        get_num(v, &n);
        tokio_format_double(buf, sizeof(buf), num_double(&n));
    } else if (json_is_string(v)) {
        tokio_csv_write_field(fp, json_string_value(v),
                              json_string_length(v));
        return;
    } else {
        py_str_number(v, buf, sizeof(buf));
    }
    fputs(buf, fp);
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
tokio_nersc_isdct_write_csv(const struct tokio_nersc_isdct *d, FILE *fp,
                            int only_numeric)
{
    struct frame f;
    size_t *sel = NULL, nsel = 0;
    int rc;

    if ((rc = frame_build(&f, d->devices)) < 0)
        return rc;
    if ((sel = tokio__calloc(f.ncols + 2, sizeof(*sel))) == NULL) {
        frame_free(&f);
        return tokio__error(TOKIO_ENOMEM, "out of memory writing CSV");
    }
    if (!only_numeric) {
        for (size_t k = 0; k < f.ncols; k++)
            sel[nsel++] = k;
    } else {
        /* to_dataframe(only_numeric=True): node_name, then the sorted
         * int64/float64 columns that vary (or all, with one row) */
        const char **names = tokio__calloc(f.ncols + 1, sizeof(*names));
        size_t nn = 0;
        if (names == NULL) {
            free(sel);
            frame_free(&f);
            return tokio__error(TOKIO_ENOMEM, "out of memory writing CSV");
        }
        json_t *nix = json_object_get(f.index, "node_name");
        if (nix != NULL)
            sel[nsel++] = (size_t)json_integer_value(nix);
        for (size_t k = 0; k < f.ncols; k++) {
            if (f.kind[k] != COL_INT && f.kind[k] != COL_FLOAT)
                continue;
            if (f.nrows > 1 && f.constant[k])
                continue;
            names[nn++] = f.cols[k];
        }
        qsort(names, nn, sizeof(*names), cmp_str);
        for (size_t i = 0; i < nn; i++)
            sel[nsel++] = (size_t)json_integer_value(
                json_object_get(f.index, names[i]));
        free(names);
    }

    /* write errors show in ferror() */
    fputs("serial_number", fp);
    for (size_t i = 0; i < nsel; i++) {
        const char *name = f.cols[sel[i]];
        fputc(',', fp);
        tokio_csv_write_field(fp, name, strlen(name));
    }
    fputc('\n', fp);
    for (size_t r = 0; r < f.nrows && !ferror(fp); r++) {
        tokio_csv_write_field(fp, f.rows[r], strlen(f.rows[r]));
        for (size_t i = 0; i < nsel; i++) {
            size_t k = sel[i];
            fputc(',', fp);
            write_cell(fp, json_object_get(f.rowc[r], f.cols[k]), f.kind[k]);
        }
        fputc('\n', fp);
    }
    free(sel);
    frame_free(&f);
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write CSV");
    return TOKIO_OK;
}

/* ---- diff and its reductions (compare_isdct) -------------------------- */

/* One counter's change, as NerscIsdct.diff(); *out NULL to skip it. */
static int
diff_counter(const char *sn, const char *key, const json_t *now,
             const json_t *before, int report_zeros, json_t **out)
{
    int endurance = strcmp(key, "endurance_analyzer") == 0;
    struct num a = { 0, 0, 0 }, b = { 0, 0, 0 }, r = { 0, 0, 0 };
    int bad;

    *out = NULL;
    if (json_is_string(now) && !endurance) {
        if (json_equal(now, before)) {
            if (report_zeros && (*out = json_string("")) == NULL)
                return TOKIO_ENOMEM;
            return TOKIO_OK;
        }
        char *o = py_str(before);
        if (o == NULL)
            return TOKIO_ENOMEM;
        size_t nl = json_string_length(now), ol = strlen(o);
        char *s = tokio__malloc(nl + ol + 8);
        if (s == NULL) {
            free(o);
            return TOKIO_ENOMEM;
        }
        memcpy(s, "+++", 3);
        memcpy(s + 3, json_string_value(now), nl);
        memcpy(s + 3 + nl, " ---", 4);
        memcpy(s + 7 + nl, o, ol);
        *out = json_stringn_nocheck(s, nl + ol + 7);
        free(s);
        free(o);
        return *out == NULL ? TOKIO_ENOMEM : TOKIO_OK;
    }
    if (!get_num(now, &a) || !get_num(before, &b)) {
        if (endurance)
            return TOKIO_OK;
        return tokio__error(TOKIO_EFORMAT, "incompatible numeric types for "
                            "%s/%s", sn, key);
    }
    r = num_sub(&a, &b);
    if (!report_zeros && num_is_zero(&r))
        return TOKIO_OK;
    if ((*out = num_json(&r, &bad)) == NULL)
        return bad ? counter_error(sn, key, "difference out of range")
                   : TOKIO_ENOMEM;
    return TOKIO_OK;
}

int
tokio_nersc_isdct_diff(const struct tokio_nersc_isdct *dump,
                       const struct tokio_nersc_isdct *old_dump,
                       int report_zeros, json_t **out)
{
    json_t *added, *removed, *devices, *res = json_object();
    const char *sn, *key;
    json_t *c, *v;
    int rc = TOKIO_OK;

    *out = NULL;
    /* set_new() takes each value over, even when it fails */
    if (res == NULL || set_new(res, "added_devices", json_array()) < 0 ||
        set_new(res, "removed_devices", json_array()) < 0 ||
        set_new(res, "devices", json_object()) < 0) {
        json_decref(res);
        return tokio__error(TOKIO_ENOMEM, "out of memory comparing ISDCT "
                            "dumps");
    }
    added = json_object_get(res, "added_devices");
    removed = json_object_get(res, "removed_devices");
    devices = json_object_get(res, "devices");
    json_object_foreach(dump->devices, sn, c) {
        const json_t *oc = json_object_get(old_dump->devices, sn);
        if (oc == NULL) {
            if (json_array_append_new(added, json_string(sn)) < 0)
                rc = TOKIO_ENOMEM;
            if (rc < 0)
                break;
            continue;
        }
        json_t *dd = json_object();
        if (set_new(devices, sn, dd) < 0) {
            rc = TOKIO_ENOMEM;
            break;
        }
        json_object_foreach(c, key, v) {
            const json_t *ov = json_object_get(oc, key);
            json_t *change;
            if (ov == NULL)
                continue;   /* the reference warns and skips it */
            if ((rc = diff_counter(sn, key, v, ov, report_zeros,
                                   &change)) < 0)
                break;
            if (change != NULL && (rc = set_new(dd, key, change)) < 0)
                break;
        }
        if (rc < 0)
            break;
    }
    if (rc >= 0) {
        json_object_foreach(old_dump->devices, sn, c) {
            if (json_object_get(dump->devices, sn) == NULL &&
                json_array_append_new(removed, json_string(sn)) < 0) {
                rc = TOKIO_ENOMEM;
                break;
            }
        }
    }
    if (rc < 0) {
        json_decref(res);
        if (rc == TOKIO_ENOMEM)
            return tokio__error(rc, "out of memory comparing ISDCT dumps");
        return rc;
    }
    *out = res;
    return TOKIO_OK;
}

/* "a_bytes_b_bytes" -> "a_gibs_b_gibs", as str.replace(); caller frees. */
static char *
bytes_to_gibs(const char *key)
{
    size_t n = strlen(key);
    char *out = tokio__malloc(n + 1), *q = out;

    if (out == NULL)
        return NULL;
    for (const char *p = key; *p != '\0';) {
        if (strncmp(p, "_bytes", 6) == 0) {
            memcpy(q, "_gibs", 5);
            q += 5;
            p += 6;
        } else {
            *q++ = *p++;
        }
    }
    *q = '\0';
    return out;
}

static int
ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int
tokio_nersc_isdct_diff_gibs(const json_t *diff, json_t **out)
{
    const json_t *devs = json_object_get(diff, "devices");
    json_t *res, *ndevs;
    const char *sn, *key;
    json_t *c, *v;
    int rc = TOKIO_OK;

    *out = NULL;
    if (!json_is_object(devs))
        return tokio__error(TOKIO_EFORMAT, "not an ISDCT diff: no devices");
    if ((res = json_deep_copy(diff)) == NULL || (ndevs = json_object()) == NULL
        || set_new(res, "devices", ndevs) < 0) {
        json_decref(res);
        return tokio__error(TOKIO_ENOMEM, "out of memory converting to GiB");
    }
    json_object_foreach((json_t *)devs, sn, c) {
        json_t *nc = json_object();
        if (set_new(ndevs, sn, nc) < 0) {
            rc = TOKIO_ENOMEM;
            break;
        }
        json_object_foreach(c, key, v) {
            if (!ends_with(key, "_bytes")) {
                if ((rc = set_new(nc, key, json_incref(v))) < 0)
                    break;
                continue;
            }
            struct num n = { 0, 0, 0 };
            if (!get_num(v, &n)) {
                rc = counter_error(sn, key, "not a number");
                break;
            }
            char *nk = bytes_to_gibs(key);
            if (nk == NULL) {
                rc = TOKIO_ENOMEM;
                break;
            }
            rc = set_new(nc, nk, json_real(num_double(&n) * 0x1p-30));
            free(nk);
            if (rc < 0)
                break;
        }
        if (rc < 0)
            break;
    }
    if (rc < 0) {
        json_decref(res);
        return rc == TOKIO_ENOMEM
            ? tokio__error(rc, "out of memory converting to GiB") : rc;
    }
    *out = res;
    return TOKIO_OK;
}

/* One counter's running reduction. */
struct reduction {
    int64_t count;
    int have_num;
    struct num sum, min, max;
};

int
tokio_nersc_isdct_reduce_diff(const json_t *diff, json_t **out)
{
    const json_t *devs = json_object_get(diff, "devices");
    const char *sn, *key;
    json_t *c, *v;
    /* counter -> index into red[], first-seen order */
    json_t *index = json_object(), *res = NULL;
    struct reduction *red = NULL;
    const char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = TOKIO_OK;

    *out = NULL;
    if (!json_is_object(devs)) {
        json_decref(index);
        return tokio__error(TOKIO_EFORMAT, "not an ISDCT diff: no devices");
    }
    if (index == NULL)
        goto oom;
    json_object_foreach((json_t *)devs, sn, c) {
        json_object_foreach(c, key, v) {
            json_t *ix = json_object_get(index, key);
            struct reduction *r;
            struct num x = { 0, 0, 0 };
            if (ix == NULL) {
                if (n == cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    struct reduction *g = tokio__reallocarray(red, nc,
                                                              sizeof(*g));
                    if (g == NULL)
                        goto oom;
                    red = g;
                    const char **h = tokio__reallocarray(names, nc,
                                                         sizeof(*h));
                    if (h == NULL)
                        goto oom;
                    names = h;
                    cap = nc;
                }
                if (set_new(index, key, json_integer((json_int_t)n)) < 0)
                    goto oom;
                memset(&red[n], 0, sizeof(red[n]));
                names[n] = key;
                r = &red[n++];
            } else {
                r = &red[json_integer_value(ix)];
            }
            r->count++;
            if (!get_num(v, &x))
                continue;       /* text changes are only counted */
            /*
             * Differs from pytokio: a counter that is text on one drive
             * and a number on a later one made the reference fail
             * (KeyError); its numbers are reduced here.
             */
            if (!r->have_num) {
                r->sum = r->min = r->max = x;
                r->have_num = 1;
            } else {
                r->sum = num_add(&r->sum, &x);
                /* min(value, cur) and max(value, cur) as Python picks */
                r->min = num_less(&r->min, &x) ? r->min : x;
                r->max = num_less(&x, &r->max) ? r->max : x;
            }
        }
    }
    if ((res = json_object()) == NULL)
        goto oom;
    /* the reference's order: sum (with ave), min, max, count */
    static const char *const prefix[] = { "sum_", "min_", "max_", "count_" };
    for (int pass = 0; pass < 4; pass++) {
        for (size_t i = 0; i < n; i++) {
            struct reduction *r = &red[i];
            struct num val = { 1, 0, 0 };
            json_t *j;
            int bad;
            if (pass < 3 && !r->have_num)
                continue;
            if (pass == 3) {
                val.is_int = 1;
                val.i = r->count;
            } else {
                val = pass == 0 ? r->sum : pass == 1 ? r->min : r->max;
            }
            size_t kl = strlen(names[i]);
            char *k = tokio__malloc(kl + 8);
            if (k == NULL)
                goto oom;
            snprintf(k, kl + 8, "%s%s", prefix[pass], names[i]);
            j = num_json(&val, &bad);
            if (bad) {
                rc = counter_error("(all)", k, "sum out of range");
                free(k);
                goto fail;
            }
            rc = set_new(res, k, j);
            if (rc >= 0 && pass == 0) {
                snprintf(k, kl + 8, "ave_%s", names[i]);
                rc = set_new(res, k, json_real(num_double(&val) /
                                               (double)r->count));
            }
            free(k);
            if (rc < 0)
                goto oom;
        }
    }
    json_decref(index);
    free(red);
    free(names);
    *out = res;
    return TOKIO_OK;
oom:
    rc = tokio__error(TOKIO_ENOMEM, "out of memory reducing an ISDCT diff");
fail:
    json_decref(index);
    json_decref(res);
    free(red);
    free(names);
    return rc;
}

/* datetime.fromtimestamp(first drive's timestamp) as str() prints it. */
static int
dump_time(const struct tokio_nersc_isdct *d, const char *which, char *buf,
          size_t size)
{
    void *it = json_object_iter(d->devices);
    const json_t *ts;
    struct num n = { 0, 0, 0 };
    struct tm tm;

    if (it == NULL)
        return tokio__error(TOKIO_EFORMAT, "the %s ISDCT dump is empty",
                            which);
    ts = json_object_get(json_object_iter_value(it), "timestamp");
    if (ts == NULL || !get_num(ts, &n) || json_is_boolean(ts))
        return tokio__error(TOKIO_EFORMAT, "drive '%s' of the %s ISDCT dump "
                            "has no timestamp", json_object_iter_key(it),
                            which);
    double whole = n.is_int ? (double)n.i : floor(n.d);
    long usec = n.is_int ? 0 : lround((n.d - whole) * 1e6);
    if (usec >= 1000000) {
        whole += 1;
        usec -= 1000000;
    }
    time_t t = (time_t)whole;
    if (!(fabs(whole) < 1e15) || localtime_r(&t, &tm) == NULL)
        return tokio__error(TOKIO_EFORMAT, "the %s ISDCT dump's timestamp "
                            "is out of range", which);
    size_t k = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
    if (usec != 0 && k > 0)
        snprintf(buf + k, size - k, ".%06ld", usec);
    return TOKIO_OK;
}

/* A drive's node name as %s prints it. */
static int
device_node(const struct tokio_nersc_isdct *d, const char *sn, char **out)
{
    const json_t *c = json_object_get(d->devices, sn);
    const json_t *node = json_object_get(c, "node_name");

    if (node == NULL)
        return tokio__error(TOKIO_EFORMAT, "drive '%s' has no node_name", sn);
    if ((*out = py_str(node)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static double
reduced_get(const json_t *reduced, const char *key)
{
    struct num n = { 0, 0, 0 };
    const json_t *v = json_object_get(reduced, key);

    return v != NULL && get_num(v, &n) ? num_double(&n) : 0.0;
}

int
tokio_nersc_isdct_write_summary(FILE *fp,
                                const struct tokio_nersc_isdct *old_dump,
                                const struct tokio_nersc_isdct *dump,
                                const json_t *diff)
{
    char t0[64], t1[64];
    const json_t *devs = json_object_get(diff, "devices");
    json_t *reduced = NULL;
    const char *sn;
    json_t *c;
    size_t i;
    int rc, nerr = 0;

    if ((rc = tokio_nersc_isdct_reduce_diff(diff, &reduced)) < 0)
        return rc;
    if ((rc = dump_time(old_dump, "old", t0, sizeof(t0))) < 0 ||
        (rc = dump_time(dump, "new", t1, sizeof(t1))) < 0)
        goto done;
    fprintf(fp, "=== ISDCT Summary: %s - %s ===\n", t0, t1);

    /* summarize_errors(): drives in diff order, keys in ERROR_KEYS order */
    json_object_foreach((json_t *)devs, sn, c) {
        for (size_t k = 0; k < N_ERROR_KEYS; k++) {
            const json_t *v = json_object_get(c, ERROR_KEYS[k]);
            char *node, *val;
            if (v == NULL)
                continue;
            if ((rc = device_node(dump, sn, &node)) < 0)
                goto done;
            if ((val = py_str(v)) == NULL) {
                free(node);
                rc = tokio__error(TOKIO_ENOMEM, "out of memory");
                goto done;
            }
            if (nerr++ == 0)
                fputs("\n*** Errors Detected! ***\n", fp);
            fprintf(fp, "%s %s %s %s\n", node, sn, ERROR_KEYS[k], val);
            free(node);
            free(val);
        }
    }
    static const char *const heads[2] = {
        "\n=== Devices Removed ===\n", "\n=== Devices Installed ===\n"
    };
    static const char *const lists[2] = { "removed_devices", "added_devices" };
    for (int w = 0; w < 2; w++) {
        const json_t *list = json_object_get(diff, lists[w]);
        const json_t *sv;
        if (json_array_size(list) > 0)
            fputs(heads[w], fp);
        json_array_foreach(list, i, sv) {
            char *node;
            if (!json_is_string(sv)) {
                rc = tokio__error(TOKIO_EFORMAT, "not an ISDCT diff");
                goto done;
            }
            if ((rc = device_node(w == 0 ? old_dump : dump,
                                  json_string_value(sv), &node)) < 0)
                goto done;
            fprintf(fp, "%s %s\n", node, json_string_value(sv));
            free(node);
        }
    }

    /* summarize_reduced_diffs(): "TiB" from bytes, or the GiB sums as
     * they are when --gibs converted them (the reference's labels) */
    double rd, wr;
    if (json_object_get(reduced, "sum_data_units_read_gibs") == NULL) {
        rd = reduced_get(reduced, "sum_data_units_read_bytes") * 0x1p-40;
        wr = reduced_get(reduced, "sum_data_units_written_bytes") * 0x1p-40;
    } else {
        rd = reduced_get(reduced, "sum_data_units_read_gibs");
        wr = reduced_get(reduced, "sum_data_units_written_gibs");
    }
    fputs("\n=== Workload Statistics ===\n", fp);
    fprintf(fp, "Read:    %10.2f TiB, %10.2f MOps\n", rd,
            reduced_get(reduced, "sum_host_read_commands") / 1000000.0);
    fprintf(fp, "Written: %10.2f TiB, %10.2f MOps\n", wr,
            reduced_get(reduced, "sum_host_write_commands") / 1000000.0);
    fprintf(fp, "WAF:     %+10.4f\n\n",
            reduced_get(reduced, "max_write_amplification_factor"));
    rc = ferror(fp) ? tokio__error(TOKIO_EIO, "cannot write the summary")
                    : TOKIO_OK;
done:
    json_decref(reduced);
    return rc;
}
