/* State selection by dummy derivatives (Mattsson-Soderlind; Benveniste et al. 2013, section II-D), in
 * Pryce's terms: level l = 1 .. max_c takes the equations differentiated at least l times (c_i >= l) and
 * matches them into the unknowns chosen at level l-1 (all unknowns at level 1) through leading entries;
 * the matched unknowns x_j give the dummy derivatives x_j^(d_j - l), determined by the hidden constraints.
 * The selected states are the state candidates that are not dummies: sum c of the sum d candidates are
 * dummies, so dof remain. A matching always exists (the rows of a structurally nonsingular pivot block of
 * the previous level). */
#include "structural/structural_internal.h"

#include <stdlib.h>

typedef struct {
    int col;
    double w;
} cand;

static int by_weight_desc(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->w > y->w) return -1;
    if (x->w < y->w) return 1;
    return x->col - y->col;
}

nsdae_status nsdae_structural_select_states(nsdae_structural_result *r, const nsdae_sigma *sg, const double *weight,
                                            nsdae_error *err)
{
    int neq = r->neq, nvar = r->nvar;
    nsdae_status st = NSDAE_OK;
    free(r->dummies); free(r->dummy_level); free(r->selected);
    r->dummies = NULL; r->dummy_level = NULL; r->selected = NULL;
    r->ndummies = r->nselected = 0;

    long long sumc = 0;
    for (int i = 0; i < neq; i++) if (r->c[i] > 0) sumc += r->c[i];
    int *chosen = calloc((size_t)nvar + 1, sizeof *chosen);      /* chosen at the previous level */
    int *next = calloc((size_t)nvar + 1, sizeof *next);
    int *mrow = malloc(((size_t)neq + 1) * sizeof *mrow);
    int *mcol = malloc(((size_t)nvar + 1) * sizeof *mcol);
    cand *buf = malloc(((size_t)nvar + 1) * sizeof *buf);
    nsdae_bigraph g = {0};
    g.ptr = malloc(((size_t)neq + 1) * sizeof *g.ptr);
    size_t nnz = 0; /* leading entries bound every level's graph */
    for (size_t k = 0; k < (size_t)neq * nvar; k++) nnz += sg->s[k] != NSDAE_SIGMA_NONE;
    g.col = malloc((nnz + 1) * sizeof *g.col);
    r->dummies = malloc(((size_t)sumc + 1) * sizeof *r->dummies);
    r->dummy_level = malloc(((size_t)sumc + 1) * sizeof *r->dummy_level);
    r->selected = malloc(((size_t)r->nstates + 1) * sizeof *r->selected);
    if (!chosen || !next || !mrow || !mcol || !buf || !g.ptr || !g.col || !r->dummies || !r->dummy_level ||
        !r->selected) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
        goto done;
    }
    for (int j = 0; j < nvar; j++) chosen[j] = r->d[j] >= 0;
    for (int level = 1; level <= r->max_c; level++) {
        int nr = 0;
        g.ptr[0] = 0;
        for (int i = 0; i < neq; i++) {
            if (r->c[i] < level) continue;
            int nb = 0;
            for (int j = 0; j < nvar; j++)
                if (chosen[j] && nsdae_structural_is_leading(r, sg, i, j))
                    buf[nb++] = (cand){j, weight ? weight[(size_t)i + (size_t)j * neq] : 0.0};
            if (weight) qsort(buf, (size_t)nb, sizeof *buf, by_weight_desc);
            for (int k = 0; k < nb; k++) g.col[g.ptr[nr] + k] = buf[k].col;
            g.ptr[nr + 1] = g.ptr[nr] + nb;
            nr++;
        }
        g.nrows = nr;
        g.ncols = nvar;
        int m = nsdae_structural_max_matching(&g, mrow, mcol);
        if (m < 0) {
            st = nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
            goto done;
        }
        if (m < nr) {
            st = nsdae_error_set(err, NSDAE_NUMERICAL,
                                 "structural: internal error: no dummy-derivative matching at level %d", level);
            goto done;
        }
        for (int j = 0; j < nvar; j++) next[j] = mcol[j] >= 0;
        for (int j = 0; j < nvar; j++) {
            chosen[j] = next[j];
            if (!next[j]) continue;
            r->dummy_level[r->ndummies] = level;
            r->dummies[r->ndummies++] = (nsdae_structural_deriv){j, r->d[j] - level};
        }
    }
    for (int s = 0; s < r->nstates; s++) {
        int dummy = 0;
        for (int k = 0; k < r->ndummies && !dummy; k++)
            dummy = r->dummies[k].var == r->states[s].var && r->dummies[k].order == r->states[s].order;
        if (!dummy) r->selected[r->nselected++] = r->states[s];
    }
done:
    free(chosen); free(next); free(mrow); free(mcol); free(buf); free(g.ptr); free(g.col);
    return st;
}
