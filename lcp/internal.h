/* Private interfaces of the complementarity layer. Nothing here is public API.
 *
 * Every algorithm works on a "reduced" problem: the caller's rows are first put in standard
 * form (equality variables first, box rows split into complementarity rows, fixed variables
 * eliminated: problem.c), then the equality rows are eliminated (reduce.c), leaving
 *
 *     t in R^k,   for i < m:   0 <= v_i(t) = V_i t + v0_i   _|_   r_i(t) = R_i t + r0_i >= 0,
 *     caller z = Z t + z0.
 *
 * When the equality block is invertible (or absent) t is the vector of complementarity
 * variables itself (V = I, t >= 0: `vunit`), which keeps the QPs small and bound-constrained.
 */
#ifndef NSDAE_LCP_INTERNAL_H
#define NSDAE_LCP_INTERNAL_H

#include <math.h>

#include <nsdae/lcp.h>
#include <nsdae/tolerances.h>

#include <stddef.h>

/* ---- arena: one per public call, freed at once (or kept by a workspace: reset) ----------- */
typedef struct lcp_arena_block lcp_arena_block;
typedef struct lcp_arena {
    lcp_arena_block *head;
    int failed;
} lcp_arena;

void *lcp_arena_alloc(lcp_arena *a, size_t bytes);   /* zeroed; NULL (and failed=1) on OOM */
double *lcp_arena_doubles(lcp_arena *a, size_t n);
/* not zeroed: for arrays written before they are read (the Lemke tableaux and the proximal
 * workspace: their zeroing was 2 % of diodeBridge20's instructions, 7.10 M a call against 6.97 M) */
void *lcp_arena_alloc_uninit(lcp_arena *a, size_t bytes);
double *lcp_arena_doubles_uninit(lcp_arena *a, size_t n);
/* Every allocation of a is void again, its memory kept for the next call (as one block). */
void lcp_arena_reset(lcp_arena *a);
void lcp_arena_free(lcp_arena *a);

/* ---- standard form (problem.c) ---------------------------------------------------------- */
/* x = (u, v): n free variables then m nonnegative ones; row values r = A x + c; rows 0..n-1
 * must vanish, rows n..n+m-1 are complementary to v. Caller z_j = zoff_j + zsgn_j x[zidx_j]
 * (zidx_j = -1: z_j is fixed at zoff_j by a box row with lo = hi). */
typedef struct lcp_std {
    int size;          /* caller size */
    int n, m, nx;      /* nx = n + m */
    double *A, *c;     /* nx x nx column-major, nx */
    int *zidx;
    double *zsgn, *zoff;
    int *crow;         /* m: the caller row each complementarity pair comes from */
} lcp_std;

/* nsdae_mlcp_validate, then z and w given and every row a complementarity row (the warm solvers
 * of pure LCPs: pivot.c, lemke_ws.c); messages begin with who. */
nsdae_status lcp_validate_pure(const char *who, const nsdae_mlcp *p, const double *z, const double *w,
                               nsdae_error *err);
nsdae_status lcp_std_build(const nsdae_mlcp *p, lcp_arena *ar, lcp_std *s, nsdae_error *err);
void lcp_std_to_caller(const lcp_std *s, const double *x, double *z);
/* w = M z + q in the caller's rows */
void lcp_caller_w(const nsdae_mlcp *p, const double *z, double *w);
/* lcp_scaled_violation (check.c) with the equilibration of M computed here: for one-off checks */
double lcp_caller_violation(const nsdae_mlcp *p, const double *z, const double *w);

/* ---- reduced form (reduce.c) ------------------------------------------------------------ */
typedef struct lcp_reduced {
    int size, m, k;
    double *V, *v0;    /* m x k column-major, m */
    double *R, *r0;    /* m x k, m */
    double *Z, *z0;    /* size x k, size */
    int vunit;         /* V = I, k = m, t >= 0 */
    double scale;      /* 1 + max |entry|: absolute tolerances are multiplied by it */
    int exact;         /* no equality row eliminated: R and r0 are the data's entries, no rounding */
} lcp_reduced;

/* NO_SOLUTION when the equality rows are inconsistent. */
nsdae_status lcp_reduce(const lcp_std *s, lcp_arena *ar, lcp_reduced *r, nsdae_error *err);
/* The caller's sides (lcp_active_side's values, -1 at lo, +1 at hi, 0 free with w = 0) of the
 * full pattern st (m pairs) of the standard form s (reduce.c). */
void lcp_caller_sides(const lcp_std *s, const signed char *st, int *side);

/* ---- dense linear algebra helpers (linalg.c) --------------------------------------------- */
/* Minimal-norm least-squares solution of the rows x cols system A t = b (A column-major,
 * lda = rows) with rank decided by NSDAE_TOL_RANK; returns the rank, writes t (cols), the
 * residual norm and (if N != NULL) an orthonormal basis of the null space into N (cols x
 * (cols - rank), column-major). -1 on LAPACK failure. A and b are not modified. */
int lcp_lstsq(int rows, int cols, const double *A, const double *b, double *t, double *resid, double *N);
/* Solves the square system A x = b by LU; returns 0 if solved and well conditioned
 * (reciprocal condition >= NSDAE_TOL_RCOND), 1 if singular/ill conditioned. A is copied. */
int lcp_solve_square(int n, const double *A, const double *b, double *x, double *work_nn, int *ipiv);
/* The same on the caller's scratch for LAPACK's condition estimate (work4: 4 n doubles, iwork: n):
 * nothing allocated (lcp_solve_square allocates those two, as LAPACKE_dgecon did before it). */
int lcp_solve_square_buf(int n, const double *A, const double *b, double *x, double *work_nn, int *ipiv,
                         double *work4, int *iwork);
/* 1 if the symmetric part of the n x n matrix A is positive definite (Cholesky succeeds). */
int lcp_sym_part_pd(int n, const double *A, double *work_nn);
double lcp_dot(int n, const double *a, int inca, const double *b, int incb);
/* The numerical rank of a matrix from its singular values s[0] >= ... >= s[mn-1]: those above
 * NSDAE_TOL_RANK times the largest (and above 0). */
int lcp_svd_rank(const double *s, int mn);
/* two solutions closer than NSDAE_TOL_SAME_SOLUTION (max-norm, relative to 1 + their size) are one */
int lcp_same_point(int n, const double *a, const double *b);

/* ---- Lemke's method (lemke.c) ----------------------------------------------------------- */
/* Own dense Lemke with lexicographic ratio test: finds z >= 0, w = M z + q >= 0, z'w = 0.
 * Returns 0 solved, 1 ray termination (for a copositive-plus M: no solution), 2 pivot limit.
 * The final basis is re-solved by LU, so the answer is as exact as the basis allows. */
typedef struct lcp_lemke_ws {
    int cap;           /* largest N */
    double *T;         /* N x (2N + 2) tableau */
    int *basis;
    double *B;         /* N x N for the final re-solve */
    int *ipiv;
    double *x;
    int *cols;         /* 2N + 2: the pivot row's nonzero columns */
} lcp_lemke_ws;

int lcp_lemke_ws_init(lcp_lemke_ws *ws, int cap, lcp_arena *ar);
/* Siconos' lexicographic Lemke on a dense LCP (siconos.c), the second route when ours hits its
 * pivot limit: 0 solved (z), 2 anything else (never a proof of infeasibility), 3 its assert()
 * fired and was caught (glibc has printed the assertion line). Guarded, never aborts; refuses
 * matrices whose entries span more than 2^200. */
int lcp_siconos_lemke_raw(int N, const double *M, const double *q, double *z);
int lcp_lemke(int N, const double *M, const double *q, double *z, lcp_lemke_ws *ws);

/* ---- convex QP by the proximal point method (prox.c) ------------------------------------ */
/* Workspace of lcp_prox_qp for up to k variables and nc rows; calls may share it. */
typedef struct lcp_prox_ws {
    int k, nc;         /* capacity */
    double *Lc, *X, *W, *q, *lam, *lnew, *gj, *y, *tn;
    int na;            /* the kept support's size (-1: none), its rows idx, in[c] = c in it, */
    int *idx;          /* and the Cholesky factor Lw of W on it (leading dimension nc) */
    char *in;
    double *Lw, *x;
    double *Gs, *hs;   /* the rows scaled to one size (nc x k, nc) */
    lcp_lemke_ws lemke;
    int max_switches;  /* support changes tried before Lemke (init: 16) */
    int iterations, lemke_solves, switches;   /* of the last call */
} lcp_prox_ws;

int lcp_prox_ws_init(lcp_prox_ws *ws, int k, int nc, lcp_arena *ar);
/* min 1/2 t'Ht + g't over { G t + h >= 0 } (G nc x k row-major), H positive semidefinite, G of
 * any rank: proximal point iterations, each a positive definite LCP of nc rows (solved on the
 * previous iteration's support, changed by principal pivots when its signs fail, else by Lemke). Stops at the first iterate
 * accept(ctx, t) takes (accept may be NULL; it may then have replaced t, and leaves it alone when
 * it refuses), or when the iterates stop moving (a KKT point). 0 stopped so (t), 1 iteration
 * limit, -1 LAPACK or Lemke failed (or H is not semidefinite, or ws is too small). */
int lcp_prox_qp(int k, int nc, const double *H, const double *g, const double *G, const double *h, double *t,
                int (*accept)(void *ctx, double *t), void *ctx, lcp_prox_ws *ws);

/* ---- convex QP over one node of the pattern tree (qp.c) --------------------------------- */
/* Status of complementarity index i at a node. */
enum { LCP_FREE = 0, LCP_R0 = 1 /* r_i = 0, v_i >= 0 */, LCP_V0 = 2 /* v_i = 0, r_i >= 0 */ };

typedef struct lcp_qp_ws {
    lcp_lemke_ws lemke;
    double *LM, *Lq, *Lz;  /* the KKT LCP */
    double *G, *h;         /* constraint rows in y-space */
    int *yvar;             /* y index -> t index, sign in ysgn */
    double *ysgn;
    double *Hy, *gy;
    double *rows, *rhs;    /* scratch constraint rows in t space */
    int ray_second_route;  /* 1: a ray termination of our Lemke is not trusted either (see qp.c) */
    int siconos_aborted;   /* Siconos' Lemke asserted once in this call: not asked again (one line) */
    int clamp_retried;     /* set by lcp_poly_dimension when a clamp QP was decided by its retry (qp.c) */
    int L;                 /* the KKT LCP's largest size */
    lcp_arena *ar;         /* the call's arena (the workspace lives in it) */
    double *rescale;       /* lcp_kkt_rescaled_lemke's scaled copy, made on first use */
} lcp_qp_ws;

int lcp_qp_ws_init(lcp_qp_ws *ws, const lcp_reduced *r, int extra_eq, lcp_arena *ar);

/* max a't over { t : rows c < neq: a_c't + b_c = 0, rows c >= neq: a_c't + b_c >= 0 } (rows
 * row-major, k wide), in rational arithmetic (lp_exact.c, GLPK's glp_exact, on its rationals for the
 * doubles: within 1.2e-11 relative, measured). 0 and the
 * maximum in value, a maximiser in t; 1 unbounded; 2 empty; -1 not decided (non-finite data, out
 * of memory, GLPK's time bound). */
int lcp_lp_max_exact(int k, int neq, int nin, const double *rows, const double *b, const double *a, double *t,
                     double *value);

/* min 1/2 y'Hy + g'y over { y : G y + h >= 0 } (d variables, m rows, G column-major, H positive
 * semidefinite) by the KKT conditions of every set of at most d active rows (face_qp.c), rows
 * held to -tol. 0 solved (y), 2 no KKT point found (or m above its bound: the tries grow as 2^m),
 * -1 out of memory. Scratch from ar, or malloc'd when ar is NULL. */
int lcp_face_qp(int d, int m, const double *H, const double *g, const double *G, const double *h, double tol,
                double *y, lcp_arena *ar);

/* Has the MLCP p a solution with the pattern side (lcp_active_side's values: -1 at lo, +1 at hi,
 * 0 free with w = 0), in rational arithmetic on p's own data (lcp_lp_max_exact)? 1 yes (and one
 * such solution in z, if z is not NULL), 0 no (certainly, to GLPK's rationals for the doubles),
 * -1 not decided. */
int lcp_pattern_feasible_exact(const nsdae_mlcp *p, const int *side, double *z);
/* Have the equality rows of p alone a solution, in rational arithmetic (lcp_lp_max_exact)? 1 yes,
 * 0 no, -1 not decided. The check of an elimination's "inconsistent" (enumerate.c). */
int lcp_equalities_feasible_exact(const nsdae_mlcp *p);

/* min 1/2 t'Ht + g't over { t : node constraints of st, Aex t = bex (nex rows, row-major) }.
 * Returns 0 and t (k) when solved, 1 when infeasible, 2 on pivot limit or when the objective-
 * free constraints are feasible though the QP ended in a ray (qp.c: rounding, not emptiness). */
int lcp_qp_solve(const lcp_reduced *r, const signed char *st, const double *H, const double *g, int nex,
                 const double *Aex, const double *bex, double *t, lcp_qp_ws *ws);

/* ---- node bounds by a warm-started dual active-set method (dualqp.c) --------------------- */
/* min 1/2 t'Ht + g't + c0 over a node's rows, H positive definite; rows 2i: v_i(t), 2i + 1: r_i(t). */
typedef struct lcp_dqp {
    int k, nrow;
    double c0, uu, tol;
    double *At, *b, *au;   /* L^-1 a_j (k x nrow), offsets b_j, at_j'u */
    double *u, *L, *R;     /* L^-1 g; H = L L'; N'N = R'R on the active rows */
    int *W, nw;            /* active rows */
    double *N, *an;        /* N = [at_j, j in W] (k x (k + 1)); |at_j| */
    signed char *last;     /* the last solved node's final active set, factor kept (kept = 1) */
    int kept;
    double *sR, *sN;       /* a saved copy of the kept factor (lcp_dqp_save) */
    int *sW, snw, skept;
    signed char *slast;
    int dirty;             /* the first factor column changed since the save (restore copies from it) */
    double *lam, *s, *c, *x, *y, *z, *t;
    int *cols, kfull;      /* the variables kept (lcp_dqp_init_on; NULL: all kfull = k) */
} lcp_dqp;

/* 0 ready, 1 H not positive definite (or k = 0): not usable, -1 out of memory. */
int lcp_dqp_init(lcp_dqp *d, const lcp_reduced *r, const double *H, const double *g, double c0, lcp_arena *ar);
/* The same over the kk variables cols (ascending) of t, the others held at zero in every node
 * (a vunit problem's t_i whose pairs are v_i = 0 in the whole tree): their rows v_i become zero
 * rows, never active. lcp_dqp_solve still takes and gives t in all k variables. */
int lcp_dqp_init_on(lcp_dqp *d, const lcp_reduced *r, const double *H, const double *g, double c0, const int *cols,
                    int kk, lcp_arena *ar);
/* The node st's relaxation from the warm active set act (nrow flags, updated to the final set).
 * 0 solved: t its minimiser, *bound its value; 1 *bound > cutoff is a proven lower bound (the
 * node can be pruned, t unset); 2 failed (iteration limit, rank trouble): use lcp_qp_solve. */
int lcp_dqp_solve(lcp_dqp *d, const signed char *st, signed char *act, double cutoff, double *t, double *bound);
/* Saves the kept factor of the last solved node / brings it back (its children can then all be
 * tried from it). */
void lcp_dqp_save(lcp_dqp *d);
void lcp_dqp_restore(lcp_dqp *d);

/* Lemke on a KKT LCP (L = ny + nc, its first ny variables those of a QP whose Hessian block is
 * LM's leading ny x ny, its constraints G y + h >= 0, nc rows of ny, row-major) once more,
 * symmetrically scaled by powers of two so that the Hessian's diagonal and the constraint rows are
 * of size one (qp.c): the retry after a ray. 0 solved (Lz in the original units, every constraint
 * row held to its own terms), 1 ray, 2 anything else. */
int lcp_kkt_rescaled_lemke(int ny, int nc, int L, const double *LM, const double *Lq, const double *G,
                           const double *h, double *Lz, lcp_qp_ws *ws);

/* Is y feasible for the constraints G y + h >= 0 (nc rows of ny, row-major), up to rounding? */
int lcp_kkt_feasible(int ny, int nc, const double *G, const double *h, const double *y);

/* Dimension of P = { t : node constraints of st (all fixed), Aex t = bex } given a point t0 of
 * P; writes an orthonormal basis of its direction space into D (k x dim) if D != NULL.
 * Returns the dimension, or -1 on failure. */
int lcp_poly_dimension(const lcp_reduced *r, const signed char *st, int nex, const double *Aex,
                       const double *bex, const double *t0, double *D, lcp_qp_ws *ws);

/* Is node st's polyhedron (its equalities, every other sign row >= 0) nonempty, decided as a
 * linear program in rational arithmetic (lcp_lp_max_exact)? 1 yes, 0 no, -1 not decided. The
 * minimal-norm search and the enumeration ask the exact LP only where they found no solution, on
 * up to LCP_EXACT_EMPTY_MAX_M pairs (GLPK's rational simplex, well under a millisecond each). */
#define LCP_EXACT_EMPTY_MAX_M 16
int lcp_node_feasible_exact(const lcp_reduced *r, const signed char *st);

/* Is min over P(st_a, D_a, t_a) of every constraint of node st_b satisfied: i.e. is the
 * piece a = t_a + span(D_a) intersected with node st_a contained in node st_b? */
int lcp_piece_contained(const lcp_reduced *r, const signed char *st_a, const double *t_a, int dim_a,
                        const double *D_a, const signed char *st_b, lcp_qp_ws *ws);

/* value of v_i(t), r_i(t) */
double lcp_red_v(const lcp_reduced *r, int i, const double *t);
double lcp_red_r(const lcp_reduced *r, int i, const double *t);
void lcp_red_z(const lcp_reduced *r, const double *t, double *z);

/* ---- pieces of the solution set (piece.c) ------------------------------------------------ */
typedef struct lcp_piece {
    signed char *st;   /* the full pattern (m) */
    double *t;         /* representative (minimiser of the piece's objective) */
    double *z;         /* caller z of t */
    int dim;
    double *D;         /* k x dim direction basis */
    double fval;       /* objective at t */
    int flat;          /* the objective's minimiser over the piece is not unique in z */
} lcp_piece;

typedef struct lcp_objective {
    const double *H, *g;   /* k x k, k: 1/2 t'Ht + g't (+ c0) */
    double c0;
    const double *PZ;      /* kp x k rows (row-major) of the selected z components, for flatness */
    const double *e;       /* kp: the selected z components at t = 0, minus z_ref */
    const double *Q;       /* kp x kp weight, or NULL for the identity */
    double *u;             /* kp: scratch of lcp_objective_eval and the line test (piece.c) */
    int kp;
    int z_injective;       /* objective strictly convex in caller z: no flatness test needed */
    int q_diag;            /* Q is NULL or diagonal */
} lcp_objective;

/* Builds the objective 1/2 ||P(z - zref)||_Q^2 in t (spec may be NULL: all of z, origin, Q = I). */
nsdae_status lcp_objective_build(const lcp_reduced *r, const nsdae_minnorm_spec *spec, lcp_arena *ar,
                                 lcp_objective *o, nsdae_error *err);
double lcp_objective_eval(const lcp_objective *o, int k, const double *t);

/* Examines the piece of the full pattern st: returns 1 and fills pc (allocated in ar) when
 * the piece is nonempty, 0 when empty, -1 on numerical failure. */
int lcp_piece_examine(const lcp_reduced *r, const signed char *st, const lcp_objective *o, lcp_piece *pc,
                      lcp_qp_ws *ws, lcp_arena *ar);

typedef struct lcp_piece_list {
    lcp_piece *v;
    int n, cap;
    lcp_arena *ar;   /* NULL: v is malloc'd; else v grows in this arena (a stepper's kept one) */
} lcp_piece_list;

int lcp_piece_list_push(lcp_piece_list *l, const lcp_piece *pc);   /* -1 on OOM */
void lcp_piece_list_free(lcp_piece_list *l);
/* Removes pieces contained in another piece (points within NSDAE_TOL_SAME_SOLUTION merged). */
void lcp_piece_list_merge(const lcp_reduced *r, lcp_piece_list *l, lcp_qp_ws *ws);
/* The public solution set (one allocation) from merged pieces. */
nsdae_status lcp_set_from_pieces(int size, const lcp_piece_list *l, long visited, nsdae_lcp_solution_set **out,
                                 nsdae_error *err);

/* ---- equilibration (scale.c) -------------------------------------------------------------- */
/* Row and column factors (powers of two, positive) making every row and column of Dr M Dc have
 * max-norm in [1/2, 2] (zero rows/columns: factor 1). */
void lcp_scale_factors(int N, const double *M, double *dr, double *dc);
void lcp_scale_matrix(int N, const double *M, const double *dr, const double *dc, double *Ms);
/* q' = alpha Dr q (and box bounds alpha lo / dc, if los and his are given); returns alpha, the
 * power of two making max |q'| about 1. */
double lcp_scale_rhs(const nsdae_mlcp *p, const double *dr, const double *dc, double *qs, double *los,
                     double *his);
void lcp_scale_z_to_caller(int N, const double *dc, double alpha, const double *zs, double *z);
/* Validates spec and maps it to the scaled variables: zref_s (N), sel_s (N), Q_s (N x N) are
 * caller buffers; the scaled objective times *fscale is the caller's. */
nsdae_status lcp_scale_spec(int N, const double *dc, double alpha, const nsdae_minnorm_spec *spec,
                            double *zref_s, int *sel_s, double *Q_s, nsdae_minnorm_spec *out, double *fscale,
                            nsdae_error *err);

/* ---- acceptance (check.c) ------------------------------------------------------------------ */
/* Violation of the caller's MLCP at (z, w = M z + q from the original data): the worst row, each
 * row relative to its own terms |q_i| + sum_j |M_ij z_j| (a component z_j by what it moves in
 * the rows it enters), above a rounding level measured with the equilibration dr, dc. Scale
 * invariant; +INFINITY for NaN/Inf. Accept with <= NSDAE_TOL_RESIDUAL. */
double lcp_scaled_violation(const nsdae_mlcp *p, const double *dr, const double *dc, const double *z,
                            const double *w);
/* Whether p's spread (spread.c: the smallest dynamic range of [M | q] over every row and column
 * scaling) exceeds 2^log2_bound; 1 on out of memory. O(size^3). */
int lcp_spread_exceeds(const nsdae_mlcp *p, double log2_bound);
/* What the check needs of M alone, for callers that check many points of one matrix: each
 * column's largest |M_ij| (cmax, N) and each row's sum_j |M_ij| / cmax_j (rsum, N). O(N^2). */
void lcp_check_scale_compute(const nsdae_mlcp *p, double *cmax, double *rsum);
/* lcp_scaled_violation with cmax, rsum of p's matrix given (NULL: computed here). */
double lcp_checked_violation(const nsdae_mlcp *p, const double *cmax, const double *rsum, const double *z,
                             const double *w);
/* The same at w = M z + q, written into w (lcp_caller_w's numbers) in the check's own pass. */
double lcp_checked_violation_w(const nsdae_mlcp *p, const double *cmax, const double *rsum, const double *z,
                               double *w);
/* lcp_checked_violation with cmax, rsum given and the caller's scratch of 8 N doubles: nothing
 * allocated (but for a point far larger than its data, re-solved on its pattern). */
double lcp_checked_violation_buf(const nsdae_mlcp *p, const double *cmax, const double *rsum, double *buf,
                                 const double *z, const double *w);
/* Which end of row i (z_i, w_i) is nearest to: -1 z_i at its lower end (0 or lo), +1 at hi,
 * 0 free with w_i = 0 (the nearest of the three conditions wins). */
int lcp_active_side(const nsdae_mlcp *p, int i, double zi, double wi);

/* The rows x cols system A x = b (lda = rows) balanced in place by Ruiz's iteration in powers of
 * two (polish.c); dc receives the column factors (x = dc y, y the balanced system's solution). */
void lcp_equilibrate_ruiz(int rows, int cols, double *A, double *b, double *dc);
/* Every component that its row puts at an end (lcp_active_side) put exactly there, the point
 * taken (z, w replaced, 1 returned) where it still passes the caller's rows (lcp/check.c, cmax and
 * rsum its own). Why: an answer carried back from the equilibrated units can keep z_i = 1e-13
 * where w_i = 1 forces z_i = 0 (fuzzing, crash-6da2...: z3 and z6 so, whose 1e-3 entries then
 * left w2 = 2e-16 beside z2 = 1000); its rows pass within their tolerance, yet the point is
 * the solution only once those are zero. zs, ws: N doubles of scratch each. */
int lcp_snap_to_ends(const nsdae_mlcp *p, const double *cmax, const double *rsum, double *z, double *w, double *zs,
                     double *ws);
/* 1/2 |P(z - z_ref)|_Q^2 of the caller's spec at z (buf: spec's k doubles, or N). */
double lcp_objective_at_z(const nsdae_minnorm_spec *spec, int N, const double *z, double *buf);
/* The objective's minimum over the piece of z's own pattern (lcp_pattern_sides) in the caller's
 * units (own_piece.c), for a few sign rows; z, w replaced (and 1 returned) only where the new point
 * passes the caller's rows (cmax, rsum: lcp/check.c's) and its objective is lower. Scratch from ar. */
int lcp_minimise_on_own_piece(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, const double *cmax,
                              const double *rsum, double *z, double *w, lcp_arena *ar);
/* The minimiser itself, written to zn (N), unchecked: 1 found, 0 not (more sign rows than
 * face_qp takes, or no KKT point). */
int lcp_own_piece_minimiser(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, const double *z, const double *w,
                            double *zn, lcp_arena *ar);
/* The objective's minimiser over the piece of the pattern side (lcp_active_side's -1 at lo or 0,
 * +1 at hi, 0 free with w = 0) of p, in p's units, unchecked: 1 found (zn, and the piece's
 * dimension in *dim if not NULL), 0 not. The route of a leaf whose QP in reduced coordinates
 * failed (minnorm.c, enumerate.c). */
int lcp_piece_minimiser(const nsdae_mlcp *p, const nsdae_minnorm_spec *spec, const int *side, double *zn, int *dim,
                        lcp_arena *ar);

/* ---- solving on the answer's own pattern (polish.c) ----------------------------------------- */
/* The pattern of (z, w) row by row: lcp_active_side's -1, 0, +1, and -2 or +2 for a row at a
 * corner (z_i exactly at that end and w_i zero to the rounding of its terms: both hold). */
void lcp_pattern_sides(const nsdae_mlcp *p, const double *z, const double *w, int *side);
/* The point of z's own pattern (lcp_active_side): fixed components at their ends, the others the
 * minimal-norm least-squares solution (rank-revealing, lcp_lstsq) of the rows that must vanish.
 * -1 on allocation or LAPACK failure. */
int lcp_pattern_point(const nsdae_mlcp *p, const double *z, const double *w, double *zp);
/* The same with the rows and columns of the system equilibrated first (its rank decided in its
 * own units; its point of minimal norm in them): a second try (polish.c, check.c). */
int lcp_pattern_point_scaled(const nsdae_mlcp *p, const double *z, const double *w, double *zp);
/* The same balanced by Ruiz's iteration (rows and columns alike), only where the rows that vanish
 * determine, square and of full rank once zero rows and columns are left out, every component that
 * enters them (else 1: a least-squares point of a rank-deficient or overdetermined system may lie
 * far out, where the rows' own tolerances hide an inconsistency: crash-499e...): the third try of
 * check.c. */
int lcp_pattern_point_ruiz(const nsdae_mlcp *p, const double *z, const double *w, double *zp);
/* Is z's own pattern (lcp_active_side) a continuum, its rows that vanish (balanced by Ruiz's
 * iteration) of lower rank than its free components and consistent on the data (polish.c,
 * rows_consistent: each dependency among them against its own right-hand sides)? 1 yes, 0 no
 * (a determined point, or inconsistent), -1 allocation or LAPACK failure. */
int lcp_pattern_continuum(const nsdae_mlcp *p, const double *z, const double *w);
/* The point of the pattern side (lcp_active_side's values) balanced by Ruiz's iteration, only
 * where its rows that vanish determine every free component (its piece is that point): 0, else 1. */
int lcp_pattern_point_determined(const nsdae_mlcp *p, const int *side, const double *z, double *zp);
/* The point of the pattern side (N values as lcp_active_side's, -1 at lo, +1 at hi, 0 free) that
 * the caller knows (the enumeration: the pattern a point came from); scaled as above. */
int lcp_pattern_point_given(const nsdae_mlcp *p, const int *side, const double *z, double *zp, int scaled);
/* Fixes every component at the end of its row that (z, w = M z + q) is nearest to (0, lo or hi)
 * and corrects the free ones by the minimal-norm solution of the rows that must then vanish.
 * -1 on allocation or LAPACK failure (z partly changed). */
int lcp_polish(const nsdae_mlcp *p, double *z);
/* lcp_polish with the rows and columns of the pattern's system equilibrated first (as
 * lcp_pattern_point_scaled), written to zp (which may be z). */
int lcp_polish_scaled(const nsdae_mlcp *p, const double *z, double *zp);
/* Where answers of an equilibrated problem are judged: the caller's own data. The per-row check
 * in equilibrated units would call a row noise whose entries the equilibration divided by a huge
 * one (M = [6 0; 5 1e150]: row 2's terms become 1e-100 next to a rounding level of 1e-14). */
typedef struct lcp_origin {
    const nsdae_mlcp *p;     /* the caller's problem */
    const double *dr, *dc;   /* z = dc zs / alpha, w = ws / (alpha dr) (scale.c) */
    double alpha;
    double *z, *w;           /* scratch, p->size each */
    const double *cmax, *rsum;   /* lcp_check_scale_compute of p, or NULL (computed per check) */
} lcp_origin;
/* 1 if the equilibrated point zs of ps passes the per-row check (lcp_scaled_violation <=
 * NSDAE_TOL_RESIDUAL) on o's data, or on ps itself when o is NULL. */
int lcp_origin_accepts(const lcp_origin *o, const nsdae_mlcp *ps, const double *zs, double *w);
/* 1 if z passes lcp_origin_accepts as it is or once polished on ps (then z is the polished point,
 * and o->z, o->w hold it and its w in the caller's units, as checked); 0 otherwise, z unchanged. */
int lcp_accept_or_polish(const nsdae_mlcp *ps, const lcp_origin *o, double *z, double *w);

/* ---- small dense LU (smalllu.c) --------------------------------------------------------------- */
/* LU with partial pivoting in place (n x n, column-major, lda = n); 1 if a pivot is exactly zero. */
int lcp_small_lu(int n, double *A, int *piv);
void lcp_small_lu_solve(int n, const double *LU, const int *piv, double *b);
/* Reciprocal condition number in the 1-norm of A from its LU factors (exact: builds the inverse
 * column by column; meant for n <= LCP_FAST_MAX_N, once per matrix). With bound, from the same
 * inverse, beta with |x^ - x|_inf <= beta |x^|_inf for every x^ that lcp_small_lu_solve computes
 * from these factors (A x = b): gamma_3n |||L||U|||_inf ||A^-1||_inf (Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., Thm 9.4), doubled for the rounding of the inverse it
 * is read from; INFINITY where that inverse is not finite. */
double lcp_small_rcond(int n, const double *A, const double *LU, const int *piv, double *bound);

/* ---- exact fast path for few complementarity rows (fast.c) ----------------------------------- */
enum { LCP_FAST_MAX_N = 16, LCP_FAST_MAX_M = 4 };
enum { LCP_PAT_POINT = 0 /* nonsingular: at most one point */, LCP_PAT_LINE = 1 /* nullity one */ };
typedef struct lcp_fast {
    int ok;                          /* the fast path applies to the prepared matrix */
    int N, m;
    int comp[LCP_FAST_MAX_M];        /* the complementarity rows */
    double rowabs[LCP_FAST_MAX_M];   /* sum_j |M_ij| of each (equilibrated) */
    int type[1 << LCP_FAST_MAX_M];
    /* POINT: LU factors and pivots; LINE: the pseudo-inverse (in LU), the null vector and the
     * left null vector (the consistency condition of the right-hand side) */
    double LU[1 << LCP_FAST_MAX_M][LCP_FAST_MAX_N * LCP_FAST_MAX_N];
    int piv[1 << LCP_FAST_MAX_M][LCP_FAST_MAX_N];
    /* POINT: the pattern matrix's own equilibration (powers of two; 1 when LU is of the matrix
     * itself): LU factors pdr A pdc */
    double pdr[1 << LCP_FAST_MAX_M][LCP_FAST_MAX_N], pdc[1 << LCP_FAST_MAX_M][LCP_FAST_MAX_N];
    unsigned char punit[1 << LCP_FAST_MAX_M];   /* POINT: pdr = pdc = 1 (solves skip the scaling) */
    /* POINT with punit: lcp_small_rcond's forward-error bound of its factors (the screen before
     * refinement);
     * INFINITY otherwise (no screen) */
    double pbound[1 << LCP_FAST_MAX_M];
    double nul[1 << LCP_FAST_MAX_M][LCP_FAST_MAX_N], lnul[1 << LCP_FAST_MAX_M][LCP_FAST_MAX_N];
} lcp_fast;

/* Factors the 2^m pattern matrices of the (equilibrated) matrix Ms; ok = 0 when the problem has
 * box rows, is too large, or a pattern matrix is neither well conditioned nor clearly of nullity
 * one with the rest well conditioned. */
void lcp_fast_prepare(lcp_fast *f, int N, const double *Ms, const nsdae_row_kind *kind);
/* Minimal-norm selection on the prepared (scaled) problem ps by enumerating the patterns. Every
 * candidate, so the answer too, has passed lcp_origin_accepts on orig (polished if need be): the
 * caller need not check it again. */
nsdae_status lcp_fast_minnorm(const lcp_fast *f, const nsdae_mlcp *ps, const lcp_origin *orig,
                              const nsdae_minnorm_spec *spec, double *z, nsdae_minnorm_result *res, nsdae_error *err);

/* ---- the kind of solution set a matrix gives (structure.c) ---------------------------------- */
enum { LCP_STRUCT_NONCONVEX = 0, LCP_STRUCT_MONOTONE = 1 /* convex solution set */,
       LCP_STRUCT_UNIQUE = 2 /* P-matrix: exactly one solution */ };
typedef struct lcp_structure {
    int valid;             /* 0: not computed (or for another matrix) */
    int N, k, m, vunit;    /* what it was computed for ... */
    unsigned char *key;    /* ... and the box rows' bound pattern (N) */
    int kind;              /* LCP_STRUCT_* */
    int nL;                /* monotone: L (nL x k, row-major) spans S = sym(V'CR): S t = S t* <=> L t = L t* */
    double *L;
    double *cw;            /* m: the positive pair weights C under which the gap is convex */
} lcp_structure;

/* Classifies the reduced problem r of p unless c already holds the classification of the same
 * matrix (then nothing is computed or allocated). The matrix parts of r must be p's. */
nsdae_status lcp_structure_get(lcp_structure *c, const nsdae_mlcp *p, const lcp_origin *orig, const lcp_std *s,
                               const lcp_reduced *r, nsdae_error *err);
void lcp_structure_free(lcp_structure *c);   /* and zeroes c */

/* ---- states forced in every solution (decompose.c) ------------------------------------------ */
/* Writes into st (m) the state of each complementarity index that is the same in every solution
 * of the (vunit) reduced problem, LCP_FREE elsewhere: indices fixed by solving, in topological
 * order, the strongly connected blocks of R that are P-matrices (by their symmetric part), and
 * by the sign rule (r_i > 0 whatever the other t >= 0). Returns how many are fixed, -1 on OOM.
 * Cost O(m^2) per round plus one Lemke per fixed block. */
int lcp_forced_pattern(const lcp_reduced *r, signed char *st, lcp_arena *ar);

/* ---- branch and bound (minnorm.c) ------------------------------------------------------------ */
/* The general selection on an (already equilibrated) problem; z and w of size p->size. */
/* cache: the matrix's classification, kept by the caller across calls with the same matrix;
 * keep: an arena the caller keeps across calls (reset at the end), NULL: one for this call;
 * orig: where answers are checked (NULL: on p); weight_spread (may be NULL): the spread of the
 * objective's weights in the reduced variables (largest over smallest nonzero H_jj), left as
 * it was when no objective was built. */
nsdae_status lcp_minnorm_bnb(const nsdae_mlcp *p, const lcp_origin *orig, const nsdae_minnorm_spec *spec,
                             lcp_structure *cache, lcp_arena *keep, double *z, double *w,
                             nsdae_minnorm_result *result, double *weight_spread, nsdae_error *err);

/* max(kept, v) for a kept that is never NaN: fmax's result (a NaN v is ignored), without the
 * library call gcc emits for fmax (~10 instructions each, ~1000 per small step in the hot loops) */
static inline double lcp_keep_max(double kept, double v)
{
    return v > kept ? v : kept;
}

/* Intersects [lo, hi] with {s : g0 + s g1 >= 0} (exact) and [tlo, thi] with {s : g0 + s g1 >= -tol}
 * (with tolerance): the sign constraints of a piece restricted to a line z0 + s n. g1 != 0. */
static inline void lcp_line_clip(double g0, double g1, double tol, double *lo, double *hi, double *tlo, double *thi)
{
    if (g1 > 0) {
        *lo = fmax(*lo, -g0 / g1);
        *tlo = fmax(*tlo, (-tol - g0) / g1);
    } else {
        *hi = fmin(*hi, -g0 / g1);
        *thi = fmin(*thi, (-tol - g0) / g1);
    }
}

#endif
