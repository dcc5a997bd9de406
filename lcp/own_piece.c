/* The objective's minimum over the answer's own piece, in the caller's units.
 *
 * Why: the branch and bound minimises in M's equilibrated units, where the objective 1/2 |z|^2
 * weighs each variable by its column factor squared. Those weights can be 1e22 apart: in
 * fuzzing's crash-74e9... (q = 0, row 1 an equality 1e-7 z1 + 1e6 z2 = 0, z4 in [-1, 0] in no
 * row) z1's weight is 2.4e22 and z4's 1, so the leaf QPs could not resolve z4's part of the
 * objective (1e-4 next to terms of 2.4e22) and answered z4 = -0.5, the middle of its box, where
 * z = 0 solves. The answer's pattern is right, only its point within the piece is not. In the
 * caller's units the piece's objective is the norm itself; the equalities, balanced by Ruiz's
 * iteration, are eliminated by least squares, and the QP in their null space is solved by its
 * KKT conditions on each set of active rows (face_qp.c), for a few sign rows only.
 * The new point replaces the answer only where it passes the caller's rows (lcp/check.c) and its
 * objective is lower. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OWN_PIECE_MAX_ROWS = 12 };   /* face_qp's bound: 2^12 tries */

/* One sign row, a'z + b >= 0 over the free components (a: nf), moved to y (z_F = u0 + Nn y) and
 * balanced to a largest entry of 1 in (a'Nn, a'u0 + b): G row c, h_c. */
static void sign_row(int nf, int d, int mi, const double *a, double b, const double *u0, const double *Nn, double *G,
                     double *h, int c)
{
    double hc = b + lcp_dot(nf, a, 1, u0, 1), big = fabs(hc);
    for (int e = 0; e < d; e++) {
        G[c + (size_t)e * mi] = lcp_dot(nf, a, 1, Nn + (size_t)e * nf, 1);
        big = fmax(big, fabs(G[c + (size_t)e * mi]));
    }
    double f = big > 0 ? 1 / big : 1;
    for (int e = 0; e < d; e++)
        G[c + (size_t)e * mi] *= f;
    h[c] = hc * f;
}

int lcp_own_piece_minimiser(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, const double *z, const double *w,
                            double *zn, lcp_arena *ar)
{
    int *side = lcp_arena_alloc_uninit(ar, sizeof(int) * ((size_t)p->size + 1));
    if (!side)
        return 0;
    lcp_pattern_sides(p, z, w, side);
    /* a row at a corner (z_i at its end with w_i = 0) lies on the piece where w_i = 0 and z_i is
     * free within its ends: fuzzing's crash-bdc2... answered z5 = -0.5 at lo with w5 = 2 z1 = 0,
     * where z5 = 0 solves too */
    for (int i = 0; i < p->size; i++)
        if (abs(side[i]) == 2)
            side[i] = 0;
    return lcp_piece_minimiser(p, spec, side, zn, NULL, ar);
}

int lcp_piece_minimiser(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, const int *side, double *zn, int *dim,
                        lcp_arena *ar)
{
    int N = p->size, kp = spec && spec->k > 0 ? spec->k : N;
    size_t n = (size_t)N;
    int *fr = lcp_arena_alloc_uninit(ar, sizeof(int) * (n + 1)), found = 0;
    double *buf = lcp_arena_doubles_uninit(
        ar, 4 * n * n + 13 * n + (size_t)kp * (n + 2) + 2 * OWN_PIECE_MAX_ROWS * (n + 1));
    if (!fr || !buf)
        goto done;
    double *A = buf, *b = A + n * n, *u0 = b + n, *Nn = u0 + n, *y = Nn + n * n + 2 * n,
           *S = y + n, *c = S + (size_t)kp * n, *Hy = c + kp, *gy = Hy + n * n, *t = gy + n, *G = t + n + kp,
           *h = G + OWN_PIECE_MAX_ROWS * n, *scratch = h + OWN_PIECE_MAX_ROWS, *SN = scratch + n,
           *z = SN + (size_t)kp * n;
    for (int i = 0; i < N; i++)   /* the fixed components at their ends */
        z[i] = side[i] < 0 ? (p->kind && p->kind[i] == NSDAE_ROW_BOX ? p->lo[i] : 0.0) : side[i] > 0 ? p->hi[i] : 0.0;
    int nf = 0, ne = 0, mi = 0;
    for (int i = 0; i < N; i++)
        if (side[i] == 0)
            fr[nf++] = i;
    /* the sign rows: a free component's ends, a fixed one's w */
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (side[i] == 0 && k != NSDAE_ROW_EQUALITY)
            mi += k == NSDAE_ROW_BOX ? isfinite(p->lo[i]) + isfinite(p->hi[i]) : 1;
        else if (side[i] != 0)
            mi++;
    }
    if (nf == 0 || mi > OWN_PIECE_MAX_ROWS)
        goto done;
    /* the rows that vanish, over the free components: z_F = u0 + Nn y */
    for (int i = 0; i < N; i++) {
        if (side[i] != 0)
            continue;
        double rhs = -p->q[i];
        for (int j = 0; j < N; j++)
            if (side[j] != 0)
                rhs -= p->M[i + (size_t)j * n] * z[j];
        for (int e = 0; e < nf; e++)
            A[ne + (size_t)e * n] = p->M[i + (size_t)fr[e] * n];
        b[ne++] = rhs;
    }
    for (int e = 1; e < nf; e++)   /* lcp_lstsq reads A with leading dimension ne */
        memmove(A + (size_t)e * ne, A + (size_t)e * n, sizeof(double) * (size_t)ne);
    /* balanced first (Ruiz): the rows [1e6 0 -1e-6; 1e6 1 -1; -1 -1 1] of crash-091a... (open)
     * have determinant 1 - 1e-6 but singular values down to 1e-18 of the largest as they are */
    double resid, *dc = scratch;
    lcp_equilibrate_ruiz(ne, nf, A, b, dc);
    /* a square system of good condition (the usual unique point, d = 0) by LU, as polish.c's
     * pattern_solve: the SVD was half of this function's cost on Siconos' lcp_trivial */
    int *ipiv = lcp_arena_alloc_uninit(ar, sizeof(int) * n), rank;
    if (!ipiv)
        goto done;
    if (ne == nf && lcp_solve_square(nf, A, b, u0, Hy, ipiv) == 0)
        rank = nf;
    else if ((rank = ne > 0 ? lcp_lstsq(ne, nf, A, b, u0, &resid, Nn) : 0) < 0)
        goto done;
    /* entries at the rounding of the balanced solve are zeros: a component that the rows fix at 0
     * (crash-eb99...: z3 = z4 = 0 on the piece, both at a corner) came out as u0 = 1.9e-22 and
     * -6.3e-23 with null-space entries -7.9e-14 and 1.4e-14, and balanced to unit rows, its sign
     * rows said y <= 2.4e-9 and y >= 4.4e-9: an empty piece. Nn's columns are orthonormal here. */
    double umax = 0;
    for (int e = 0; e < nf && ne > 0; e++)
        umax = fmax(umax, fabs(u0[e]));
    for (int e = 0; e < nf && ne > 0; e++) {
        if (fabs(u0[e]) <= NSDAE_TOL_RANK * umax)
            u0[e] = 0;
        for (int c = 0; c < nf - rank; c++)
            if (fabs(Nn[e + (size_t)c * nf]) <= NSDAE_TOL_RANK)
                Nn[e + (size_t)c * nf] = 0;
    }
    for (int e = 0; e < nf && ne > 0; e++) {   /* back to z: z_F = dc (u0 + Nn y) */
        u0[e] *= dc[e];
        for (int c = 0; c < nf - rank; c++)
            Nn[e + (size_t)c * nf] *= dc[e];
    }
    if (ne == 0) {   /* no row vanishes: every free direction is open */
        memset(u0, 0, sizeof(double) * (size_t)nf);
        memset(Nn, 0, sizeof(double) * (size_t)nf * nf);
        for (int e = 0; e < nf; e++)
            Nn[e + (size_t)e * nf] = 1;
    }
    /* d = 0: the piece is the pattern's point, which the equilibrated units can miss by more than
     * the rows' tolerance shows */
    int d = nf - rank;
    /* G y + h >= 0 */
    int row = 0;
    for (int i = 0; i < N; i++) {
        nsdae_row_kind k = p->kind ? p->kind[i] : NSDAE_ROW_COMPLEMENTARITY;
        if (side[i] == 0 && k != NSDAE_ROW_EQUALITY) {
            int e = 0;
            while (fr[e] != i)
                e++;
            memset(scratch, 0, sizeof(double) * (size_t)nf);
            scratch[e] = 1;
            if (k != NSDAE_ROW_BOX || isfinite(p->lo[i]))   /* z_i - lo >= 0 */
                sign_row(nf, d, mi, scratch, k == NSDAE_ROW_BOX ? -p->lo[i] : 0, u0, Nn, G, h, row++);
            if (k == NSDAE_ROW_BOX && isfinite(p->hi[i])) {   /* hi - z_i >= 0 */
                scratch[e] = -1;
                sign_row(nf, d, mi, scratch, p->hi[i], u0, Nn, G, h, row++);
            }
        } else if (side[i] != 0) {   /* w_i >= 0 at a lower end, <= 0 at hi */
            double sg = side[i] < 0 ? 1 : -1, w0 = p->q[i];
            for (int j = 0; j < N; j++)
                if (side[j] != 0)
                    w0 += p->M[i + (size_t)j * n] * z[j];
            for (int e = 0; e < nf; e++)
                scratch[e] = sg * p->M[i + (size_t)fr[e] * n];
            sign_row(nf, d, mi, scratch, sg * w0, u0, Nn, G, h, row++);
        }
    }
    /* the objective 1/2 |S z_F + c|_Q^2, S (kp x nf) the selected free components, c the rest */
    for (int a = 0; a < kp; a++) {
        int j = spec && spec->k > 0 ? spec->select[a] : a;
        c[a] = (side[j] != 0 ? z[j] : 0.0) - (spec && spec->z_ref ? spec->z_ref[j] : 0.0);
        for (int e = 0; e < nf; e++)
            S[a + (size_t)e * kp] = fr[e] == j;
    }
    for (int a = 0; a < kp; a++) {   /* SN = S Nn (kp x d), t = S u0 + c */
        for (int e = 0; e < d; e++)
            SN[a + (size_t)e * kp] = lcp_dot(nf, S + a, kp, Nn + (size_t)e * nf, 1);
        t[a] = lcp_dot(nf, S + a, kp, u0, 1) + c[a];
    }
    const double *Q = spec && spec->k > 0 ? spec->Q : NULL;
    for (int e = 0; e < d; e++) {
        for (int a = 0; a < kp; a++)   /* scratch = Q SN_e */
            scratch[a] = Q ? lcp_dot(kp, Q + a, kp, SN + (size_t)e * kp, 1) : SN[a + (size_t)e * kp];
        for (int f = 0; f < d; f++)
            Hy[f + (size_t)e * d] = lcp_dot(kp, SN + (size_t)f * kp, 1, scratch, 1);
        gy[e] = lcp_dot(kp, t, 1, scratch, 1);
    }
    if (d > 0 && lcp_face_qp(d, mi, Hy, gy, G, h, NSDAE_TOL_SIGN, y, ar) != 0)
        goto done;
    memcpy(zn, z, sizeof(double) * n);   /* the fixed components exactly at their ends */
    for (int e = 0; e < nf; e++)
        zn[fr[e]] = u0[e] + lcp_dot(d, Nn + e, nf, y, 1);
    if (dim)
        *dim = d;
    found = 1;
done:
    return found;
}

int lcp_minimise_on_own_piece(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, const double *cmax,
                              const double *rsum, double *z, double *w, lcp_arena *ar)
{
    int N = p->size;
    double *zn = lcp_arena_doubles_uninit(ar, 3 * (size_t)N), *wn = zn + N, *scratch = wn + N;
    if (!zn || !lcp_own_piece_minimiser(p, spec, z, w, zn, ar))
        return 0;
    double f_old = lcp_objective_at_z(spec, N, z, scratch), f_new = lcp_objective_at_z(spec, N, zn, scratch);
    if (!(f_new < f_old - NSDAE_TOL_OBJECTIVE * fabs(f_old)))
        return 0;
    if (!(lcp_checked_violation_w(p, cmax, rsum, zn, wn) <= NSDAE_TOL_RESIDUAL))
        return 0;
    memcpy(z, zn, sizeof(double) * (size_t)N);
    memcpy(w, wn, sizeof(double) * (size_t)N);
    return 1;
}
