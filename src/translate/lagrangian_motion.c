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

/* The coefficients of one equation: coef gets those of the ndof accelerations, then those of the
 * multiplier columns (the ncontacts normal multipliers, then the nfric tangential forces). */
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

static nsdae_status affine_over_read(lctx *L, const nsdae_expr *r, const nsdae_leaf *leaves,
                                     const nsdae_expr **coef, const nsdae_expr **rest, nsdae_error *e2)
{
    const int nall = L->ndof + L->ncontacts + L->nfric;
    int *pick = malloc((size_t)nall * sizeof *pick), *slot_of = malloc((size_t)nall * sizeof *slot_of);
    nsdae_leaf *sub = malloc((size_t)nall * sizeof *sub);
    const nsdae_expr **sc = malloc((size_t)nall * sizeof *sc), *zero = nsdae_expr_const(L->p, 0.0);
    nsdae_status st = NSDAE_NOMEM;
    if (pick && slot_of && sub && sc && zero) {
        for (int k = 0; k < nall; k++) slot_of[k] = -1;
        int nr = read_leaves(L, r, pick, slot_of);
        if (nr < 0) {
            st = nsdae_expr_affine(L->p, r, leaves, nall, nsdae_model_var_names(L->m), L->nvars, NULL, 0, coef,
                                   rest, e2);
        } else {
            for (int k = 0; k < nr; k++) sub[k] = leaves[pick[k]];
            st = nsdae_expr_affine(L->p, r, sub, nr, nsdae_model_var_names(L->m), L->nvars, NULL, 0, sc, rest, e2);
            for (int k = 0; st == NSDAE_OK && k < nall; k++) coef[k] = slot_of[k] >= 0 ? sc[slot_of[k]] : zero;
        }
    }
    free(pick); free(slot_of); free(sub); free(sc);
    return st;
}

static int decompose(lctx *L, const nsdae_equation *q, const nsdae_leaf *leaves, const nsdae_expr **coef,
                     const nsdae_expr **rest)
{
    const nsdae_expr *r = nsdae_lag_bind(L, q->residual);
    if (!r) return 0;
    nsdae_error e2;
    nsdae_status st = affine_over_read(L, r, leaves, coef, rest, &e2);
    if (st == NSDAE_UNSUPPORTED) {
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                       "an equation of motion must be affine in the accelerations der(der(q)) and the contact "
                       "multipliers: %s", e2.message);
        return 0;
    }
    if (st != NSDAE_OK) {
        nsdae_lag_nomem(L);
        return 0;
    }
    char buf[200];
    for (int j = 0; j < L->ndof; j++) { /* M(q): no velocities, no time */
        const nsdae_expr *a = coef[j];
        if (!(a->flags & (NSDAE_EXPR_HAS_VAR | NSDAE_EXPR_HAS_TIME))) continue; /* most of M: constants */
        const char *what = (a->flags & NSDAE_EXPR_HAS_TIME) ? "time" : NULL;
        for (int i = 0; i < L->ndof && !what; i++)
            if (nsdae_expr_max_order(a, L->coord[i]) >= 1) what = nsdae_model_var(L->m, L->coord[i])->name;
        if (!what) continue;
        nsdae_model_print_expr(L->m, a, buf, sizeof buf);
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, q,
                       "the coefficient '%s' of der(der(%s)) depends on %s%s%s: the mass matrix must depend on "
                       "the positions only", buf, nsdae_model_var(L->m, L->coord[j])->name,
                       strcmp(what, "time") ? "der(" : "", what, strcmp(what, "time") ? ")" : "");
        return 0;
    }
    return 1;
}

static int match(lctx *L, const nsdae_equation **eqs, const nsdae_expr **A)
{
    int *eq_of_coord = malloc((size_t)L->ndof * sizeof *eq_of_coord);
    if (!eq_of_coord) {
        nsdae_lag_nomem(L);
        return 0;
    }
    int r = nsdae_lag_assign(L, A, eq_of_coord);
    if (r < 0)
        nsdae_lag_fail(L, NSDAE_UNSUPPORTED, eqs[-1 - r],
                       "no acceleration left for this equation: each coordinate needs its own equation of "
                       "motion in which its der(der(.)) appears (the mass matrix is singular at the start)");
    for (int j = 0; j < L->ndof && r > 0; j++) {
        int k = eq_of_coord[j];
        L->motion[j] = eqs[k];
        for (int i = 0; i < L->ndof; i++) L->mass[j + (size_t)i * L->ndof] = A[(size_t)k * L->ndof + i];
    }
    free(eq_of_coord);
    return r > 0 && !L->st;
}

/* M symmetric (symbolically or at the test points) with a positive diagonal at the start. */
static int check_mass(lctx *L)
{
    const int n = L->ndof;
    char b1[160], b2[160];
    for (int i = 0; i < n; i++) {
        const char *xi = nsdae_model_var(L->m, L->coord[i])->name;
        for (int j = i + 1; j < n; j++) {
            const nsdae_expr *a = L->mass[i + (size_t)j * n], *b = L->mass[j + (size_t)i * n];
            double va = 0, vb = 0;
            if (a == b || nsdae_lag_same_values(L, a, b, &va, &vb) == 1) continue;
            nsdae_model_print_expr(L->m, a, b1, sizeof b1);
            nsdae_model_print_expr(L->m, b, b2, sizeof b2);
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, L->motion[i],
                           "the mass matrix is not symmetric: the coefficient of der(der(%s)) in this equation of "
                           "'%s' is '%s', that of der(der(%s)) in the equation of '%s' (%d:%d) is '%s'",
                           nsdae_model_var(L->m, L->coord[j])->name, xi, b1, xi,
                           nsdae_model_var(L->m, L->coord[j])->name, L->motion[j]->pos.line,
                           L->motion[j]->pos.col, b2);
            return 0;
        }
        double mii = nsdae_lag_eval_at(L, L->mass[i + (size_t)i * n], 0);
        if (L->st) return 0;
        if (!(mii > 0.0)) {
            nsdae_lag_fail(L, NSDAE_UNSUPPORTED, L->motion[i],
                           "the coefficient of der(der(%s)) is %g at the start: the mass matrix must be positive "
                           "definite (write the equation as m*der(der(%s)) = forces + contact forces)", xi, mii, xi);
            return 0;
        }
    }
    return 1;
}

static int is_zero(const nsdae_expr *e) { return e->kind == NSDAE_EXPR_CONST && e->value == 0.0; }

/* Row i of -C must be row i of G^T (and of T^T for the tangential forces): + (d g_c / d q_i) lambda_c
 * in the equation of q_i. nm multiplier columns. */
static int check_contact_forces(lctx *L, const nsdae_expr **C, int nm)
{
    char cb[160], gb[160], gap[160];
    for (int i = 0; i < L->ndof; i++)
        for (int c = 0; c < nm; c++) {
            const lag_contact *k = &L->contacts[c < L->ncontacts ? c : L->fric[c - L->ncontacts]];
            const nsdae_expr *ci = C[(size_t)i * nm + c], *grad = nsdae_lag_mult_grad(L, c)[i];
            if (is_zero(ci) && is_zero(grad)) continue; /* most pairs: no force, no gradient */
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
    return 1;
}

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
    const nsdae_equation **eqs = malloc((size_t)n * sizeof *eqs);
    nsdae_leaf *leaves = malloc((size_t)(n + nc) * sizeof *leaves);
    const nsdae_expr **coef = malloc((size_t)(n + nc) * sizeof *coef);
    const nsdae_expr **A = malloc((size_t)n * n * sizeof *A), **C = malloc(((size_t)n * nc + 1) * sizeof *C);
    const nsdae_expr **rest = malloc((size_t)n * sizeof *rest);
    const nsdae_expr **Ci = malloc(((size_t)n * nc + 1) * sizeof *Ci); /* C with rows in coordinate order */
    if (!eqs || !leaves || !coef || !A || !C || !rest || !Ci) {
        nsdae_lag_nomem(L);
        goto done;
    }
    for (int j = 0; j < n; j++) leaves[j] = (nsdae_leaf){L->coord[j], 2};
    for (int c = 0; c < nc; c++) leaves[n + c] = (nsdae_leaf){nsdae_lag_mult_var(L, c), 0};
    for (int k = 0, row = 0; k < nsdae_model_nequations(L->m) && !L->st; k++) {
        const nsdae_equation *q = nsdae_model_equation(L->m, k);
        if (q->kind != NSDAE_EQ_EQUAL) continue;
        eqs[row] = q;
        if (!decompose(L, q, leaves, coef, &rest[row])) break;
        memcpy(A + (size_t)row * n, coef, (size_t)n * sizeof *coef);
        memcpy(C + (size_t)row * nc, coef + n, (size_t)nc * sizeof *coef);
        row++;
    }
    if (L->st || !match(L, eqs, A) || !check_mass(L)) goto done;
    /* rows of C and rest follow the matching: equation of coordinate i */
    for (int i = 0; i < n; i++) {
        int row = 0;
        while (eqs[row] != L->motion[i]) row++;
        memcpy(Ci + (size_t)i * nc, C + (size_t)row * nc, (size_t)nc * sizeof *Ci);
        L->force[i] = X_NEG(L->p, rest[row]);
        if (!L->force[i]) nsdae_lag_nomem(L);
    }
    if (!L->st) check_contact_forces(L, Ci, nc);
done:
    free(eqs); free(leaves); free(coef); free(A); free(C); free(rest); free(Ci);
    return !L->st;
}
