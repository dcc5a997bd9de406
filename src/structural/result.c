/* The result of a structural analysis (structural.h): verdict names, which entries are leading,
 * freeing. Apart from the analysis that fills it (analyze.c), so that the state selection
 * (dummy.c) reads the result without depending on the analysis that calls it. */
#include "structural/structural_internal.h"

#include <stdlib.h>

const char *nsdae_structural_verdict_name(nsdae_structural_verdict v)
{
    switch (v) {
    case NSDAE_STRUCTURAL_OK: return "ok";
    case NSDAE_STRUCTURAL_SINGULAR: return "singular";
    case NSDAE_STRUCTURAL_UNDERDETERMINED: return "underdetermined";
    case NSDAE_STRUCTURAL_OVERDETERMINED: return "overdetermined";
    }
    return "unknown";
}

void nsdae_structural_result_destroy(nsdae_structural_result *r)
{
    if (!r) return;
    for (int i = 0; r->eq_names && i < r->neq; i++) free(r->eq_names[i]);
    for (int j = 0; r->var_names && j < r->nvar; j++) free(r->var_names[j]);
    free(r->eq_names); free(r->var_names);
    free(r->eq_part); free(r->var_part); free(r->excess_eq); free(r->free_var);
    free(r->transversal); free(r->c); free(r->d);
    free(r->states); free(r->dummies); free(r->selected); free(r->dummy_level);
    for (int b = 0; r->blocks && b < r->nblocks; b++) { free(r->blocks[b].eqs); free(r->blocks[b].vars); }
    free(r->blocks);
    free(r);
}

int nsdae_structural_is_leading(const nsdae_structural_result *r, const nsdae_sigma *sigma, int i, int j)
{
    if (i < 0 || i >= r->neq || j < 0 || j >= r->nvar) return 0;
    if (r->c[i] < 0 || r->d[j] < 0) return 0;
    int s = sigma->s[(size_t)i * sigma->nvar + j];
    return s != NSDAE_SIGMA_NONE && s == r->d[j] - r->c[i];
}
