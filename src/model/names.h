/* The model's name table: every declared name (scalar unknowns and parameters, array elements
 * such as "z[3]", and the arrays themselves) mapped to what it names, in O(1) expected time.
 * The parser resolves each identifier of a model through it, so a model of n declarations and
 * equations parses in O(n) rather than O(n^2) (20 000-equation models must parse in well under a
 * second). Keys are not copied: they point to names the model owns and never moves. */
#ifndef NSDAE_MODEL_NAMES_H
#define NSDAE_MODEL_NAMES_H

#include <stddef.h>

typedef enum name_kind {
    NAME_NONE = 0,
    NAME_VAR,          /* index: variable index (a scalar or one array element) */
    NAME_PARAM,        /* index: parameter index */
    NAME_VAR_ARRAY,    /* index: array index (nsdae_model.arrays) */
    NAME_PARAM_ARRAY
} name_kind;

typedef struct name_slot {
    const char *key;   /* NULL: empty slot */
    size_t len;
    size_t hash;
    name_kind kind;
    int index;
} name_slot;

typedef struct name_table {
    name_slot *slots;
    size_t cap, n;     /* cap a power of two, n < cap / 2 */
} name_table;

/* Adds key (len bytes, owned by the caller and kept alive) -> (kind, index). The key must not be
 * present yet. Returns 0 when out of memory. */
int nsdae_names_add(name_table *t, const char *key, size_t len, name_kind kind, int index);

/* What s (len bytes, not necessarily NUL-terminated) names; NAME_NONE when absent. */
name_kind nsdae_names_find(const name_table *t, const char *s, size_t len, int *index);

void nsdae_names_free(name_table *t);

#endif
