/*
 * src/connectors/es_hits.c - a reader of Elasticsearch hit pages that
 * hands each hit's _source fields to the converters, or copies a cache's
 * pages into the JSON form, without building jansson trees: an
 * exception to "jansson is the only JSON parser".
 *
 * Why: building and freeing jansson's tree of every hit was 70-80% of
 * `tokio cache-collectdes --csv --input` and `tokio archive-collectdes
 * --input` (perf; bench/bench-collectdes.sh, 10 pages of 10,000 hits,
 * 49.5 MB: 1.35 s and 1.25 s of CPU, 35 MB/s).  This reader alone made
 * them 0.37 s and 0.28 s (3.6x and 4.5x); with the faster repr() and one
 * pass that followed, 0.20 s (240 MB/s) and 0.31 s.  Live, where each
 * scroll page is a search response read the same way: 3 queries x 10
 * pages, 4.2 s and 3.2 s of CPU before, 0.63 s each after.  Then (2026-
 * 11-27, min of 9 runs beside the build before, a loaded VM): the cache
 * mapped instead of copied, numbers of 16-19 digits read and printed
 * without strtod()/snprintf() (tokio__decimal_to_double), the heap kept
 * between archive-collectdes' HDF5 chunks: 0.21 -> 0.15 s (310 MB/s)
 * and 0.31 -> 0.24 s (200 MB/s).  Then (2026-11-27, issue 18: 30x the
 * reference): white space and strings eight bytes a word at a time
 * (json.dump(indent=4)'s runs of spaces; the first quote, backslash,
 * control or non-ASCII byte of a word by one mask), keys found through
 * a table and compared as two words, ": " taken at once, a fraction's
 * digits eight at a time, the scanning functions inlined: with that
 * day's CSV and repr() changes, 861 -> 688 M instructions of --csv
 * (callgrind) and 125-146 -> 82-85 ms of CPU beside the build before
 * (min of 12).  Then (2026-11-27, issue 18's second round, for json.dump
 * (indent=4)'s layout): a list's or object's separator learned from its
 * opening run and checked as four masked words (skipping it byte by byte
 * was most of the scan's mispredicted branches), a _source's keys by
 * their '"name": ' pattern, a hit's members before _source that repeat
 * the hit before's passed by comparing their bytes, the row made absent
 * again only where the hit before set it, short strings copied as three
 * words, a number's short digit runs counted and valued from one word:
 * with es.c's (the CSV written straight into -o's temporary, its cells
 * without a switch), --csv's task-clock 88.6 -> 61.9 ms beside the build
 * before (min of 21), 685 -> 484 M instructions, x30-35 the reference
 * (bench/bench-collectdes.sh).  Tried and dropped: a string's end found
 * in four words at once without a branch (+7 ms: the loop's exit was
 * predicted well by the hardware, not by cachegrind's model); keys'
 * patterns by eight bytes (no change).  Left of --csv (perf): this scan
 * ~37%, doubles (repr.c, number()) ~15%, CSV rows ~7%, the kernel ~26%
 * and ld.so ~12% (starting 75 libraries: 15 ms of --help), writing the
 * output ~4%.
 *
 * It serves the JSON form too (`tokio cache-collectdes --input`, no
 * --csv), whose output is the cache's pages written again: there
 * jansson's parse alone was ~0.9 s of the bench cache, its trees built,
 * written and freed 0.90-1.01 s of CPU, x2.1-2.5 the reference.  Now
 * each page is walked twice by the same functions (copy_page() and
 * below), first only checked, then written token by token through the
 * JSON stream of core/json.c (tokio__jstream_*: the writer's own rules,
 * as jansson's tree would have been written); a page outside the subset
 * (besides the above: a key given twice in any object, as jansson keeps
 * the first place with the last value; more than 1024 keys open) is
 * read by jansson as before, so errors stay jansson's.  2026-11-27,
 * issue 18 (task-clock, min of 9 runs beside main's binary, load 4.7):
 * 913 -> 152 ms (x13.4 the reference's 2.09 s), peak RSS 44 -> 23 MB,
 * output identical; perf: this walk ~46%, writing ~15%, repr() ~7%.
 * fuzz/fuzz_es.c checks on every input that the JSON form equals the
 * one jansson's page trees alone make (tokio__es_hits_for_json 0), and
 * that a page this walk follows is the page jansson reads, alike.
 *
 * It follows only what it fully understands and leaves everything else
 * to jansson: the text must be JSON as jansson reads it (a list of
 * pages, each a list of hit objects with an object _source until an
 * empty page, the rest any JSON) in a plain subset (ASCII strings with
 * the short escapes, keys without escapes, numbers jansson takes,
 * nesting under 32 deep, no field asked for given twice or holding a
 * list or object).  Anything outside it gives TOKIO__ES_HITS_FALLBACK
 * and the caller reads the text with jansson as before: same values,
 * same errors.  Without a reset function a first pass checks the whole
 * text before a second hands hits on, so nothing went out before a
 * fallback; with one (the CSV form, archive-collectdes) one pass does
 * both, and a fallback first resets what the hits did.  A converter's
 * error is returned only once the rest of the text is checked, so that
 * jansson's refusal of a text still comes first.  fuzz/fuzz_es_hits.c
 * checks, on every input, that what this reader accepts jansson accepts
 * with the same values, that what jansson refuses this reader does not
 * take, and that both ways make the same CSV and errors.
 */
#include "connectors/es_hits.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/repr.h"

#define MAX_DEPTH 32
#define FB INT_MIN              /* not followed: read it with jansson */
#define MAX_NUMBER 128          /* longer number tokens: jansson's */
#define SLOTS 256               /* of the fields' table, a power of 2 */

/*
 * A field's key as json.dump() writes it, from its quote to the space
 * after its colon ("name": ), as three words under masks, for
 * known_key(); len 0: none (a name of more than 20 bytes, or one that is
 * not plain text).
 */
struct key_pat {
    uint64_t w[3], m[3];
    size_t len;
    int next;                   /* the next field of its by4 slot, -1 */
};

/*
 * A member of a hit other than _source as the hit before had it, from
 * its key's quote to the byte after its value, under masks: the same
 * bytes read the same way ("_score": 1.0, "_type": "doc", "_index":
 * "cori-collectd-2018.03.29" in every hit of a page); len 0: none.
 */
#define MEMO_WORDS 6
struct memo {
    uint64_t w[MEMO_WORDS], m[MEMO_WORDS];
    size_t len;
};
#define MEMOS 8                 /* the first members of a hit */

struct reader {
    const unsigned char *p, *end;
    const char *const *fields;
    size_t n_fields;
    size_t field_len[TOKIO__ES_HITS_MAX_FIELDS];
    uint64_t field_word[TOKIO__ES_HITS_MAX_FIELDS][2];  /* 16 bytes, 0s */
    unsigned char slot[SLOTS];  /* field + 1 by key_hash(), 0: none */
    struct key_pat pat[TOKIO__ES_HITS_MAX_FIELDS];
    signed char by4[SLOTS];     /* field + 1 by pat_hash(), 0: none */
    struct memo memo[MEMOS];
    int extract;                /* second pass: values and strings */
    uint64_t seen;              /* fields met in this _source */
    struct tokio__es_value row[TOKIO__ES_HITS_MAX_FIELDS];
    size_t str_off[TOKIO__ES_HITS_MAX_FIELDS];
    char *strings;              /* this hit's strings, NUL-ended */
    size_t strings_len, strings_cap;
};

#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')

/* Bytes by class: 1 white space, 2 a string's plain byte (printable
 * ASCII but the quote and the backslash). */
#define W 1
#define P 2
static const unsigned char cls[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, W, W, 0, 0, W, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    W|P, P, 0, P, P, P, P, P, P, P, P, P, P, P, P, P,
    P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
    P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
    P, P, P, P, P, P, P, P, P, P, P, P, 0, P, P, P,
    P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
    P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
};

/* Eight bytes at p (unaligned, in memory order). */
static uint64_t
word_at(const unsigned char *p)
{
    uint64_t w;

    memcpy(&w, p, sizeof(w));
    return w;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)
/* Where the words apply: the index of the first byte of a word whose
 * bits are set in `mask` (not 0), the word read in memory order. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDS 1
#define FIRST_BYTE(mask) ((size_t)__builtin_ctzll(mask) >> 3)
#else
#define WORDS 0
#endif

/* The index of the lowest bit set in b (not 0). */
static inline size_t
ctz64(uint64_t b)
{
#if defined(__GNUC__)
    return (size_t)__builtin_ctzll(b);
#else
    size_t n = 0;

    while (!(b & 1)) {
        b >>= 1;
        n++;
    }
    return n;
#endif
}

/* Past white space from p: json.dump(indent=4)'s runs of spaces eight
 * bytes at a time. */
static inline const unsigned char *
skip_ws(const unsigned char *p, const unsigned char *end)
{
#if WORDS
    while (end - p >= 8) {
        uint64_t x = word_at(p) ^ (ONES * ' ');

        if (x == 0) {
            p += 8;
            continue;
        }
        p += FIRST_BYTE(x);
        if (!(cls[*p] & W))
            return p;
        p++;                    /* a line feed, tab or CR */
    }
#endif
    while (p < end && (cls[*p] & W))
        p++;
    return p;
}

static inline void
ws(struct reader *r)
{
    r->p = skip_ws(r->p, r->end);
}

/* Past a string's plain bytes from p: to the first quote, backslash,
 * control byte or byte beyond ASCII, or `end`; eight bytes a word. */
static inline const unsigned char *
plain_run(const unsigned char *p, const unsigned char *end)
{
#if WORDS
    while (end - p >= 8) {
        /* the high bit of the first byte below 0x20, a quote, a
         * backslash or one of 0x80 and more: no subtraction borrows
         * before it; above it the bits may be wrong */
        uint64_t w = word_at(p);
        uint64_t m = ((w - ONES * 0x20) | ((w ^ (ONES * '"')) - ONES) |
                      ((w ^ (ONES * '\\')) - ONES) | w) & HIGHS;

        if (m != 0)
            return p + FIRST_BYTE(m);
        p += 8;
    }
#endif
    while (p < end && (cls[*p] & P))
        p++;
    return p;
}

/* From after a string's opening quote to after its closing one: its raw
 * bytes; *esc when they hold a short escape.  0, or FB. */
static inline int
string(struct reader *r, const unsigned char **start, size_t *len, int *esc)
{
    const unsigned char *p = r->p, *end = r->end;

    *esc = 0;
    *start = p;
    for (;;) {
        p = plain_run(p, end);
        if (p < end && *p == '"')
            break;
        if (p == end || *p != '\\' || end - p < 2 ||
            memchr("\"\\/bfnrt", p[1], 8) == NULL)
            return FB;      /* control byte, beyond ASCII, cut short */
        *esc = 1;
        p += 2;
    }
    *len = (size_t)(p - *start);
    r->p = p + 1;
    return 0;
}

/* Room for `n` more bytes of strings; 0 or TOKIO_ENOMEM. */
static int
reserve(struct reader *r, size_t n)
{
    if (r->strings_cap - r->strings_len >= n)
        return 0;
    size_t cap = r->strings_cap ? r->strings_cap : 256;
    while (cap - r->strings_len < n)
        cap *= 2;
    char *s = tokio__realloc(r->strings, cap);
    if (s == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading "
                            "Elasticsearch hits");
    r->strings = s;
    r->strings_cap = cap;
    return 0;
}

/* Field `f`'s string value: its bytes, short escapes decoded. */
static int
keep_string(struct reader *r, size_t f, const unsigned char *s, size_t len,
            int esc)
{
    char *out;
    size_t n = 0;

    if (reserve(r, len < 24 ? 24 : len + 1) < 0)
        return TOKIO_ENOMEM;
    out = r->strings + r->strings_len;
    if (!esc && len <= 24 && r->end - s >= 24) {
        /* three words whatever the length (varying from field to field,
         * memcpy()'s branches on it were mispredicted) */
        for (size_t i = 0; i < 24; i += 8)
            memcpy(out + i, s + i, 8);
        n = len;
    } else if (!esc) {
        memcpy(out, s, len);
        n = len;
    } else {
        for (size_t i = 0; i < len; i++) {
            char c = (char)s[i];

            if (c == '\\') {
                switch (s[++i]) {
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                default: c = (char)s[i]; break;     /* " \ / */
                }
            }
            out[n++] = c;
        }
    }
    out[n] = '\0';
    r->row[f].kind = TOKIO__ES_STRING;
    r->row[f].len = n;
    r->str_off[f] = r->strings_len;
    r->strings_len += n + 1;
    return 0;
}

#if WORDS
/* How many of the first bytes of w (in memory order) are digits, 0 to 8:
 * a carry of w + 6s leaves a byte only above one that is no digit. */
static inline size_t
digits_in(uint64_t w)
{
    uint64_t t = ((w & (ONES * 0xf0)) ^ (ONES * '0')) |
                 (((w + ONES * 6) & (ONES * 0xf0)) ^ (ONES * '0'));
    uint64_t nz = (((t & ~HIGHS) + ~HIGHS) | t) & HIGHS;

    return nz == 0 ? 8 : FIRST_BYTE(nz);
}

/* The value of the digits of w (eight, the first in the lowest byte; a
 * byte of 0 for a leading zero): pairs, then fours, then the eight, by
 * multiplying within the word. */
static inline uint64_t
value_of_8(uint64_t w)
{
    w = (w * 10 + (w >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
    w = (w * 100 + (w >> 16)) & UINT64_C(0x0000ffff0000ffff);
    return (w * 10000 + (w >> 32)) & UINT64_C(0xffffffff);
}

/* The value of the first n (1 to 8) bytes of w, digits: moved to the top
 * of the word, zeros below. */
static inline uint64_t
value_of_first(uint64_t w, size_t n)
{
    return value_of_8((w - ONES * '0') << (64 - 8 * n));
}

static const uint64_t pow10_u64[] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
    100000000u, 1000000000u, 10000000000u, 100000000000u,
    1000000000000u, 10000000000000u, 100000000000000u,
    1000000000000000u, 10000000000000000u, 100000000000000000u,
};
#endif

/*
 * A number as jansson's lexer takes it: an integer (no fraction or
 * exponent) within int64_t, or a real that does not overflow.  With
 * `out`, its value; the real's by strtod() but where the exact shortcut
 * holds (at most 2^53 as an integer of digits, times or over a power of
 * ten up to 10^22: one rounding, as strtod's).  0, or FB.
 */
static int
number(struct reader *r, struct tokio__es_value *out)
{
    const unsigned char *p = r->p, *end = r->end, *start = p;
    uint64_t m = 0;
    int neg = 0, real = 0, inexact = 0, overflow = 0, int_digits = 0;
    long e10 = 0, exp = 0;

    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    if (p == end || !IS_DIGIT(*p))
        return FB;
    if (*p == '0') {
        p++;
        int_digits = 1;
    } else {
        const unsigned char *first = p;
        size_t n = 8;

#if WORDS
        /* up to seven digits from one word, without a loop */
        if (end - p >= 8)
            n = digits_in(word_at(p));
        if (n < 8) {
            m = value_of_first(word_at(p), n);
            p += n;
            first = p;  /* the loops below: nothing more */
        }
#endif
        while (p < end && IS_DIGIT(*p))
            p++;
        int_digits = n < 8 ? (int)n : (int)(p - first);
        /* 19 digits cannot overflow 64 bits; more keep what fits */
        for (const unsigned char *d = first; d < p; d++) {
            unsigned v = (unsigned)(*d - '0');

            if (int_digits >= 20 && m > (UINT64_MAX - v) / 10) {
                overflow = 1;
                break;
            }
            m = m * 10 + v;
        }
    }
    if (p < end && *p == '.') {
        real = 1;
        if (++p == end || !IS_DIGIT(*p))
            return FB;
#if WORDS
        /* eight digits at a time while m takes them (m < 10^9: below
         * 10^17 after them, as the loop below would have it): pairs,
         * then fours, then the eight, by multiplying within the word */
        while (end - p >= 8 && m < 1000000000u) {
            uint64_t w = word_at(p);

            if ((w & (ONES * 0xf0)) != ONES * '0' ||
                ((w + ONES * 6) & (ONES * 0xf0)) != ONES * '0')
                break;
            m = m * 100000000u + value_of_8(w - ONES * '0');
            e10 -= 8;
            p += 8;
        }
        /* then the last one to seven digits at once where m takes them
         * all (below 10^17 before the last, as the loop below) */
        if (end - p >= 8) {
            uint64_t w = word_at(p);
            size_t n = digits_in(w);

            if (n > 0 && n < 8 && m < pow10_u64[17 - n]) {
                m = m * pow10_u64[n] + value_of_first(w, n);
                e10 -= (long)n;
                p += n;
            }
        }
#endif
        for (; p < end && IS_DIGIT(*p); p++) {
            if (m >= 100000000000000000ULL) {
                inexact = 1;
            } else {
                m = m * 10 + (unsigned)(*p - '0');
                e10--;
            }
        }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0;

        real = 1;
        if (++p < end && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        if (p == end || !IS_DIGIT(*p))
            return FB;
        for (; p < end && IS_DIGIT(*p); p++)
            if (exp < 100000)
                exp = exp * 10 + (*p - '0');
        e10 += eneg ? -exp : exp;
        inexact = 1;    /* may overflow: strtod() says */
    }
    r->p = p;
    if (!real) {
        if (overflow || m > (uint64_t)INT64_MAX + (uint64_t)neg)
            return FB;  /* jansson: too big an integer */
        if (out != NULL) {
            out->kind = TOKIO__ES_INT;
            out->i = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN
                     : neg ? -(int64_t)m : (int64_t)m;
        }
        return 0;
    }
    if (overflow || int_digits > 300)
        inexact = 1;
    if (out == NULL && !inexact)
        return 0;       /* cannot overflow */
    double d;

    if (inexact || overflow ||
        !tokio__decimal_to_double(m, (int)e10, neg, &d)) {
        char tmp[MAX_NUMBER];
        size_t n = (size_t)(p - start);

        if (n >= sizeof(tmp))
            return FB;
        memcpy(tmp, start, n);
        tmp[n] = '\0';
        d = strtod(tmp, NULL);
        if (isinf(d))
            return FB;  /* jansson: real number overflow */
    }
    if (out != NULL) {
        out->kind = TOKIO__ES_REAL;
        out->d = d;
    }
    return 0;
}

static int
literal(struct reader *r, const char *word, size_t n)
{
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return FB;
    r->p += n;
    return 0;
}

/* A key and its colon: its bytes (no escapes), white space skipped. */
static inline int
key(struct reader *r, const unsigned char **k, size_t *len)
{
    int esc;

    if (r->p == r->end || *r->p != '"')
        return FB;
    r->p++;
    if (string(r, k, len, &esc) < 0 || esc)
        return FB;
    /* json.dump's ": " */
    if (r->end - r->p >= 3 && r->p[0] == ':' && r->p[1] == ' ' &&
        !(cls[r->p[2]] & W)) {
        r->p += 2;
        return 0;
    }
    ws(r);
    if (r->p == r->end || *r->p != ':')
        return FB;
    r->p++;
    ws(r);
    return 0;
}

/* After a member or element: 1 at `close` (passed), 0 after a comma and
 * white space, or FB. */
static inline int
next(struct reader *r, unsigned char close)
{
    ws(r);
    if (r->p == r->end)
        return FB;
    if (*r->p == close) {
        r->p++;
        return 1;
    }
    if (*r->p != ',')
        return FB;
    r->p++;
    ws(r);
    return 0;
}

/*
 * The separator between the members of one list or object, as the text
 * laid out the first: the comma, the white space that followed the
 * opening bracket, the byte after it (json.dump(indent=4): ",\n" and
 * the indentation, then the key's quote or the hit's brace).  Compared as
 * four words under masks; len 0: not learned (a longer run).
 */
struct sep {
    uint64_t w[4], m[4];
    size_t len;                 /* bytes compared, at most 32 */
};

/* The mask of the bytes of word i of a run of k bytes (a separator, a
 * memo). */
static inline uint64_t
sep_mask(size_t k, size_t i)
{
    size_t bytes = k > 8 * i ? k - 8 * i : 0;

    return bytes >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * bytes)) - 1;
}

/* `s` from an opening bracket's run of white space, from q (the bracket
 * at q - 1) to r->p: the text's words from the bracket, its byte made
 * the comma (words, not bytes put together and read back at once). */
static inline void
sep_learn(struct sep *s, const struct reader *r, const unsigned char *q)
{
    size_t n = (size_t)(r->p - q) + 2;

    s->len = 0;
    if (!WORDS || r->p == r->end || n > 32 || r->end - (q - 1) < 32)
        return;
    s->w[0] = (word_at(q - 1) & ~UINT64_C(0xff)) | ',';
    s->w[1] = word_at(q + 7);
    s->w[2] = word_at(q + 15);
    s->w[3] = word_at(q + 23);
    for (size_t i = 0; i < 4; i++)
        s->m[i] = sep_mask(n, i);
    s->len = n;
}

/* next() where the text repeats the separator `s` learned: the same
 * answer (0, at the byte after it) with four word compares. */
static inline int
next_sep(struct reader *r, unsigned char close, const struct sep *s)
{
    const unsigned char *p = r->p;

    if (s->len != 0 && r->end - p >= 32 &&
        (((word_at(p) ^ s->w[0]) & s->m[0]) |
         ((word_at(p + 8) ^ s->w[1]) & s->m[1]) |
         ((word_at(p + 16) ^ s->w[2]) & s->m[2]) |
         ((word_at(p + 24) ^ s->w[3]) & s->m[3])) == 0) {
        r->p = p + s->len - 1;
        return 0;
    }
    return next(r, close);
}

/* Any JSON value, checked and passed over. */
static int
skip(struct reader *r, int depth)
{
    const unsigned char *s;
    size_t len;
    int esc, rc;

    if (r->p == r->end)
        return FB;
    switch (*r->p) {
    case '"':
        r->p++;
        return string(r, &s, &len, &esc);
    case '[':
    case '{': {
        unsigned char close = *r->p == '[' ? ']' : '}';

        if (depth >= MAX_DEPTH)
            return FB;
        r->p++;
        ws(r);
        if (r->p < r->end && *r->p == close) {
            r->p++;
            return 0;
        }
        do {
            if ((close == '}' && key(r, &s, &len) < 0) ||
                skip(r, depth + 1) < 0)
                return FB;
        } while ((rc = next(r, close)) == 0);
        return rc < 0 ? FB : 0;
    }
    case 't':
        return literal(r, "true", 4);
    case 'f':
        return literal(r, "false", 5);
    case 'n':
        return literal(r, "null", 4);
    default:
        return number(r, NULL);
    }
}

/* A key's slot in the fields' table (probed onwards from there). */
static size_t
key_hash(const unsigned char *k, size_t len)
{
    if (len == 0)
        return 0;
    return (len * 31 + k[0] * 7 + k[len - 1] + k[len / 2] * 3) & (SLOTS - 1);
}

/* Up to 16 bytes of s (NUL-padded) as two words. */
static void
words_of(const char *s, size_t len, uint64_t w[2])
{
    unsigned char b[16] = { 0 };

    memcpy(b, s, len < 16 ? len : 16);
    memcpy(&w[0], b, 8);
    memcpy(&w[1], b + 8, 8);
}

/* The field a key names, or -1: the table, then two words compared
 * where the key is short and the text goes on (it does: a colon
 * follows), else memcmp(). */
static int
field_of(const struct reader *r, const unsigned char *k, size_t len)
{
    for (size_t i = key_hash(k, len);; i = (i + 1) & (SLOTS - 1)) {
        int f = r->slot[i] - 1;

        if (f < 0)
            return -1;
        if (r->field_len[f] != len)
            continue;
        if (len <= 16 && r->end - k >= 16) {
            uint64_t w0 = word_at(k), w1 = word_at(k + 8);
            uint64_t m0 = len >= 8 ? ~UINT64_C(0)
                          : (UINT64_C(1) << (8 * len)) - 1;
            uint64_t m1 = len <= 8 ? 0 : len == 16 ? ~UINT64_C(0)
                          : (UINT64_C(1) << (8 * (len - 8))) - 1;

            if (!WORDS) {
                if (memcmp(r->fields[f], k, len) == 0)
                    return f;
            } else if ((w0 & m0) == r->field_word[f][0] &&
                       (w1 & m1) == r->field_word[f][1]) {
                return f;
            }
        } else if (memcmp(r->fields[f], k, len) == 0) {
            return f;
        }
    }
}

/* Where a key's pattern is found: by the four bytes after its quote. */
static size_t
pat_hash(const unsigned char *p)
{
    uint32_t k;

    memcpy(&k, p + 1, 4);
    return (size_t)((k * UINT32_C(0x9e3779b1)) >> 24) & (SLOTS - 1);
}

/* Field f's key pattern (its name `name`, len bytes), where it has one. */
static void
pat_of(struct reader *r, size_t f, const char *name, size_t len)
{
    unsigned char b[24] = { 0 }, m[24] = { 0 };
    struct key_pat *k = &r->pat[f];

    k->len = 0;
    k->next = -1;
    if (!WORDS || len < 1 || len + 4 > sizeof(b))
        return;
    for (size_t i = 0; i < len; i++)
        if (!(cls[(unsigned char)name[i]] & P))
            return;     /* not plain: key() and field_of() */
    b[0] = '"';
    memcpy(b + 1, name, len);
    memcpy(b + 1 + len, "\": ", 3);
    memset(m, 0xff, len + 4);
    memcpy(k->w, b, sizeof(b));
    memcpy(k->m, m, sizeof(m));
    k->len = len + 4;
    size_t h = pat_hash(b);
    k->next = r->by4[h] - 1;
    r->by4[h] = (signed char)(f + 1);
}

/* At a key's quote: the field it names where the text holds one of the
 * fields' patterns and no white space after it, r->p then past it (as
 * key() and field_of() would have it); else -1, r->p as it was. */
static inline int
known_key(struct reader *r)
{
    const unsigned char *p = r->p;

    if (r->end - p < 32)
        return -1;
    uint64_t w0 = word_at(p), w1 = word_at(p + 8), w2 = word_at(p + 16);
    for (int f = r->by4[pat_hash(p)] - 1; f >= 0; f = r->pat[f].next) {
        const struct key_pat *k = &r->pat[f];

        if ((((w0 ^ k->w[0]) & k->m[0]) | ((w1 ^ k->w[1]) & k->m[1]) |
             ((w2 ^ k->w[2]) & k->m[2])) == 0 && !(cls[p[k->len]] & W)) {
            r->p = p + k->len;
            return f;
        }
    }
    return -1;
}

/* A field asked for: a string, number, true, false or null. */
static int
field_value(struct reader *r, size_t f)
{
    struct tokio__es_value *v = r->extract ? &r->row[f] : NULL;
    const unsigned char *s;
    size_t len;
    int esc;

    if (r->p == r->end)
        return FB;
    switch (*r->p) {
    case '"':
        r->p++;
        if (string(r, &s, &len, &esc) < 0)
            return FB;
        return v != NULL ? keep_string(r, f, s, len, esc) : 0;
    case 't':
        if (v != NULL)
            v->kind = TOKIO__ES_TRUE;
        return literal(r, "true", 4);
    case 'f':
        if (v != NULL)
            v->kind = TOKIO__ES_FALSE;
        return literal(r, "false", 5);
    case 'n':
        if (v != NULL)
            v->kind = TOKIO__ES_NULL;
        return literal(r, "null", 4);
    case '[':
    case '{':
        return FB;      /* the converters' error, in jansson's words */
    default:
        return number(r, v);
    }
}

/* A hit's _source object, its fields into r->row. */
static int
source(struct reader *r, int depth)
{
    const unsigned char *k, *q;
    struct sep s;
    size_t len;
    int f, rc;

    /* the fields the hit before set (and only they) absent again */
    for (uint64_t b = r->seen; b != 0; b &= b - 1)
        r->row[ctz64(b)].kind = TOKIO__ES_ABSENT;
    r->seen = 0;
    r->strings_len = 0;
    r->p++;
    q = r->p;
    ws(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
        return 0;
    }
    sep_learn(&s, r, q);
    do {
        if ((f = known_key(r)) >= 0) {
            /* a field's key as json.dump() writes it */
        } else if (key(r, &k, &len) < 0) {
            return FB;
        } else {
            f = field_of(r, k, len);
        }
        if (f < 0) {
            rc = skip(r, depth + 1);
        } else if (r->seen & (1ULL << f)) {
            return FB;  /* jansson keeps the last: not followed here */
        } else {
            r->seen |= 1ULL << f;
            rc = field_value(r, (size_t)f);
        }
        if (rc < 0)
            return rc;
    } while ((rc = next_sep(r, '}', &s)) == 0);
    return rc < 0 ? FB : 0;
}

/* `m` from the member at `at` whose value ends at r->p. */
static inline void
memo_learn(struct memo *m, const struct reader *r, const unsigned char *at)
{
    size_t n = (size_t)(r->p - at) + 1;

    m->len = 0;
    if (!WORDS || r->p == r->end || n > 8 * MEMO_WORDS ||
        r->end - at < 8 * MEMO_WORDS)
        return;
    for (size_t i = 0; i < MEMO_WORDS; i++) {
        m->w[i] = word_at(at + 8 * i);
        m->m[i] = sep_mask(n, i);
    }
    m->len = n;
}

/* Whether the text at r->p holds `m`'s bytes. */
static inline int
memo_holds(const struct memo *m, const struct reader *r)
{
    const unsigned char *p = r->p;
    uint64_t diff = 0;

    if (m->len == 0 || r->end - p < 8 * MEMO_WORDS)
        return 0;
    for (size_t i = 0; i < MEMO_WORDS; i++)
        diff |= (word_at(p + 8 * i) ^ m->w[i]) & m->m[i];
    return diff == 0;
}

/* A hit: an object holding one object _source. */
static int
hit(struct reader *r, int depth)
{
    const unsigned char *k, *q;
    struct sep s;
    size_t len;
    int got = 0, rc;

    if (r->p == r->end || *r->p != '{')
        return FB;
    r->p++;
    q = r->p;
    ws(r);
    if (r->p < r->end && *r->p == '}')
        return FB;
    sep_learn(&s, r, q);
    size_t member = 0;
    do {
        struct memo *m = member < MEMOS ? &r->memo[member] : NULL;
        const unsigned char *at = r->p;

        member++;
        if (m != NULL && memo_holds(m, r)) {
            r->p += m->len - 1;     /* read before: passed at once */
            continue;
        }
        if (key(r, &k, &len) < 0)
            return FB;
        if (len == 7 && memcmp(k, "_source", 7) == 0) {
            if (got++ || r->p == r->end || *r->p != '{')
                return FB;
            rc = source(r, depth + 1);
            if (m != NULL)
                m->len = 0;
        } else if ((rc = skip(r, depth + 1)) == 0 && m != NULL) {
            memo_learn(m, r, at);
        }
        if (rc < 0)
            return rc;
    } while ((rc = next_sep(r, '}', &s)) == 0);
    if (rc < 0 || !got)
        return FB;
    if (r->extract)
        for (uint64_t b = r->seen; b != 0; b &= b - 1) {
            size_t f = ctz64(b);

            if (r->row[f].kind == TOKIO__ES_STRING)
                r->row[f].s = r->strings + r->str_off[f];
        }
    return 0;
}

/* A reader of `fields`, or FB when there are too many of them. */
static int
reader_new(struct reader **out, const char *const *fields, size_t n_fields)
{
    struct reader *r;

    *out = NULL;
    if (n_fields > TOKIO__ES_HITS_MAX_FIELDS)
        return FB;
    if ((r = tokio__calloc(1, sizeof(*r))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading "
                            "Elasticsearch hits");
    r->fields = fields;
    r->n_fields = n_fields;
    for (size_t f = 0; f < n_fields; f++) {
        size_t len = strlen(fields[f]), i;

        r->field_len[f] = len;
        words_of(fields[f], len, r->field_word[f]);
        for (i = 0; i < f; i++)
            if (r->field_len[i] == len && memcmp(fields[i], fields[f],
                                                 len) == 0)
                break;
        if (i < f)
            continue;   /* named twice: the first one counts */
        for (i = key_hash((const unsigned char *)fields[f], len);
             r->slot[i] != 0; i = (i + 1) & (SLOTS - 1))
            ;
        r->slot[i] = (unsigned char)(f + 1);
        pat_of(r, f, fields[f], len);
    }
    *out = r;
    return 0;
}

/* Free `r`; `rc` in the callers' words. */
static int
reader_free(struct reader *r, int rc)
{
    if (r != NULL)
        free(r->strings);
    free(r);
    return rc == FB ? TOKIO__ES_HITS_FALLBACK : rc;
}

/* The start of `text`: white space, then `open` (passed), white space. */
static int
text_begin(struct reader *r, const char *text, size_t len, int extract,
           unsigned char open)
{
    r->p = (const unsigned char *)text;
    r->end = r->p + len;
    r->extract = extract;
    ws(r);
    if (r->p == r->end || *r->p != open)
        return FB;
    r->p++;
    ws(r);
    return 0;
}

/* The end of the text after its one value, walked with `rc` (< 0: not
 * followed): white space only. */
static int
text_end(struct reader *r, int rc)
{
    if (rc < 0)
        return FB;
    ws(r);
    return r->p == r->end ? 0 : FB;
}

/* What a pass hands on, and what came of it. */
struct hand {
    tokio__es_hit_fn fn;        /* NULL: check only */
    void *payload;
    size_t delivered;           /* hits handed on */
    int failed;                 /* fn's error, then only checked */
    size_t failed_page;
    void (*behind)(const char *text, size_t n);
};

/* One pass over the text; hits to h->fn while it takes them. */
static int
pass(struct reader *r, const char *text, size_t len, struct hand *h)
{
    size_t page = 0;
    int stopped = 0, rc = 0;

    if (text_begin(r, text, len, h->fn != NULL, '[') < 0)
        return FB;
    if (r->p < r->end && *r->p == ']') {
        r->p++;
    } else {
        do {
            if (stopped) {
                if (skip(r, 1) < 0)
                    return FB;
                continue;
            }
            if (r->p == r->end || *r->p != '[')
                return FB;      /* not a list: jansson's tree decides */
            const unsigned char *q = ++r->p;
            struct sep s;

            ws(r);
            if (r->p < r->end && *r->p == ']') {
                r->p++;
                stopped = 1;    /* an empty page ends the pages */
                continue;
            }
            sep_learn(&s, r, q);
            size_t i = 0;
            do {
                if ((rc = hit(r, 2)) < 0)
                    return rc;
                if (h->fn != NULL) {
                    h->delivered++;
                    if ((rc = h->fn(r->row, i, h->payload)) == TOKIO_ENOMEM)
                        return rc;
                    if (rc < 0) {
                        /* jansson would refuse a text that is not JSON
                         * before any hit: check the rest first */
                        h->failed = rc;
                        h->failed_page = page;
                        h->fn = NULL;
                        r->extract = 0;
                    }
                }
                i++;
            } while ((rc = next_sep(r, ']', &s)) == 0);
            if (rc < 0)
                return FB;
            page++;
            if (h->fn != NULL && h->behind != NULL)
                h->behind(text, (size_t)(r->p - (const unsigned char *)text));
        } while ((rc = next(r, ']')) == 0);
    }
    return text_end(r, rc);
}

int
tokio__es_hits_read(const char *text, size_t len,
                    const char *const *fields, size_t n_fields,
                    tokio__es_hit_fn fn, int (*reset)(void *payload),
                    void *payload,
                    void (*behind)(const char *text, size_t n),
                    size_t *page_out)
{
    struct hand check = { NULL, NULL, 0, 0, 0, NULL };
    struct hand hand = { fn, payload, 0, 0, 0, behind };
    struct reader *r;
    int rc;

    *page_out = 0;
    if ((rc = reader_new(&r, fields, n_fields)) < 0)
        return reader_free(NULL, rc);
    /* without a reset, all is checked before the first hit goes */
    rc = reset != NULL ? 0 : pass(r, text, len, &check);
    if (rc == 0)
        rc = pass(r, text, len, &hand);
    if (rc == FB && hand.delivered > 0 && (rc = reset(payload)) >= 0)
        rc = FB;
    if (rc == 0 && hand.failed < 0) {
        rc = hand.failed;
        *page_out = hand.failed_page;
    }
    return reader_free(r, rc);
}

/* A search response's hits.hits list (at its '['): hits to fn. */
static int
response_hits(struct reader *r, tokio__es_hit_fn fn, void *payload,
              size_t *n_out)
{
    const unsigned char *q = ++r->p;
    struct sep s;
    size_t i = 0;
    int rc;

    ws(r);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        return 0;
    }
    sep_learn(&s, r, q);
    do {
        if ((rc = hit(r, 3)) < 0)
            return rc;
        if (fn != NULL && (rc = fn(r->row, i, payload)) < 0)
            return rc;
        *n_out = ++i;
    } while ((rc = next_sep(r, ']', &s)) == 0);
    return rc < 0 ? FB : 0;
}

/* A search response: {"_scroll_id": ID, "hits": {"hits": [...]}, ...}. */
static int
response(struct reader *r, const char *text, size_t len, tokio__es_hit_fn fn,
         void *payload, struct tokio__es_response *out)
{
    const unsigned char *k, *s;
    size_t klen, n;
    int rc, esc, got_id = 0, got_hits = 0, got_list = 0;

    if (text_begin(r, text, len, fn != NULL, '{') < 0)
        return FB;
    do {
        if (key(r, &k, &klen) < 0)
            return FB;
        if (klen == 10 && memcmp(k, "_scroll_id", 10) == 0) {
            if (got_id++ || r->p == r->end || *r->p != '"')
                return FB;
            r->p++;
            if (string(r, &s, &n, &esc) < 0 || esc)
                return FB;
            out->scroll_id = (const char *)s;
            out->scroll_id_len = n;
        } else if (klen == 4 && memcmp(k, "hits", 4) == 0) {
            if (got_hits++ || r->p == r->end || *r->p != '{')
                return FB;
            r->p++;
            ws(r);
            do {
                if (key(r, &k, &klen) < 0)
                    return FB;
                if (klen == 4 && memcmp(k, "hits", 4) == 0) {
                    if (got_list++ || r->p == r->end || *r->p != '[')
                        return FB;
                    rc = response_hits(r, fn, payload, &out->hits);
                } else {
                    rc = skip(r, 2);
                }
                if (rc < 0)
                    return rc;
            } while ((rc = next(r, '}')) == 0);
            if (rc < 0)
                return FB;
        } else if (skip(r, 1) < 0) {
            return FB;
        }
    } while ((rc = next(r, '}')) == 0);
    return text_end(r, got_list ? rc : FB);
}

int
tokio__es_hits_response(const char *text, size_t len,
                        const char *const *fields, size_t n_fields,
                        tokio__es_hit_fn fn, void *payload,
                        struct tokio__es_response *out)
{
    struct reader *r;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = reader_new(&r, fields, n_fields)) < 0)
        return reader_free(NULL, rc);
    rc = response(r, text, len, fn, payload, out);
    if (rc == FB)
        memset(out, 0, sizeof(*out));
    return reader_free(r, rc);
}

/* ---- pages of the JSON form, copied token by token ---------------------- */

#define MAX_KEYS 1024   /* keys of the objects open at once, all depths */

/* A walk over one page of a cache: checked (`js` NULL) or also written
 * to `js`, a token at a time. */
struct copier {
    struct reader r;            /* its p, end and strings only */
    struct tokio__jstream *js;
    size_t n_keys;
    struct {
        const unsigned char *k;
        size_t len;
    } keys[MAX_KEYS];           /* of the objects open, outermost first */
};

static int copy_value(struct copier *c, int depth);

/* One of 64 bits for a key: two keys with different bits differ. */
static unsigned
key_bit(const unsigned char *k, size_t len)
{
    if (len == 0)
        return 0;
    return (unsigned)(len * 7 + k[0] * 3 + k[len - 1] + k[len / 2] * 5) & 63;
}

/*
 * An object (at its '{') and its members.  A key given twice is not
 * followed: jansson keeps its first place with its last value.  `hit`:
 * one of a page's hits, which must hold an object _source.
 */
static int
copy_object(struct copier *c, int depth, int hit)
{
    struct reader *r = &c->r;
    const size_t base = c->n_keys;
    const unsigned char *k;
    size_t len;
    uint64_t bits = 0;
    int got = 0, rc;

    if (depth >= MAX_DEPTH)
        return FB;
    r->p++;
    ws(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
        if (hit)
            return FB;
        if (c->js != NULL) {
            tokio__jstream_begin(c->js);
            tokio__jstream_end(c->js);
        }
        return 0;
    }
    if (c->js != NULL)
        tokio__jstream_begin(c->js);
    do {
        if (key(r, &k, &len) < 0)
            return FB;
        uint64_t bit = UINT64_C(1) << key_bit(k, len);
        if (bits & bit)
            for (size_t i = base; i < c->n_keys; i++)
                if (c->keys[i].len == len &&
                    memcmp(c->keys[i].k, k, len) == 0)
                    return FB;
        bits |= bit;
        if (c->n_keys == MAX_KEYS)
            return FB;
        c->keys[c->n_keys].k = k;
        c->keys[c->n_keys++].len = len;
        if (hit && len == 7 && memcmp(k, "_source", 7) == 0) {
            if (r->p == r->end || *r->p != '{')
                return FB;      /* tokio_es_pages_add()'s error */
            got = 1;
        }
        if (c->js != NULL)
            tokio__jstream_key(c->js, (const char *)k, len);
        if ((rc = copy_value(c, depth + 1)) < 0)
            return rc;
    } while ((rc = next(r, '}')) == 0);
    c->n_keys = base;
    if (rc < 0 || (hit && !got))
        return FB;
    if (c->js != NULL)
        tokio__jstream_end(c->js);
    return 0;
}

/* A list (at its '[') and its elements. */
static int
copy_list(struct copier *c, int depth)
{
    struct reader *r = &c->r;
    int rc;

    if (depth >= MAX_DEPTH)
        return FB;
    r->p++;
    ws(r);
    if (c->js != NULL)
        tokio__jstream_begin_list(c->js);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
    } else {
        do {
            if (c->js != NULL)
                tokio__jstream_item(c->js);
            if ((rc = copy_value(c, depth + 1)) < 0)
                return rc;
        } while ((rc = next(r, ']')) == 0);
        if (rc < 0)
            return FB;
    }
    if (c->js != NULL)
        tokio__jstream_end(c->js);
    return 0;
}

/* A string, number, true, false or null read by field_value() (as field
 * 0's), written as jansson's tree of it would be. */
static void
write_scalar(struct copier *c)
{
    const struct reader *r = &c->r;
    const struct tokio__es_value *v = &r->row[0];

    switch (v->kind) {
    case TOKIO__ES_STRING:
        tokio__jstream_string(c->js, r->strings + r->str_off[0], v->len);
        break;
    case TOKIO__ES_INT:
        tokio__jstream_int(c->js, v->i);
        break;
    case TOKIO__ES_REAL:
        tokio__jstream_real(c->js, v->d);
        break;
    default:
        tokio__jstream_value(c->js, v->kind == TOKIO__ES_TRUE ? json_true()
                                    : v->kind == TOKIO__ES_FALSE
                                    ? json_false() : json_null());
        break;
    }
}

/* Any value, as jansson's tree of it would be written. */
static int
copy_value(struct copier *c, int depth)
{
    struct reader *r = &c->r;
    int rc;

    if (r->p < r->end && *r->p == '[')
        return copy_list(c, depth);
    if (r->p < r->end && *r->p == '{')
        return copy_object(c, depth, 0);
    r->strings_len = 0;
    if ((rc = field_value(r, 0)) < 0 || c->js == NULL)
        return rc;
    write_scalar(c);
    return 0;
}

/* A page (at its '['): a list of hits, each an object with an object
 * _source; an empty one is not written. */
static int
copy_page(struct copier *c, size_t *hits_out)
{
    struct reader *r = &c->r;
    size_t n = 0;
    int rc;

    if (r->p == r->end || *r->p != '[')
        return FB;
    r->p++;
    ws(r);
    if (r->p < r->end && *r->p == ']') {
        r->p++;
        *hits_out = 0;
        return 0;
    }
    if (c->js != NULL) {
        tokio__jstream_item(c->js);
        tokio__jstream_begin_list(c->js);
    }
    do {
        if (r->p == r->end || *r->p != '{')
            return FB;
        if (c->js != NULL)
            tokio__jstream_item(c->js);
        if ((rc = copy_object(c, 2, 1)) < 0)
            return rc;
        n++;
    } while ((rc = next(r, ']')) == 0);
    if (rc < 0)
        return FB;
    if (c->js != NULL)
        tokio__jstream_end(c->js);
    *hits_out = n;
    return 0;
}

int
tokio__es_hits_json_page(const char *text, size_t len,
                         struct tokio__jstream *js, size_t *used_out,
                         size_t *hits_out)
{
    struct copier *c = tokio__malloc(sizeof(*c));
    int rc;

    *used_out = 0;
    *hits_out = 0;
    if (c == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading "
                            "Elasticsearch hits");
    memset(&c->r, 0, sizeof(c->r));
    c->r.p = (const unsigned char *)text;
    c->r.end = c->r.p + len;
    c->r.extract = js != NULL;     /* field_value()'s values, to write */
    c->js = js;
    c->n_keys = 0;
    ws(&c->r);
    if ((rc = copy_page(c, hits_out)) == 0)
        *used_out = (size_t)((const char *)c->r.p - text);
    free(c->r.strings);
    free(c);
    return rc == FB ? TOKIO__ES_HITS_FALLBACK : rc;
}

int
tokio__es_hits_json_skip(const char *text, size_t len, size_t *used_out)
{
    struct reader r;

    memset(&r, 0, sizeof(r));
    r.p = (const unsigned char *)text;
    r.end = r.p + len;
    *used_out = 0;
    ws(&r);
    /* a literal or number alone: jansson's lexer takes "nulla" as one
     * bad token, in its words */
    if (r.p == r.end || (*r.p != '[' && *r.p != '{') || skip(&r, 1) < 0)
        return TOKIO__ES_HITS_FALLBACK;
    *used_out = (size_t)((const char *)r.p - text);
    return TOKIO_OK;
}

void
tokio__es_value_of(const json_t *v, struct tokio__es_value *out)
{
    memset(out, 0, sizeof(*out));
    if (v == NULL) {
        out->kind = TOKIO__ES_ABSENT;
    } else if (json_is_null(v)) {
        out->kind = TOKIO__ES_NULL;
    } else if (json_is_boolean(v)) {
        out->kind = json_is_true(v) ? TOKIO__ES_TRUE : TOKIO__ES_FALSE;
    } else if (json_is_integer(v)) {
        out->kind = TOKIO__ES_INT;
        out->i = (int64_t)json_integer_value(v);
    } else if (json_is_real(v)) {
        out->kind = TOKIO__ES_REAL;
        out->d = json_real_value(v);
    } else if (json_is_string(v)) {
        out->kind = TOKIO__ES_STRING;
        out->s = json_string_value(v);
        out->len = json_string_length(v);
    } else {
        out->kind = TOKIO__ES_OTHER;
    }
}
