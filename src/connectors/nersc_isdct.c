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
 * Speed: counters are kept typed under interned names (one copy of each
 * distinct key, text and serial; a key is normalized once per parse),
 * JSON and CSV are written from that, the jansson form the API hands
 * out is made only when asked (diff, to_json), and the saved JSON form is
 * read without jansson when it is plain (no escapes), jansson reading the
 * rest.  A counter takes 16 bytes, carved from large blocks (huge pages
 * where the kernel has them).  compare_isdct's default reduction is made
 * straight from the two stores, without the diff's JSON.
 * bench/bench-isdct.sh measures it against the reference.
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

#include <errno.h>
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
#include "core/wbuf.h"
#include "core/text.h"
#include "core/json.h"
#include "connectors/nersc_isdct_private.h"

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

/* ---- the dump: typed counters by interned names ----------------------- */

/*
 * Counter names, text values and serial numbers repeat across drives, so
 * each distinct one is stored once (an intern table) and counters refer
 * to it by number; values are typed, not jansson trees.  The jansson form
 * the API hands out is made from this on first use.
 */

/* One distinct string. */
struct istr {
    char *s;            /* NUL-ended copy */
    size_t len;
    uint64_t hash;
    uint32_t aux;       /* the table user's: see struct store */
    char *enc;          /* its JSON text, made when first written */
    size_t enc_len;
};

/* Strings by content, numbered 0, 1, ... in the order they came. */
struct itab {
    struct istr *v;
    size_t n, cap;
    uint32_t *slot;     /* id + 1, 0 when free; nslot a power of two */
    size_t nslot;
};

enum vtype { V_NULL, V_FALSE, V_TRUE, V_INT, V_REAL, V_TEXT, V_JSON };

/* A counter's value; V_JSON holds what has no type here (a tagged
 * unsigned 64-bit integer) as one reference.  In a drive's c[], `key`
 * names the counter (id in store.keys); elsewhere it means nothing.  It
 * sits in what would be padding: a counter takes 16 bytes, not 24, and
 * a large dump has hundreds of thousands. */
struct val {
    enum vtype type;
    uint32_t key;
    union {
        int64_t i;
        double d;
        uint32_t text;  /* id in store.texts */
        json_t *json;
    } u;
};

/* One drive: its counters in first-set order, and their places by
 * name: slot[] holds place + 1 (0 when free), at the hash of the key id,
 * nslot a power of two.  A table per drive stays small and in cache
 * while the drive is read.  Drives mostly list the same counters in the
 * same order: a drive whose names are, place for place, the first n
 * names of an earlier drive keeps no table and finds its counters
 * through that drive's (layout: its index + 1; 0 for a table of its
 * own). */
struct device {
    struct val *c;
    size_t n, cap;
    uint32_t *slot;
    size_t nslot;
    size_t layout;
};

/* keys' aux: the counter keeps its unit (see has_unit()) */
#define KEY_HAS_UNIT 1u

/* Drives' counters are carved from blocks, freed together: a dump has
 * thousands of drives, and a malloc() and free() for each cost more than
 * reading them.  The first block is of BLOCK_FIRST bytes, enough for a
 * small dump; the others are huge-page blocks (tokio__alloc_huge()). */
struct block {
    struct block *next;
    size_t used, cap;       /* counters */
    struct val c[];
};

#define BLOCK_FIRST ((size_t)64 << 10)

struct store {
    struct itab keys;       /* counter names; aux: KEY_* flags */
    struct itab texts;      /* text values; aux: 1 when recast() of the
                             * text is the text itself */
    struct itab serials;    /* drive serials; id = index in dev[] */
    struct device *dev;     /* capdev of them, serials.n used */
    size_t capdev;
    struct block *blocks;   /* the drives' c[], the newest first */
    int any_json;           /* a V_JSON value was stored: see store_free() */
};

struct tokio_nersc_isdct {
    struct store st;
    json_t *tree;       /* the jansson form, made on first request */
};

/* Longest SMART description used as a key prefix: real ones are under 64
 * bytes, and each of a register's keys is prefixed with it, so a long one
 * would multiply the input's size. */
#define SMART_PREFIX_MAX 256

/* One line of a SMART register: key (id in store.keys) and value (a span
 * of the member being parsed). */
struct smart_kv {
    uint32_t key;
    const char *v;
    size_t vlen;
};

struct parse {
    struct store *st;
    struct itab raw_keys;   /* key as printed; aux: its id in st->keys */
    struct itab smart_keys; /* the same for composed SMART keys */
    struct smart_kv *smart; /* the register being read, reused */
    size_t n_smart, cap_smart;
    /* key id -> place in smart[] + 1, valid when smart_gen[key] is
     * the register's number: a register's keys are found in one step
     * however many it has, with no clearing between registers */
    uint32_t *smart_pos, *smart_gen, gen;
    size_t cap_pos;
    uint32_t id_key, description_key;   /* "_id", "description" */
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

/* Set `key` (NUL-ended, valid UTF-8) to `value` (stolen). */
static int
set_new(json_t *obj, const char *key, json_t *value)
{
    if (value == NULL || json_object_set_new_nocheck(obj, key, value) < 0)
        return TOKIO_ENOMEM;
    return TOKIO_OK;
}

/* ---- intern tables ---------------------------------------------------- */

static uint64_t
hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 29;
    }
    w = 0;
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 32);
}

/* The id of s[0..n) (hash h), or -1. */
static long
itab_find(const struct itab *t, const char *s, size_t n, uint64_t h)
{
    size_t mask = t->nslot - 1;

    if (t->nslot == 0)
        return -1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint32_t id = t->slot[i];
        if (id == 0)
            return -1;
        const struct istr *e = &t->v[id - 1];
        if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
            return (long)id - 1;
    }
}

static int
itab_rehash(struct itab *t)
{
    size_t nslot = t->nslot ? 2 * t->nslot : 64;
    uint32_t *slot = tokio__calloc(nslot, sizeof(*slot));

    if (slot == NULL)
        return TOKIO_ENOMEM;
    for (size_t id = 0; id < t->n; id++) {
        size_t i = (size_t)t->v[id].hash & (nslot - 1);
        while (slot[i] != 0)
            i = (i + 1) & (nslot - 1);
        slot[i] = (uint32_t)id + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslot = nslot;
    return TOKIO_OK;
}

/* The id of s[0..n) (hash h), added when absent; -1 when out of memory. */
static long
itab_add(struct itab *t, const char *s, size_t n, uint64_t h)
{
    long id = itab_find(t, s, n, h);

    if (id >= 0)
        return id;
    if (t->n >= UINT32_MAX - 1)
        return -1;
    if (2 * (t->n + 1) > t->nslot && itab_rehash(t) < 0)
        return -1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        struct istr *g = tokio__reallocarray(t->v, cap, sizeof(*g));
        if (g == NULL)
            return -1;
        t->v = g;
        t->cap = cap;
    }
    struct istr *e = &t->v[t->n];
    memset(e, 0, sizeof(*e));
    if ((e->s = tokio__strndup(s, n)) == NULL)
        return -1;
    e->len = n;
    e->hash = h;
    size_t i = (size_t)h & (t->nslot - 1);
    while (t->slot[i] != 0)
        i = (i + 1) & (t->nslot - 1);
    t->slot[i] = (uint32_t)++t->n;
    return (long)t->n - 1;
}

static long
itab_intern(struct itab *t, const char *s, size_t n)
{
    return itab_add(t, s, n, hash_bytes(s, n));
}

static void
itab_free(struct itab *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].s);
        free(t->v[i].enc);
    }
    free(t->v);
    free(t->slot);
    memset(t, 0, sizeof(*t));
}

/* ---- the typed store -------------------------------------------------- */

static int has_unit(const char *key);
static inline int store_append(struct store *st, uint32_t d, uint32_t key,
                               struct val v);

static void
val_release(struct val *v)
{
    if (v->type == V_JSON)
        json_decref(v->u.json);
    v->type = V_NULL;
}

static void
store_free(struct store *st)
{
    for (size_t d = 0; d < st->serials.n; d++) {
        /* only a V_JSON value holds anything: most dumps have none, and
         * not reading every counter once more saves a tenth of a load */
        for (size_t i = 0; st->any_json && i < st->dev[d].n; i++)
            val_release(&st->dev[d].c[i]);
        free(st->dev[d].slot);
    }
    while (st->blocks != NULL) {
        struct block *next = st->blocks->next;
        free(st->blocks);
        st->blocks = next;
    }
    free(st->dev);
    itab_free(&st->keys);
    itab_free(&st->texts);
    itab_free(&st->serials);
}

/* Home slot of key id `key` in a table of `nslot`. */
static size_t
key_home(uint32_t key, size_t nslot)
{
    return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15u) >> 32) & (nslot - 1);
}

/* Place of counter `key` in drive `dv`'s own table, or SIZE_MAX. */
static size_t
table_find(const struct device *dv, uint32_t key)
{
    if (dv->nslot == 0)
        return SIZE_MAX;
    for (size_t i = key_home(key, dv->nslot);; i = (i + 1) & (dv->nslot - 1)) {
        uint32_t at = dv->slot[i];
        if (at == 0)
            return SIZE_MAX;
        if (dv->c[at - 1].key == key)
            return at - 1;
    }
}

/* Place of counter `key` in drive `d`'s c[], or SIZE_MAX. */
static size_t
store_find(const struct store *st, uint32_t d, uint32_t key)
{
    const struct device *dv = &st->dev[d];

    if (dv->layout == 0)
        return table_find(dv, key);
    size_t i = table_find(&st->dev[dv->layout - 1], key);
    return i < dv->n ? i : SIZE_MAX;
}

/* The drive whose table drive `d`'s names may follow: the one drive
 * d - 1 follows, or d - 1 itself (0 when none). */
static size_t
layout_after(const struct store *st, uint32_t d)
{
    const struct device *prev = d > 0 ? &st->dev[d - 1] : NULL;

    if (prev == NULL)
        return 0;
    return prev->layout != 0 ? prev->layout : prev->nslot > 0 ? d : 0;
}

/* As store_find(), looking first at place *hint, where drives that
 * share one order of counters have it; *hint follows what is found. */
static size_t
store_find_at(const struct store *st, uint32_t d, uint32_t key,
              size_t *hint)
{
    const struct device *dv = &st->dev[d];
    size_t i = *hint;

    if (i < dv->n && dv->c[i].key == key)
        return i;
    if ((i = store_find(st, d, key)) != SIZE_MAX)
        *hint = i;
    return i;
}

static struct val *
store_get(const struct store *st, uint32_t d, uint32_t key)
{
    size_t i = store_find(st, d, key);
    return i == SIZE_MAX ? NULL : &st->dev[d].c[i];
}

/* Whether `nslot` slots hold a table of `cap` counters with at most
 * four in five of them used, so probes stay short. */
static int
slots_enough(size_t nslot, size_t cap)
{
    return nslot >= cap + cap / 4 + 1;
}

/* Slots for a table of up to `cap` counters: the power of two enough. */
static size_t
slots_for(size_t cap)
{
    size_t nslot = 16;

    while (!slots_enough(nslot, cap))
        nslot *= 2;
    return nslot;
}

/* Drive `dv`'s table made again from its c[], as large as c[] can grow
 * (cap). */
static int
store_rehash(struct device *dv)
{
    size_t nslot = slots_for(dv->cap);
    uint32_t *slot = tokio__calloc(nslot, sizeof(*slot));

    if (slot == NULL)
        return TOKIO_ENOMEM;
    for (size_t k = 0; k < dv->n; k++) {
        size_t i = key_home(dv->c[k].key, nslot);
        while (slot[i] != 0)
            i = (i + 1) & (nslot - 1);
        slot[i] = (uint32_t)k + 1;
    }
    free(dv->slot);
    dv->slot = slot;
    dv->nslot = nslot;
    return TOKIO_OK;
}

/* Room for `n` counters of a drive; NULL when out of memory. */
static struct val *
store_counters(struct store *st, size_t n)
{
    struct block *b = st->blocks;

    if (b == NULL || b->cap - b->used < n) {
        size_t bytes = b == NULL ? BLOCK_FIRST : TOKIO_HUGE_BLOCK;
        if (n > (SIZE_MAX - sizeof(*b)) / sizeof(b->c[0]))
            return NULL;
        if (bytes < sizeof(*b) + n * sizeof(b->c[0]))
            bytes = sizeof(*b) + n * sizeof(b->c[0]);
        b = bytes == TOKIO_HUGE_BLOCK ? tokio__alloc_huge()
                                      : tokio__malloc(bytes);
        if (b == NULL)
            return NULL;
        b->next = st->blocks;
        b->used = 0;
        b->cap = (bytes - sizeof(*b)) / sizeof(b->c[0]);
        st->blocks = b;
    }
    b->used += n;
    return &b->c[b->used - n];
}

/* Counter `key` of a drive set to `v` at `slot`. */
static void
store_hold(struct store *st, struct val *slot, struct val v, uint32_t key)
{
    st->any_json |= v.type == V_JSON;
    v.key = key;
    *slot = v;
}

/* drive[key] = v, as a dict: a new counter goes last, a known one keeps
 * its place; looked for first at *hint (see store_find_at()), which
 * follows.  `v` is taken over, even on failure. */
static int
store_set_at(struct store *st, uint32_t d, uint32_t key, struct val v,
             size_t *hint)
{
    struct device *dv = &st->dev[d];
    size_t i = store_find_at(st, d, key, hint);

    if (i != SIZE_MAX) {
        val_release(&dv->c[i]);
        store_hold(st, &dv->c[i], v, key);
        return TOKIO_OK;
    }
    *hint = dv->n;
    return store_append(st, d, key, v);
}

static int
store_set(struct store *st, uint32_t d, uint32_t key, struct val v)
{
    size_t hint = SIZE_MAX;

    return store_set_at(st, d, key, v, &hint);
}

/* drive[key] = v for a counter the drive does not have yet.  `v` is
 * taken over, even on failure. */
static int
store_append_slow(struct store *st, uint32_t d, uint32_t key, struct val v)
{
    struct device *dv = &st->dev[d];

    /* places are kept as uint32_t */
    if (dv->n >= UINT32_MAX / 4) {
        val_release(&v);
        return TOKIO_ENOMEM;
    }
    if (dv->n == dv->cap) {
        /* a new drive starts as large as the last one came to be, as
         * drives mostly have the same counters, with room for the few
         * synthesize() adds after a dump is read */
        size_t last = d > 0 ? st->dev[d - 1].n : 0;
        size_t cap = dv->cap ? 2 * dv->cap : last > 56 ? last + 8 : 64;
        struct val *g = store_counters(st, cap);
        if (g == NULL) {
            val_release(&v);
            return TOKIO_ENOMEM;
        }
        /* the old room stays in its block until the dump is freed */
        if (dv->n > 0)
            memcpy(g, dv->c, dv->n * sizeof(*g));
        dv->c = g;
        dv->cap = cap;
    }
    if (dv->layout != 0) {
        const struct device *lay = &st->dev[dv->layout - 1];
        if (dv->n < lay->n && lay->c[dv->n].key == key)
            goto put;       /* still the same names as the layout's */
        dv->layout = 0;     /* from here on a table of its own */
    }
    if (!slots_enough(dv->nslot, dv->cap) && store_rehash(dv) < 0) {
        val_release(&v);
        return TOKIO_ENOMEM;
    }
    size_t k = key_home(key, dv->nslot);
    while (dv->slot[k] != 0)
        k = (k + 1) & (dv->nslot - 1);
    dv->slot[k] = (uint32_t)dv->n + 1;
put:
    store_hold(st, &dv->c[dv->n++], v, key);
    return TOKIO_OK;
}

/* store_append_slow(), but the usual case is taken here, inline: the
 * layout's next name with room for it (a large dump has hundreds of
 * thousands). */
static inline int
store_append(struct store *st, uint32_t d, uint32_t key, struct val v)
{
    struct device *dv = &st->dev[d];

    if (dv->layout != 0 && dv->n < dv->cap) {
        const struct device *lay = &st->dev[dv->layout - 1];
        if (dv->n < lay->n && lay->c[dv->n].key == key) {
            store_hold(st, &dv->c[dv->n++], v, key);
            return TOKIO_OK;
        }
    }
    return store_append_slow(st, d, key, v);
}

/* The drive with serial s[0..n), added when new; -1 when out of memory. */
static long
store_device(struct store *st, const char *s, size_t n)
{
    size_t before = st->serials.n;
    long d;

    if (before == st->capdev) {
        size_t cap = st->capdev ? 2 * st->capdev : 64;
        struct device *g = tokio__reallocarray(st->dev, cap, sizeof(*g));
        if (g == NULL)
            return -1;
        st->dev = g;
        st->capdev = cap;
    }
    if ((d = itab_intern(&st->serials, s, n)) >= 0 && st->serials.n != before)
        memset(&st->dev[d], 0, sizeof(st->dev[d]));
    return d;
}

/* The id of counter name s[0..n), added when new; -1 when out of memory. */
static long
store_key(struct store *st, const char *s, size_t n)
{
    size_t before = st->keys.n;
    long id = itab_intern(&st->keys, s, n);

    if (id >= 0 && st->keys.n != before && has_unit(st->keys.v[id].s))
        st->keys.v[id].aux |= KEY_HAS_UNIT;
    return id;
}

/* A text value (its bytes valid UTF-8); 0 when out of memory. */
static int
text_val(struct store *st, const char *s, size_t n, struct val *out)
{
    long id = itab_intern(&st->texts, s, n);

    if (id < 0)
        return 0;
    out->type = V_TEXT;
    out->u.text = (uint32_t)id;
    return 1;
}

/* A jansson value (stolen) as typed; 0 when out of memory. */
static int
val_from_json(struct store *st, json_t *j, struct val *out)
{
    uint64_t u;

    out->type = V_NULL;
    if (j == NULL)
        return 0;
    switch (json_typeof(j)) {
    case JSON_INTEGER:
        out->type = V_INT;
        out->u.i = json_integer_value(j);
        break;
    case JSON_REAL:
        out->type = V_REAL;
        out->u.d = json_real_value(j);
        break;
    case JSON_TRUE:
        out->type = V_TRUE;
        break;
    case JSON_FALSE:
        out->type = V_FALSE;
        break;
    case JSON_NULL:
        break;
    case JSON_STRING:
        if (!tokio_json_uint64_value(j, &u)) {
            int ok = text_val(st, json_string_value(j), json_string_length(j),
                              out);
            json_decref(j);
            return ok;
        }
        out->type = V_JSON;     /* a tagged big integer stays as it is */
        out->u.json = j;
        return 1;
    default:
        out->type = V_JSON;
        out->u.json = j;
        return 1;
    }
    json_decref(j);
    return 1;
}

/* The jansson form of a value: a new reference, NULL when out of memory. */
static json_t *
val_json(const struct store *st, const struct val *v)
{
    switch (v->type) {
    case V_NULL:  return json_null();
    case V_FALSE: return json_false();
    case V_TRUE:  return json_true();
    case V_INT:   return json_integer(v->u.i);
    case V_REAL:  return json_real(v->u.d);
    case V_TEXT:
        return json_stringn_nocheck(st->texts.v[v->u.text].s,
                                    st->texts.v[v->u.text].len);
    case V_JSON:  return json_incref(v->u.json);
    }
    return NULL;
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
 * tokio_recast_string() into *out, with the common cases first: most
 * counters are plain decimals or 0x-hex that fit easily, and text holding
 * a space can be no number (int() and float() take no inner blanks); both
 * skip the general parser.  0 when out of memory.
 */
static int
recast(struct parse *p, const char *s, size_t n, struct val *out)
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
        if (k == n) {
            out->type = V_INT;
            out->u.i = v;
            return 1;
        }
    } else if (n > 0 && n <= 18) {
        size_t i = s[0] == '-' || s[0] == '+', k = i;
        while (k < n && is_digit(s[k]))
            v = v * 10 + (s[k++] - '0');
        if (k == n && k > i) {
            out->type = V_INT;
            out->u.i = s[0] == '-' ? -v : v;
            return 1;
        }
    }
    out->type = V_INT;
    if (n > 0 && n <= 15 && bare_hex(s, n, &out->u.i))
        return 1;
    out->type = V_TRUE;
    if (n == 4 && memcmp(s, "True", 4) == 0)
        return 1;
    out->type = V_FALSE;
    if (n == 5 && memcmp(s, "False", 5) == 0)
        return 1;
    out->type = V_NULL;
    if (n == 4 && memcmp(s, "null", 4) == 0)
        return 1;
    /* text values repeat across drives ("Pass", descriptions, models):
     * what recast() made of one is remembered */
    struct itab *texts = &p->st->texts;
    uint64_t h = hash_bytes(s, n);
    long id = itab_find(texts, s, n, h);
    if (id < 0 || !texts->v[id].aux) {
        if (memchr(s, ' ', n) == NULL && maybe_number(s, n)) {
            /* the general parser wants a C string */
            char small[128], *copy = n < sizeof(small)
                                         ? small : tokio__malloc(n + 1);
            if (copy == NULL)
                return 0;
            memcpy(copy, s, n);
            copy[n] = '\0';
            json_t *j = tokio_recast_string(copy);
            if (copy != small)
                free(copy);
            if (j == NULL)
                return 0;
            uint64_t u;
            if (!json_is_string(j) || tokio_json_uint64_value(j, &u))
                return val_from_json(p->st, j, out);
            json_decref(j);     /* the text itself */
        }
        if ((id = itab_add(texts, s, n, h)) < 0)
            return 0;
        texts->v[id].aux = 1;
    }
    out->type = V_TEXT;
    out->u.text = (uint32_t)id;
    return 1;
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
 * drive[key] = a native counter's value.  The reference recast every
 * value once all members were merged; recasting as each is stored gives
 * the same, the last value stored being the one recast, except for the
 * counters with a unit, kept as text for recast_units().
 */
static int
set_native(struct parse *p, uint32_t d, uint32_t key, const char *v,
           size_t n)
{
    struct val val;
    int ok = p->st->keys.v[key].aux & KEY_HAS_UNIT
                 ? text_val(p->st, v, n, &val) : recast(p, v, n, &val);

    return ok ? store_set(p->st, d, key, val) : TOKIO_ENOMEM;
}


/* ---- one member: the output of one isdct command ---------------------- */

/*
 * normalize_key() through a cache: every drive repeats the same couple of
 * hundred keys, so each distinct one is normalized once.  With `twice`,
 * the key is normalized a second time, as the reference does for SMART
 * registers (not always a no-op: a tab left last by dropping a dash is
 * stripped then), and cached apart.  Returns the key's id in st->keys, or
 * -1 when out of memory.
 */
static long
cached_key(struct parse *p, const char *b, const char *e, int twice)
{
    struct itab *cache = twice ? &p->smart_keys : &p->raw_keys;
    size_t n = (size_t)(e - b), before = cache->n;
    long raw = itab_intern(cache, b, n), id;
    char *k, *k2;

    if (raw < 0)
        return -1;
    if (cache->n == before)
        return (long)cache->v[raw].aux;
    /* new: normalize it (on failure the entry stays, pointing nowhere
     * valid, but the parse ends there) */
    if ((k = normalize_key(b, e)) == NULL)
        return -1;
    if (twice) {
        k2 = normalize_key(k, k + strlen(k));
        free(k);
        if ((k = k2) == NULL)
            return -1;
    }
    id = store_key(p->st, k, strlen(k));
    free(k);
    if (id >= 0)
        cache->v[raw].aux = (uint32_t)id;
    return id;
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
static int
smart_set(struct parse *p, uint32_t key, const char *v, size_t n)
{
    if (key >= p->cap_pos) {
        /* as many as there are keys, so this happens once per doubling */
        size_t cap = p->st->keys.cap > key ? p->st->keys.cap : key + 1;
        uint32_t *pos = tokio__reallocarray(p->smart_pos, cap, sizeof(*pos));
        if (pos == NULL)
            return TOKIO_ENOMEM;
        p->smart_pos = pos;
        uint32_t *gen = tokio__reallocarray(p->smart_gen, cap, sizeof(*gen));
        if (gen == NULL)
            return TOKIO_ENOMEM;
        p->smart_gen = gen;
        memset(gen + p->cap_pos, 0, (cap - p->cap_pos) * sizeof(*gen));
        p->cap_pos = cap;
    }
    if (p->smart_gen[key] == p->gen) {
        struct smart_kv *kv = &p->smart[p->smart_pos[key]];
        kv->v = v;
        kv->vlen = n;
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
    p->smart_gen[key] = p->gen;
    p->smart_pos[key] = (uint32_t)p->n_smart;
    p->smart[p->n_smart].key = key;
    p->smart[p->n_smart].v = v;
    p->smart[p->n_smart++].vlen = n;
    return TOKIO_OK;
}

static const struct smart_kv *
smart_get(const struct parse *p, uint32_t key)
{
    if (key < p->cap_pos && p->smart_gen[key] == p->gen)
        return &p->smart[p->smart_pos[key]];
    return NULL;
}

/* Forget the register: the next "- ID -" line starts another. */
static void
smart_reset(struct parse *p)
{
    p->n_smart = 0;
    if (++p->gen == 0) {
        /* wrapped after four billion registers: start the stamps anew */
        if (p->smart_gen != NULL)
            memset(p->smart_gen, 0, p->cap_pos * sizeof(*p->smart_gen));
        p->gen = 1;
    }
}

/* s[0..n) without "-", spaces as "_", into `out`; the length. */
static size_t
squash(char *out, const char *s, size_t n)
{
    size_t w = 0;

    for (size_t r = 0; r < n; r++) {
        if (s[r] == '-')
            continue;
        out[w++] = s[r] == ' ' ? '_' : s[r];
    }
    return w;
}

/* _rekey_smart_buffer(): a register's lines as SMART_<Description>_<key>
 * counters (or SMART_<ID>_<key> without a description) of drive `d`. */
static int
flush_smart(struct parse *p, uint32_t d, const char *member, size_t lineno)
{
    const struct smart_kv *pv = smart_get(p, p->description_key);
    const char *prefix = "None";
    size_t plen = 4;

    if (pv == NULL)
        pv = smart_get(p, p->id_key);
    if (pv != NULL) {
        prefix = pv->v;
        plen = pv->vlen;
    }
    if (plen > SMART_PREFIX_MAX)
        return tokio__error(TOKIO_EFORMAT, "'%s' member '%s' line %zu: "
                            "SMART register description or id longer than "
                            "%d bytes", p->arch, member, lineno,
                            SMART_PREFIX_MAX);
    /* "SMART_<prefix>_" then each key, with .replace("-", "")
     * .replace(" ", "_") before normalizing: done on the head once */
    if (plen + 8 > p->cap_scratch) {
        char *g = tokio__realloc(p->scratch, plen + 64);
        if (g == NULL)
            return TOKIO_ENOMEM;
        p->scratch = g;
        p->cap_scratch = plen + 64;
    }
    memcpy(p->scratch, "SMART_", 6);
    size_t head = 6 + squash(p->scratch + 6, prefix, plen);
    p->scratch[head++] = '_';
    for (size_t i = 0; i < p->n_smart; i++) {
        const struct istr *ks = &p->st->keys.v[p->smart[i].key];
        const char *kb = ks->s, *ke = kb + ks->len;
        strip(&kb, &ke);
        size_t kl = (size_t)(ke - kb), need = head + kl + 1;
        if (need > p->cap_scratch) {
            char *g = tokio__realloc(p->scratch, need);
            if (g == NULL)
                return TOKIO_ENOMEM;
            p->scratch = g;
            p->cap_scratch = need;
        }
        char *raw = p->scratch;
        size_t w = head + squash(raw + head, kb, kl);
        /* normalized by _rekey_smart_buffer(), then by the caller */
        long key = cached_key(p, raw, raw + w, 1);
        if (key < 0)
            return TOKIO_ENOMEM;
        const char *vb = p->smart[i].v, *ve = vb + p->smart[i].vlen;
        strip(&vb, &ve);
        int rc = set_native(p, d, (uint32_t)key, vb, (size_t)(ve - vb));
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

/* drive[normalize(key)] = strip(value), or into the SMART register being
 * read when `smart`. */
static int
set_pair(struct parse *p, uint32_t d, int smart, const char *b,
         const char *colon, const char *e)
{
    long key = cached_key(p, b, colon, 0);
    const char *vb = colon + 1, *ve = e;

    if (key < 0)
        return TOKIO_ENOMEM;
    strip(&vb, &ve);
    if (smart)
        return smart_set(p, (uint32_t)key, vb, (size_t)(ve - vb));
    return set_native(p, d, (uint32_t)key, vb, (size_t)(ve - vb));
}

/* A key id by name, added when new; -1 when out of memory. */
static long
name_key(struct store *st, const char *name)
{
    return store_key(st, name, strlen(name));
}

/*
 * parse_counters_fileobj() and _merge_parsed_counters() in one: the
 * counters of the one drive a member describes go straight into that
 * drive's counters, later members updating earlier ones in place, which
 * is what dict.update() did.  A member naming no drive adds nothing (the
 * reference warned and skipped it).
 */
static int
parse_lines(struct parse *p, const char *member, const unsigned char *buf,
            size_t len)
{
    const char *s = (const char *)buf, *end = s + len;
    long d = -1;
    int mode = -1, rc = TOKIO_OK;
    size_t lineno = 0;
    /* a whole member of valid UTF-8 without NUL needs no check per line */
    int checked = memchr(buf, '\0', len) == NULL &&
                  tokio__utf8_valid(buf, len);

    smart_reset(p);
    while (s < end && rc == TOKIO_OK) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *b = s, *e = nl ? nl : end;

        s = nl ? nl + 1 : end;
        lineno++;
        if (!checked && memchr(b, '\0', (size_t)(e - b)) != NULL) {
            rc = line_error(p, member, lineno, "NUL byte");
            break;
        }
        if (!checked &&
            !tokio__utf8_valid((const unsigned char *)b, (size_t)(e - b))) {
            rc = line_error(p, member, lineno, "not UTF-8 text");
            break;
        }
        strip(&b, &e);
        size_t n = (size_t)(e - b);
        const char *colon = memchr(b, ':', n);

        if (d < 0) {
            size_t snb, sne;
            int kind = find_serial(b, n, &snb, &sne);
            if (kind < 0)
                continue;
            long key = name_key(p->st, "node_name");
            if (key < 0 ||
                (d = store_device(p->st, b + snb, sne - snb)) < 0) {
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
                rc = set_native(p, (uint32_t)d, (uint32_t)key, name,
                                strlen(name));
            }
            free(name);
            mode = kind == SMART_ATTRIBUTES;
        } else if (colon != NULL) {
            rc = set_pair(p, (uint32_t)d, mode == 1, b, colon, e);
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
            if ((rc = flush_smart(p, (uint32_t)d, member, lineno)) < 0)
                break;
            rc = smart_set(p, p->id_key, t, (size_t)(te - t));
        } else {
            rc = line_error(p, member, lineno, mode == 1
                            ? "expected 'key : value' or '- ID -'"
                            : "expected 'key : value'");
        }
    }
    if (rc == TOKIO_OK && mode == 1)
        rc = flush_smart(p, (uint32_t)d, member, lineno);
    /* placeholder, so the timestamp lands where the reference put it:
     * after the counters of the drive's first member */
    if (rc == TOKIO_OK && d >= 0) {
        long key = name_key(p->st, "timestamp");
        struct val null = { V_NULL, 0, { 0 } };
        if (key < 0)
            rc = TOKIO_ENOMEM;
        else if (store_get(p->st, (uint32_t)d, (uint32_t)key) == NULL)
            rc = store_set(p->st, (uint32_t)d, (uint32_t)key, null);
    }
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
recast_units(struct store *st, uint32_t d)
{
    /* units are added after the walk, as the reference collects them */
    struct { uint32_t key; struct val v; } units[8];
    size_t nunits = 0, n = st->dev[d].n;
    int rc = TOKIO_OK;

    for (size_t i = 0; i < n && rc == TOKIO_OK; i++) {
        struct val *c = &st->dev[d].c[i];
        const struct istr *ks = &st->keys.v[c->key];
        const char *unit = NULL;
        size_t unit_len = 0;

        /* everything else was recast as it was stored */
        if (c->type != V_TEXT || !(ks->aux & KEY_HAS_UNIT))
            continue;
        int endurance = strcmp(ks->s, "endurance_analyzer") == 0;
        const struct istr *ts = &st->texts.v[c->u.text];
        const char *b = ts->s, *e = b + ts->len, *t = b;
        while (t < e && !tokio__py_space((unsigned char)*t))
            t++;
        while (t < e && tokio__py_space((unsigned char)*t))
            t++;
        if (t < e) {
            unit = t;
            unit_len = (size_t)(e - t);
        }
        struct val nv;
        if (!val_from_json(st, tokio_recast_string(ts->s), &nv))
            return TOKIO_ENOMEM;
        if (endurance) {
            /* text (a tagged big integer too, as jansson sees it) */
            if (nv.type == V_TEXT ||
                (nv.type == V_JSON && json_is_string(nv.u.json))) {
                val_release(&nv);
                unit = NULL;
            } else if (unit == NULL) {
                unit = "years";
                unit_len = 5;
            }
        }
        if (unit != NULL) {
            /* key + "_unit"; the unit is a span of a text, whose bytes
             * stay put when the table grows */
            char buf[64], *ukey;
            size_t kl = ks->len;
            ukey = kl + 6 <= sizeof(buf) ? buf : tokio__malloc(kl + 6);
            if (ukey == NULL) {
                val_release(&nv);
                return TOKIO_ENOMEM;
            }
            memcpy(ukey, ks->s, kl);
            memcpy(ukey + kl, "_unit", 6);
            long uk = store_key(st, ukey, kl + 5);
            struct val uv = { V_NULL, 0, { 0 } };
            int ok = uk >= 0 && text_val(st, unit, unit_len, &uv);
            if (ukey != buf)
                free(ukey);
            if (!ok) {
                val_release(&nv);
                return TOKIO_ENOMEM;
            }
            units[nunits].key = (uint32_t)uk;
            units[nunits++].v = uv;
        }
        val_release(c);
        store_hold(st, c, nv, c->key);
    }
    for (size_t i = 0; i < nunits; i++)
        if (rc == TOKIO_OK)
            rc = store_set(st, d, units[i].key, units[i].v);
    return rc;
}

/* An int, float or bool counter; bools count as 0 and 1, as in Python. */
static int
val_num(const struct val *v, struct num *n)
{
    switch (v->type) {
    case V_INT:
        n->is_int = 1;
        n->i = v->u.i;
        n->d = (double)n->i;
        return 1;
    case V_REAL:
        n->is_int = 0;
        n->d = v->u.d;
        return 1;
    case V_TRUE:
    case V_FALSE:
        n->is_int = 1;
        n->i = v->type == V_TRUE;
        n->d = (double)n->i;
        return 1;
    default:
        return 0;
    }
}

/* A number as a value; 0 when it is not finite. */
static int
num_val(const struct num *n, struct val *out)
{
    if (n->is_int) {
        out->type = V_INT;
        out->u.i = n->i;
        return 1;
    }
    out->type = V_REAL;
    out->u.d = n->d;
    return isfinite(n->d);
}

/* A counter synthesize() reads or writes: its key id (-1: no drive has
 * it) and its place in the last drive it was in (see store_find_at()). */
struct synth_key {
    const char *name;
    long key;
    size_t hint;
};

/* The counter `k` of drive `d`, or NULL. */
static const struct val *
synth_get(const struct store *st, uint32_t d, struct synth_key *k)
{
    size_t i;

    if (k->key < 0 ||
        (i = store_find_at(st, d, (uint32_t)k->key, &k->hint)) == SIZE_MAX)
        return NULL;
    return &st->dev[d].c[i];
}

/* drive[k] = v, the key made on first use; `v` is taken over. */
static int
synth_set(struct store *st, uint32_t d, struct synth_key *k, struct val v)
{
    if (k->key < 0 && (k->key = name_key(st, k->name)) < 0) {
        val_release(&v);
        return TOKIO_ENOMEM;
    }
    return store_set_at(st, d, (uint32_t)k->key, v, &k->hint);
}

/* drive[to] = drive[from] * factor, when `from` is there. */
static int
scale(struct store *st, uint32_t d, struct synth_key *from,
      struct synth_key *to, int64_t factor)
{
    const struct val *v = synth_get(st, d, from);
    const char *sn = st->serials.v[d].s;
    struct num n = { 0, 0, 0 }, r = { 0, 0, 0 };
    struct val out;

    if (v == NULL)
        return TOKIO_OK;
    if (!val_num(v, &n))
        return counter_error(sn, from->name, "not a number");
    r = num_mul(&n, factor);
    if (!num_val(&r, &out))
        return counter_error(sn, from->name, "too large");
    return synth_set(st, d, to, out);
}

/* The id of counter `name`, -1 when no drive has it. */
static long
find_key(const struct store *st, const char *name)
{
    size_t n = strlen(name);

    return itab_find(&st->keys, name, n, hash_bytes(name, n));
}

/* _synthesize_metrics(): bytes from native units, and the write
 * amplification factor (NAND writes over host writes). */
static int
synthesize(struct store *st)
{
    /* to = from * factor; the `to` keys are made on first use */
    struct {
        struct synth_key from, to;
        int64_t factor;
    } scaled[] = {
        { { "data_units_read", -1, 0 }, { "data_units_read_bytes", -1, 0 },
          DATA_UNIT_BYTES },
        { { "data_units_written", -1, 0 },
          { "data_units_written_bytes", -1, 0 }, DATA_UNIT_BYTES },
        { { "smart_nand_bytes_written_raw", -1, 0 },
          { "smart_nand_bytes_written_bytes", -1, 0 }, SMART_RAW_BYTES },
        { { "smart_host_bytes_written_raw", -1, 0 },
          { "smart_host_bytes_written_bytes", -1, 0 }, SMART_RAW_BYTES },
    };
    const size_t nscaled = sizeof(scaled) / sizeof(scaled[0]);
    struct synth_key *nand_raw = &scaled[2].from, *host_raw = &scaled[3].from;
    struct synth_key waf_key = { "write_amplification_factor", -1, 0 };
    int rc;

    for (size_t i = 0; i < nscaled; i++)
        scaled[i].from.key = find_key(st, scaled[i].from.name);
    for (uint32_t d = 0; d < st->serials.n; d++) {
        const char *sn = st->serials.v[d].s;
        for (size_t i = 0; i < nscaled; i++)
            if ((rc = scale(st, d, &scaled[i].from, &scaled[i].to,
                            scaled[i].factor)) < 0)
                return rc;
        const struct val *nand = synth_get(st, d, nand_raw);
        const struct val *host = synth_get(st, d, host_raw);
        struct num a = { 0, 0, 0 }, b = { 0, 0, 0 };
        if (nand == NULL || host == NULL || nand->type == V_NULL ||
            host->type == V_NULL)
            continue;
        if (!val_num(host, &b))
            return counter_error(sn, host_raw->name, "not a number");
        if (!(num_double(&b) > 0) && !(b.is_int && b.i > 0))
            continue;
        if (!val_num(nand, &a))
            return counter_error(sn, nand_raw->name, "not a number");
        struct val waf = { V_REAL, 0, { 0 } };
        waf.u.d = num_double(&a) / num_double(&b);
        if ((rc = synth_set(st, d, &waf_key, waf)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

static int
finish_native(struct parse *p)
{
    struct store *st = p->st;
    int64_t ts;
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
    long key = name_key(st, "timestamp");
    struct val tv = { V_INT, 0, { 0 } };
    tv.u.i = ts;
    for (uint32_t d = 0; d < st->serials.n; d++) {
        if (key < 0 || store_set(st, d, (uint32_t)key, tv) < 0 ||
            recast_units(st, d) < 0)
            return tokio__error(TOKIO_ENOMEM, "'%s': out of memory",
                                p->arch);
    }
    if ((rc = synthesize(st)) < 0) {
        if (rc == TOKIO_ENOMEM)
            return tokio__error(rc, "'%s': out of memory", p->arch);
        return tokio__error_prefix("'%s'", p->arch);
    }
    return TOKIO_OK;
}

/* ---- opening ---------------------------------------------------------- */

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

/* The JSON form's counters into `st`. */
static int
store_from_json(struct store *st, const json_t *json)
{
    const char *sn, *key;
    json_t *c, *v;

    json_object_foreach((json_t *)json, sn, c) {
        long d = store_device(st, sn, strlen(sn));
        if (d < 0)
            return TOKIO_ENOMEM;
        json_object_foreach(c, key, v) {
            long k = store_key(st, key, strlen(key));
            struct val val;
            if (k < 0 || !val_from_json(st, json_incref(v), &val) ||
                store_set(st, (uint32_t)d, (uint32_t)k, val) < 0)
                return TOKIO_ENOMEM;
        }
    }
    return TOKIO_OK;
}

int
tokio_nersc_isdct_from_json(struct tokio_nersc_isdct **out,
                            const json_t *json)
{
    struct tokio_nersc_isdct *d;
    int rc;

    *out = NULL;
    if ((rc = check_json(json)) < 0)
        return rc;
    if ((d = tokio__calloc(1, sizeof(*d))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading an ISDCT "
                            "dump");
    if ((rc = store_from_json(&d->st, json)) < 0 ||
        (rc = synthesize(&d->st)) < 0) {
        tokio_nersc_isdct_free(d);
        return rc == TOKIO_ENOMEM
            ? tokio__error(rc, "out of memory reading an ISDCT dump") : rc;
    }
    *out = d;
    return TOKIO_OK;
}

/* Native from a directory (buf NULL) or archive bytes. */
static int
open_native(struct tokio_nersc_isdct **out, const char *path,
            const void *buf, size_t len)
{
    struct tokio_nersc_isdct *d = tokio__calloc(1, sizeof(*d));
    struct parse p;
    long id_key, description_key;
    int rc;

    memset(&p, 0, sizeof(p));
    p.arch = path;
    if (d == NULL || (id_key = name_key(&d->st, "_id")) < 0 ||
        (description_key = name_key(&d->st, "description")) < 0) {
        tokio_nersc_isdct_free(d);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", path);
    }
    p.st = &d->st;
    p.id_key = (uint32_t)id_key;
    p.description_key = (uint32_t)description_key;
    if (buf == NULL)
        rc = tokio_walk_file_collection(path, visit_member, &p);
    else
        rc = tokio__walk_archive_mem(buf, len, path, 0, visit_member, &p);
    if (rc >= 0)
        rc = finish_native(&p);
    if (rc >= 0) {
        *out = d;
        d = NULL;
    }
    tokio_nersc_isdct_free(d);
    itab_free(&p.raw_keys);
    itab_free(&p.smart_keys);
    free(p.smart);
    free(p.smart_pos);
    free(p.smart_gen);
    free(p.scratch);
    free(p.cwd);
    free(p.ts_text);
    free(p.ts_member_copy);
    return rc;
}

/*
 * The JSON form as it is saved (an object of objects of plain values)
 * read straight into `st`, without a jansson tree: strings without
 * escapes, integers of up to 18 digits, reals, true, false and null.
 * Anything else - an escape, a longer integer, a serial given twice,
 * malformed text - gives up and the caller reads it through jansson,
 * whose reading (or error message) stands.
 *
 * The text comes through a window (struct jwin): the whole text at once,
 * or a file inflated a window at a time, so a large dump is never held
 * whole in memory.  It is read in steps (enum jstep), each all or nothing:
 * a step that runs into the window's end (struct scan's `short_`) before
 * the input's end is tried again once the window has more text, from the
 * last step read; nothing is stored before a step is complete.
 */
struct scan {
    const char *p, *end;
    int short_;     /* ran into `end`: more text could complete the step */
};

static inline void
scan_ws(struct scan *s)
{
    const char *p = s->p;

    while (p < s->end && (*p == ' ' || *p == '\t' || *p == '\n' ||
                          *p == '\r'))
        p++;
    s->p = p;
    s->short_ |= p == s->end;
}

/* Past the bytes from `p` that need no care in a JSON string: all but
 * '"', '\\', controls and non-ASCII; eight at a time while it can. */
static const char *
scan_plain(const char *p, const char *end)
{
    const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;

    for (; end - p >= 8; p += 8) {
        uint64_t w, q, b;
        memcpy(&w, p, 8);
        q = w ^ (ones * '"');
        b = w ^ (ones * '\\');
        /* a zero byte in q or b, a byte below 0x20, or a high bit */
        if ((((q - ones) & ~q) | ((b - ones) & ~b) | (w - ones * 0x20) | w) &
            highs)
            break;
    }
    while (p < end && *p != '"' && *p != '\\' &&
           (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80)
        p++;
    return p;
}

/* A '"'-quoted string without escapes; 0 if not one. */
static int
scan_string(struct scan *s, const char **b, size_t *n)
{
    const char *q;
    int high = 0;

    if (s->p >= s->end || *s->p != '"') {
        s->short_ |= s->p >= s->end;
        return 0;
    }
    q = scan_plain(s->p + 1, s->end);
    if (q < s->end && *q == '"')
        goto done;      /* plain ASCII, the usual case */
    if ((q = memchr(s->p + 1, '"', (size_t)(s->end - s->p - 1))) == NULL) {
        s->short_ = 1;
        return 0;
    }
    for (const char *c = s->p + 1; c < q; c++) {
        unsigned char u = (unsigned char)*c;
        if (u == '\\' || u < 0x20)
            return 0;       /* an escape (maybe of this quote) or control */
        high |= u >= 0x80;
    }
    if (high && !tokio__utf8_valid((const unsigned char *)s->p + 1,
                                   (size_t)(q - s->p - 1)))
        return 0;
done:
    *b = s->p + 1;
    *n = (size_t)(q - s->p - 1);
    s->p = q + 1;
    return 1;
}

static int
scan_digits(struct scan *s)
{
    const char *b = s->p;

    while (s->p < s->end && is_digit(*s->p))
        s->p++;
    s->short_ |= s->p == s->end;
    return (int)(s->p - b);
}

/* A JSON number as jansson reads it; 0 if not one this path takes. */
static int
scan_number(struct scan *s, struct val *out)
{
    const char *b = s->p;
    int neg = s->p < s->end && *s->p == '-', real = 0;

    s->p += neg;
    const char *db = s->p;
    int nd = scan_digits(s);
    if (nd == 0 || (nd > 1 && *db == '0'))
        return 0;
    if (s->p < s->end && *s->p == '.') {
        s->p++;
        if (scan_digits(s) == 0)
            return 0;
        real = 1;
    }
    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;
        if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
            s->p++;
        if (scan_digits(s) == 0)
            return 0;
        real = 1;
    }
    if (!real) {
        int64_t v = 0;
        if (nd > 18)
            return 0;
        for (int i = 0; i < nd; i++)
            v = v * 10 + (db[i] - '0');
        out->type = V_INT;
        out->u.i = neg ? -v : v;
        return 1;
    }
    char buf[64];
    size_t n = (size_t)(s->p - b);
    if (n >= sizeof(buf))
        return 0;
    memcpy(buf, b, n);
    buf[n] = '\0';
    out->type = V_REAL;
    out->u.d = strtod(buf, NULL);
    return isfinite(out->u.d);
}

static int
scan_word(struct scan *s, const char *w, size_t n)
{
    size_t left = (size_t)(s->end - s->p);

    if (left < n) {
        /* what is there may still begin the word */
        s->short_ |= memcmp(s->p, w, left) == 0;
        return 0;
    }
    if (memcmp(s->p, w, n) != 0)
        return 0;
    s->p += n;
    return 1;
}

/* One value of a drive; 0 if not one this path takes, -1 out of memory.
 * *last: id + 1 of the text this counter held on the drive before (0:
 * none), tried before the intern table, as most texts repeat from drive
 * to drive; it follows what is read. */
static int
scan_value(struct scan *s, struct store *st, struct val *out,
           uint32_t *last)
{
    const char *b;
    size_t n;

    out->type = V_NULL;
    if (s->p >= s->end) {
        s->short_ = 1;
        return 0;
    }
    switch (*s->p) {
    case '"':
        if (!scan_string(s, &b, &n))
            return 0;
        if (*last != 0 && st->texts.v[*last - 1].len == n &&
            memcmp(st->texts.v[*last - 1].s, b, n) == 0) {
            out->type = V_TEXT;
            out->u.text = *last - 1;
            return 1;
        }
        if (!text_val(st, b, n, out))
            return -1;
        *last = out->u.text + 1;
        return 1;
    case 't':
        out->type = V_TRUE;
        return scan_word(s, "true", 4);
    case 'f':
        out->type = V_FALSE;
        return scan_word(s, "false", 5);
    case 'n':
        return scan_word(s, "null", 4);
    default:
        return scan_number(s, out);
    }
}

/* memcmp(a, b, n) == 0 for the short names of counters, without a
 * call: eight bytes at a time. */
static int
same_bytes(const char *a, const char *b, size_t n)
{
    uint64_t x, y;

    for (; n >= 8; a += 8, b += 8, n -= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
    }
    for (; n > 0; n--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

/*
 * Whether the string at s->p is the counter name `key`, read past it if
 * so.  Names here all came through scan_string(), so hold no '"' or
 * '\\': the name in quotes is the whole string.  Too few bytes left is
 * not a match: scan_string() then tells whether the name is cut.
 */
static int
scan_same_key(struct scan *s, const struct store *st, uint32_t key)
{
    const struct istr *e = &st->keys.v[key];

    if ((size_t)(s->end - s->p) < e->len + 2 || s->p[0] != '"' ||
        s->p[e->len + 1] != '"' || !same_bytes(s->p + 1, e->s, e->len))
        return 0;
    s->p += e->len + 2;
    return 1;
}

/* The next byte after white space, not read; 0 (and short_) at the end,
 * or a NUL byte in the text, which is never what a step wants. */
static char
scan_peek(struct scan *s)
{
    scan_ws(s);
    return s->p < s->end ? *s->p : '\0';
}

/* Where the reader is in the form. */
enum jstep {
    J_OPEN,         /* before the outer '{' */
    J_DRIVE,        /* before a drive's "serial": { */
    J_COUNTER,      /* before a drive's "key": value */
    J_AFTER_DRIVE,  /* after a drive's '}' */
    J_END,          /* after the outer '}' */
    J_DONE
};

struct jread {
    enum jstep step;
    long d;             /* the drive being read */
    uint32_t *last_text;    /* key id -> scan_value()'s *last */
    size_t cap_last;
};

/* Room in r->last_text for key id `k`; 0 when out of memory. */
static int
last_text_grow(struct jread *r, size_t k)
{
    size_t cap = r->cap_last ? r->cap_last : 256;
    uint32_t *g;

    while (cap <= k)
        cap *= 2;
    if ((g = tokio__reallocarray(r->last_text, cap, sizeof(*g))) == NULL)
        return 0;
    memset(g + r->cap_last, 0, (cap - r->cap_last) * sizeof(*g));
    r->last_text = g;
    r->cap_last = cap;
    return 1;
}

/* Read one step at s->p: 1 when read, 0 when not (s->short_ says if more
 * text could make it), -1 out of memory. */
static int
json_step(struct store *st, struct scan *s, struct jread *r, int at_eof)
{
    const char *b;
    size_t n;
    char c;
    int rc;

    switch (r->step) {
    case J_OPEN:
        if (scan_peek(s) != '{')
            return 0;
        s->p++;
        if ((c = scan_peek(s)) == '\0')
            return 0;
        if (c == '}')
            s->p++;
        r->step = c == '}' ? J_END : J_DRIVE;
        return 1;
    case J_DRIVE: {
        scan_ws(s);
        if (!scan_string(s, &b, &n) || scan_peek(s) != ':')
            return 0;
        s->p++;
        if (scan_peek(s) != '{')
            return 0;
        s->p++;
        if ((c = scan_peek(s)) == '\0')
            return 0;
        size_t before = st->serials.n;
        long d = store_device(st, b, n);
        if (d < 0)
            return -1;
        if (st->serials.n == before)
            return 0;           /* given twice: jansson keeps the last */
        r->d = d;
        st->dev[d].layout = layout_after(st, (uint32_t)d);
        if (c == '}')
            s->p++;
        r->step = c == '}' ? J_AFTER_DRIVE : J_COUNTER;
        return 1;
    }
    case J_COUNTER: {
        /* while this drive's names come as its layout's do, each is new
         * to it, so it needs no look-up */
        const struct device *dv = &st->dev[r->d];
        const struct device *lay = dv->layout ? &st->dev[dv->layout - 1]
                                              : NULL;
        int in_step = lay != NULL && dv->n < lay->n;
        struct val v;
        long k;
        scan_ws(s);
        if (in_step && scan_same_key(s, st, lay->c[dv->n].key)) {
            k = (long)lay->c[dv->n].key;
        } else {
            in_step = 0;
            if (!scan_string(s, &b, &n))
                return 0;
            if ((k = store_key(st, b, n)) < 0)
                return -1;
        }
        if (scan_peek(s) != ':')
            return 0;
        s->p++;
        scan_ws(s);
        if ((size_t)k >= r->cap_last && !last_text_grow(r, (size_t)k))
            return -1;
        if ((rc = scan_value(s, st, &v, &r->last_text[k])) <= 0)
            return rc;
        /* only a ',' or '}' after it shows the value is whole */
        if ((c = scan_peek(s)) != ',' && c != '}')
            return 0;
        s->p++;
        if ((in_step ? store_append(st, (uint32_t)r->d, (uint32_t)k, v)
                     : store_set(st, (uint32_t)r->d, (uint32_t)k, v)) < 0)
            return -1;
        if (c == '}')
            r->step = J_AFTER_DRIVE;
        return 1;
    }
    case J_AFTER_DRIVE:
        if ((c = scan_peek(s)) != ',' && c != '}')
            return 0;
        s->p++;
        r->step = c == ',' ? J_DRIVE : J_END;
        return 1;
    case J_END:
        /* nothing but white space may follow, to the very end (a NUL
         * byte is text, not the end) */
        scan_ws(s);
        if (s->p != s->end || !at_eof)
            return 0;
        r->step = J_DONE;
        return 1;
    default:
        return 0;
    }
}

/* The text being read: buf[done..len) not read yet; `in` gives more
 * (NULL: buf is the whole text). */
struct jwin {
    struct tokio_input *in;
    char *buf;
    size_t done, len, cap;
    int eof;
};

/* A window of this much holds many drives (a drive is ~4 KiB of JSON):
 * refills are rare and the text stays in the caches. */
#define JSON_WINDOW ((size_t)256 << 10)

/* Move what is unread to the front and read up to a full window, growing
 * it when one step does not fit; 1, 0 when it may grow no more (the
 * caller reads the whole text instead, and its limits and messages
 * apply), or the input's error. */
static int
jwin_more(struct jwin *w)
{
    size_t n;
    int rc;

    memmove(w->buf, w->buf + w->done, w->len - w->done);
    w->len -= w->done;
    w->done = 0;
    if (w->len == w->cap) {
        char *g;
        if (w->cap >= TOKIO_INPUT_DEFAULT_MAX / 2 ||
            (g = tokio__realloc(w->buf, 2 * w->cap)) == NULL)
            return 0;
        w->buf = g;
        w->cap *= 2;
    }
    while (w->len < w->cap && !w->eof) {
        if ((rc = tokio_input_read(w->in, w->buf + w->len, w->cap - w->len,
                                   &n)) < 0)
            return rc;
        w->eof = n == 0;
        w->len += n;
    }
    return 1;
}

/* The whole form from `w` into `st`: 1 when read, 0 when it is not the
 * plain saved form (or a window could not grow), or a negative status
 * with its message (out of memory, the input's error). */
static int
fast_json(struct store *st, struct jwin *w, const char *name)
{
    struct jread r = { J_OPEN, -1, NULL, 0 };
    int rc;

    for (;;) {
        struct scan s = { w->buf + w->done, w->buf + w->len, 0 };
        rc = json_step(st, &s, &r, w->eof);
        if (rc > 0) {
            w->done = (size_t)(s.p - w->buf);
            if (r.step != J_DONE)
                continue;
        } else if (rc < 0) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                              name);
        } else if (s.short_ && !w->eof && w->in != NULL &&
                   (rc = jwin_more(w)) > 0) {
            continue;
        }
        break;
    }
    free(r.last_text);
    return rc;
}

/* A dump from the saved form in `w`: 1 when read, 0 when the form is not
 * plain (the caller reads it through jansson), or an error. */
static int
open_json(struct tokio_nersc_isdct **out, struct jwin *w, const char *name)
{
    struct tokio_nersc_isdct *d = tokio__calloc(1, sizeof(*d));
    int rc;

    if (d == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    if ((rc = fast_json(&d->st, w, name)) > 0) {
        if ((rc = synthesize(&d->st)) < 0) {
            tokio_nersc_isdct_free(d);
            return rc == TOKIO_ENOMEM
                ? tokio__error(rc, "out of memory reading an ISDCT dump")
                : tokio__error_prefix("'%s'", name);
        }
        *out = d;
        return 1;
    }
    tokio_nersc_isdct_free(d);
    return rc;
}

/* The JSON form through jansson. */
static int
open_tree(struct tokio_nersc_isdct **out, const unsigned char *buf,
          size_t len, const char *name)
{
    json_t *json;
    int rc = tokio__json_parse_named(&json, (const char *)buf, len, 0, name);

    if (rc < 0)
        return rc;
    rc = tokio_nersc_isdct_from_json(out, json);
    json_decref(json);
    if (rc < 0 && rc != TOKIO_ENOMEM)
        return tokio__error_prefix("'%s'", name);
    return rc;
}

/* Whether decompressed bytes are ISDCT's text outputs (a tar archive:
 * "ustar" at 257) or else JSON (its first non-space a '{'). */
static int
is_native(const unsigned char *buf, size_t len)
{
    size_t i = 0;

    while (i < len && tokio__py_space(buf[i]))
        i++;
    return (len >= 262 && memcmp(buf + 257, "ustar", 5) == 0) || i == len ||
           buf[i] != '{';
}

/* Bytes already decompressed: a tar archive, or else JSON. */
static int
open_bytes(struct tokio_nersc_isdct **out, const unsigned char *buf,
           size_t len, const char *name)
{
    if (is_native(buf, len))
        return open_native(out, name, buf, len);
    struct jwin w = { NULL, (char *)buf, 0, len, len, 1 };
    int rc = open_json(out, &w, name);
    return rc != 0 ? (rc > 0 ? TOKIO_OK : rc) : open_tree(out, buf, len, name);
}

/*
 * A file read through a window: the plain saved form as it is inflated,
 * never whole.  1 when done, 0 when the file must be read whole from the
 * start instead (a tarball, whose first window is read again, or JSON
 * the windowed reader does not take, which jansson reads), or an error.
 */
int
tokio__nersc_isdct_open_window(struct tokio_nersc_isdct **out,
                               const char *path)
{
    struct tokio_input *in = NULL;
    struct jwin w = { NULL, NULL, 0, 0, JSON_WINDOW, 0 };
    int rc;

    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    w.in = in;
    if ((w.buf = tokio__malloc(w.cap)) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", path);
    else if ((rc = jwin_more(&w)) > 0)
        rc = is_native((unsigned char *)w.buf, w.len)
             ? 0 : open_json(out, &w, path);
    free(w.buf);
    tokio_input_close(in);
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
    /* standard input cannot be read twice, should the window give up */
    if (strcmp(path, "-") != 0 &&
        (rc = tokio__nersc_isdct_open_window(out, path)) != 0)
        return rc < 0 ? rc : TOKIO_OK;
    if ((rc = tokio_read_file(path, 0, &buf, &len)) < 0)
        return rc;
    if (is_native(buf, len))
        rc = open_native(out, path, buf, len);
    else
        rc = open_tree(out, buf, len, path);
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
    return d == NULL ? 0 : d->st.serials.n;
}

/* The jansson form: made on first use and kept (its making changes no
 * value, so a const dump may make it); NULL when out of memory. */
static json_t *
tree(const struct tokio_nersc_isdct *d)
{
    const struct store *st = &d->st;
    json_t *t;

    if (d->tree != NULL)
        return d->tree;
    if ((t = json_object()) == NULL)
        goto oom;
    for (size_t k = 0; k < st->serials.n; k++) {
        json_t *c = json_object();
        if (c == NULL ||
            json_object_setn_new_nocheck(t, st->serials.v[k].s,
                                         st->serials.v[k].len, c) < 0)
            goto oom;
        for (size_t i = 0; i < st->dev[k].n; i++) {
            const struct val *ct = &st->dev[k].c[i];
            const struct istr *ks = &st->keys.v[ct->key];
            json_t *v = val_json(st, ct);
            if (v == NULL ||
                json_object_setn_new_nocheck(c, ks->s, ks->len, v) < 0)
                goto oom;
        }
    }
    ((struct tokio_nersc_isdct *)d)->tree = t;
    return t;
oom:
    json_decref(t);
    tokio__error(TOKIO_ENOMEM, "out of memory making the JSON of an ISDCT "
                 "dump");
    return NULL;
}

const json_t *
tokio_nersc_isdct_json(const struct tokio_nersc_isdct *d)
{
    return d == NULL ? NULL : tree(d);
}

const json_t *
tokio_nersc_isdct_device(const struct tokio_nersc_isdct *d,
                         const char *serial)
{
    const json_t *t = d == NULL || serial == NULL ? NULL : tree(d);
    return t == NULL ? NULL : json_object_get(t, serial);
}

int
tokio_nersc_isdct_to_json(const struct tokio_nersc_isdct *d, json_t **out)
{
    const json_t *t = tree(d);

    *out = NULL;
    if (t == NULL)
        return TOKIO_ENOMEM;
    if ((*out = json_deep_copy(t)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory copying an ISDCT "
                            "dump");
    return TOKIO_OK;
}

/* The JSON text of an interned string followed by `suffix`, made once:
 * each table's strings are always written with the same suffix. */
static int
jout_istr(struct tokio__wbuf *o, struct istr *e, const char *suffix)
{
    size_t i = 0;

    if (e->enc == NULL) {
        size_t sl = strlen(suffix);
        char *text = NULL;
        /* printable ASCII needing no escape is itself in quotes; the
         * rest goes to the general writer */
        while (i < e->len && e->s[i] >= 0x20 && e->s[i] < 0x7f &&
               e->s[i] != '"' && e->s[i] != '\\')
            i++;
        if (i < e->len) {
            json_t *j = json_stringn_nocheck(e->s, e->len);
            int rc = j == NULL ? TOKIO_ENOMEM
                               : tokio_json_dumps(&text, j, 0);
            json_decref(j);
            if (rc < 0)
                return TOKIO_ENOMEM;
        }
        size_t tl = text != NULL ? strlen(text) : e->len + 2;
        if ((e->enc = tokio__malloc(tl + sl + 1)) == NULL) {
            free(text);
            return TOKIO_ENOMEM;
        }
        if (text != NULL) {
            memcpy(e->enc, text, tl);
        } else {
            e->enc[0] = '"';
            memcpy(e->enc + 1, e->s, e->len);
            e->enc[tl - 1] = '"';
        }
        memcpy(e->enc + tl, suffix, sl + 1);
        e->enc_len = tl + sl;
        free(text);
    }
    tokio__wbuf_put(o, e->enc, e->enc_len);
    return TOKIO_OK;
}

static int
jout_val(struct tokio__wbuf *o, struct store *st, const struct val *v)
{
    char *text;

    switch (v->type) {
    case V_NULL:
        tokio__wbuf_put(o, "null", 4);
        break;
    case V_FALSE:
        tokio__wbuf_put(o, "false", 5);
        break;
    case V_TRUE:
        tokio__wbuf_put(o, "true", 4);
        break;
    case V_INT:
        tokio__wbuf_int(o, v->u.i);
        break;
    case V_REAL:
        tokio__wbuf_real(o, v->u.d);
        break;
    case V_TEXT:
        return jout_istr(o, &st->texts.v[v->u.text], "");
    case V_JSON:
        if (tokio_json_dumps(&text, v->u.json, 0) < 0)
            return TOKIO_ENOMEM;
        tokio__wbuf_put(o, text, strlen(text));
        free(text);
        break;
    }
    return TOKIO_OK;
}

int
tokio_nersc_isdct_write_json(const struct tokio_nersc_isdct *d, FILE *fp)
{
    /* the JSON texts kept in the tables change no value */
    struct store *st = (struct store *)&d->st;
    struct tokio__wbuf *o = tokio__malloc(sizeof(*o));
    int rc = TOKIO_OK;

    if (o == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    tokio__wbuf_init(o, fp);
    tokio__wbuf_put(o, "{", 1);
    for (size_t k = 0; k < st->serials.n && rc == TOKIO_OK; k++) {
        if (k > 0)
            tokio__wbuf_put(o, ", ", 2);
        rc = jout_istr(o, &st->serials.v[k], ": {");
        for (size_t i = 0; i < st->dev[k].n && rc == TOKIO_OK; i++) {
            const struct val *c = &st->dev[k].c[i];
            if (i > 0)
                tokio__wbuf_put(o, ", ", 2);
            if ((rc = jout_istr(o, &st->keys.v[c->key], ": ")) == TOKIO_OK)
                rc = jout_val(o, st, c);
        }
        tokio__wbuf_put(o, "}", 1);
    }
    tokio__wbuf_put(o, "}", 1);
    rc = rc < 0 ? tokio__error(TOKIO_ENOMEM, "out of memory writing JSON")
                : tokio__wbuf_finish(o, 0, "writing JSON failed");
    free(o);
    return rc;
}

void
tokio_nersc_isdct_free(struct tokio_nersc_isdct *d)
{
    if (d == NULL)
        return;
    store_free(&d->st);
    json_decref(d->tree);
    free(d);
}

/* ---- CSV: pandas.DataFrame.from_dict(orient='index').to_csv() --------- */

/* How pandas types a column built from Python values. */
enum col_kind { COL_INT, COL_FLOAT, COL_BOOL, COL_OBJECT };

/* What one column holds, counted in one pass over the cells. */
struct col_stats {
    size_t n_int, n_real, n_bool, n_null, n_str;
    const struct val *first;    /* first number, for the constancy test */
    int varies;
};

struct frame {
    uint32_t *cols;         /* key ids of the columns, first-seen order */
    size_t ncols;
    size_t *col_of;         /* key id -> column, SIZE_MAX if none */
    enum col_kind *kind;
    unsigned char *constant;    /* numeric column holding one value only */
    uint32_t *rows;         /* drives in the frame's order */
    size_t nrows;
};

static void
frame_free(struct frame *f)
{
    free(f->cols);
    free(f->col_of);
    free(f->kind);
    free(f->constant);
    free(f->rows);
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
 * Type every column as pandas does, in a pass over the cells present.  A
 * numeric column is constant when pandas' unique() finds one value: all
 * NaN, or no gap and one number.
 */
static int
frame_type_columns(struct frame *f, const struct store *st)
{
    struct col_stats *cs = tokio__calloc(f->ncols + 1, sizeof(*cs));

    if (cs == NULL ||
        (f->kind = tokio__calloc(f->ncols + 1, sizeof(*f->kind))) == NULL ||
        (f->constant = tokio__calloc(f->ncols + 1, 1)) == NULL) {
        free(cs);
        return TOKIO_ENOMEM;
    }
    for (size_t r = 0; r < f->nrows; r++) {
        const struct device *dv = &st->dev[f->rows[r]];
        for (size_t i = 0; i < dv->n; i++) {
            const struct val *v = &dv->c[i];
            struct col_stats *c = &cs[f->col_of[dv->c[i].key]];
            struct num a = { 0, 0, 0 }, b = { 0, 0, 0 };
            switch (v->type) {
            case V_NULL:
                c->n_null++;
                continue;
            case V_INT:
                c->n_int++;
                break;
            case V_REAL:
                c->n_real++;
                break;
            case V_TRUE:
            case V_FALSE:
                c->n_bool++;
                break;
            default:
                c->n_str++;
                continue;
            }
            val_num(v, &b);
            if (c->first == NULL) {
                c->first = v;
            } else if (!c->varies) {
                val_num(c->first, &a);
                c->varies = num_less(&a, &b) || num_less(&b, &a);
            }
        }
    }
    for (size_t k = 0; k < f->ncols; k++) {
        struct col_stats *c = &cs[k];
        size_t n_num = c->n_int + c->n_real + c->n_bool;
        f->kind[k] = column_kind(c, f->nrows);
        f->constant[k] = n_num == 0 || (n_num == f->nrows && !c->varies);
    }
    free(cs);
    return TOKIO_OK;
}

/*
 * The frame as pandas builds it: columns in first-seen order over the
 * rows; rows in the order they first appear going through the columns
 * (a row missing the first columns moves down; a row with no counters
 * vanishes); each column typed by its values.
 */
static int
frame_build(struct frame *f, const struct store *st)
{
    size_t n = st->serials.n, nkeys = st->keys.n;
    struct row_order *order = NULL;

    memset(f, 0, sizeof(*f));
    if ((f->col_of = tokio__calloc(nkeys + 1, sizeof(*f->col_of))) == NULL ||
        (f->cols = tokio__calloc(nkeys + 1, sizeof(*f->cols))) == NULL ||
        (f->rows = tokio__calloc(n + 1, sizeof(*f->rows))) == NULL ||
        (order = tokio__calloc(n + 1, sizeof(*order))) == NULL)
        goto oom;
    for (size_t k = 0; k < nkeys; k++)
        f->col_of[k] = SIZE_MAX;
    for (size_t d = 0; d < n; d++) {
        size_t first = SIZE_MAX;
        for (size_t i = 0; i < st->dev[d].n; i++) {
            uint32_t key = st->dev[d].c[i].key;
            if (f->col_of[key] == SIZE_MAX) {
                f->col_of[key] = f->ncols;
                f->cols[f->ncols++] = key;
            }
            if (f->col_of[key] < first)
                first = f->col_of[key];
        }
        order[d].first_col = first;
        order[d].pos = d;
    }
    qsort(order, n, sizeof(*order), cmp_row_order);
    for (size_t i = 0; i < n; i++) {
        if (order[i].first_col == SIZE_MAX)
            continue;           /* no counters: not a row to pandas */
        f->rows[f->nrows++] = (uint32_t)order[i].pos;
    }
    free(order);
    order = NULL;
    if (frame_type_columns(f, st) < 0)
        goto oom;
    return TOKIO_OK;
oom:
    free(order);
    frame_free(f);
    memset(f, 0, sizeof(*f));
    return tokio__error(TOKIO_ENOMEM, "out of memory making a table of an "
                        "ISDCT dump");
}

/* A text cell, quoted as tokio_csv_write_field() does, after what is
 * gathered in `o`. */
static void
csv_text(struct tokio__wbuf *o, const char *s, size_t n)
{
    tokio__wbuf_flush(o);
    tokio_csv_write_field(o->fp, s, n);
}

/* One cell as pandas prints it, into `o`; write errors show in
 * ferror(o->fp). */
static void
write_cell(struct tokio__wbuf *o, const struct store *st, const struct val *v,
           enum col_kind kind)
{
    char buf[64];
    struct num n = { 0, 0, 0 };

    if (v == NULL || v->type == V_NULL)
        return;
    if (v->type == V_TEXT) {
        csv_text(o, st->texts.v[v->u.text].s, st->texts.v[v->u.text].len);
        return;
    }
    if (v->type == V_JSON) {
        /* as the jansson value prints (a tagged big integer is text) */
        if (json_is_string(v->u.json)) {
            csv_text(o, json_string_value(v->u.json),
                     json_string_length(v->u.json));
        } else {
            py_str_number(v->u.json, buf, sizeof(buf));
            tokio__wbuf_put(o, buf, strlen(buf));
        }
        return;
    }
    val_num(v, &n);
    if (kind == COL_FLOAT || v->type == V_REAL) {
        tokio__wbuf_real(o, num_double(&n));
    } else if (v->type == V_INT) {
        tokio__wbuf_int(o, n.i);
    } else {
        tokio__wbuf_put(o, v->type == V_TRUE ? "True" : "False",
                 v->type == V_TRUE ? 4 : 5);
    }
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
    const struct store *st = &d->st;
    struct frame f;
    size_t *sel = NULL, nsel = 0;
    const struct val **cell = NULL;
    struct tokio__wbuf *o = NULL;
    int rc;

    if ((rc = frame_build(&f, st)) < 0)
        return rc;
    if ((sel = tokio__calloc(f.ncols + 2, sizeof(*sel))) == NULL ||
        (cell = tokio__calloc(f.ncols + 1, sizeof(*cell))) == NULL ||
        (o = tokio__malloc(sizeof(*o))) == NULL) {
        free(sel);
        free(cell);
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
            free(cell);
            free(o);
            frame_free(&f);
            return tokio__error(TOKIO_ENOMEM, "out of memory writing CSV");
        }
        long nk = itab_find(&st->keys, "node_name", 9,
                            hash_bytes("node_name", 9));
        if (nk >= 0 && f.col_of[nk] != SIZE_MAX)
            sel[nsel++] = f.col_of[nk];
        for (size_t k = 0; k < f.ncols; k++) {
            if (f.kind[k] != COL_INT && f.kind[k] != COL_FLOAT)
                continue;
            if (f.nrows > 1 && f.constant[k])
                continue;
            names[nn++] = st->keys.v[f.cols[k]].s;
        }
        qsort(names, nn, sizeof(*names), cmp_str);
        for (size_t i = 0; i < nn; i++) {
            size_t len = strlen(names[i]);
            long k = itab_find(&st->keys, names[i], len,
                               hash_bytes(names[i], len));
            sel[nsel++] = f.col_of[k];
        }
        free(names);
    }

    /* write errors show in ferror() */
    fputs("serial_number", fp);
    for (size_t i = 0; i < nsel; i++) {
        const struct istr *name = &st->keys.v[f.cols[sel[i]]];
        fputc(',', fp);
        tokio_csv_write_field(fp, name->s, name->len);
    }
    fputc('\n', fp);
    /* the rows gathered in `o`, written in large pieces */
    tokio__wbuf_init(o, fp);
    for (size_t r = 0; r < f.nrows && !ferror(fp); r++) {
        const struct device *dv = &st->dev[f.rows[r]];
        const struct istr *sn = &st->serials.v[f.rows[r]];
        for (size_t i = 0; i < dv->n; i++)
            cell[f.col_of[dv->c[i].key]] = &dv->c[i];
        csv_text(o, sn->s, sn->len);
        for (size_t i = 0; i < nsel; i++) {
            size_t k = sel[i];
            tokio__wbuf_put(o, ",", 1);
            write_cell(o, st, cell[k], f.kind[k]);
        }
        tokio__wbuf_put(o, "\n", 1);
        for (size_t i = 0; i < dv->n; i++)
            cell[f.col_of[dv->c[i].key]] = NULL;
    }
    rc = tokio__wbuf_finish(o, 0, "cannot write CSV");
    free(o);
    free(sel);
    free(cell);
    frame_free(&f);
    return rc;
}

/* ---- diff and its reductions (compare_isdct) -------------------------- */

/* A counter's change as diff() makes it: none (left out), a number, or
 * another value (changed text, as "+++NEW ---OLD"). */
enum change_kind { CH_NONE, CH_NUM, CH_JSON };

struct change {
    enum change_kind kind;
    struct num n;       /* CH_NUM */
    json_t *j;          /* CH_JSON: owned */
};

static const struct change NO_CHANGE = { CH_NONE, { 0, 0, 0 }, NULL };

/* now - before in *ch, or CH_NONE for no change unless `report_zeros`;
 * a difference out of range (inf) is the drive's error, as no JSON holds
 * it. */
static int
num_change(const struct num *now, const struct num *before, const char *sn,
           const char *key, int report_zeros, struct change *ch)
{
    struct num r = num_sub(now, before);

    *ch = NO_CHANGE;
    if (!report_zeros && num_is_zero(&r))
        return TOKIO_OK;
    if (!r.is_int && !isfinite(r.d))
        return counter_error(sn, key, "difference out of range");
    ch->kind = CH_NUM;
    ch->n = r;
    return TOKIO_OK;
}

/* Unchanged text: "" with `report_zeros`, else left out. */
static int
same_text(int report_zeros, struct change *ch)
{
    *ch = NO_CHANGE;
    if (!report_zeros)
        return TOKIO_OK;
    ch->kind = CH_JSON;
    return (ch->j = json_string("")) == NULL ? TOKIO_ENOMEM : TOKIO_OK;
}

/* Text `now` against the old value's str() as "+++NEW ---OLD". */
static int
text_change(const json_t *now, const json_t *before, struct change *ch)
{
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
    ch->j = json_stringn_nocheck(s, nl + ol + 7);
    ch->kind = CH_JSON;
    free(s);
    free(o);
    return ch->j == NULL ? TOKIO_ENOMEM : TOKIO_OK;
}

/* One counter's change, as NerscIsdct.diff(). */
static int
diff_counter(const char *sn, const char *key, const json_t *now,
             const json_t *before, int report_zeros, struct change *ch)
{
    int endurance = strcmp(key, "endurance_analyzer") == 0;
    struct num a = { 0, 0, 0 }, b = { 0, 0, 0 };

    *ch = NO_CHANGE;
    if (json_is_string(now) && !endurance)
        return json_equal(now, before) ? same_text(report_zeros, ch)
                                       : text_change(now, before, ch);
    if (!get_num(now, &a) || !get_num(before, &b)) {
        if (endurance)
            return TOKIO_OK;
        return tokio__error(TOKIO_EFORMAT, "incompatible numeric types for "
                            "%s/%s", sn, key);
    }
    return num_change(&a, &b, sn, key, report_zeros, ch);
}

/* One counter's change from the typed values: numbers directly, the
 * rest (text, null, tagged) through their jansson form. */
static int
diff_val(const struct store *st, const struct store *ost, const char *sn,
         const char *key, const struct val *now, const struct val *before,
         int report_zeros, struct change *ch)
{
    struct num a = { 0, 0, 0 }, b = { 0, 0, 0 };
    int rc;

    *ch = NO_CHANGE;
    if (val_num(now, &a) && val_num(before, &b))
        return num_change(&a, &b, sn, key, report_zeros, ch);
    if (now->type == V_TEXT && before->type == V_TEXT &&
        strcmp(key, "endurance_analyzer") != 0) {
        const struct istr *tn = &st->texts.v[now->u.text];
        const struct istr *tb = &ost->texts.v[before->u.text];
        if (tn->len == tb->len && memcmp(tn->s, tb->s, tn->len) == 0)
            return same_text(report_zeros, ch);
    }
    json_t *jn = val_json(st, now), *jb = val_json(ost, before);
    if (jn == NULL || jb == NULL)
        rc = TOKIO_ENOMEM;
    else
        rc = diff_counter(sn, key, jn, jb, report_zeros, ch);
    json_decref(jn);
    json_decref(jb);
    return rc;
}

/* A drive's serial in the other store, or -1. */
static long
other_serial(const struct store *other, const struct istr *sn)
{
    return itab_find(&other->serials, sn->s, sn->len, sn->hash);
}

/* What walk_changes() hands on.  `drive` (may be NULL) is told of each
 * drive of the new dump, and whether the old one has it; `change` of each
 * of its changes, taking ch->j over.  Either returns a negative status to
 * stop. */
struct change_sink {
    int (*drive)(void *ctx, const char *sn, int in_old);
    int (*change)(void *ctx, uint32_t key, const char *name,
                  struct change *ch);
    void *ctx;
};

/*
 * Each change from `ost` to `st` straight from the typed counters, in the
 * reference's order: drives in `st`'s order, each drive's counters in its
 * order, as its diff() walks its dicts.  Key ids are `st`'s.
 */
static int
walk_changes(const struct store *st, const struct store *ost,
             int report_zeros, const struct change_sink *sink)
{
    /* key id in `st` -> key id in `ost` + 1, 0 when `ost` lacks it */
    uint32_t *okey = tokio__calloc(st->keys.n + 1, sizeof(*okey));
    int rc = TOKIO_OK;

    if (okey == NULL)
        return TOKIO_ENOMEM;
    for (size_t k = 0; k < st->keys.n; k++) {
        const struct istr *e = &st->keys.v[k];
        long ok = itab_find(&ost->keys, e->s, e->len, e->hash);
        okey[k] = ok < 0 ? 0 : (uint32_t)ok + 1;
    }
    for (size_t d = 0; d < st->serials.n && rc >= 0; d++) {
        const char *sn = st->serials.v[d].s;
        long od = other_serial(ost, &st->serials.v[d]);
        if ((sink->drive != NULL &&
             (rc = sink->drive(sink->ctx, sn, od >= 0)) < 0) || od < 0)
            continue;
        for (size_t i = 0, hint = 0; i < st->dev[d].n; i++, hint++) {
            const struct val *c = &st->dev[d].c[i];
            /* the old drive mostly has its counters in the same order */
            size_t at = okey[c->key] == 0 ? SIZE_MAX
                : store_find_at(ost, (uint32_t)od, okey[c->key] - 1, &hint);
            const char *key = st->keys.v[c->key].s;
            struct change ch;
            if (at == SIZE_MAX)
                continue;   /* the reference warns and skips it */
            if ((rc = diff_val(st, ost, sn, key, c,
                               &ost->dev[od].c[at], report_zeros,
                               &ch)) < 0 ||
                (ch.kind != CH_NONE &&
                 (rc = sink->change(sink->ctx, c->key, key, &ch)) < 0))
                break;
        }
    }
    free(okey);
    return rc;
}

/* The diff as JSON, built by walk_changes(). */
struct diff_tree {
    json_t *added, *devices, *drive;
};

static int
tree_drive(void *ctx, const char *sn, int in_old)
{
    struct diff_tree *t = ctx;

    if (!in_old)
        return json_array_append_new(t->added, json_string(sn)) < 0
            ? TOKIO_ENOMEM : TOKIO_OK;
    t->drive = json_object();
    /* set_new() takes the value over, even when it fails */
    return set_new(t->devices, sn, t->drive);
}

static int
tree_change(void *ctx, uint32_t key, const char *name, struct change *ch)
{
    struct diff_tree *t = ctx;
    int bad;    /* never: num_change() let no inf through */

    (void)key;
    return set_new(t->drive, name,
                   ch->kind == CH_NUM ? num_json(&ch->n, &bad) : ch->j);
}

int
tokio_nersc_isdct_diff(const struct tokio_nersc_isdct *dump,
                       const struct tokio_nersc_isdct *old_dump,
                       int report_zeros, json_t **out)
{
    const struct store *st = &dump->st, *ost = &old_dump->st;
    json_t *removed, *res = json_object();
    struct diff_tree t = { NULL, NULL, NULL };
    const struct change_sink sink = { tree_drive, tree_change, &t };
    int rc = TOKIO_OK;

    *out = NULL;
    if (res == NULL || set_new(res, "added_devices", json_array()) < 0 ||
        set_new(res, "removed_devices", json_array()) < 0 ||
        set_new(res, "devices", json_object()) < 0) {
        rc = TOKIO_ENOMEM;
        goto done;
    }
    t.added = json_object_get(res, "added_devices");
    t.devices = json_object_get(res, "devices");
    removed = json_object_get(res, "removed_devices");
    rc = walk_changes(st, ost, report_zeros, &sink);
    for (size_t d = 0; d < ost->serials.n && rc >= 0; d++) {
        if (other_serial(st, &ost->serials.v[d]) < 0 &&
            json_array_append_new(removed,
                                  json_string(ost->serials.v[d].s)) < 0)
            rc = TOKIO_ENOMEM;
    }
done:
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
    const char *name;       /* borrowed from the diff or the dump */
    int64_t count;
    int have_num;
    struct num sum, min, max;
};

/* The reductions of the counters a diff has, in first-seen order. */
struct reducer {
    struct reduction *red;
    size_t n, cap;
};

/* A new reduction for counter `name`; NULL when out of memory. */
static struct reduction *
reducer_add(struct reducer *rd, const char *name)
{
    if (rd->n == rd->cap) {
        size_t cap = rd->cap ? rd->cap * 2 : 64;
        struct reduction *g = tokio__reallocarray(rd->red, cap, sizeof(*g));
        if (g == NULL)
            return NULL;
        rd->red = g;
        rd->cap = cap;
    }
    memset(&rd->red[rd->n], 0, sizeof(rd->red[rd->n]));
    rd->red[rd->n].name = name;
    return &rd->red[rd->n++];
}

/* One drive's change `x` (NULL: not a number) into the reduction. */
static void
reduction_take(struct reduction *r, const struct num *x)
{
    r->count++;
    if (x == NULL)
        return;         /* text changes are only counted */
    /*
     * Differs from pytokio: a counter that is text on one drive and a
     * number on a later one made the reference fail (KeyError); its
     * numbers are reduced here.
     */
    if (!r->have_num) {
        r->sum = r->min = r->max = *x;
        r->have_num = 1;
    } else {
        r->sum = num_add(&r->sum, x);
        /* min(value, cur) and max(value, cur) as Python picks */
        r->min = num_less(&r->min, x) ? r->min : *x;
        r->max = num_less(x, &r->max) ? r->max : *x;
    }
}

/* The reductions as compare_isdct prints them. */
static int
reducer_json(const struct reducer *rd, json_t **out)
{
    /* the reference's order: sum (with ave), min, max, count */
    static const char *const prefix[] = { "sum_", "min_", "max_", "count_" };
    json_t *res = json_object();
    int rc = TOKIO_OK;

    if (res == NULL)
        return TOKIO_ENOMEM;
    for (int pass = 0; pass < 4 && rc >= 0; pass++) {
        for (size_t i = 0; i < rd->n && rc >= 0; i++) {
            const struct reduction *r = &rd->red[i];
            struct num val = { 1, r->count, 0 };
            json_t *j;
            int bad;
            if (pass < 3 && !r->have_num)
                continue;
            if (pass < 3)
                val = pass == 0 ? r->sum : pass == 1 ? r->min : r->max;
            size_t kl = strlen(r->name);
            char *k = tokio__malloc(kl + 8);
            if (k == NULL) {
                rc = TOKIO_ENOMEM;
                break;
            }
            snprintf(k, kl + 8, "%s%s", prefix[pass], r->name);
            j = num_json(&val, &bad);
            if (bad) {
                rc = counter_error("(all)", k, "sum out of range");
                free(k);
                break;
            }
            rc = set_new(res, k, j);
            if (rc >= 0 && pass == 0) {
                snprintf(k, kl + 8, "ave_%s", r->name);
                rc = set_new(res, k, json_real(num_double(&val) /
                                               (double)r->count));
            }
            free(k);
        }
    }
    if (rc < 0) {
        json_decref(res);
        return rc;
    }
    *out = res;
    return TOKIO_OK;
}

/* The reducer's result, or its failure with the message it needs. */
static int
reducer_finish(struct reducer *rd, int rc, json_t **out)
{
    if (rc >= 0)
        rc = reducer_json(rd, out);
    free(rd->red);
    if (rc == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory reducing an ISDCT diff");
    return rc;
}

int
tokio_nersc_isdct_reduce_diff(const json_t *diff, json_t **out)
{
    const json_t *devs = json_object_get(diff, "devices");
    const char *sn, *key;
    json_t *c, *v;
    /* counter -> index into rd.red */
    json_t *index = json_object();
    struct reducer rd = { NULL, 0, 0 };
    int rc = TOKIO_OK;

    *out = NULL;
    if (!json_is_object(devs)) {
        json_decref(index);
        return tokio__error(TOKIO_EFORMAT, "not an ISDCT diff: no devices");
    }
    if (index == NULL)
        return reducer_finish(&rd, TOKIO_ENOMEM, out);
    json_object_foreach((json_t *)devs, sn, c) {
        json_object_foreach(c, key, v) {
            json_t *ix = json_object_get(index, key);
            struct reduction *r;
            struct num x = { 0, 0, 0 };
            if (ix != NULL) {
                r = &rd.red[json_integer_value(ix)];
            } else if ((r = reducer_add(&rd, key)) == NULL ||
                       set_new(index, key,
                               json_integer((json_int_t)rd.n - 1)) < 0) {
                rc = TOKIO_ENOMEM;
                goto done;
            }
            reduction_take(r, get_num(v, &x) ? &x : NULL);
        }
    }
done:
    rc = reducer_finish(&rd, rc, out);
    json_decref(index);
    return rc;
}

/* The reduction of a diff as walk_changes() finds it: counters by key
 * id, no JSON but the result. */
struct diff_reduce {
    struct reducer rd;
    uint32_t *slot;     /* key id -> index into rd.red + 1, 0: none yet */
};

static int
reduce_change(void *ctx, uint32_t key, const char *name, struct change *ch)
{
    struct diff_reduce *dr = ctx;
    struct reduction *r;

    if (dr->slot[key] != 0) {
        r = &dr->rd.red[dr->slot[key] - 1];
    } else {
        if ((r = reducer_add(&dr->rd, name)) == NULL) {
            json_decref(ch->j);
            return TOKIO_ENOMEM;
        }
        dr->slot[key] = (uint32_t)dr->rd.n;
    }
    /* a CH_JSON change is text: only counted */
    reduction_take(r, ch->kind == CH_NUM ? &ch->n : NULL);
    json_decref(ch->j);
    return TOKIO_OK;
}

int
tokio_nersc_isdct_diff_reduced(const struct tokio_nersc_isdct *dump,
                               const struct tokio_nersc_isdct *old_dump,
                               int report_zeros, json_t **out)
{
    struct diff_reduce dr = { { NULL, 0, 0 }, NULL };
    const struct change_sink sink = { NULL, reduce_change, &dr };
    int rc = TOKIO_ENOMEM;

    *out = NULL;
    dr.slot = tokio__calloc(dump->st.keys.n + 1, sizeof(*dr.slot));
    if (dr.slot != NULL)
        rc = walk_changes(&dump->st, &old_dump->st, report_zeros, &sink);
    rc = reducer_finish(&dr.rd, rc, out);
    free(dr.slot);
    return rc;
}

/* datetime.fromtimestamp(first drive's timestamp) as str() prints it. */
static int
dump_time(const struct tokio_nersc_isdct *d, const char *which, char *buf,
          size_t size)
{
    json_t *devices = tree(d);
    void *it = devices == NULL ? NULL : json_object_iter(devices);
    const json_t *ts;
    struct num n = { 0, 0, 0 };
    struct tm tm;

    if (devices == NULL)
        return TOKIO_ENOMEM;
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
    const json_t *devices = tree(d);
    const json_t *c = json_object_get(devices, sn);
    const json_t *node = json_object_get(c, "node_name");

    if (devices == NULL)
        return TOKIO_ENOMEM;

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
    rc = tokio__write_check(fp, "cannot write the summary");
done:
    json_decref(reduced);
    return rc;
}
