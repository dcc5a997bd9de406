/* The structural analysis of one mode: DM parts, HVT, offsets, index, states, BTF, state selection.
 * Orchestrates the one-job files (matching.c, assignment.c, pryce.c, dm.c, dummy.c); the result
 * type's own functions are in result.c, which dummy.c uses too. */
#include "structural/structural_internal.h"

#include <stdlib.h>
#include <string.h>

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* Incidence graph of the finite entries, restricted to rows/cols with keep flags (NULL: all) and
 * to leading entries when r != NULL. Local numbering through row_map/col_map (global -> local). */
static int build_graph(const nsdae_sigma *sg, const nsdae_structural_result *r, const int *row_map, int nrows,
                       const int *col_map, int ncols, nsdae_bigraph *g)
{
    g->nrows = nrows;
    g->ncols = ncols;
    g->ptr = calloc((size_t)nrows + 1, sizeof *g->ptr);
    size_t nnz = 0;
    for (size_t k = 0; k < (size_t)sg->neq * sg->nvar; k++) nnz += sg->s[k] != NSDAE_SIGMA_NONE;
    g->col = malloc((nnz + 1) * sizeof *g->col);
    if (!g->ptr || !g->col) return -1;
    int fill = 0;
    for (int i = 0; i < sg->neq; i++) {
        int li = row_map ? row_map[i] : i;
        if (li < 0) continue;
        for (int j = 0; j < sg->nvar; j++) {
            int lj = col_map ? col_map[j] : j;
            if (lj < 0 || sg->s[(size_t)i * sg->nvar + j] == NSDAE_SIGMA_NONE) continue;
            if (r && !nsdae_structural_is_leading(r, sg, i, j)) continue;
            g->col[fill++] = lj;
        }
        g->ptr[li + 1] = fill;
    }
    /* rows are visited in global order, which is local order too (maps are increasing) */
    for (int i = 1; i <= nrows; i++) if (g->ptr[i] < g->ptr[i - 1]) g->ptr[i] = g->ptr[i - 1];
    return 0;
}

static void free_graph(nsdae_bigraph *g)
{
    free(g->ptr);
    free(g->col);
    g->ptr = g->col = NULL;
}

#define NOMEM() do { st = nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory"); goto fail; } while (0)

nsdae_status nsdae_structural_analyze(const nsdae_sigma *sg, nsdae_structural_result **out, nsdae_error *err)
{
    *out = NULL;
    if (!sg || sg->neq < 0 || sg->nvar < 0 || (!sg->s && sg->neq * sg->nvar > 0))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: no signature matrix");
    for (int i = 0; i < sg->neq; i++)
        for (int j = 0; j < sg->nvar; j++) {
            int s = sg->s[(size_t)i * sg->nvar + j];
            if (s != NSDAE_SIGMA_NONE && (s < 0 || s > NSDAE_SIGMA_MAX_ORDER))
                return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: order %d of '%s' in '%s' (need 0..%d)",
                                       s, sg->var_names[j], sg->eq_names[i], NSDAE_SIGMA_MAX_ORDER);
        }
    nsdae_status st = NSDAE_OK;
    int neq = sg->neq, nvar = sg->nvar;
    nsdae_bigraph g = {0}, lg = {0};
    int *mrow = NULL, *mcol = NULL, *rmap = NULL, *cmap = NULL, *rinv = NULL, *cinv = NULL, *lsig = NULL,
        *assign = NULL, *lc = NULL, *ld = NULL;
    nsdae_structural_block *lblocks = NULL;
    nsdae_structural_result *r = calloc(1, sizeof *r);
    if (!r) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    r->neq = neq;
    r->nvar = nvar;
    r->numeric.selection_cond = r->numeric.static_cond = 1.0;
    size_t ne = (size_t)neq + 1, nv = (size_t)nvar + 1;
    r->eq_names = calloc(ne, sizeof *r->eq_names);
    r->var_names = calloc(nv, sizeof *r->var_names);
    r->eq_part = calloc(ne, sizeof *r->eq_part);
    r->var_part = calloc(nv, sizeof *r->var_part);
    r->excess_eq = calloc(ne, sizeof *r->excess_eq);
    r->free_var = calloc(nv, sizeof *r->free_var);
    r->transversal = malloc(ne * sizeof *r->transversal);
    r->c = malloc(ne * sizeof *r->c);
    r->d = malloc(nv * sizeof *r->d);
    mrow = malloc(ne * sizeof *mrow);
    mcol = malloc(nv * sizeof *mcol);
    rmap = malloc(ne * sizeof *rmap);
    cmap = malloc(nv * sizeof *cmap);
    rinv = malloc(ne * sizeof *rinv);
    cinv = malloc(nv * sizeof *cinv);
    if (!r->eq_names || !r->var_names || !r->eq_part || !r->var_part || !r->excess_eq || !r->free_var ||
        !r->transversal || !r->c || !r->d || !mrow || !mcol || !rmap || !cmap || !rinv || !cinv)
        NOMEM();
    for (int i = 0; i < neq; i++) if (!(r->eq_names[i] = dup_string(sg->eq_names[i]))) NOMEM();
    for (int j = 0; j < nvar; j++) if (!(r->var_names[j] = dup_string(sg->var_names[j]))) NOMEM();
    for (int i = 0; i < neq; i++) r->transversal[i] = r->c[i] = -1;
    for (int j = 0; j < nvar; j++) r->d[j] = -1;

    /* 1. Coarse DM on the incidence graph: derivative orders do not matter for solvability
     *    (no perfect matching <=> no finite transversal <=> Val(Sigma) = -infinity). */
    if (build_graph(sg, NULL, NULL, neq, NULL, nvar, &g) < 0) NOMEM();
    if (nsdae_structural_max_matching(&g, mrow, mcol) < 0) NOMEM();
    if (nsdae_structural_dm_parts(&g, mrow, mcol, r->eq_part, r->var_part) < 0) NOMEM();
    for (int i = 0; i < neq; i++) {
        if (r->eq_part[i] == NSDAE_DM_UNDER) r->n_under_eq++;
        if (r->eq_part[i] == NSDAE_DM_OVER) r->n_over_eq++;
        if (mrow[i] < 0) r->excess_eq[r->n_excess++] = i;
    }
    for (int j = 0; j < nvar; j++) {
        if (r->var_part[j] == NSDAE_DM_UNDER) r->n_under_var++;
        if (r->var_part[j] == NSDAE_DM_OVER) r->n_over_var++;
        if (mcol[j] < 0) r->free_var[r->n_free++] = j;
    }
    int under = r->n_under_eq + r->n_under_var > 0, over = r->n_over_eq + r->n_over_var > 0;
    r->verdict = under && over ? NSDAE_STRUCTURAL_SINGULAR
               : under         ? NSDAE_STRUCTURAL_UNDERDETERMINED
               : over          ? NSDAE_STRUCTURAL_OVERDETERMINED
                               : NSDAE_STRUCTURAL_OK;

    /* 2. The Sigma-method on the well-determined part (square and perfectly matched). */
    int n = 0, nc = 0;
    for (int i = 0; i < neq; i++) { rmap[i] = r->eq_part[i] == NSDAE_DM_WELL ? n : -1; if (rmap[i] >= 0) rinv[n++] = i; }
    for (int j = 0; j < nvar; j++) { cmap[j] = r->var_part[j] == NSDAE_DM_WELL ? nc : -1; if (cmap[j] >= 0) cinv[nc++] = j; }
    if (n != nc) {
        st = nsdae_error_set(err, NSDAE_NUMERICAL, "structural: internal error: well-determined part is %d x %d", n, nc);
        goto fail;
    }
    r->n_well = n;
    lsig = malloc(((size_t)n * n + 1) * sizeof *lsig);
    assign = malloc(((size_t)n + 1) * sizeof *assign);
    lc = malloc(((size_t)n + 1) * sizeof *lc);
    ld = malloc(((size_t)n + 1) * sizeof *ld);
    if (!lsig || !assign || !lc || !ld) NOMEM();
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) lsig[(size_t)a * n + b] = sg->s[(size_t)rinv[a] * nvar + cinv[b]];
    if (nsdae_structural_hvt(n, lsig, assign) < 0) NOMEM();
    for (int a = 0; a < n; a++)
        if (lsig[(size_t)a * n + assign[a]] == NSDAE_SIGMA_NONE) {
            st = nsdae_error_set(err, NSDAE_NUMERICAL, "structural: internal error: transversal uses a missing entry");
            goto fail;
        }
    if (nsdae_structural_offsets(n, lsig, assign, lc, ld) < 0) {
        st = nsdae_error_set(err, NSDAE_NUMERICAL, "structural: the offset iteration did not settle");
        goto fail;
    }
    long long sumc = 0, sumd = 0, val = 0;
    int any_d0 = 0;
    for (int a = 0; a < n; a++) {
        int i = rinv[a], j = cinv[a];
        r->transversal[i] = cinv[assign[a]];
        r->c[i] = lc[a];
        r->d[j] = ld[a];
        sumc += lc[a];
        sumd += ld[a];
        val += lsig[(size_t)a * n + assign[a]];
        if (lc[a] > r->max_c) r->max_c = lc[a];
        if (ld[a] == 0) any_d0 = 1;
    }
    r->value = (int)val;
    r->dof = (int)(sumd - sumc);
    r->index = n > 0 ? r->max_c + any_d0 : 0;

    /* 3. State candidates x_j^(k), k < d_j. */
    r->states = malloc(((size_t)sumd + 1) * sizeof *r->states);
    if (!r->states) NOMEM();
    for (int j = 0; j < nvar; j++)
        for (int k = 0; k < r->d[j]; k++) r->states[r->nstates++] = (nsdae_structural_deriv){j, k};

    /* 4. Block-triangular form of the leading system, matched by the HVT (whose entries are all
     *    leading: equality holds on the transversal). */
    if (build_graph(sg, r, rmap, n, cmap, n, &lg) < 0) NOMEM();
    int nb = nsdae_structural_btf(&lg, assign, &lblocks);
    if (nb < 0) NOMEM();
    r->blocks = lblocks;
    r->nblocks = nb;
    lblocks = NULL;
    for (int b = 0; b < nb; b++)
        for (int k = 0; k < r->blocks[b].n; k++) {
            r->blocks[b].eqs[k] = rinv[r->blocks[b].eqs[k]];
            r->blocks[b].vars[k] = cinv[r->blocks[b].vars[k]];
        }

    /* 5. Structural state selection (dummy derivatives). */
    st = nsdae_structural_select_states(r, sg, NULL, err);
    if (st != NSDAE_OK) goto fail;

    free_graph(&g); free_graph(&lg);
    free(mrow); free(mcol); free(rmap); free(cmap); free(rinv); free(cinv); free(lsig); free(assign); free(lc); free(ld);
    *out = r;
    return NSDAE_OK;
fail:
    free_graph(&g); free_graph(&lg);
    free(mrow); free(mcol); free(rmap); free(cmap); free(rinv); free(cinv); free(lsig); free(assign); free(lc); free(ld);
    nsdae_structural_result_destroy(r);
    return st;
}
