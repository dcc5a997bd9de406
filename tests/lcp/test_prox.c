/* The proximal point QP solver (lcp/prox.c) on convex QPs whose minimiser is found by hand, with
 * a singular Hessian, duplicated (rank-deficient) constraint rows and an objective whose first
 * proximal step lands on another support than the answer's, so that the warm support's signs
 * fail and Lemke takes over mid-run; and on strictly convex random QPs against a brute force
 * written here (every active set's KKT system, the one whose point is feasible and whose
 * multipliers are nonnegative), each with Lemke as the only repair of a failed support and with
 * principal pivots first. The random QPs need both of the warm support's sign tests: with
 * either one left out some answer is wrong (seeds 8, 12, 17 when this was written). And LPs whose
 * rows are 1e8 apart in size, which the stall rule stopped early before the rows were scaled. */
#include <criterion/criterion.h>
#include <math.h>

#include "internal.h"   /* lcp_prox_qp */
#include <string.h>

/* min 1/2 (t1 - t2)^2 - c (t1 + t2) over t1 <= 1, t2 <= 2, t1 + t2 <= 5/2 (twice: also as
 * 2 t1 + 2 t2 <= 5), c > 0. With s = t1 + t2, d = t1 - t2 the objective is d^2/2 - c s and
 * t1 <= 1 reads d <= 2 - s. For s <= 2, d = 0 gives -c s >= -2c; for 2 < s <= 5/2 the best is
 * d = 2 - s, -c s + (s - 2)^2 / 2, decreasing in s (derivative s - 2 - c < 0 for c > 1/2):
 * s = 5/2, d = -1/2, t = (1, 3/2), the unique minimiser for every c > 1/2. */
static void hand_qp(double c, int max_switches, double *t, lcp_prox_ws *ws, lcp_arena *ar)
{
    double H[4] = {1, -1, -1, 1}, g[2] = {-c, -c};
    double G[8] = {-1, 0, 0, -1, -1, -1, -2, -2}, h[4] = {1, 2, 2.5, 5};
    cr_assert(lcp_prox_ws_init(ws, 2, 4, ar) == 0);
    ws->max_switches = max_switches;
    cr_assert(lcp_prox_qp(2, 4, H, g, G, h, t, NULL, NULL, ws) == 0);
}

Test(prox, singular_hessian_duplicated_rows_hand_minimiser)
{
    for (double c = 1; c <= 1e3; c *= 10) {
        lcp_arena ar = {0};
        lcp_prox_ws ws;
        double t[2];
        hand_qp(c, 8, t, &ws, &ar);
        cr_expect(fabs(t[0] - 1) <= 1e-8 && fabs(t[1] - 1.5) <= 1e-8, "c = %g: t = (%.17g, %.17g)", c, t[0], t[1]);
        lcp_arena_free(&ar);
    }
}

/* c = 1000: the multipliers (about 1000) are far from the first step's (0), whose support is
 * another: a warm support's signs fail and principal pivots repair it; with no pivots allowed,
 * Lemke answers again; either way the kept support answers the other iterations */
Test(prox, warm_support_fails_then_pivots_or_lemke_then_warm_again)
{
    for (int max_switches = 0; max_switches <= 8; max_switches += 8) {
        lcp_arena ar = {0};
        lcp_prox_ws ws;
        double t[2];
        hand_qp(1000, max_switches, t, &ws, &ar);
        cr_expect(fabs(t[0] - 1) <= 1e-8 && fabs(t[1] - 1.5) <= 1e-8, "t = (%.17g, %.17g)", t[0], t[1]);
        if (max_switches)
            cr_expect(ws.switches >= 1 && ws.lemke_solves == 1, "%d pivots, %d Lemke solves", ws.switches,
                      ws.lemke_solves);
        else
            cr_expect(ws.lemke_solves >= 2, "%d Lemke solves: the warm support never failed", ws.lemke_solves);
        cr_expect(ws.lemke_solves < ws.iterations, "%d Lemke solves in %d iterations", ws.lemke_solves, ws.iterations);
        lcp_arena_free(&ar);
    }
}

enum { K = 4, NC = 7 };

/* x = A^-1 b by Gaussian elimination with partial pivoting (n <= K + NC); 0 if singular */
static int gauss(int n, double *A, double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[p * n + c]))
                p = r;
        if (fabs(A[p * n + c]) < 1e-12)
            return 0;
        for (int j = 0; j < n; j++) {
            double s = A[c * n + j];
            A[c * n + j] = A[p * n + j];
            A[p * n + j] = s;
        }
        double s = b[c];
        b[c] = b[p];
        b[p] = s;
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int j = c; j < n; j++)
                A[r * n + j] -= f * A[c * n + j];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int j = c + 1; j < n; j++)
            b[c] -= A[c * n + j] * b[j];
        b[c] /= A[c * n + c];
    }
    return 1;
}

/* Every active set S: H t + g = G_S' lam, G_S t + h_S = 0; the minimiser is the feasible point
 * with lam >= 0 (unique: H is positive definite). 1 found. */
static int brute_force(const double *H, const double *g, const double *G, const double *h, double *t)
{
    for (unsigned S = 0; S < 1u << NC; S++) {
        int idx[NC], ns = 0;
        for (int c = 0; c < NC; c++)
            if (S >> c & 1)
                idx[ns++] = c;
        int n = K + ns;
        double A[(K + NC) * (K + NC)] = {0}, b[K + NC];
        for (int i = 0; i < K; i++) {
            for (int j = 0; j < K; j++)
                A[i * n + j] = H[i + j * K];
            for (int a = 0; a < ns; a++)
                A[i * n + K + a] = -G[idx[a] * K + i];
            b[i] = -g[i];
        }
        for (int a = 0; a < ns; a++) {
            for (int j = 0; j < K; j++)
                A[(K + a) * n + j] = G[idx[a] * K + j];
            b[K + a] = -h[idx[a]];
        }
        if (!gauss(n, A, b))
            continue;
        int ok = 1;
        for (int a = 0; a < ns && ok; a++)
            ok = b[K + a] >= -1e-12;
        for (int c = 0; c < NC && ok; c++) {
            double r = h[c];
            for (int j = 0; j < K; j++)
                r += G[c * K + j] * b[j];
            ok = r >= -1e-12;
        }
        if (ok) {
            memcpy(t, b, sizeof(double) * K);
            return 1;
        }
    }
    return 0;
}

static double uniform(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)(*s >> 8 & 0xffff) / 65535.0 * 2 - 1;
}

Test(prox, strictly_convex_random_qps_against_active_set_brute_force)
{
    for (unsigned seed = 1; seed <= 40; seed++) {
        unsigned s = seed;
        double B[K * K], H[K * K], g[K], G[NC * K], h[NC], t[K], tb[K];
        for (int i = 0; i < K * K; i++)
            B[i] = uniform(&s);
        for (int i = 0; i < K; i++)   /* H = B'B + I/10 */
            for (int j = 0; j < K; j++) {
                double x = i == j ? 0.1 : 0.0;
                for (int l = 0; l < K; l++)
                    x += B[l + i * K] * B[l + j * K];
                H[i + j * K] = x;
            }
        for (int i = 0; i < K; i++)   /* large against h: the first steps land on other supports */
            g[i] = 90 * uniform(&s);
        for (int i = 0; i < NC * K; i++)
            G[i] = uniform(&s);
        for (int c = 0; c < NC; c++)   /* t = 0 strictly feasible: the QP has a minimiser */
            h[c] = 1 + 0.5 * uniform(&s);
        cr_assert(brute_force(H, g, G, h, tb), "seed %u: no active set passes", seed);
        for (int max_switches = 0; max_switches <= 8; max_switches += 8) {   /* Lemke only; pivots */
            lcp_arena ar = {0};
            lcp_prox_ws ws;
            cr_assert(lcp_prox_ws_init(&ws, K, NC, &ar) == 0);
            ws.max_switches = max_switches;
            cr_assert(lcp_prox_qp(K, NC, H, g, G, h, t, NULL, NULL, &ws) == 0, "seed %u", seed);
            for (int j = 0; j < K; j++)
                cr_expect(fabs(t[j] - tb[j]) <= 1e-8 * (1 + fabs(tb[j])), "seed %u, %d pivots: t[%d] = %.17g, brute force %.17g",
                          seed, max_switches, j, t[j], tb[j]);
            lcp_arena_free(&ar);
        }
    }
}

/* LPs (H = 0) whose constraint rows are 1e8 (and 1e-8) times one another, minimisers by hand:
 *   min t1 + t2       over 1e8 (t1 - 1) >= 0, t2 - 2 >= 0: each term is least at its own bound, (1, 2);
 *   min t1 + 2 t2     over 1e8 (t1 + t2 - 1) >= 0, t2 >= 0: (t1 + t2) + t2 >= 1 + 0, with equality
 *                     only at t1 + t2 = 1, t2 = 0: (1, 0);
 *   min t1 + t2 + t3  over 1e8 (t1 - 1), t2 - 1, 1e-8 (t3 - 1) >= 0: (1, 1, 1).
 * With eps and del set by the largest row alone, the small rows' multipliers hardly moved, t drifted
 * by 1/eps a step, and the stall rule stopped at 41 iterations with a component 4e4 off; each row
 * is now brought to one size first (prox.c, scale_rows). */
Test(prox, rows_scaled_1e8_apart_lp_hand_minimiser)
{
    static const double H[9] = {0};
    static const double g1[2] = {1, 1}, G1[4] = {1e8, 0, 0, 1}, h1[2] = {-1e8, -2}, t1[2] = {1, 2};
    static const double g2[2] = {1, 2}, G2[4] = {1e8, 1e8, 0, 1}, h2[2] = {-1e8, 0}, t2[2] = {1, 0};
    static const double g3[3] = {1, 1, 1}, G3[9] = {1e8, 0, 0, 0, 1, 0, 0, 0, 1e-8}, h3[3] = {-1e8, -1, -1e-8},
                        t3[3] = {1, 1, 1};
    const struct {
        int k;
        const double *g, *G, *h, *t;
    } lp[] = {{2, g1, G1, h1, t1}, {2, g2, G2, h2, t2}, {3, g3, G3, h3, t3}};
    for (size_t i = 0; i < sizeof lp / sizeof *lp; i++) {
        lcp_arena ar = {0};
        lcp_prox_ws ws;
        double t[3];
        int k = lp[i].k;
        cr_assert(lcp_prox_ws_init(&ws, k, k, &ar) == 0);
        cr_expect(lcp_prox_qp(k, k, H, lp[i].g, lp[i].G, lp[i].h, t, NULL, NULL, &ws) == 0, "LP %zu: not solved", i);
        for (int j = 0; j < k; j++)
            cr_expect(fabs(t[j] - lp[i].t[j]) <= 1e-9, "LP %zu: t_%d = %.17g, by hand %g (%d iterations)", i, j, t[j],
                      lp[i].t[j], ws.iterations);
        lcp_arena_free(&ar);
    }
}
