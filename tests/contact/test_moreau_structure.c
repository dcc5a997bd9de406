/* Moreau-Jean on a banded (non-diagonal) mass matrix, checked against the same physics in
 * coordinates where M is diagonal. Three beads on a line above the ground (masses 1, 2, 3, heights
 * z, gaps z1 - r, z2 - z1 - 2r, z3 - z2 - 2r, restitution 0.5, gravity) are written once in the
 * heights z (M diagonal) and once in the relative coordinates u = (z1, z2 - z1, z3 - z2), z = T u
 * with T lower triangular of ones: M_u = T^T M_z T is tridiagonal (band 1), F_u = T^T F_z, and every
 * gap is one coordinate. The scheme is covariant under a constant linear change of coordinates
 * (v_z = T v_u, the contact Jacobians G_u = G_z T, the same W = G M^-1 G^T and the same LCP), so the
 * two runs must give the same heights to round-off: the banded path (band Cholesky, X = M^-1 G^T)
 * against the diagonal one (a division per entry, W through G's columns). */
#include <nsdae/moreau.h>

#include <criterion/criterion.h>
#include <math.h>

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

Test(moreau_structure, banded_mass_matches_diagonal_coordinates)
{
    double qz[3], qu[3], vz[3], vu[3];
    nsdae_moreau_options o;
    nsdae_moreau_defaults(&o);
    o.stop = 1.5;
    o.nsteps = 1500;
    nsdae_error err = {0};
    nsdae_moreau_summary sz, su;
    nsdae_lagrangian *z = beads(0), *u = beads(1);
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
