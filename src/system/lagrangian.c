/* Lagrangian contact form: allocation, naming and validation. The numbers come from callbacks;
 * this file only owns the arrays a model carries with it (initial state, restitutions, names). */
#include <nsdae/lagrangian.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

nsdae_status nsdae_lagrangian_create(int ndof, int ncontacts, nsdae_lagrangian **out, nsdae_error *err)
{
    *out = NULL;
    if (ndof < 1 || ncontacts < 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "lagrangian: sizes ndof=%d, ncontacts=%d (need ndof >= 1, ncontacts >= 0)", ndof,
                               ncontacts);
    nsdae_lagrangian *s = calloc(1, sizeof *s);
    if (!s) return nsdae_error_set(err, NSDAE_NOMEM, "lagrangian: out of memory");
    s->ndof = ndof;
    s->ncontacts = ncontacts;
    /* +1 so that a system without contacts still has valid (empty) arrays */
    s->q0 = calloc((size_t)ndof, sizeof *s->q0);
    s->v0 = calloc((size_t)ndof, sizeof *s->v0);
    s->restitution = calloc((size_t)ncontacts + 1, sizeof *s->restitution);
    s->friction = calloc((size_t)ncontacts + 1, sizeof *s->friction);
    s->q_names = calloc((size_t)ndof, sizeof *s->q_names);
    s->c_names = calloc((size_t)ncontacts + 1, sizeof *s->c_names);
    if (!s->q0 || !s->v0 || !s->restitution || !s->friction || !s->q_names || !s->c_names) {
        nsdae_lagrangian_destroy(s);
        return nsdae_error_set(err, NSDAE_NOMEM, "lagrangian: out of memory");
    }
    *out = s;
    return NSDAE_OK;
}

void nsdae_lagrangian_destroy(nsdae_lagrangian *s)
{
    if (!s) return;
    if (s->ctx_free) s->ctx_free(s->ctx);
    for (int i = 0; s->q_names && i < s->ndof; i++) free(s->q_names[i]);
    for (int i = 0; s->c_names && i < s->ncontacts; i++) free(s->c_names[i]);
    free(s->q_names); free(s->c_names);
    free(s->q0); free(s->v0); free(s->restitution); free(s->friction);
    free(s->gap_rowptr); free(s->gap_cols);
    free(s->mass_colptr); free(s->mass_rows);
    free(s->force_colptr); free(s->force_rows);
    free(s);
}

nsdae_status nsdae_lagrangian_set_name(nsdae_lagrangian *s, char which, int index, const char *name,
                                       nsdae_error *err)
{
    char **slot;
    if (which == 'q' && index >= 0 && index < s->ndof) slot = &s->q_names[index];
    else if (which == 'c' && index >= 0 && index < s->ncontacts) slot = &s->c_names[index];
    else
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: no name slot '%c' %d", which, index);
    size_t len = strlen(name);
    char *copy = malloc(len + 1);
    if (!copy) return nsdae_error_set(err, NSDAE_NOMEM, "lagrangian: out of memory");
    memcpy(copy, name, len + 1);
    free(*slot);
    *slot = copy;
    return NSDAE_OK;
}

/* The lower triangle's pattern (lagrangian.h): rows increasing and on or below the diagonal. */
static nsdae_status check_mass_pattern(const nsdae_lagrangian *s, nsdae_error *err)
{
    if (!s->mass_rows || !s->mass_values || s->mass_colptr[0] != 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "lagrangian: a mass matrix pattern needs mass_rows and mass_values");
    for (int j = 0; j < s->ndof; j++) {
        if (s->mass_colptr[j + 1] < s->mass_colptr[j])
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: mass matrix pattern: mass_colptr decreases "
                                                             "at column %d", j);
        for (int k = s->mass_colptr[j]; k < s->mass_colptr[j + 1]; k++)
            if (s->mass_rows[k] < j || s->mass_rows[k] >= s->ndof ||
                (k > s->mass_colptr[j] && s->mass_rows[k] <= s->mass_rows[k - 1]))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                       "lagrangian: mass matrix pattern of column %d: rows not increasing in "
                                       "[%d, %d)", j, j, s->ndof);
    }
    return NSDAE_OK;
}

/* The force Jacobian's pattern (lagrangian.h): 2 ndof columns, rows increasing in [0, ndof). */
static nsdae_status check_force_pattern(const nsdae_lagrangian *s, nsdae_error *err)
{
    if (!s->force_jacobian_values || s->force_colptr[0] != 0 || (s->force_colptr[2 * s->ndof] > 0 && !s->force_rows))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "lagrangian: a force Jacobian pattern needs force_rows and force_jacobian_values");
    for (int k = 0; k < 2 * s->ndof; k++) {
        if (s->force_colptr[k + 1] < s->force_colptr[k])
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: force Jacobian pattern: force_colptr "
                                                             "decreases at column %d", k);
        for (int e = s->force_colptr[k]; e < s->force_colptr[k + 1]; e++)
            if (s->force_rows[e] < 0 || s->force_rows[e] >= s->ndof ||
                (e > s->force_colptr[k] && s->force_rows[e] <= s->force_rows[e - 1]))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: force Jacobian pattern of column %d: "
                                                                 "rows not increasing in [0, %d)", k, s->ndof);
    }
    return NSDAE_OK;
}

nsdae_status nsdae_lagrangian_validate(const nsdae_lagrangian *s, nsdae_error *err)
{
    if (!s || s->ndof < 1 || s->ncontacts < 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: missing system or bad sizes");
    if (!s->mass || !s->forces)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: the mass and forces callbacks are required");
    if (s->ncontacts > 0 && (!s->gaps || !s->gap_jacobian))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "lagrangian: %d contacts need the gaps and gap_jacobian callbacks", s->ncontacts);
    if (s->ncontacts > 0 && s->gap_rowptr) {
        if (!s->gap_cols || !s->gap_jacobian_values || s->gap_rowptr[0] != 0)
            return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                   "lagrangian: a gap Jacobian pattern needs gap_cols and gap_jacobian_values");
        for (int c = 0; c < s->ncontacts; c++)
            for (int k = s->gap_rowptr[c]; k < s->gap_rowptr[c + 1]; k++)
                if (s->gap_cols[k] < 0 || s->gap_cols[k] >= s->ndof ||
                    (k > s->gap_rowptr[c] && s->gap_cols[k] <= s->gap_cols[k - 1]))
                    return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                           "lagrangian: gap Jacobian pattern of contact %d: columns not increasing "
                                           "in [0, %d)", c, s->ndof);
    }
    if (s->mass_colptr) {
        nsdae_status st = check_mass_pattern(s, err);
        if (st != NSDAE_OK) return st;
    }
    if (s->force_colptr) {
        nsdae_status st = check_force_pattern(s, err);
        if (st != NSDAE_OK) return st;
    }
    for (int j = 0; j < s->ndof; j++)
        if (!isfinite(s->q0[j]) || !isfinite(s->v0[j]))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: initial value of %s is not finite",
                                   s->q_names[j] ? s->q_names[j] : "a coordinate");
    for (int c = 0; c < s->ncontacts; c++)
        if (!(s->restitution[c] >= 0.0 && s->restitution[c] <= 1.0))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "lagrangian: restitution %g of contact %s is not in [0, 1]",
                                   s->restitution[c], s->c_names[c] ? s->c_names[c] : "(unnamed)");
    int frictional = 0;
    for (int c = 0; c < s->ncontacts; c++) {
        if (!(s->friction[c] >= 0.0 && isfinite(s->friction[c])))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                                   "lagrangian: friction coefficient %g of contact %s is not finite and >= 0",
                                   s->friction[c], s->c_names[c] ? s->c_names[c] : "(unnamed)");
        frictional |= s->friction[c] > 0.0;
    }
    if (frictional && !s->tangent_jacobian)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT,
                               "lagrangian: contacts with friction need the tangent_jacobian callback");
    return NSDAE_OK;
}
