/* Moreau-Jean on a banded (non-diagonal) mass matrix, checked against the same physics in
 * coordinates where M is diagonal. Three beads on a line above the ground (masses 1, 2, 3, heights
 * z, gaps z1 - r, z2 - z1 - 2r, z3 - z2 - 2r, restitution 0.5, gravity) are written once in the
 * heights z (M diagonal) and once in the relative coordinates u = (z1, z2 - z1, z3 - z2), z = T u
 * with T lower triangular of ones: M_u = T^T M_z T is tridiagonal (band 1), F_u = T^T F_z, and every
 * gap is one coordinate. The scheme is covariant under a constant linear change of coordinates
 * (v_z = T v_u, the contact Jacobians G_u = G_z T, the same W = G M^-1 G^T and the same LCP), so the
 * two runs must give the same heights to round-off: the banded path (band Cholesky, X = M^-1 G^T)
 * against the diagonal one (a division per entry, W through G's columns). Each banded and wide
 * case runs twice: M from the dense callback, and M from a pattern of its lower triangle with a
 * values callback (lagrangian.h, mass_colptr: what a translated system gives), written here from
 * the same closed form. */
#include <nsdae/moreau.h>

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Gives s the pattern of M's lower triangle, column j's rows written by rows_of (increasing,
 * >= j; their number returned), and the values callback. The system owns (frees) the pattern. */
static void give_mass_pattern(nsdae_lagrangian *s, int (*values)(const double *, double *, void *),
                              int (*rows_of)(int j, int *rows))
{
    const int n = s->ndof;
    int rows[64];
    s->mass_colptr = malloc(((size_t)n + 1) * sizeof *s->mass_colptr);
    s->mass_rows = malloc((size_t)n * (size_t)n * sizeof *s->mass_rows);
    cr_assert(s->mass_colptr && s->mass_rows);
    s->mass_colptr[0] = 0;
    for (int j = 0; j < n; j++) {
        const int k = rows_of(j, rows);
        for (int e = 0; e < k; e++) s->mass_rows[s->mass_colptr[j] + e] = rows[e];
        s->mass_colptr[j + 1] = s->mass_colptr[j] + k;
    }
    s->mass_values = values;
}

static const double mass[3] = {1.0, 2.0, 3.0}, r = 0.1, g = 9.81;

static int diag_mass(const double *q, double *M, void *ctx)
{
    (void)q; (void)ctx;
    for (int k = 0; k < 9; k++) M[k] = 0.0;
    for (int i = 0; i < 3; i++) M[i + 3 * i] = mass[i];
    return 0;
}

/* (T^T M_z T)_ij = sum_{k >= max(i, j)} m_k */
static int band_mass(const double *q, double *M, void *ctx)
{
    (void)q; (void)ctx;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = i > j ? i : j; k < 3; k++) s += mass[k];
            M[i + 3 * j] = s;
        }
    return 0;
}

/* the lower triangle of band_mass, by columns: every entry (the band is full) */
static int band_rows(int j, int *rows)
{
    for (int i = j; i < 3; i++) rows[i - j] = i;
    return 3 - j;
}

static int band_mass_values(const double *q, double *val, void *ctx)
{
    double M[9];
    band_mass(q, M, ctx);
    int e = 0;
    for (int j = 0; j < 3; j++)
        for (int i = j; i < 3; i++) val[e++] = M[i + 3 * j];
    return 0;
}

static int diag_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v; (void)ctx;
    for (int i = 0; i < 3; i++) F[i] = -mass[i] * g;
    return 0;
}

/* (T^T F_z)_i = sum_{k >= i} F_k */
static int band_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v; (void)ctx;
    for (int i = 0; i < 3; i++) {
        F[i] = 0.0;
        for (int k = i; k < 3; k++) F[i] -= mass[k] * g;
    }
    return 0;
}

static int diag_gaps(const double *q, double *gap, void *ctx)
{
    (void)ctx;
    gap[0] = q[0] - r;
    gap[1] = q[1] - q[0] - 2 * r;
    gap[2] = q[2] - q[1] - 2 * r;
    return 0;
}

static int diag_jacobian(const double *q, double *G, void *ctx)
{
    (void)q; (void)ctx;
    static const double Gz[9] = {1, -1, 0, 0, 1, -1, 0, 0, 1}; /* column-major 3 x 3 */
    for (int k = 0; k < 9; k++) G[k] = Gz[k];
    return 0;
}

static int band_gaps(const double *q, double *gap, void *ctx)
{
    (void)ctx;
    gap[0] = q[0] - r;
    gap[1] = q[1] - 2 * r;
    gap[2] = q[2] - 2 * r;
    return 0;
}

static int band_jacobian(const double *q, double *G, void *ctx)
{
    (void)q; (void)ctx;
    for (int k = 0; k < 9; k++) G[k] = k % 4 == 0 ? 1.0 : 0.0;
    return 0;
}

static nsdae_lagrangian *beads(int banded)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lagrangian_create(3, 3, &s, &err), NSDAE_OK);
    s->mass = banded ? band_mass : diag_mass;
    s->mass_constant = 1;
    s->forces = banded ? band_forces : diag_forces;
    s->gaps = banded ? band_gaps : diag_gaps;
    s->gap_jacobian = banded ? band_jacobian : diag_jacobian;
    const double z0[3] = {0.35, 0.8, 1.25};
    for (int i = 0; i < 3; i++) {
        s->q0[i] = banded ? z0[i] - (i ? z0[i - 1] : 0.0) : z0[i];
        s->restitution[i] = 0.5;
    }
    return s;
}

static void banded_against_diagonal(int pattern)
{
    double qz[3], qu[3], vz[3], vu[3];
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 1.5;
    o.nsteps = 1500;
    nsdae_error err = {0};
    nsdae_moreau_summary sz, su;
    nsdae_lagrangian *z = beads(0), *u = beads(1);
    if (pattern) give_mass_pattern(u, band_mass_values, band_rows);
    cr_assert_eq(nsdae_moreau_run(z, &o, NULL, NULL, qz, vz, &sz, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_moreau_run(u, &o, NULL, NULL, qu, vu, &su, &err), NSDAE_OK, "%s", err.message);
    cr_assert(sz.lcp_steps > 100, "the beads must collide (%ld steps with contacts)", sz.lcp_steps);
    cr_expect_eq(sz.lcp_steps, su.lcp_steps);
    double zsum = 0.0, vsum = 0.0;
    for (int i = 0; i < 3; i++) {
        zsum += qu[i];
        vsum += vu[i];
        cr_expect(fabs(qz[i] - zsum) < 1e-10, "bead %d: height %.17g in z, %.17g from u", i + 1, qz[i], zsum);
        cr_expect(fabs(vz[i] - vsum) < 1e-9, "bead %d: velocity %.17g in z, %.17g from u", i + 1, vz[i], vsum);
    }
    nsdae_lagrangian_destroy(z);
    nsdae_lagrangian_destroy(u);
}

Test(moreau_structure, banded_mass_matches_diagonal_coordinates) { banded_against_diagonal(0); }

Test(moreau_structure, banded_mass_pattern_matches_diagonal_coordinates) { banded_against_diagonal(1); }

/* The same covariance on a mass matrix whose band is wide but whose nonzeros are few, the case
 * CHOLMOD factors (mass_sparse.c). NB = 40 beads on a line (masses 1 + i/10, heights z, gaps
 * z1 - r and z_i - z_{i-1} - 2r) written once in z (M diagonal) and once in pair coordinates
 * z_i = u_i + u_j, z_j = u_i - u_j for j = NB - 1 - i, i < NB/2: z = T u with T symmetric and
 * T^2 = 2 I. M_u = T^T M_z T couples only i with j (m_i + m_j on both diagonals, m_i - m_j off
 * them), so its lower bandwidth is NB - 1 with 3 NB / 2 nonzeros. F_u = T^T F_z, G_u = G_z T. */
enum { NB = 40 };

static double bead_mass(int i) { return 1.0 + i / 10.0; }

static int pair_of(int i) { return NB - 1 - i; }

/* z = T u (T symmetric: also T^T x) */
static void apply_T(const double *u, double *z)
{
    for (int i = 0; i < NB / 2; i++) {
        int j = pair_of(i);
        z[i] = u[i] + u[j];
        z[j] = u[i] - u[j];
    }
}

static int column_mass(const double *q, double *M, void *ctx)
{
    (void)q;
    int paired = *(const int *)ctx;
    for (int k = 0; k < NB * NB; k++) M[k] = 0.0;
    for (int i = 0; i < NB; i++) M[i + NB * i] = bead_mass(i);
    if (!paired) return 0;
    for (int i = 0; i < NB / 2; i++) {
        int j = pair_of(i);
        double mi = bead_mass(i), mj = bead_mass(j);
        M[i + NB * i] = M[j + NB * j] = mi + mj;
        M[i + NB * j] = M[j + NB * i] = mi - mj;
    }
    return 0;
}

/* M_u's lower triangle: column i < NB/2 has rows i and pair_of(i), a column past NB/2 its diagonal */
static int column_rows(int j, int *rows)
{
    rows[0] = j;
    if (j >= NB / 2) return 1;
    rows[1] = pair_of(j);
    return 2;
}

static int column_mass_values(const double *q, double *val, void *ctx)
{
    (void)q; (void)ctx;
    int e = 0;
    for (int j = 0; j < NB; j++) {
        const int i = j < NB / 2 ? j : pair_of(j); /* the pair's first index */
        val[e++] = bead_mass(i) + bead_mass(pair_of(i));
        if (j < NB / 2) val[e++] = bead_mass(i) - bead_mass(pair_of(i));
    }
    return 0;
}

static int column_forces(double t, const double *q, const double *v, double *F, void *ctx)
{
    (void)t; (void)q; (void)v;
    double Fz[NB];
    for (int i = 0; i < NB; i++) Fz[i] = -bead_mass(i) * g;
    if (*(const int *)ctx) apply_T(Fz, F);
    else
        for (int i = 0; i < NB; i++) F[i] = Fz[i];
    return 0;
}

static int column_gaps(const double *q, double *gap, void *ctx)
{
    double z[NB];
    if (*(const int *)ctx) apply_T(q, z);
    else
        for (int i = 0; i < NB; i++) z[i] = q[i];
    gap[0] = z[0] - r;
    for (int i = 1; i < NB; i++) gap[i] = z[i] - z[i - 1] - 2 * r;
    return 0;
}

/* G_z (gaps x dof, column-major) is bidiagonal; G_u = G_z T, column by column of T */
static int column_jacobian(const double *q, double *G, void *ctx)
{
    (void)q;
    static double Gz[NB * NB];
    for (int k = 0; k < NB * NB; k++) Gz[k] = 0.0;
    for (int c = 0; c < NB; c++) {
        Gz[c + NB * c] = 1.0;
        if (c > 0) Gz[c + NB * (c - 1)] = -1.0;
    }
    if (!*(const int *)ctx) {
        for (int k = 0; k < NB * NB; k++) G[k] = Gz[k];
        return 0;
    }
    for (int k = 0; k < NB * NB; k++) G[k] = 0.0;
    for (int i = 0; i < NB / 2; i++) { /* column i of T: e_i + e_j; column j: e_i - e_j */
        int j = pair_of(i);
        for (int c = 0; c < NB; c++) {
            G[c + NB * i] = Gz[c + NB * i] + Gz[c + NB * j];
            G[c + NB * j] = Gz[c + NB * i] - Gz[c + NB * j];
        }
    }
    return 0;
}

static nsdae_lagrangian *column(const int *paired)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_lagrangian_create(NB, NB, &s, &err), NSDAE_OK);
    s->mass = column_mass;
    s->mass_constant = 1;
    s->forces = column_forces;
    s->gaps = column_gaps;
    s->gap_jacobian = column_jacobian;
    s->ctx = (void *)paired;
    double z0[NB];
    for (int i = 0; i < NB; i++) {
        z0[i] = 0.15 + 0.25 * i;
        s->restitution[i] = 0.5;
    }
    if (*paired) { /* u = T^-1 z = T z / 2 */
        apply_T(z0, s->q0);
        for (int i = 0; i < NB; i++) s->q0[i] /= 2.0;
    } else {
        for (int i = 0; i < NB; i++) s->q0[i] = z0[i];
    }
    return s;
}

static void wide_against_diagonal(int pattern)
{
    static const int diagonal = 0, paired = 1;
    double qz[NB], qu[NB], vz[NB], vu[NB], zu[NB], wu[NB];
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 1.0;
    o.nsteps = 1000;
    nsdae_error err = {0};
    nsdae_moreau_summary sz, su;
    nsdae_lagrangian *z = column(&diagonal), *u = column(&paired);
    if (pattern) give_mass_pattern(u, column_mass_values, column_rows);
    cr_assert_eq(nsdae_moreau_run(z, &o, NULL, NULL, qz, vz, &sz, &err), NSDAE_OK, "%s", err.message);
    cr_assert_eq(nsdae_moreau_run(u, &o, NULL, NULL, qu, vu, &su, &err), NSDAE_OK, "%s", err.message);
    cr_assert(sz.lcp_steps > 100, "the beads must collide (%ld steps with contacts)", sz.lcp_steps);
    cr_expect_eq(sz.lcp_steps, su.lcp_steps);
    apply_T(qu, zu);
    apply_T(vu, wu);
    for (int i = 0; i < NB; i++) {
        cr_expect(fabs(qz[i] - zu[i]) < 1e-10, "bead %d: height %.17g in z, %.17g from u", i + 1, qz[i], zu[i]);
        cr_expect(fabs(vz[i] - wu[i]) < 1e-9, "bead %d: velocity %.17g in z, %.17g from u", i + 1, vz[i], wu[i]);
    }
    nsdae_lagrangian_destroy(z);
    nsdae_lagrangian_destroy(u);
}

Test(moreau_structure, wide_sparse_mass_matches_diagonal_coordinates) { wide_against_diagonal(0); }

Test(moreau_structure, wide_sparse_mass_pattern_matches_diagonal_coordinates) { wide_against_diagonal(1); }

/* A wide sparse M that is not positive definite (the first pair's coupling exceeds its
 * diagonals: m_0 + m_39 = 5.9 against a coupling of 6): refused with the reason, no step taken. */
static int indefinite_mass(const double *q, double *M, void *ctx)
{
    column_mass(q, M, ctx);
    M[0 + NB * pair_of(0)] = M[pair_of(0) + NB * 0] = 6.0;
    return 0;
}

Test(moreau_structure, wide_sparse_mass_not_positive_definite)
{
    static const int paired = 1;
    nsdae_lagrangian *u = column(&paired);
    u->mass = indefinite_mass;
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 0.1;
    o.nsteps = 10;
    nsdae_error err = {0};
    double q[NB], v[NB];
    cr_expect_eq(nsdae_moreau_run(u, &o, NULL, NULL, q, v, NULL, &err), NSDAE_NUMERICAL);
    cr_expect(strstr(err.message, "not positive definite") != NULL, "message: %s", err.message);
    nsdae_lagrangian_destroy(u);
}

/* A mass pattern with an entry above the diagonal (column 2, row 1) is refused before any step,
 * naming the column. */
static int above_diagonal_rows(int j, int *rows)
{
    rows[0] = j == 2 ? 1 : j;
    return 1;
}

Test(moreau_structure, mass_pattern_above_the_diagonal_refused)
{
    nsdae_lagrangian *u = beads(1);
    give_mass_pattern(u, band_mass_values, above_diagonal_rows);
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 0.1;
    o.nsteps = 10;
    nsdae_error err = {0};
    double q[3], v[3];
    cr_expect_eq(nsdae_moreau_run(u, &o, NULL, NULL, q, v, NULL, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "mass matrix pattern of column 2") != NULL, "message: %s", err.message);
    nsdae_lagrangian_destroy(u);
}
