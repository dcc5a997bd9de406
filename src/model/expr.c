/* Expression pool: hash-consed DAG nodes and the simplifying constructors.
 *
 * Every node is unique up to structure (kind, value bits, index, order, operand identities), so
 * pointer equality is structural equality and common subexpressions are shared. Nodes live in
 * fixed-size chunks so that their addresses never move.
 *
 * A pool may extend a read-only base (nsdae_expr_pool_create_over): lookups try the base first,
 * so a node equal to one of the base is the base's node, and new nodes take ids after the base's.
 * That is how a stage builds expressions on top of a model's without writing into the model. */
#include "model/expr_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 1024
#define POOL_MAX_NODES (1 << 22) /* a bound so that runaway symbolic work fails cleanly */

struct nsdae_expr_pool {
    const nsdae_expr_pool *base; /* NULL, or the read-only pool this one extends */
    size_t base_size;            /* base->size at creation: ids below it are the base's */
    nsdae_expr **chunks;         /* own nodes: id - base_size */
    size_t nchunks, cap_chunks;
    size_t size;                 /* ids in use, base included */
    int *table;          /* open addressing: node ids, -1 empty */
    size_t table_cap;    /* power of two */
    int failed;
};

nsdae_status nsdae_expr_pool_create(nsdae_expr_pool **out, nsdae_error *err)
{
    *out = NULL;
    nsdae_expr_pool *p = calloc(1, sizeof *p);
    if (!p) return nsdae_error_set(err, NSDAE_NOMEM, "expression pool: out of memory");
    p->table_cap = 256;
    p->table = malloc(p->table_cap * sizeof *p->table);
    if (!p->table) {
        free(p);
        return nsdae_error_set(err, NSDAE_NOMEM, "expression pool: out of memory");
    }
    for (size_t i = 0; i < p->table_cap; i++) p->table[i] = -1;
    *out = p;
    return NSDAE_OK;
}

nsdae_status nsdae_expr_pool_create_over(const nsdae_expr_pool *base, nsdae_expr_pool **out, nsdae_error *err)
{
    if (!base) {
        *out = NULL;
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "expression pool: no base pool");
    }
    nsdae_status st = nsdae_expr_pool_create(out, err);
    if (st != NSDAE_OK) return st;
    (*out)->base = base;
    (*out)->base_size = base->size;
    (*out)->size = base->size;
    (*out)->failed = base->failed;
    return NSDAE_OK;
}

void nsdae_expr_pool_destroy(nsdae_expr_pool *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    free(p->table);
    free(p);
}

size_t nsdae_expr_pool_size(const nsdae_expr_pool *p) { return p->size; }
int nsdae_expr_pool_failed(const nsdae_expr_pool *p) { return p->failed; }

/* Own nodes only (id >= base_size). */
static nsdae_expr *node_at(const nsdae_expr_pool *p, size_t id)
{
    id -= p->base_size;
    return &p->chunks[id / CHUNK][id % CHUNK];
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static uint64_t hash_key(const nsdae_expr *k)
{
    uint64_t bits;
    memcpy(&bits, &k->value, sizeof bits);
    uint64_t h = (uint64_t)k->kind;
    h = mix(h, bits);
    h = mix(h, (uint64_t)(unsigned)k->index);
    h = mix(h, (uint64_t)(unsigned)k->order);
    h = mix(h, k->a ? (uint64_t)k->a->id + 1 : 0);
    h = mix(h, k->b ? (uint64_t)k->b->id + 1 : 0);
    /* Final avalanche (splitmix64): the table takes the low bits, and the constants 1, 2, 3, ...
     * differ only in their high bits; without it 10^5 integer constants cluster into one probe
     * run and interning becomes quadratic (28 s for the derivative of a 10^5-term sum; 2.8 s to intern 20 000 equations). */
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

static int same_key(const nsdae_expr *x, const nsdae_expr *k)
{
    return x->kind == k->kind && memcmp(&x->value, &k->value, sizeof x->value) == 0 && x->index == k->index &&
           x->order == k->order && x->a == k->a && x->b == k->b;
}

static int grow_table(nsdae_expr_pool *p)
{
    size_t cap = p->table_cap * 2;
    int *t = malloc(cap * sizeof *t);
    if (!t) return 0;
    for (size_t i = 0; i < cap; i++) t[i] = -1;
    for (size_t id = p->base_size; id < p->size; id++) {
        size_t h = (size_t)hash_key(node_at(p, id)) & (cap - 1);
        while (t[h] >= 0) h = (h + 1) & (cap - 1);
        t[h] = (int)id;
    }
    free(p->table);
    p->table = t;
    p->table_cap = cap;
    return 1;
}

/* The node of p (or of its bases) equal to key, or NULL; *slot is p's free table slot then. */
static const nsdae_expr *lookup(const nsdae_expr_pool *p, const nsdae_expr *key, uint64_t hash, size_t *slot)
{
    if (p->base) {
        const nsdae_expr *x = lookup(p->base, key, hash, NULL);
        if (x) return x;
    }
    size_t h = (size_t)hash & (p->table_cap - 1);
    while (p->table[h] >= 0) {
        const nsdae_expr *x = node_at(p, (size_t)p->table[h]);
        if (same_key(x, key)) return x;
        h = (h + 1) & (p->table_cap - 1);
    }
    if (slot) *slot = h;
    return NULL;
}

/* Finds or inserts the node described by key (whose id and flags are ignored). */
static const nsdae_expr *intern(nsdae_expr_pool *p, nsdae_expr key)
{
    if (p->failed) return NULL;
    /* A base that grew would hand out the ids this pool already uses. */
    if (p->base && p->base->size != p->base_size) {
        p->failed = 1;
        return NULL;
    }
    /* Canonical value bits: -0.0 and 0.0 are one constant. */
    if (key.value == 0.0) key.value = 0.0;
    size_t h = 0;
    const nsdae_expr *found = lookup(p, &key, hash_key(&key), &h);
    if (found) return found;
    if (p->size >= POOL_MAX_NODES) {
        p->failed = 1;
        return NULL;
    }
    size_t own = p->size - p->base_size;
    if (own % CHUNK == 0 && own / CHUNK == p->nchunks) {
        if (p->nchunks == p->cap_chunks) {
            size_t cap = p->cap_chunks ? 2 * p->cap_chunks : 16;
            nsdae_expr **c = realloc(p->chunks, cap * sizeof *c);
            if (!c) { p->failed = 1; return NULL; }
            p->chunks = c;
            p->cap_chunks = cap;
        }
        p->chunks[p->nchunks] = malloc(CHUNK * sizeof(nsdae_expr));
        if (!p->chunks[p->nchunks]) { p->failed = 1; return NULL; }
        p->nchunks++;
    }
    nsdae_expr *n = node_at(p, p->size);
    *n = key;
    n->id = (int)p->size;
    n->flags = (key.a ? key.a->flags : 0) | (key.b ? key.b->flags : 0);
    if (key.kind == NSDAE_EXPR_VAR) n->flags |= NSDAE_EXPR_HAS_VAR | (key.order > 2 ? NSDAE_EXPR_HAS_ORDER3 : 0u);
    if (key.kind == NSDAE_EXPR_TIME) n->flags |= NSDAE_EXPR_HAS_TIME;
    if (key.kind == NSDAE_EXPR_PARAM) n->flags |= NSDAE_EXPR_HAS_PARAM;
    if (key.kind == NSDAE_EXPR_ABS || key.kind == NSDAE_EXPR_SIGN || key.kind == NSDAE_EXPR_MIN ||
        key.kind == NSDAE_EXPR_MAX)
        n->flags |= NSDAE_EXPR_NONSMOOTH;
    if (key.kind == NSDAE_EXPR_PRE) n->flags |= NSDAE_EXPR_HAS_PRE;
    p->table[h] = n->id;
    p->size++;
    if ((p->size - p->base_size) * 2 > p->table_cap && !grow_table(p)) p->failed = 1;
    return n;
}

static nsdae_expr blank(nsdae_expr_kind kind)
{
    nsdae_expr k;
    memset(&k, 0, sizeof k);
    k.kind = kind;
    return k;
}

const nsdae_expr *nsdae_expr_const(nsdae_expr_pool *p, double value)
{
    nsdae_expr k = blank(NSDAE_EXPR_CONST);
    k.value = value;
    return intern(p, k);
}

const nsdae_expr *nsdae_expr_param(nsdae_expr_pool *p, int index)
{
    nsdae_expr k = blank(NSDAE_EXPR_PARAM);
    k.index = index;
    return intern(p, k);
}

const nsdae_expr *nsdae_expr_var(nsdae_expr_pool *p, int index, int order)
{
    nsdae_expr k = blank(NSDAE_EXPR_VAR);
    k.index = index;
    k.order = order;
    return intern(p, k);
}

const nsdae_expr *nsdae_expr_time(nsdae_expr_pool *p) { return intern(p, blank(NSDAE_EXPR_TIME)); }

int nsdae_expr_is_binary(nsdae_expr_kind kind)
{
    return (kind >= NSDAE_EXPR_ADD && kind <= NSDAE_EXPR_POW) || kind == NSDAE_EXPR_MIN || kind == NSDAE_EXPR_MAX;
}

int nsdae_expr_is_unary(nsdae_expr_kind kind)
{
    return (kind >= NSDAE_EXPR_NEG && kind <= NSDAE_EXPR_SIGN) || kind == NSDAE_EXPR_PRE;
}

static int is_const(const nsdae_expr *e, double v) { return e->kind == NSDAE_EXPR_CONST && e->value == v; }

double nsdae_expr_apply(nsdae_expr_kind kind, double a, double b)
{
    switch (kind) {
    case NSDAE_EXPR_ADD: return a + b;
    case NSDAE_EXPR_SUB: return a - b;
    case NSDAE_EXPR_MUL: return a * b;
    case NSDAE_EXPR_DIV: return a / b;
    case NSDAE_EXPR_POW: return pow(a, b);
    case NSDAE_EXPR_NEG: return -a;
    case NSDAE_EXPR_SIN: return sin(a);
    case NSDAE_EXPR_COS: return cos(a);
    case NSDAE_EXPR_EXP: return exp(a);
    case NSDAE_EXPR_LOG: return log(a);
    case NSDAE_EXPR_SQRT: return sqrt(a);
    case NSDAE_EXPR_ABS: return fabs(a);
    case NSDAE_EXPR_SIGN: return a > 0 ? 1.0 : a < 0 ? -1.0 : a == 0 ? 0.0 : NAN;
    case NSDAE_EXPR_MIN: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
    case NSDAE_EXPR_MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    case NSDAE_EXPR_PRE: return a; /* read on the left-limit state */
    default: return NAN;
    }
}

const nsdae_expr *nsdae_expr_unary(nsdae_expr_pool *p, nsdae_expr_kind kind, const nsdae_expr *a)
{
    if (!a || !nsdae_expr_is_unary(kind)) return NULL;
    if (a->kind == NSDAE_EXPR_CONST) {
        double v = nsdae_expr_apply(kind, a->value, 0.0);
        if (isfinite(v)) return nsdae_expr_const(p, v);
    }
    if (kind == NSDAE_EXPR_NEG && a->kind == NSDAE_EXPR_NEG) return a->a;
    /* -(a - b) = b - a keeps residuals free of stacked negations */
    if (kind == NSDAE_EXPR_NEG && a->kind == NSDAE_EXPR_SUB) return nsdae_expr_binary(p, NSDAE_EXPR_SUB, a->b, a->a);
    if (kind == NSDAE_EXPR_ABS && (a->kind == NSDAE_EXPR_ABS || a->kind == NSDAE_EXPR_EXP)) return a;
    if (kind == NSDAE_EXPR_SIGN && a->kind == NSDAE_EXPR_SIGN) return a;
    nsdae_expr k = blank(kind);
    k.a = a;
    return intern(p, k);
}

static const nsdae_expr *neg(nsdae_expr_pool *p, const nsdae_expr *a) { return nsdae_expr_unary(p, NSDAE_EXPR_NEG, a); }

const nsdae_expr *nsdae_expr_binary(nsdae_expr_pool *p, nsdae_expr_kind kind, const nsdae_expr *a,
                                    const nsdae_expr *b)
{
    if (!a || !b || !nsdae_expr_is_binary(kind)) return NULL;
    if (a->kind == NSDAE_EXPR_CONST && b->kind == NSDAE_EXPR_CONST) {
        double v = nsdae_expr_apply(kind, a->value, b->value);
        if (isfinite(v)) return nsdae_expr_const(p, v);
    }
    switch (kind) {
    case NSDAE_EXPR_ADD:
        if (is_const(a, 0)) return b;
        if (is_const(b, 0)) return a;
        if (b->kind == NSDAE_EXPR_NEG) return nsdae_expr_binary(p, NSDAE_EXPR_SUB, a, b->a);
        if (a->kind == NSDAE_EXPR_NEG) return nsdae_expr_binary(p, NSDAE_EXPR_SUB, b, a->a);
        if (a->kind == NSDAE_EXPR_CONST) { const nsdae_expr *t = a; a = b; b = t; } /* constants last */
        if (b->kind == NSDAE_EXPR_CONST && b->value < 0) /* x + -2 -> x - 2 */
            return nsdae_expr_binary(p, NSDAE_EXPR_SUB, a, nsdae_expr_const(p, -b->value));
        break;
    case NSDAE_EXPR_SUB:
        if (is_const(b, 0)) return a;
        if (is_const(a, 0)) return neg(p, b);
        if (a == b) return nsdae_expr_const(p, 0.0);
        if (b->kind == NSDAE_EXPR_NEG) return nsdae_expr_binary(p, NSDAE_EXPR_ADD, a, b->a);
        break;
    case NSDAE_EXPR_MUL:
        if (b->kind == NSDAE_EXPR_CONST) { const nsdae_expr *t = a; a = b; b = t; } /* constants first */
        if (is_const(a, 0)) return a;
        if (is_const(a, 1)) return b;
        if (is_const(a, -1)) return neg(p, b);
        if (a->kind == NSDAE_EXPR_CONST && b->kind == NSDAE_EXPR_MUL && b->a->kind == NSDAE_EXPR_CONST)
            return nsdae_expr_binary(p, NSDAE_EXPR_MUL, nsdae_expr_const(p, a->value * b->a->value), b->b);
        if (a->kind == NSDAE_EXPR_NEG && b->kind == NSDAE_EXPR_NEG) return nsdae_expr_binary(p, kind, a->a, b->a);
        if (a->kind == NSDAE_EXPR_NEG) return neg(p, nsdae_expr_binary(p, kind, a->a, b));
        if (b->kind == NSDAE_EXPR_NEG) return neg(p, nsdae_expr_binary(p, kind, a, b->a));
        break;
    case NSDAE_EXPR_DIV:
        if (is_const(b, 1)) return a;
        if (is_const(a, 0) && !is_const(b, 0)) return a;
        if (a == b && b->kind != NSDAE_EXPR_CONST) break; /* x/x is 1 only where x != 0: keep */
        if (a->kind == NSDAE_EXPR_NEG) return neg(p, nsdae_expr_binary(p, kind, a->a, b));
        break;
    case NSDAE_EXPR_POW:
        if (is_const(b, 1)) return a;
        if (is_const(b, 0)) return nsdae_expr_const(p, 1.0);
        break;
    case NSDAE_EXPR_MIN:
    case NSDAE_EXPR_MAX:
        if (a == b) return a;
        break;
    default: break;
    }
    nsdae_expr k = blank(kind);
    k.a = a;
    k.b = b;
    return intern(p, k);
}

/* ---- queries ------------------------------------------------------------------------------ */

/* A visited set of node ids (a map: a bitmap sized by the root id cost O(pool) per call, and the
 * callers ask once per equation and variable). NULL: plain recursion, still correct. */
static int max_order_rec(const nsdae_expr *e, int var, nsdae_id_map *seen)
{
    if (!(e->flags & NSDAE_EXPR_HAS_VAR)) return -1;
    if (seen) {
        if (nsdae_id_map_get(seen, e->id)) return -1;
        if (!nsdae_id_map_put(seen, e->id, e)) seen = NULL; /* out of memory: recurse without it */
    }
    if (e->kind == NSDAE_EXPR_VAR) return e->index == var ? e->order : -1;
    int m = e->a ? max_order_rec(e->a, var, seen) : -1;
    int n = e->b ? max_order_rec(e->b, var, seen) : -1;
    return m > n ? m : n;
}

int nsdae_expr_max_order(const nsdae_expr *e, int var)
{
    if (!e) return -1;
    nsdae_id_map seen = {NULL, NULL, 0, 0};
    int m = max_order_rec(e, var, &seen);
    nsdae_id_map_free(&seen);
    return m;
}

int nsdae_expr_has_var(const nsdae_expr *e) { return e && (e->flags & NSDAE_EXPR_HAS_VAR) != 0; }
