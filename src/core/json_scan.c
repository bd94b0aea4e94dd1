/*
 * src/core/json_scan.c - the strict pull reader of json_scan.h.
 *
 * Strings are the bulk of the work (a Slurm cache holds a hundred
 * thousand node names): with SSE2 they are scanned and copied sixteen
 * bytes at a time up to the first byte that is not plain ASCII text,
 * then byte by byte, which is also the whole of the portable path.
 */
#include "core/json_scan.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

#ifdef __SSE2__
/* Bit i set where byte i of the 16 at `p` is JSON white space. */
static inline uint32_t
space_mask(const char *p)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i ws = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                     _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))),
        _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\r')),
                     _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))));
    return (uint32_t)_mm_movemask_epi8(ws);
}
#endif

/* Past JSON's white space (space, tab, newline, carriage return) at p;
 * all of it is at most ' ', which most bytes are not.  Indented text has
 * long runs of it, which SSE2 crosses 32 bytes at a time.  The
 * readers work on local pointers: stores through the copy's char
 * pointer would otherwise make the compiler reload js->p at every
 * byte. */
static inline const char *
skip_space(const char *p, const char *end)
{
    if (p < end && (unsigned char)*p > ' ')
        return p;
    if (end - p >= 2 && *p == ' ' && (unsigned char)p[1] > ' ')
        return p + 1;       /* the usual ": " */
#ifdef __SSE2__
    while (end - p >= 16) {
        uint32_t other = ~space_mask(p) & 0xffff;
        if (other != 0)
            return p + __builtin_ctz(other);
        p += 16;
    }
#endif
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
 * NUL-terminated unless `dst` is NULL (then only checked), its length in
 * *len: the byte after its closing quote, or NULL with *why filled in.
 */
static inline const char *
string(const char *p, const char *end, char *dst, size_t *len,
       struct refusal *why)
{
    const char *q, *s;
    int high = 0;

    p = skip_space(p, end);
    if (p >= end || *p != '"') {
        why->at = p;
        why->want = "a string";
        return NULL;
    }
    s = q = p + 1;
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
            if (dst != NULL)
                _mm_storeu_si128((__m128i *)(void *)(dst + (q - s)), x);
            if (mask != 0) {
                q += __builtin_ctz(mask);
                if (*q == '"')      /* the usual end: no byte loop */
                    goto closed;
                break;
            }
            q += 16;
        }
    }
#endif
    for (;; q++) {
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
        if (dst != NULL)
            dst[q - s] = (char)c;
    }
#ifdef __SSE2__
closed:
#endif
    *len = (size_t)(q - s);
    if (dst != NULL)
        dst[*len] = '\0';
    if (high && !tokio__utf8_valid(s, *len)) {
        why->at = s;
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

/* Powers of ten a double holds exactly. */
static const double exact_pow10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
    1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The longest number strtod() is asked to read (a longer one is refused
 * and left to the caller's full parser). */
#define LONGEST_NUMBER 100

static inline int
digit(const char *p, const char *end)
{
    return p < end && *p >= '0' && *p <= '9';
}

/* The real `len` bytes at `s` as strtod() reads it, in the C locale's
 * notation whatever the current locale: 0, or -1 when out of range. */
static int
slow_real(const char *s, size_t len, double *d)
{
    char buf[LONGEST_NUMBER + 1];
    const char *point = localeconv()->decimal_point;

    memcpy(buf, s, len);
    buf[len] = '\0';
    if (point[0] != '.' && point[0] != '\0' && point[1] == '\0') {
        char *dot = strchr(buf, '.');
        if (dot != NULL)
            *dot = point[0];
    }
    *d = strtod(buf, NULL);
    return isinf(*d) ? -1 : 0;
}

/*
 * Reals with at most 19 digits whose value, as an integer, a double
 * holds exactly, scaled by a power of ten a double holds exactly, are
 * one correctly rounded multiplication or division, as strtod() rounds
 * (Clinger's fast path); the others are strtod()'s.
 */
int
tokio__jscan_number(struct tokio__jscan *js, int64_t *i, double *d,
                    int *is_real)
{
    const char *end = js->end, *s = skip_space(js->p, js->end), *p = s;
    uint64_t m = 0;
    int neg = 0, n = 0, real = 0, exp10 = 0;

    js->p = s;
    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    if (!digit(p, end)) {
        js->p = p;
        return fail(js, "a number");
    }
    if (*p == '0') {
        p++;
        if (digit(p, end)) {
            js->p = p;
            return fail(js, "no digit after a leading 0");
        }
    }
    for (; digit(p, end); p++, n++)
        if (n < 19)
            m = m * 10 + (uint64_t)(*p - '0');
    if (p < end && *p == '.') {
        real = 1;
        if (!digit(++p, end)) {
            js->p = p;
            return fail(js, "a digit after '.'");
        }
        for (; digit(p, end); p++, n++)
            if (n < 19) {
                m = m * 10 + (uint64_t)(*p - '0');
                exp10--;
            }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, e = 0;
        real = 1;
        p++;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (!digit(p, end)) {
            js->p = p;
            return fail(js, "a digit in an exponent");
        }
        for (; digit(p, end); p++)
            if (e < 100000)
                e = e * 10 + (*p - '0');
        exp10 += eneg ? -e : e;
    }
    *is_real = real;
    if (!real) {
        if (n > 19 || m > (uint64_t)INT64_MAX + (uint64_t)neg)
            return fail(js, "an integer within 64 bits");
        *i = neg && m ? -(int64_t)(m - 1) - 1 : (int64_t)m;
    } else if (n <= 19 && m <= (UINT64_C(1) << 53) && exp10 >= -22 &&
               exp10 <= 22) {
        *d = exp10 < 0 ? (double)m / exact_pow10[-exp10]
                       : (double)m * exact_pow10[exp10];
        if (neg)
            *d = -*d;
    } else if (p - s > LONGEST_NUMBER) {
        return fail(js, "a number of at most 100 characters");
    } else if (slow_real(s, (size_t)(p - s), d) < 0) {
        return fail(js, "a number within the range of a double");
    }
    js->p = p;
    return TOKIO_OK;
}

int
tokio__jscan_scalar(struct tokio__jscan *js, char *dst,
                    struct tokio__jscalar *v)
{
    static const struct {
        const char *text;
        size_t len;
        enum tokio__jtype type;
    } words[] = {
        { "null", 4, TOKIO__JNULL },
        { "false", 5, TOKIO__JFALSE },
        { "true", 4, TOKIO__JTRUE },
    };
    int c = tokio__jscan_peek(js), real, rc;

    if (c == '"') {
        struct refusal why;
        const char *p = string(js->p, js->end, dst, &v->len, &why);
        if (p == NULL)
            return refuse(js, &why);
        v->type = TOKIO__JSTRING;
        v->str = js->p + 1;
        js->p = p;
        return TOKIO_OK;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        if ((rc = tokio__jscan_number(js, &v->i, &v->d, &real)) < 0)
            return rc;
        v->type = real ? TOKIO__JREAL : TOKIO__JINT;
        return TOKIO_OK;
    }
    for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
        if ((size_t)(js->end - js->p) >= words[k].len &&
            memcmp(js->p, words[k].text, words[k].len) == 0) {
            js->p += words[k].len;
            v->type = words[k].type;
            return TOKIO_OK;
        }
    return fail(js, "a string, number, true, false or null");
}

/* Past the string at js->p (after white space), checked as string()
 * checks it, not copied. */
static int
skip_string(struct tokio__jscan *js)
{
    struct refusal why;
    size_t len;
    const char *p = string(js->p, js->end, NULL, &len, &why);

    if (p == NULL)
        return refuse(js, &why);
    js->p = p;
    return TOKIO_OK;
}

static int
skip(struct tokio__jscan *js, int depth)
{
    struct tokio__jscalar v;
    int c = tokio__jscan_peek(js), more, rc;

    if (c == '"')
        return skip_string(js);
    if (c != '[' && c != '{')
        return tokio__jscan_scalar(js, NULL, &v);   /* not a string */
    if (depth >= TOKIO__JSCAN_DEPTH)
        return fail(js, "a value nested less deeply");
    char close = c == '[' ? ']' : '}';
    js->p++;
    if (tokio__jscan_peek(js) == close) {
        js->p++;
        return TOKIO_OK;
    }
    do {
        if (close == '}' && ((rc = skip_string(js)) < 0 ||
                             (rc = tokio__jscan_eat(js, ':')) < 0))
            return rc;
        if ((rc = skip(js, depth + 1)) < 0)
            return rc;
    } while ((more = tokio__jscan_next(js, close)) == 1);
    return more < 0 ? more : TOKIO_OK;
}

int
tokio__jscan_skip(struct tokio__jscan *js)
{
    return skip(js, 0);
}

int
tokio__jscan_end(struct tokio__jscan *js)
{
    js->p = skip_space(js->p, js->end);
    return js->p == js->end ? TOKIO_OK : fail(js, "the end of text");
}
