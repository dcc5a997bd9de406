/* A map from node ids to pointers, for walks that visit a small part of a large pool: an array
 * indexed by id costs O(pool size) to allocate and clear per walk, which made translating a model
 * of n equations (a walk per equation over a pool of O(n) nodes) quadratic (issue 14, item 5). */
#include "model/expr_internal.h"

#include <stdlib.h>

static size_t slot_of(const nsdae_id_map *m, int id)
{
    size_t h = (size_t)(unsigned)id * 2654435761u; /* Knuth's multiplicative hash */
    size_t i = h & (m->cap - 1);
    while (m->keys[i] >= 0 && m->keys[i] != id) i = (i + 1) & (m->cap - 1);
    return i;
}

static int grow(nsdae_id_map *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    int *keys = malloc(cap * sizeof *keys);
    const void **vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return 0;
    }
    for (size_t i = 0; i < cap; i++) keys[i] = -1;
    nsdae_id_map old = *m;
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i] >= 0) {
            size_t s = slot_of(m, old.keys[i]);
            m->keys[s] = old.keys[i];
            m->vals[s] = old.vals[i];
        }
    free(old.keys);
    free(old.vals);
    return 1;
}

int nsdae_id_map_put(nsdae_id_map *m, int id, const void *v)
{
    if (id < 0) return 0;
    if (2 * (m->n + 1) > m->cap && !grow(m)) return 0;
    size_t s = slot_of(m, id);
    if (m->keys[s] < 0) m->n++;
    m->keys[s] = id;
    m->vals[s] = v;
    return 1;
}

const void *nsdae_id_map_get(const nsdae_id_map *m, int id)
{
    if (!m->cap || id < 0) return NULL;
    size_t s = slot_of(m, id);
    return m->keys[s] == id ? m->vals[s] : NULL;
}

void nsdae_id_map_free(nsdae_id_map *m)
{
    free(m->keys);
    free(m->vals);
    *m = (nsdae_id_map){NULL, NULL, 0, 0};
}
