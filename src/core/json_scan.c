/*
 * src/core/json_scan.c - the strict pull reader of json_scan.h.
 *
 * Strings are the bulk of the work (a Slurm cache holds a hundred
 * thousand node names): with SSE2 they are scanned and copied sixteen
 * bytes at a time up to the first byte that is not plain ASCII text,
 * then byte by byte, which is also the whole of the portable path.
 */
#include "core/json_scan.h"

#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "tokio/common.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

void
tokio__jscan_init(struct tokio__jscan *js, const char *text, size_t len,
                  const char *name)
{
    js->base = text;
    js->p = text;
    js->end = text + len;
    js->name = name ? name : "<memory>";
}

static int
fail(const struct tokio__jscan *js, const char *want)
{
    if (js->p >= js->end)
        return tokio__error(TOKIO_EFORMAT, "'%s' byte %zu: end of text "
                            "where %s was expected", js->name,
                            (size_t)(js->p - js->base), want);
    return tokio__error(TOKIO_EFORMAT, "'%s' byte %zu: '%c' (0x%02x) where "
                        "%s was expected", js->name,
                        (size_t)(js->p - js->base),
                        *js->p >= 0x20 && *js->p < 0x7f ? *js->p : '?',
                        (unsigned)(unsigned char)*js->p, want);
}

/* Past JSON's white space (space, tab, newline, carriage return) at p;
 * all of it is at most ' ', which most bytes are not.  The readers work
 * on local pointers: stores through the copy's char pointer would
 * otherwise make the compiler reload js->p at every byte. */
static inline const char *
skip_space(const char *p, const char *end)
{
    while (p < end && (unsigned char)*p <= ' ' &&
           (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

int
tokio__jscan_peek(struct tokio__jscan *js)
{
    js->p = skip_space(js->p, js->end);
    return js->p < js->end ? (unsigned char)*js->p : -1;
}

int
tokio__jscan_eat(struct tokio__jscan *js, char c)
{
    char want[4] = { '\'', c, '\'', '\0' };

    js->p = skip_space(js->p, js->end);
    if (js->p >= js->end || *js->p != c)
        return fail(js, want);
    js->p++;
    return TOKIO_OK;
}

int
tokio__jscan_next(struct tokio__jscan *js, char close)
{
    js->p = skip_space(js->p, js->end);
    if (js->p < js->end && (*js->p == ',' || *js->p == close))
        return *js->p++ == ',';
    return fail(js, close == '}' ? "',' or '}'" : "',' or ']'");
}

/* Why string() failed, and where. */
struct refusal {
    const char *at;
    const char *want;       /* what was expected; NULL: invalid UTF-8 */
};

/*
 * The string at `p` (after white space) copied to `dst` and
 * NUL-terminated, its length in *len: the byte after its closing quote,
 * or NULL with *why filled in.
 */
static inline const char *
string(const char *p, const char *end, char *dst, size_t *len,
       struct refusal *why)
{
    const char *q;
    char *d = dst;
    int high = 0;

    p = skip_space(p, end);
    if (p >= end || *p != '"') {
        why->at = p;
        why->want = "a string";
        return NULL;
    }
    q = p + 1;
#ifdef __SSE2__
    {
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i bslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(' ');
        while (end - q >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
            /* signed: bytes from 0x80 count as below ' ' too */
            __m128i stop = _mm_or_si128(_mm_or_si128(
                _mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                _mm_cmplt_epi8(x, space));
            unsigned mask = (unsigned)_mm_movemask_epi8(stop);
            _mm_storeu_si128((__m128i *)(void *)d, x);
            if (mask != 0) {
                unsigned k = (unsigned)__builtin_ctz(mask);
                q += k;
                d += k;
                if (*q == '"')      /* the usual end: no byte loop */
                    goto closed;
                break;
            }
            q += 16;
            d += 16;
        }
    }
#endif
    for (;; q++, d++) {
        unsigned char c;
        if (q >= end || (c = (unsigned char)*q) < 0x20 || c == '\\') {
            why->at = q;
            why->want = q >= end ? "the end of a string"
                                 : "a string character without escape";
            return NULL;
        }
        if (c == '"')
            break;
        high |= c & 0x80;
        *d = (char)c;
    }
#ifdef __SSE2__
closed:
#endif
    *d = '\0';
    *len = (size_t)(q - p - 1);
    if (high && !tokio__utf8_valid(p + 1, *len)) {
        why->at = p + 1;
        why->want = NULL;
        return NULL;
    }
    return q + 1;
}

/* The error of string() refusing. */
static int
refuse(struct tokio__jscan *js, const struct refusal *why)
{
    js->p = why->at;
    if (why->want == NULL)
        return tokio__error(TOKIO_EFORMAT, "'%s' byte %zu: invalid UTF-8 "
                            "in a string", js->name,
                            (size_t)(why->at - js->base));
    return fail(js, why->want);
}

int
tokio__jscan_string(struct tokio__jscan *js, char *dst, size_t *len)
{
    struct refusal why;
    const char *p = string(js->p, js->end, dst, len, &why);

    if (p == NULL)
        return refuse(js, &why);
    js->p = p;
    return TOKIO_OK;
}

#ifdef __SSE2__
/* Bit i set where byte i of 64 is special in a string (as in string():
 * a backslash, a control character or a byte from 0x80), a quote, a
 * comma, JSON white space. */
struct masks {
    uint64_t special, quote, comma, space;
};

static inline uint64_t
bits(__m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    return (uint64_t)(unsigned)_mm_movemask_epi8(m0) |
           (uint64_t)(unsigned)_mm_movemask_epi8(m1) << 16 |
           (uint64_t)(unsigned)_mm_movemask_epi8(m2) << 32 |
           (uint64_t)(unsigned)_mm_movemask_epi8(m3) << 48;
}

static inline void
block_masks(const char *p, struct masks *m)
{
    __m128i x[4], sp[4], q[4], c[4], w[4];

    for (int i = 0; i < 4; i++) {
        x[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        q[i] = _mm_cmpeq_epi8(x[i], _mm_set1_epi8('"'));
        c[i] = _mm_cmpeq_epi8(x[i], _mm_set1_epi8(','));
        /* signed: bytes from 0x80 count as below ' ' too */
        sp[i] = _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8('\\')),
                             _mm_cmplt_epi8(x[i], _mm_set1_epi8(' ')));
        w[i] = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8(' ')),
                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\n'))),
            _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8('\r')),
                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\t'))));
    }
    m->quote = bits(q[0], q[1], q[2], q[3]);
    m->comma = bits(c[0], c[1], c[2], c[3]);
    m->special = bits(sp[0], sp[1], sp[2], sp[3]);
    m->space = bits(w[0], w[1], w[2], w[3]);
}

/* Bits a+1 .. b-1 (a < b < 64). */
static inline uint64_t
between(unsigned a, unsigned b)
{
    return ((UINT64_C(1) << b) - 1) & ~((UINT64_C(2) << a) - 1);
}

/*
 * The strings of a list found whole in the 64 bytes at `p` (an opening
 * quote; at least 80 bytes of text left), with the separators between
 * them, copied to *d as string() copies them: a list of short names is
 * mostly this, without a byte-by-byte dependency from one string to the
 * next.  Returns how many; *pp moves to the opening quote of the next
 * string (*after 0) or past the closing quote of the last one copied,
 * where a separator or the list's end is for the caller to read (*after
 * 1).  0: nothing copied, *pp unchanged (the caller reads the string).
 */
static inline size_t
block(const char **pp, char **d, int *after)
{
    const char *p = *pp;
    struct masks m;
    unsigned open = 0;
    size_t n = 0;

    block_masks(p, &m);
    uint64_t rest = m.quote & ~UINT64_C(1);     /* past the opening one */
    *after = 0;
    while (rest != 0) {
        unsigned close = (unsigned)__builtin_ctzll(rest);
        if (m.special & between(open, close))
            break;              /* string() says what is wrong, or reads
                                 * the non-ASCII text */
        size_t len = close - open - 1;
        const char *src = p + open + 1;
        if (len <= 16)
            _mm_storeu_si128((__m128i *)(void *)*d,
                             _mm_loadu_si128((const __m128i *)
                                             (const void *)src));
        else
            memcpy(*d, src, len);
        (*d)[len] = '\0';
        *d += len + 1;
        n++;
        rest &= rest - 1;
        /* the next string must follow white space, one comma, white
         * space; anything else (the list's end) is the caller's */
        uint64_t sep = rest ? between(close, (unsigned)__builtin_ctzll(rest))
                            : 0;
        uint64_t commas = sep & m.comma;
        if (rest == 0 || (sep & ~(m.space | m.comma)) != 0 || commas == 0 ||
            (commas & (commas - 1)) != 0) {
            *pp = p + close + 1;
            *after = 1;
            return n;
        }
        open = (unsigned)__builtin_ctzll(rest);
        rest &= rest - 1;
    }
    *pp = p + open;
    return n;
}
#endif

int
tokio__jscan_strings(struct tokio__jscan *js, char *dst, size_t *count,
                     size_t *used)
{
    const char *p, *end = js->end;
    struct refusal why;
    size_t n = 0, len;
    char *d = dst;
    int rc;

    *count = 0;
    *used = 0;
    if ((rc = tokio__jscan_eat(js, '[')) < 0)
        return rc;
    if (tokio__jscan_peek(js) == ']') {
        js->p++;
        return TOKIO_OK;
    }
    for (p = js->p;;) {
#ifdef __SSE2__
        int after;
        size_t got;
        p = skip_space(p, end);
        if (end - p >= 80 && *p == '"' && (got = block(&p, &d, &after))) {
            n += got;
            if (!after)
                continue;
        } else
#endif
        {
            if ((p = string(p, end, d, &len, &why)) == NULL)
                return refuse(js, &why);
            d += len + 1;
            n++;
        }
        p = skip_space(p, end);
        if (p < end && *p == ',') {
            p++;
            continue;
        }
        js->p = p;
        if (p < end && *p == ']')
            break;
        return fail(js, "',' or ']'");
    }
    js->p++;
    *count = n;
    *used = (size_t)(d - dst);
    return TOKIO_OK;
}

int
tokio__jscan_end(struct tokio__jscan *js)
{
    js->p = skip_space(js->p, js->end);
    return js->p == js->end ? TOKIO_OK : fail(js, "the end of text");
}
