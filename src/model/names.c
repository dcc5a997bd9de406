/* Open-addressing hash table of the model's names (see names.h). */
#include "model/names.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a: names are short, and the table only needs a spread, not resistance to crafted input
 * (the input size is bounded by the lexer). */
static size_t hash_of(const char *s, size_t len)
{
    size_t h = (size_t)2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * (size_t)16777619u;
    return h;
}

static void insert(name_slot *slots, size_t cap, const name_slot *e)
{
    size_t i = e->hash & (cap - 1);
    while (slots[i].key) i = (i + 1) & (cap - 1);
    slots[i] = *e;
}

/* Keeps the load under one half so that probe sequences stay short. */
static int grow(name_table *t)
{
    if (2 * (t->n + 1) < t->cap) return 1;
    size_t cap = t->cap ? 2 * t->cap : 64;
    name_slot *s = calloc(cap, sizeof *s);
    if (!s) return 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key) insert(s, cap, &t->slots[i]);
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    return 1;
}

int nsdae_names_add(name_table *t, const char *key, size_t len, name_kind kind, int index)
{
    if (!grow(t)) return 0;
    name_slot e = {key, len, hash_of(key, len), kind, index};
    insert(t->slots, t->cap, &e);
    t->n++;
    return 1;
}

name_kind nsdae_names_find(const name_table *t, const char *s, size_t len, int *index)
{
    if (!t->cap) return NAME_NONE;
    size_t h = hash_of(s, len);
    for (size_t i = h & (t->cap - 1); t->slots[i].key; i = (i + 1) & (t->cap - 1)) {
        const name_slot *e = &t->slots[i];
        if (e->hash == h && e->len == len && memcmp(e->key, s, len) == 0) {
            if (index) *index = e->index;
            return e->kind;
        }
    }
    return NAME_NONE;
}

void nsdae_names_free(name_table *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->n = 0;
}
