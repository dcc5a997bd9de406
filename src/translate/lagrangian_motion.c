/* The equations of motion: each is affine in the accelerations and the multipliers,
 *   r_k = sum_j A_kj(q) der(der(q_j)) + sum_c C_kc(q) lambda_c + rest_k(t, q, der(q)) = 0,
 * is matched to the coordinate whose acceleration it determines, and gives row i of
 *   M = A, F = -rest, G^T = -C  (M q'' = F + G^T lambda).
 * The last identity is checked, not assumed: a contact force written with another sign or another
 * direction than the gap gradient would make Moreau-Jean integrate a different model. */
#include "translate/lagrangian_internal.h"

#include "model/expr_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The leaves of `leaves` that r reads (VAR nodes of r, walked as a tree up to a budget): their
 * positions into pick, their count returned; -1 when the budget runs out (then all of them). An
 * equation of motion reads a few of the ndof + ncontacts leaves, and the affine decomposition
 * costs O(nodes x leaves): over all of them it was O(N^2) per bead column of N beads. */
static int read_leaves(lctx *L, const nsdae_expr *r, int *pick, int *slot_of)
{
    const nsdae_expr *stack[256];
    int top = 0, count = 0;
    long budget = 4096;
    stack[top++] = r;
    while (top > 0) {
        const nsdae_expr *n = stack[--top];
        if (--budget < 0 || top + 2 > 256) count = -1;
        if (count < 0) break;
        if (!(n->flags & NSDAE_EXPR_HAS_VAR)) continue;
        if (n->kind == NSDAE_EXPR_VAR) {
            int v = n->index, k = -1;
            if (n->order == 2 && L->coord_of_var[v] >= 0) k = L->coord_of_var[v];
            else if (n->order == 0 && L->contact_of_var[v] >= 0) {
                /* the contact's normal multiplier, or its tangential force (column after the normal ones) */
                const int c = L->contact_of_var[v];
                if (L->contacts[c].var == v) k = L->ndof + c;
                for (int f = 0; k < 0 && f < L->nfric; f++)
                    if (L->fric[f] == c) k = L->ndof + L->ncontacts + f;
            }
            if (k >= 0 && slot_of[k] < 0) {
                slot_of[k] = count;
                pick[count++] = k;
            }
            continue;
        }
        if (n->a) stack[top++] = n->a;
        if (n->b) stack[top++] = n->b;
    }
    return count;
}

/* The coefficients of the leaves r reads, as entries (column = leaf position in `leaves`) into
 * ent, their count into *nent; a constant-0 coefficient may be among them (rows_push drops it). */
static nsdae_status affine_over_read(lctx *L, const nsdae_expr *r, const nsdae_leaf *leaves, lag_entry *ent,
                                     int *nent, const nsdae_expr **rest, nsdae_error *e2)
{
    const int nall = L->ndof + L->ncontacts + L->nfric;
    int *pick = malloc((size_t)nall * sizeof *pick), *slot_of = malloc((size_t)nall * sizeof *slot_of);
    nsdae_leaf *sub = malloc((size_t)nall * sizeof *sub);
    const nsdae_expr **sc = malloc((size_t)nall * sizeof *sc);
    nsdae_status st = NSDAE_NOMEM;
    if (pick && slot_of && sub && sc) {
        for (int k = 0; k < nall; k++) slot_of[k] = -1;
        int nr = read_leaves(L, r, pick, slot_of);
        if (nr < 0) { /* too large to walk: over every leaf */
            nr = nall;
            for (int k = 0; k < nall; k++) pick[k] = k;
        }
        for (int k = 0; k < nr; k++) sub[k] = leaves[pick[k]];
        st = nsdae_expr_affine(L->p, r, sub, nr, nsdae_model_var_names(L->m), L->nvars, NULL, 0, sc, rest, e2);
        for (int k = 0; st == NSDAE_OK && k < nr; k++) ent[k] = (lag_entry){pick[k], sc[k]};
        *nent = st == NSDAE_OK ? nr : 0;
    }
    free(pick); free(slot_of); free(sub); free(sc);
    return st;
}

/* Equation q's coefficients: those of the accelerations pushed as the next row of A, those of the
 * multiplier columns as the next row of C, the rest into *rest. ent: scratch of ndof + nm. */
static int decompose(lctx *L, const nsdae_equation *q, const nsdae_leaf *leaves, lag_entry *ent, lag_rows *A,
                     lag_rows *C, const nsdae_expr **rest)
{
    const nsdae_expr *r = nsdae_lag_bind(L, q->residual);
    if (!r) return 0;
    nsdae_error e2;
    int nent = 0;
    nsdae_status st = affine_over_read(L, r, leaves, ent, &nent, rest, &e2);
    if (st == NSDAE_UNSUPPORTED) {
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                       "an equation of motion must be affine in the accelerations der(der(q)) and the contact "
                       "multipliers: %s", e2.message);
        return 0;
    }
    /* accelerations first, then the multiplier columns renumbered from 0 */
    int na = 0;
    for (int k = 0; k < nent; k++)
        if (ent[k].col < L->ndof) {
            lag_entry t = ent[k];
            ent[k] = ent[na];
            ent[na++] = t;
        }
    for (int k = na; k < nent; k++) ent[k].col -= L->ndof;
    if (st != NSDAE_OK || !nsdae_lag_rows_push(A, ent, na) || !nsdae_lag_rows_push(C, ent + na, nent - na)) {
        nsdae_lag_nomem(L);
        return 0;
    }
    char buf[200];
    for (int e = A->ptr[A->nrows - 1]; e < A->ptr[A->nrows]; e++) { /* M(q): no velocities, no time */
        const nsdae_expr *a = A->ent[e].e;
        if (!(a->flags & (NSDAE_EXPR_HAS_VAR | NSDAE_EXPR_HAS_TIME))) continue; /* most of M: constants */
        const char *what = (a->flags & NSDAE_EXPR_HAS_TIME) ? "time" : NULL;
        for (int i = 0; i < L->ndof && !what; i++)
            if (nsdae_expr_max_order(a, L->coord[i]) >= 1) what = nsdae_model_var(L->m, L->coord[i])->name;
        if (!what) continue;
        nsdae_model_print_expr(L->m, a, buf, sizeof buf);
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                       "the coefficient '%s' of der(der(%s)) depends on %s%s%s: the mass matrix must depend on "
                       "the positions only", buf, nsdae_model_var(L->m, L->coord[A->ent[e].col])->name,
                       strcmp(what, "time") ? "der(" : "", what, strcmp(what, "time") ? ")" : "");
        return 0;
    }
    return 1;
}

/* Pairs equations and coordinates; M's rows (L->mass) and C's (*Ci) then in coordinate order, and
 * eq_of_coord kept for the caller. */
static int match(lctx *L, const nsdae_equation **eqs, const lag_rows *A, const lag_rows *C, lag_rows *Ci,
                 int *eq_of_coord)
{
    int r = nsdae_lag_assign(L, A, eq_of_coord);
    if (r < 0)
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, eqs[-1 - r],
                       "no acceleration left for this equation: each coordinate needs its own equation of "
                       "motion in which its der(der(.)) appears (the mass matrix is singular at the start)");
    if (r <= 0 || L->st) return 0;
    for (int j = 0; j < L->ndof; j++) L->motion[j] = eqs[eq_of_coord[j]];
    if (!nsdae_lag_rows_permute(A, eq_of_coord, L->ndof, &L->mass) ||
        !nsdae_lag_rows_permute(C, eq_of_coord, L->ndof, Ci))
        nsdae_lag_nomem(L);
    return !L->st;
}

/* Walks row i of a and row i of b (both sorted by column) together: the next column present in
 * either, with a's and b's entry there (zero when absent); -1 at the end. *ka and *kb advance. */
static int next_pair(const lag_rows *a, const lag_rows *b, int i, int *ka, int *kb, const nsdae_expr *zero,
                     const nsdae_expr **x, const nsdae_expr **y)
{
    int ca = *ka < a->ptr[i + 1] ? a->ent[*ka].col : -1, cb = *kb < b->ptr[i + 1] ? b->ent[*kb].col : -1;
    if (ca < 0 && cb < 0) return -1;
    int col = ca < 0 ? cb : cb < 0 ? ca : ca < cb ? ca : cb;
    *x = ca == col ? a->ent[(*ka)++].e : zero;
    *y = cb == col ? b->ent[(*kb)++].e : zero;
    return col;
}

/* M symmetric (symbolically or at the test points) with a positive diagonal at the start. Row i
 * of M and row i of M^T walked together give M_ij and M_ji for every j where either is not the
 * constant 0, in increasing j as the dense double loop met them. */
static int check_mass(lctx *L, const nsdae_expr *zero)
{
    const int n = L->ndof;
    char b1[160], b2[160];
    lag_rows T;
    if (!nsdae_lag_rows_transpose(&L->mass, n, &T)) {
        nsdae_lag_rows_free(&T);
        nsdae_lag_nomem(L);
        return 0;
    }
    for (int i = 0; i < n && !L->st; i++) {
        const char *xi = nsdae_model_var(L->m, L->coord[i])->name;
        int ka = L->mass.ptr[i], kb = T.ptr[i], j;
        const nsdae_expr *a, *b;
        while ((j = next_pair(&L->mass, &T, i, &ka, &kb, zero, &a, &b)) >= 0) {
            double va = 0, vb = 0;
            if (j <= i || a == b || nsdae_lag_same_values(L, a, b, &va, &vb) == 1) continue;
            nsdae_model_print_expr(L->m, a, b1, sizeof b1);
            nsdae_model_print_expr(L->m, b, b2, sizeof b2);
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, L->motion[i],
                           "the mass matrix is not symmetric: the coefficient of der(der(%s)) in this equation of "
                           "'%s' is '%s', that of der(der(%s)) in the equation of '%s' (%d:%d) is '%s'",
                           nsdae_model_var(L->m, L->coord[j])->name, xi, b1, xi,
                           nsdae_model_var(L->m, L->coord[j])->name, L->motion[j]->pos.line,
                           L->motion[j]->pos.col, b2);
            break;
        }
        const nsdae_expr *d = nsdae_lag_rows_at(&L->mass, i, i);
        double mii = L->st ? 0.0 : nsdae_lag_eval_at(L, d ? d : zero, 0);
        if (!L->st && !(mii > 0.0))
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, L->motion[i],
                           "the coefficient of der(der(%s)) is %g at the start: the mass matrix must be positive "
                           "definite (write the equation as m*der(der(%s)) = forces + contact forces)", xi, mii, xi);
    }
    nsdae_lag_rows_free(&T);
    return !L->st;
}

/* Row i of -C must be row i of G^T (and of T^T for the tangential forces): + (d g_c / d q_i) lambda_c
 * in the equation of q_i. Ci: C's rows in coordinate order; Gt = L->grad^T (rows: coordinates). */
static int check_contact_forces(lctx *L, const lag_rows *Ci, const lag_rows *Gt, const nsdae_expr *zero)
{
    char cb[160], gb[160], gap[160];
    for (int i = 0; i < L->ndof; i++) {
        int ka = Ci->ptr[i], kb = Gt->ptr[i], c;
        const nsdae_expr *ci, *grad;
        while ((c = next_pair(Ci, Gt, i, &ka, &kb, zero, &ci, &grad)) >= 0) { /* both 0 elsewhere */
            const lag_contact *k = &L->contacts[c < L->ncontacts ? c : L->fric[c - L->ncontacts]];
            const nsdae_expr *coef = X_NEG(L->p, ci);
            if (!coef) {
                nsdae_lag_nomem(L);
                return 0;
            }
            double va = NAN, vb = NAN;
            int same = coef == grad ? 1 : nsdae_lag_same_values(L, coef, grad, &va, &vb);
            if (L->st) return 0;
            if (same == 1) continue;
            const int tangential = c >= L->ncontacts;
            const char *x = nsdae_model_var(L->m, L->coord[i])->name;
            const char *l = nsdae_model_var(L->m, nsdae_lag_mult_var(L, c))->name;
            nsdae_model_print_expr(L->m, coef, cb, sizeof cb);
            nsdae_model_print_expr(L->m, grad, gb, sizeof gb);
            nsdae_model_print_expr(L->m, nsdae_lag_mult_function(L, c), gap, sizeof gap);
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, L->motion[i],
                           "the %s '%s' enters the equation of motion of '%s' as (%s)*%s on the right-hand "
                           "side; the Moreau-Jean form M q'' = F + grad g(q)^T lambda%s needs d(%s)/d(%s)*%s = "
                           "(%s)*%s, the %s '%s' being that of the contact at %d:%d%s",
                           tangential ? "tangential force" : "multiplier", l, x, cb, l,
                           tangential ? " + grad s(q)^T f" : "", tangential ? "tangent" : "gap", x, l, gb, l,
                           tangential ? "tangent" : "gap", gap, k->eq->pos.line, k->eq->pos.col,
                           same == 0 && va == -vb ? " (the contact force has the opposite sign)"
                           : same < 0 ? " (they could not be compared: not finite at the test points)" : "");
            return 0;
        }
    }
    return 1;
}

/* The equations of motion in model order, decomposed into A (accelerations), C (multipliers) and
 * rest; matched; M and F in coordinate order; then the two checks. */
int nsdae_lag_motion(lctx *L)
{
    const int n = L->ndof, nc = L->ncontacts + L->nfric; /* multiplier columns */
    int neq = 0;
    for (int k = 0; k < nsdae_model_nequations(L->m); k++)
        if (nsdae_model_equation(L->m, k)->kind == NSDAE_EQ_EQUAL) neq++;
    if (neq != n) {
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, NULL, "%d equations of motion for %d coordinates (the variables used "
                                                   "with der(der(x))): one per coordinate is needed", neq, n);
        return 0;
    }
    lag_rows A = {0}, C = {0}, Ci = {0}, Gt = {0};
    const nsdae_equation **eqs = malloc((size_t)n * sizeof *eqs);
    nsdae_leaf *leaves = malloc((size_t)(n + nc) * sizeof *leaves);
    lag_entry *ent = malloc((size_t)(n + nc) * sizeof *ent);
    const nsdae_expr **rest = malloc((size_t)n * sizeof *rest), *zero = nsdae_expr_const(L->p, 0.0);
    int *eq_of_coord = malloc((size_t)n * sizeof *eq_of_coord);
    if (!eqs || !leaves || !ent || !rest || !zero || !eq_of_coord || !nsdae_lag_rows_init(&A, n) ||
        !nsdae_lag_rows_init(&C, n)) {
        nsdae_lag_nomem(L);
        goto done;
    }
    for (int j = 0; j < n; j++) leaves[j] = (nsdae_leaf){L->coord[j], 2};
    for (int c = 0; c < nc; c++) leaves[n + c] = (nsdae_leaf){nsdae_lag_mult_var(L, c), 0};
    for (int k = 0, row = 0; k < nsdae_model_nequations(L->m) && !L->st; k++) {
        const nsdae_equation *q = nsdae_model_equation(L->m, k);
        if (q->kind != NSDAE_EQ_EQUAL) continue;
        eqs[row] = q;
        if (!decompose(L, q, leaves, ent, &A, &C, &rest[row])) break;
        row++;
    }
    if (L->st || !match(L, eqs, &A, &C, &Ci, eq_of_coord) || !check_mass(L, zero)) goto done;
    for (int i = 0; i < n && !L->st; i++) { /* F in coordinate order */
        L->force[i] = X_NEG(L->p, rest[eq_of_coord[i]]);
        if (!L->force[i]) nsdae_lag_nomem(L);
    }
    if (!L->st && !nsdae_lag_rows_transpose(&L->grad, n, &Gt)) nsdae_lag_nomem(L);
    if (!L->st) check_contact_forces(L, &Ci, &Gt, zero);
done:
    nsdae_lag_rows_free(&A); nsdae_lag_rows_free(&C); nsdae_lag_rows_free(&Ci); nsdae_lag_rows_free(&Gt);
    free(eqs); free(leaves); free(ent); free(rest); free(eq_of_coord);
    return !L->st;
}
