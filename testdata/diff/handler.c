/*
 * perfan test program for `perfan diff`: a small "request handler" with a
 * planted performance problem, and its fix selected at compile time.
 *
 *   main -> serve -> handle_request -> make_request      (unchanged)
 *                                   -> parse_request     (unchanged)
 *                                   -> dedup_quadratic   (BEFORE: nested loop)
 *                                      dedup_hashset     (AFTER, -DFIXED)
 *                                   -> build_response -> serialize_item
 *                                                        (BEFORE: every item)
 *                                      build_response -> serialize_cached
 *                                                     -> serialize_item
 *                                                        (AFTER: misses only)
 *                                   -> compute_checksum  (unchanged)
 *                                   -> log_request       (unchanged)
 *
 * Per request: a request line with NIDS item ids (drawn from a universe of
 * NUNIV ids, so there are many duplicates) is generated from a fixed seed,
 * parsed, de-duplicated (first occurrence kept, in order), every unique item
 * is serialized to JSON-ish text, the response is checksummed and a log line
 * is written to an in-memory ring.  The fix changes neither the order nor
 * the bytes of the response: both builds print the same result line.
 *
 * Everything hot is in this file (the formatting is hand-written, no
 * snprintf/memcpy/strlen in the loop): libc is built without frame
 * pointers, and a sample inside it would lose its caller in a frame-pointer
 * callchain.  All the named functions are noinline so each has its own
 * symbol and frame.
 *
 * Usage: ./handler [requests]   (default REQUESTS_DEFAULT = 900: about 1.0 s
 * before, 0.4 s after on the recording VM; the fixed functions take about 3/4
 * of the time before, the unchanged ones about 1/4 before and 3/4 after).
 * Build: gcc -O2 -g -fno-omit-frame-pointer -fno-inline-functions-called-once \
 *            [-DFIXED] -o handler handler.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define INLINE static inline __attribute__((always_inline))

/*
 * GCC 12 sets up no %rbp frame in a leaf function that needs no stack, even
 * with -fno-omit-frame-pointer; a frame-pointer unwind from a sample in such
 * a leaf then skips its caller (handle_request).  Taking the frame address
 * makes GCC build the frame, so every stack reads leaf <- handle_request <-
 * serve <- main.  Used in the leaves below.
 */
#define NEED_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

#define REQUESTS_DEFAULT 900
#define NIDS 2000       /* ids per request */
#define NUNIV 1100      /* item ids are 0 .. NUNIV-1 */
#define REQ_MAX (NIDS * 6 + 64)
#define ITEM_MAX 320    /* longest serialized item */
#define RESP_MAX (NIDS * ITEM_MAX + 16)
#define CACHE_SLOTS 1024 /* direct-mapped; smaller than NUNIV: some misses */
#define HASH_SLOTS 4096  /* power of two, > 2 * NIDS */
#define LOG_RING 8192

static char req_buf[REQ_MAX];
static uint32_t ids[NIDS];
static uint32_t uniq[NIDS];
static char resp[RESP_MAX];
static char log_ring[LOG_RING];
static size_t log_pos;
volatile uint64_t sink;

static uint64_t rng_state;

INLINE uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* ---- small formatting helpers (inlined into their callers) ---- */

INLINE char *put_str(char *p, const char *s)
{
    while (*s) {
        *p++ = *s++;
        __asm__ volatile("" ::: "memory"); /* keep GCC from calling strcpy */
    }
    return p;
}

INLINE char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* fixed-point decimal: v / 10^dec with dec digits after the point */
INLINE char *put_fixed(char *p, uint64_t v, int dec)
{
    uint64_t scale = 1;
    for (int i = 0; i < dec; i++)
        scale *= 10;
    p = put_u64(p, v / scale);
    *p++ = '.';
    uint64_t frac = v % scale;
    for (int i = dec - 1; i >= 0; i--) {
        uint64_t d = 1;
        for (int k = 0; k < i; k++)
            d *= 10;
        *p++ = (char)('0' + (frac / d) % 10);
    }
    return p;
}

/* JSON string with escaping of quotes, backslashes and control chars */
INLINE char *put_json_str(char *p, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    *p++ = '"';
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c < 0x20) {
            *p++ = '\\';
            *p++ = 'u';
            *p++ = '0';
            *p++ = '0';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            *p++ = (char)c;
        }
    }
    *p++ = '"';
    return p;
}

INLINE char *put_key(char *p, const char *k)
{
    *p++ = '"';
    p = put_str(p, k);
    *p++ = '"';
    *p++ = ':';
    return p;
}

static const char *const words[16] = {
    "red",   "green", "blue",  "tiny",   "large",   "steel", "oak",    "glass",
    "quick", "slow",  "round", "square", "vintage", "fresh", "\"pro\"", "eco\\x",
};

/* ---- unchanged work ---- */

/* the request line: "GET /items?ids=12,7,1999,...&user=N\n" */
NOINLINE size_t make_request(unsigned reqno)
{
    char *p = req_buf;
    rng_state = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(reqno + 1) * 0xD1B54A32D192ED03ULL);
    p = put_str(p, "GET /items?ids=");
    for (int i = 0; i < NIDS; i++) {
        if (i)
            *p++ = ',';
        p = put_u64(p, rng_next() % NUNIV);
    }
    p = put_str(p, "&user=");
    p = put_u64(p, reqno * 7919 % 1000);
    *p++ = '\n';
    *p = 0;
    return (size_t)(p - req_buf);
}

NOINLINE int parse_request(const char *req)
{
    NEED_FRAME();
    const char *p = req;
    int n = 0;
    while (*p && *p != '=')
        p++;
    if (*p)
        p++;
    while (n < NIDS && *p >= '0' && *p <= '9') {
        uint32_t v = 0;
        while (*p >= '0' && *p <= '9')
            v = v * 10 + (uint32_t)(*p++ - '0');
        ids[n++] = v;
        if (*p == ',')
            p++;
    }
    return n;
}

/* FNV-1a over the response, a few rounds: stands for "compress and sign" */
NOINLINE uint64_t compute_checksum(const char *buf, size_t len)
{
    NEED_FRAME();
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int round = 0; round < 1; round++)
        for (size_t i = 0; i < len; i++) {
            h ^= (unsigned char)buf[i];
            h *= 0x100000001b3ULL;
        }
    return h;
}

/* access log line with the list of items served, into an in-memory ring */
NOINLINE void log_request(unsigned reqno, const uint32_t *items, int nids, int nuniq,
                          size_t len, uint64_t sum)
{
    static char line[NIDS * 6 + 256];
    char *p = line;
    p = put_str(p, "req=");
    p = put_u64(p, reqno);
    p = put_str(p, " ids=");
    p = put_u64(p, (uint64_t)nids);
    p = put_str(p, " uniq=");
    p = put_u64(p, (uint64_t)nuniq);
    p = put_str(p, " bytes=");
    p = put_u64(p, len);
    p = put_str(p, " sum=");
    p = put_u64(p, sum);
    p = put_str(p, " items=");
    for (int i = 0; i < nuniq; i++) {
        if (i)
            *p++ = ',';
        p = put_u64(p, items[i]);
    }
    *p++ = '\n';
    for (char *q = line; q < p; q++) {
        log_ring[log_pos] = *q;
        log_pos = (log_pos + 1) % LOG_RING;
    }
}

/* ---- the item serializer (expensive: many fields, all formatted) ---- */

NOINLINE size_t serialize_item(uint32_t id, char *out)
{
    /* the item's fields, derived from its id */
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    const char *w1 = words[h & 15], *w2 = words[(h >> 4) & 15], *w3 = words[(h >> 8) & 15];
    uint64_t price = 99 + (h >> 12) % 99900;  /* cents */
    uint64_t qty = (h >> 20) % 500;
    uint64_t weight = (h >> 28) % 1000000;    /* grams * 1000 */
    uint64_t rating = (h >> 40) % 501;        /* 0.00 .. 5.00 */
    char name[64];
    char *n = name;
    n = put_str(n, w1);
    *n++ = ' ';
    n = put_str(n, w2);
    *n++ = ' ';
    n = put_str(n, "item #");
    n = put_u64(n, id);
    *n = 0;

    char *p = out;
    *p++ = '{';
    p = put_key(p, "id");
    p = put_u64(p, id);
    *p++ = ',';
    p = put_key(p, "sku");
    *p++ = '"';
    p = put_str(p, "SKU-");
    p = put_u64(p, 100000 + id * 37);
    *p++ = '"';
    *p++ = ',';
    p = put_key(p, "name");
    p = put_json_str(p, name);
    *p++ = ',';
    p = put_key(p, "price");
    p = put_fixed(p, price, 2);
    *p++ = ',';
    p = put_key(p, "qty");
    p = put_u64(p, qty);
    *p++ = ',';
    p = put_key(p, "weight_kg");
    p = put_fixed(p, weight, 6);
    *p++ = ',';
    p = put_key(p, "rating");
    p = put_fixed(p, rating, 2);
    *p++ = ',';
    p = put_key(p, "in_stock");
    p = put_str(p, qty ? "true" : "false");
    *p++ = ',';
    p = put_key(p, "tags");
    *p++ = '[';
    p = put_json_str(p, w1);
    *p++ = ',';
    p = put_json_str(p, w2);
    *p++ = ',';
    p = put_json_str(p, w3);
    *p++ = ']';
    *p++ = ',';
    p = put_key(p, "total_cents");
    p = put_u64(p, price * qty);
    *p++ = '}';
    return (size_t)(p - out);
}

#ifndef FIXED

/* ---- BEFORE: the planted problems ---- */

/* keep the first occurrence of each id, in order: O(n * unique) */
NOINLINE int dedup_quadratic(const uint32_t *in, int n, uint32_t *out)
{
    NEED_FRAME();
    int m = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < m; j++)
            if (out[j] == in[i]) {
                seen = 1;
                break;
            }
        if (!seen)
            out[m++] = in[i];
    }
    return m;
}
#define DEDUP dedup_quadratic

/* every item serialized again for every request */
NOINLINE size_t build_response(const uint32_t *items, int n, char *out)
{
    char *p = out;
    *p++ = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        p += serialize_item(items[i], p);
    }
    *p++ = ']';
    *p = 0;
    return (size_t)(p - out);
}

#else

/* ---- AFTER (-DFIXED): the fixes ---- */

/* open-addressing hash set; a generation stamp instead of clearing it */
static uint32_t hs_key[HASH_SLOTS];
static uint32_t hs_gen[HASH_SLOTS];
static uint32_t hs_cur;

NOINLINE int dedup_hashset(const uint32_t *in, int n, uint32_t *out)
{
    NEED_FRAME();
    int m = 0;
    hs_cur++;
    for (int i = 0; i < n; i++) {
        uint32_t k = in[i];
        uint32_t s = (k * 2654435761u) & (HASH_SLOTS - 1);
        while (hs_gen[s] == hs_cur && hs_key[s] != k)
            s = (s + 1) & (HASH_SLOTS - 1);
        if (hs_gen[s] != hs_cur) {
            hs_gen[s] = hs_cur;
            hs_key[s] = k;
            out[m++] = k;
        }
    }
    return m;
}
#define DEDUP dedup_hashset

/* direct-mapped cache of serialized items, keyed by id */
static struct {
    uint32_t id; /* id + 1; 0 = empty */
    uint32_t len;
    char text[ITEM_MAX];
} cache[CACHE_SLOTS];

NOINLINE size_t serialize_cached(uint32_t id, char *out)
{
    unsigned slot = id % CACHE_SLOTS;
    if (cache[slot].id != id + 1) {
        cache[slot].len = (uint32_t)serialize_item(id, cache[slot].text);
        cache[slot].id = id + 1;
    }
    const char *s = cache[slot].text;
    size_t len = cache[slot].len;
    for (size_t i = 0; i < len; i++) {
        out[i] = s[i];
        __asm__ volatile("" ::: "memory"); /* keep GCC from calling memcpy */
    }
    return len;
}

NOINLINE size_t build_response(const uint32_t *items, int n, char *out)
{
    char *p = out;
    *p++ = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        p += serialize_cached(items[i], p);
    }
    *p++ = ']';
    *p = 0;
    return (size_t)(p - out);
}

#endif

NOINLINE uint64_t handle_request(unsigned reqno)
{
    make_request(reqno);
    int n = parse_request(req_buf);
    int m = DEDUP(ids, n, uniq);
    size_t len = build_response(uniq, m, resp);
    uint64_t sum = compute_checksum(resp, len);
    log_request(reqno, uniq, n, m, len, sum);
    return sum;
}

NOINLINE uint64_t serve(unsigned requests)
{
    uint64_t acc = 0;
    for (unsigned r = 0; r < requests; r++)
        acc = acc * 31 + handle_request(r);
    return acc;
}

int main(int argc, char **argv)
{
    unsigned requests = argc > 1 ? (unsigned)atoi(argv[1]) : REQUESTS_DEFAULT;
    uint64_t acc = serve(requests);
    sink = log_ring[0];
    printf("requests=%u result=%016llx\n", requests, (unsigned long long)acc);
    return 0;
}
