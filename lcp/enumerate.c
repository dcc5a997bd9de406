/* All solutions by enumeration of the 2^m complementarity patterns (no Siconos). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Does z (the caller's units) pass the caller's rows: w = M z + q written to w, then the per-row
 * check (lcp_scaled_violation) to NSDAE_TOL_RESIDUAL. */
static int passes_rows(const nsdae_mlcp *p, const double *dr, const double *dc, const double *z, double *w)
{
    lcp_caller_w(p, z, w);
    return lcp_scaled_violation(p, dr, dc, z, w) <= NSDAE_TOL_RESIDUAL;
}

/* One allocation holds the set, its pieces and their points, so one free releases it. */
static nsdae_lcp_solution_set *set_alloc(int size, int count)
{
    size_t bytes = sizeof(nsdae_lcp_solution_set) + sizeof(nsdae_lcp_piece) * (size_t)count +
                   sizeof(double) * (size_t)size * count;
    nsdae_lcp_solution_set *s = calloc(1, bytes);
    if (!s)
        return NULL;
    s->size = size;
    s->count = count;
    s->pieces = (nsdae_lcp_piece *)(s + 1);
    double *z = (double *)(s->pieces + count);
    for (int i = 0; i < count; i++)
        s->pieces[i].z = z + (size_t)i * size;
    return s;
}

void nsdae_lcp_solution_set_free(nsdae_lcp_solution_set *set)
{
    free(set);
}

nsdae_status lcp_set_from_pieces(int size, const lcp_piece_list *l, long visited, nsdae_lcp_solution_set **out,
                                 nsdae_error *err)
{
    nsdae_lcp_solution_set *s = set_alloc(size, l->n);
    if (!s)
        return nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory for %d pieces", l->n);
    for (int i = 0; i < l->n; i++) {
        s->pieces[i].is_point = l->v[i].dim == 0;
        s->pieces[i].dimension = l->v[i].dim;
        memcpy(s->pieces[i].z, l->v[i].z, sizeof(double) * (size_t)size);
        s->has_continuum |= l->v[i].dim > 0;
    }
    s->patterns_visited = visited;
    *out = s;
    return NSDAE_OK;
}

/* Whether the caller's point z (w its M z + q, scratch zp) solves p row by row (check.c), as it
 * is or re-solved, then written into z: on the pattern z is nearest to, then on the pattern it
 * came from (side), each with rank decided in the caller's units first, then in the pattern
 * system's own (polish.c). A point computed in equilibrated units can carry rounding noise that
 * fails its rows (q = 0 with entries 1e6 next to 1e-7: the solution 0 came back as 1e-13 noise
 * and the enumeration said "no solution" where minimal norm found 0; fuzzing, crash-1312...).
 * In the caller's units the system [0.5 1e-7 1e-7; 1e-7 0 1e14; 0 -0.5 1] was cut to rank 1
 * (relative to 1e14), which left z4 = 0 in place of -3e-21 and dropped the only solution
 * (crash-1091...). And the nearest pattern need not be the point's: z3 in [-1, 0] on the row
 * w3 = 1e6 z3 + 1e-7 is -1e-13 inside its upper end, which z3 = lo + x computes as -1.0003e-13;
 * its w3 = -3e-11 is farther from 0 than z3 from hi, so the nearest pattern put z3 at hi, where
 * w3 = 1e-7 > 0 (crash-ce27...). Its own pattern (w3 = 0) gives z3 = -1e-13. */
static int point_passes(const nsdae_mlcp *p, const double *dr, const double *dc, const int *side, double *z,
                        double *w, double *zp)
{
    if (lcp_scaled_violation(p, dr, dc, z, w) <= NSDAE_TOL_RESIDUAL)
        return 1;
    for (int attempt = 0; attempt < 4; attempt++) {
        int scaled = attempt & 1, f;
        if (attempt < 2) {
            lcp_caller_w(p, z, w);
            f = scaled ? lcp_pattern_point_scaled(p, z, w, zp) : lcp_pattern_point(p, z, w, zp);
        } else {
            f = lcp_pattern_point_given(p, side, z, zp, scaled);
        }
        if (f != 0)
            continue;
        if (passes_rows(p, dr, dc, zp, w)) {
            memcpy(z, zp, sizeof(double) * (size_t)p->size);
            return 1;
        }
    }
    return 0;
}

/* point_passes, then the point kept refined once on its own pattern, the system equilibrated on
 * its own (lcp_polish_scaled: a least-squares correction from the point, so one step of iterative
 * refinement), the refined point taken where it passes too. The check's rounding allowance for a
 * component off its end is normwise (the point's largest term over its column's largest entry),
 * so a point from the equilibrated reduced coordinates can pass with a component off by far more
 * than the rows that determine it allow. crash-449f...: w3 = -1e-5 z2 + 1e-7 = 0 fixes z2 = 0.01
 * exactly, the pattern gave 0.0099983215 (row 2's 1e8 z3 = 1000 sets z2's allowance to 4.3e-6),
 * listed beside 0.010000007 from another pattern, and smaller in norm than the solution. */
static int point_solves(const nsdae_mlcp *p, const double *dr, const double *dc, const int *side, double *z,
                        double *w, double *zp)
{
    if (!point_passes(p, dr, dc, side, z, w, zp))
        return 0;
    if (lcp_polish_scaled(p, z, zp) == 0) {
        if (passes_rows(p, dr, dc, zp, w))
            memcpy(z, zp, sizeof(double) * (size_t)p->size);
    }
    return 1;
}

/* A continuum's representative (scaled z) as it is, or else its piece's minimal-norm point in the
 * caller's units (own_piece.c; its t then re-fitted, z = Z t + z0), on the caller's rows: 1
 * kept (pc->z, pc->t possibly replaced), 0 dropped, -1 out of memory or LAPACK failure. The
 * pattern's rows agree in the equilibrated units only to the residual tolerance there:
 * crash-4de6... (w2 = -1000 z2 - 1e11, z2 in [0, 1], so z2 = 1 at hi) listed the continuum
 * "z2 free, w2 = 0" by (0, 0.5), which solves nothing. The scratch side, z, w, zp: N each. */
static int continuum_solves(const nsdae_mlcp *p, const lcp_std *s, const lcp_reduced *r, const double *dr,
                            const double *dc, double alpha, lcp_piece *pc, int *side, double *z, double *w,
                            double *zp, lcp_arena *ar)
{
    int N = p->size;
    double resid;
    lcp_scale_z_to_caller(N, dc, alpha, pc->z, z);
    if (passes_rows(p, dr, dc, z, w))
        return 1;
    lcp_caller_sides(s, pc->st, side);
    if (!lcp_piece_minimiser(p, NULL, side, zp, NULL, ar))
        return 0;
    if (!passes_rows(p, dr, dc, zp, w))
        return 0;
    for (int j = 0; j < N; j++) {   /* the scaled units of the list (powers of two: exact) */
        pc->z[j] = alpha * zp[j] / dc[j];
        z[j] = pc->z[j] - r->z0[j];
    }
    return r->k == 0 || lcp_lstsq(N, r->k, r->Z, z, pc->t, &resid, NULL) >= 0 ? 1 : -1;
}

/* Keeps only the point pieces (scaled z) that solve the caller's MLCP row by row, each as it is
 * or re-solved on its own pattern (point_solves), before pieces are merged: two patterns of one
 * degenerate solution give two points within NSDAE_TOL_SAME_SOLUTION, and the merge keeps the one
 * of smaller objective, which need not be the one that solves. z in [0, 1] with w = 2 z - 1e-14
 * has the one solution z = 5e-15; the pattern "z at lo" (w = -1e-14, within the sign tolerance of
 * the equilibrated units) gave z = 0, of smaller norm, and the merged point, re-solved on the
 * pattern it is nearest to, stayed there: the only solution was dropped (fuzzing, crash-a26e...).
 * A nearly singular pattern matrix can also pass the sign tests in the
 * equilibrated units and still be no solution: Siconos' Buck converter MLCPs gave a second
 * "solution" with z[20] = -7.5e-6, of the size of every other term of the rows it enters.
 * -1 on out of memory. */
static int keep_solving_points(const nsdae_mlcp *p, const lcp_std *s, const lcp_reduced *r, const double *dr,
                               const double *dc, double alpha, lcp_piece_list *l, lcp_arena *ar)
{
    int N = p->size, kept = 0;
    double *w = malloc(sizeof(double) * 3 * (size_t)N), *z = w + N, *zp = z + N;
    int *side = malloc(sizeof(int) * (size_t)N);
    if (!w || !side) {
        free(w);
        free(side);
        return -1;
    }
    for (int i = 0; i < l->n; i++) {
        lcp_piece pc = l->v[i];
        if (pc.dim == 0) {
            lcp_scale_z_to_caller(N, dc, alpha, pc.z, z);
            lcp_caller_w(p, z, w);
            lcp_caller_sides(s, pc.st, side);
            if (!point_solves(p, dr, dc, side, z, w, zp))
                continue;
            for (int j = 0; j < N; j++)   /* back to the scaled units (powers of two: exact) */
                pc.z[j] = alpha * z[j] / dc[j];
        } else {
            int ok = continuum_solves(p, s, r, dr, dc, alpha, &pc, side, z, w, zp, ar);
            if (ok < 0) {
                free(w);
                free(side);
                return -1;
            }
            if (!ok)
                continue;
        }
        l->v[kept++] = pc;
    }
    l->n = kept;
    free(w);
    free(side);
    return 0;
}

/* Lists the point zs (scaled units) of pattern pat as a piece of dimension dim whose directions
 * are not known here (D = 0: the merge compares it by its point), t its least-squares
 * coordinates (z = Z t + z0) and fval the objective fo. -1 on out of memory. */
static int push_own_piece(const lcp_reduced *r, const signed char *pat, const double *zs, int dim, double fo,
                          lcp_piece_list *l, lcp_arena *ar)
{
    int N = r->size, k = r->k;
    lcp_piece pc = {0};
    double *dz = lcp_arena_doubles(ar, (size_t)N), resid;
    pc.st = lcp_arena_alloc(ar, (size_t)r->m + 1);
    pc.t = lcp_arena_doubles(ar, (size_t)k + 1);
    pc.z = lcp_arena_doubles(ar, (size_t)N);
    pc.D = lcp_arena_doubles(ar, (size_t)k * dim + 1);
    if (ar->failed)
        return -1;
    memcpy(pc.st, pat, (size_t)r->m);
    memcpy(pc.z, zs, sizeof(double) * (size_t)N);
    for (int j = 0; j < N; j++)
        dz[j] = zs[j] - r->z0[j];
    if (k > 0 && lcp_lstsq(N, k, r->Z, dz, pc.t, &resid, NULL) < 0)
        return -1;
    pc.dim = dim;
    pc.fval = fo;
    return lcp_piece_list_push(l, &pc) ? -1 : 0;
}

/* Where no pattern gave a solution: each pattern decided on the caller's own data by the exact LP
 * (lp_exact.c), and a pattern that has a solution there listed by its piece's minimal-norm point
 * (or the point its rows determine), checked as every point is; *unverified set where a feasible
 * pattern gave no point that passes. The patterns' sign tests in the equilibrated units had
 * rejected them: 25 of the 30 open fuzz inputs whose enumeration was empty beside minimal norm's
 * verified solution found no piece at all. -1 on out of memory. */
static int exact_points(const nsdae_mlcp *p, const lcp_std *s, const lcp_reduced *r, const double *dr,
                        const double *dc, double alpha, signed char *pat, lcp_piece_list *l, int *unverified,
                        lcp_arena *ar)
{
    int N = p->size;
    int *side = lcp_arena_alloc(ar, sizeof(int) * (size_t)N);
    double *z = lcp_arena_doubles(ar, (size_t)N), *zp = lcp_arena_doubles(ar, (size_t)N),
           *w = lcp_arena_doubles(ar, (size_t)N);
    if (ar->failed)
        return -1;
    for (unsigned long long mask = 0; mask < 1ULL << r->m; mask++) {
        for (int i = 0; i < r->m; i++)
            pat[i] = (mask >> i) & 1 ? LCP_V0 : LCP_R0;
        lcp_caller_sides(s, pat, side);
        if (lcp_pattern_feasible_exact(p, side, z) != 1)
            continue;
        /* the piece's minimal-norm point and dimension (own_piece.c), else the point its rows
         * determine: crash-032c... (q = 0) is the plane (0, 0, 0, z4, z5), z4 and z5 in no
         * row, which no determined point stands for, and the list was empty */
        int dim = 0, ok = lcp_piece_minimiser(p, NULL, side, zp, &dim, ar) && passes_rows(p, dr, dc, zp, w);
        if (!ok) {
            dim = 0;
            ok = lcp_pattern_point_determined(p, side, z, zp) == 0 && passes_rows(p, dr, dc, zp, w);
        }
        if (!ok) {
            *unverified = 1;   /* a solution exists; none of its points passed here */
            continue;
        }
        double fo = 0;
        for (int j = 0; j < N; j++) {   /* the scaled units of the list (powers of two: exact) */
            fo += 0.5 * zp[j] * zp[j];
            zp[j] = alpha * zp[j] / dc[j];
        }
        if (push_own_piece(r, pat, zp, dim, fo, l, ar))
            return -1;
    }
    return 0;
}

/* A pattern whose piece the reduced coordinates could not examine (lcp_piece_examine failed):
 * its piece minimised in the scaled problem's own coordinates (own_piece.c) and listed with that
 * point once it passes the caller's rows, or skipped where the exact LP finds it empty (as
 * minimal norm's leaves, minnorm.c). Its directions are not known here: D is zero, so the merge
 * compares it by its point. 1 decided, 0 not, -1 out of memory. */
static int own_coordinates_piece(const nsdae_mlcp *p, const nsdae_mlcp *ps, const lcp_std *s, const lcp_reduced *r,
                                 const nsdae_minnorm_spec *sspec, const double *dr, const double *dc, double alpha,
                                 const signed char *pat, lcp_piece_list *l, lcp_arena *ar)
{
    int N = p->size, dim = 0;
    int *side = lcp_arena_alloc(ar, sizeof(int) * (size_t)N);
    double *zn = lcp_arena_doubles(ar, (size_t)N), *zc = lcp_arena_doubles(ar, (size_t)N),
           *w = lcp_arena_doubles(ar, (size_t)N);
    if (ar->failed)
        return -1;
    lcp_caller_sides(s, pat, side);
    if (!lcp_piece_minimiser(ps, sspec, side, zn, &dim, ar))
        return lcp_pattern_feasible_exact(p, side, NULL) == 0;
    lcp_scale_z_to_caller(N, dc, alpha, zn, zc);
    if (!passes_rows(p, dr, dc, zc, w))
        return lcp_pattern_feasible_exact(p, side, NULL) == 0;
    return push_own_piece(r, pat, zn, dim, lcp_objective_at_z(sspec, N, zn, zc), l, ar) ? -1 : 1;
}

/* An empty list is said only where every pattern's rejection was certain (lcp.h, the contract):
 * above the spread bound a pattern can be consistent by an entry below another's rounding. */
static nsdae_status uncertain_empty(nsdae_error *err)
{
    return nsdae_error_set(err, NSDAE_NUMERICAL,
                           "enumerate: no solution found, but the data's scales spread beyond 2^%g in any units: "
                           "not certain", NSDAE_SPREAD_MAX_LOG2);
}

nsdae_status nsdae_lcp_enumerate(const nsdae_mlcp *p, nsdae_lcp_solution_set **out, nsdae_error *err)
{
    if (!out)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "enumerate: out is NULL");
    *out = NULL;
    nsdae_status st = nsdae_mlcp_validate(p, err);
    if (st)
        return st;
    lcp_arena ar = {0};
    lcp_std s;
    lcp_reduced r;
    lcp_objective o;
    lcp_qp_ws ws;
    lcp_piece_list list = {0};
    long visited = 0;
    /* equilibrated first (scale.c), like the selection: rank and sign decisions are then
     * relative to the data; the pieces are mapped back at the end */
    int N = p->size, has_box = p->lo && p->hi;
    double *dr = lcp_arena_doubles(&ar, (size_t)N), *dc = lcp_arena_doubles(&ar, (size_t)N);
    double *Ms = lcp_arena_doubles(&ar, (size_t)N * N), *qs = lcp_arena_doubles(&ar, (size_t)N);
    double *los = lcp_arena_doubles(&ar, (size_t)N), *his = lcp_arena_doubles(&ar, (size_t)N);
    if (ar.failed) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
        goto done;
    }
    lcp_scale_factors(N, p->M, dr, dc);
    lcp_scale_matrix(N, p->M, dr, dc, Ms);
    double alpha = lcp_scale_rhs(p, dr, dc, qs, los, his);
    nsdae_mlcp ps = {N, Ms, qs, p->kind, has_box ? los : NULL, has_box ? his : NULL};
    if ((st = lcp_std_build(&ps, &ar, &s, err)))
        goto done;
    if (s.m > NSDAE_LCP_ENUM_MAX_M) {
        st = nsdae_error_set(err, NSDAE_LIMIT,
                             "enumerate: %d complementarity rows (after box conversion) exceed the limit %d", s.m,
                             NSDAE_LCP_ENUM_MAX_M);
        goto done;
    }
    st = lcp_reduce(&s, &ar, &r, err);
    if (st == NSDAE_NO_SOLUTION) {   /* inconsistent equalities: the solution set is empty */
        nsdae_error_clear(err);
        if (lcp_spread_exceeds(p, NSDAE_SPREAD_MAX_LOG2)) {
            st = uncertain_empty(err);
            goto done;
        }
        /* the elimination decides rank at NSDAE_TOL_RANK: an equality block of true rank 3 whose
         * third singular value is 1e-13 of the first (crash-daa2...: rows -0.5 (z1 + z2) +
         * 1e-7 z4 and the same + 1e-7 (z3 + 1)) read as rank 2 and inconsistent, and the list
         * was empty beside minimal norm's solution. Empty only where the exact LP agrees. */
        if (lcp_equalities_feasible_exact(p) != 0) {
            st = nsdae_error_set(err, NSDAE_NUMERICAL,
                                 "enumerate: the equality rows read as inconsistent at the rank tolerance, but the "
                                 "exact LP finds them consistent: too ill-conditioned to enumerate");
            goto done;
        }
        st = lcp_set_from_pieces(p->size, &list, 0, out, err);
        goto done;
    }
    if (st)
        goto done;
    /* a continuum is reported by its minimal-norm point in the caller's z: the norm mapped to
     * the scaled variables */
    nsdae_minnorm_spec sspec;
    double fscale, *zref_s = lcp_arena_doubles(&ar, (size_t)N), *Q_s = lcp_arena_doubles(&ar, (size_t)N * N);
    int *sel_s = lcp_arena_alloc(&ar, sizeof(int) * (size_t)N);
    if (ar.failed) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
        goto done;
    }
    if ((st = lcp_scale_spec(N, dc, alpha, NULL, zref_s, sel_s, Q_s, &sspec, &fscale, err)) ||
        (st = lcp_objective_build(&r, &sspec, &ar, &o, err)))
        goto done;
    if (lcp_qp_ws_init(&ws, &r, 0, &ar)) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
        goto done;
    }
    signed char *pat = lcp_arena_alloc(&ar, (size_t)r.m + 1);
    if (!pat) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
        goto done;
    }
    unsigned long long npat = 1ULL << r.m;
    for (unsigned long long mask = 0; mask < npat; mask++) {
        for (int i = 0; i < r.m; i++)
            pat[i] = (mask >> i) & 1 ? LCP_V0 : LCP_R0;
        lcp_piece pc;
        int f = lcp_piece_examine(&r, pat, &o, &pc, &ws, &ar);
        visited++;
        if (f < 0) {
            int own = own_coordinates_piece(p, &ps, &s, &r, &sspec, dr, dc, alpha, pat, &list, &ar);
            if (own < 0) {
                st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
                goto done;
            }
            if (own == 0) {
                st = nsdae_error_set(err, NSDAE_NUMERICAL, "enumerate: linear algebra failed on pattern %llu", mask);
                goto done;
            }
            continue;
        }
        if (f == 1 && lcp_piece_list_push(&list, &pc)) {
            st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
            goto done;
        }
    }
    if (keep_solving_points(p, &s, &r, dr, dc, alpha, &list, &ar)) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
        goto done;
    }
    /* not beyond the spread bound, where an empty list is refused anyway: GLPK's rationals for
     * entries 1e-14 to 1e9 took 140 ms a pattern, 36 s for 256 (fuzzing, timeout-d8e6...) */
    int exact = list.n == 0 && r.m <= LCP_EXACT_EMPTY_MAX_M && !lcp_spread_exceeds(p, NSDAE_SPREAD_MAX_LOG2);
    int unverified = 0;
    if (exact && exact_points(p, &s, &r, dr, dc, alpha, pat, &list, &unverified, &ar)) {
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
        goto done;
    }
    /* an empty list beside a pattern that has a solution in exact arithmetic is not the set
     * (crash-6e08...: (2.5e9, 5e12 + 2, -1, 2.5, 1e16 + 7000) fails the far-point test) */
    if (list.n == 0 && unverified) {
        st = nsdae_error_set(err, NSDAE_NUMERICAL,
                             "enumerate: a pattern has a solution in exact arithmetic, but no point of it passes the "
                             "rows' check: too ill-conditioned");
        goto done;
    }
    /* a continuum's representative lies on it within the sign tolerance: not checked */
    lcp_piece_list_merge(&r, &list, &ws);
    if (list.n == 0 && lcp_spread_exceeds(p, NSDAE_SPREAD_MAX_LOG2)) {
        st = uncertain_empty(err);
        goto done;
    }
    st = lcp_set_from_pieces(p->size, &list, visited, out, err);
    if (!st)
        for (int i = 0; i < (*out)->count; i++)
            lcp_scale_z_to_caller(N, dc, alpha, (*out)->pieces[i].z, (*out)->pieces[i].z);
done:
    if (!st && ar.failed)
        st = nsdae_error_set(err, NSDAE_NOMEM, "enumerate: out of memory");
    lcp_piece_list_free(&list);
    lcp_arena_free(&ar);
    return st;
}
