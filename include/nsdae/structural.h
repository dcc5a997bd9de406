/* nsdae structural analysis: Pryce's Sigma-method on one mode (Pryce 2001;
 * per mode as in Benveniste et al. 2017 and 2013, see the README's References).
 *
 * Input: a signature matrix (nsdae_sigma) of neq equations x nvar unknowns, sigma[i][j] = highest
 * derivative order of unknown j in equation i, or NSDAE_SIGMA_NONE when j does not occur in i.
 * The matrix may be non-square: the analysis then diagnoses the under-/overdetermined parts.
 *
 * Output: a complete data structure (nsdae_structural_result) for later stages (impulse analysis,
 * event-driven engine): coarse Dulmage-Mendelsohn parts, a highest-value transversal, canonical
 * offsets c (equations) and d (unknowns), structural index, latent equations, state candidates,
 * degrees of freedom, a dummy-derivative state selection, and the block-triangular form of the
 * leading system. Structural failures (singular, under-, overdetermined) are verdicts, not errors:
 * the analysis function returns NSDAE_OK and fills the verdict and the parts that name the
 * equations and unknowns involved. Errors are reserved for bad input and memory.
 */
#ifndef NSDAE_STRUCTURAL_H
#define NSDAE_STRUCTURAL_H

#include <limits.h>

#include <nsdae/mode.h>
#include <nsdae/model.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "-infinity": the unknown does not occur in the equation. */
#define NSDAE_SIGMA_NONE INT_MIN

/* Upper bound on derivative orders accepted in a signature matrix (keeps sums far from overflow). */
#define NSDAE_SIGMA_MAX_ORDER 1000

/* ==== signature matrix ================================================================== */

typedef struct nsdae_sigma {
    int neq, nvar;
    int *s;                     /* neq x nvar, row-major: s[i * nvar + j]; NSDAE_SIGMA_NONE by default */
    char **eq_names;            /* neq names, owned; default "e1", "e2", ... */
    char **var_names;           /* nvar names, owned; default "x1", "x2", ... */
} nsdae_sigma;

/* neq, nvar >= 0 (an empty system is legal: nothing to analyse). */
nsdae_status nsdae_sigma_create(int neq, int nvar, nsdae_sigma **out, nsdae_error *err);
void nsdae_sigma_destroy(nsdae_sigma *s);

/* which: 'e' (equation) or 'v' (unknown). Copies the name. */
nsdae_status nsdae_sigma_set_name(nsdae_sigma *s, char which, int index, const char *name, nsdae_error *err);

/* Sets sigma[i][j] to order (0 .. NSDAE_SIGMA_MAX_ORDER, or NSDAE_SIGMA_NONE). */
nsdae_status nsdae_sigma_set(nsdae_sigma *s, int i, int j, int order, nsdae_error *err);

/* sigma[i][j] := max(sigma[i][j], order): convenient when walking the leaves of an expression. */
nsdae_status nsdae_sigma_raise(nsdae_sigma *s, int i, int j, int order, nsdae_error *err);

/* sigma[i][j], or NSDAE_SIGMA_NONE when out of range. */
int nsdae_sigma_get(const nsdae_sigma *s, int i, int j);

/* ==== analysis result =================================================================== */

typedef enum nsdae_structural_verdict {
    NSDAE_STRUCTURAL_OK = 0,               /* square, a finite transversal exists */
    NSDAE_STRUCTURAL_SINGULAR,             /* no transversal: both an under- and an overdetermined part */
    NSDAE_STRUCTURAL_UNDERDETERMINED,      /* some unknowns are not determined (and nothing is overdetermined) */
    NSDAE_STRUCTURAL_OVERDETERMINED        /* some equations are in excess (and nothing is underdetermined) */
} nsdae_structural_verdict;

/* "ok", "singular", "underdetermined", "overdetermined". */
const char *nsdae_structural_verdict_name(nsdae_structural_verdict v);

/* Coarse Dulmage-Mendelsohn part of an equation or unknown (Benveniste et al. 2017, section 3.1). */
typedef enum nsdae_dm_part {
    NSDAE_DM_WELL = 0,          /* the square, perfectly matched part */
    NSDAE_DM_UNDER,             /* reachable by alternating paths from an unmatched unknown */
    NSDAE_DM_OVER               /* reachable by alternating paths from an unmatched equation */
} nsdae_dm_part;

/* One diagonal block of the block-triangular form: eqs[k] is solved for vars[k]. */
typedef struct nsdae_structural_block {
    int n;
    int *eqs, *vars;
} nsdae_structural_block;

/* A derivative x_var^(order). */
typedef struct nsdae_structural_deriv {
    int var, order;
} nsdae_structural_deriv;

/* Outcome of the numeric check (nsdae_structural_check_numeric). */
typedef struct nsdae_structural_numeric {
    int done;                   /* 0 until a check has run */
    int n;                      /* size of the system Jacobian (the well-determined part) */
    int rank;                   /* numerical rank (singular values > NSDAE_TOL_RANK * s_max) */
    double smax, smin, cond;    /* extreme singular values, cond = smax/smin (INFINITY when smin = 0) */
    int singular;               /* rank < n: structurally fine but numerically singular */
    /* The state selection: at each level of the dummy derivatives, the square pivot block
     * (rows: equations differentiated at least that often; columns: the unknowns chosen at that
     * level) must be nonsingular. First the structural selection made by nsdae_structural_analyze
     * (ties broken by unknown index) is checked at this point; then the selection is redone
     * preferring the largest pivots at this point (dynamic state selection) and checked again. */
    int static_singular;        /* the structural selection is numerically singular here */
    int static_level;           /* its first singular level (1-based), 0 when none */
    double static_cond;         /* the largest pivot-block condition number of that selection */
    int reselected;             /* the point-based selection differs from the structural one */
    int selection_singular;     /* the final (point-based) selection is still singular */
    double selection_cond;      /* its largest pivot-block condition number (1 when no level) */
} nsdae_structural_numeric;

typedef struct nsdae_structural_result {
    int neq, nvar;
    char **eq_names, **var_names;           /* copies of the input names, owned */
    nsdae_structural_verdict verdict;

    /* Coarse DM decomposition of the incidence graph (sigma finite), from a maximum matching. */
    nsdae_dm_part *eq_part;                 /* neq */
    nsdae_dm_part *var_part;                /* nvar */
    int n_under_eq, n_under_var, n_over_eq, n_over_var, n_well;
    int *excess_eq;                         /* the n_excess equations left unmatched (overdetermined) */
    int n_excess;
    int *free_var;                          /* the n_free unknowns left unmatched (underdetermined) */
    int n_free;

    /* The Sigma-method on the well-determined part (the whole system when verdict is OK).
     * Entries outside that part are -1. */
    int *transversal;                       /* neq: the unknown assigned to equation i (a HVT) */
    int *c;                                 /* neq: canonical equation offsets (times differentiated) */
    int *d;                                 /* nvar: canonical unknown offsets (leading order) */
    int value;                              /* Val(Sigma) of the part = sum d - sum c */
    int max_c;                              /* times the worst equation is differentiated */
    /* Structural index nu_S = max_i c_i + (1 if some d_j == 0 else 0): Pryce's definition
     * (Pryce 2001). 0 for an empty part. */
    int index;
    int dof;                                /* degrees of freedom = sum d_j - sum c_i */

    /* State candidates: x_j^(k) for 0 <= k < d_j, unknowns in index order, orders increasing. */
    nsdae_structural_deriv *states;
    int nstates;
    /* Dummy-derivative selection (Mattsson and Soderlind 1993, as used in Benveniste et al. 2013, section VII-D): the dummies are candidates
     * that the hidden constraints determine; the selected states are the rest (dof of them). */
    nsdae_structural_deriv *dummies;
    int ndummies;
    nsdae_structural_deriv *selected;
    int nselected;
    int *dummy_level;                       /* ndummies: the level (1..max_c) of each dummy */

    /* Block-triangular form of the leading system (entries sigma_ij == d_j - c_i on the
     * well-determined part), blocks in a solving order: every block comes after the blocks whose
     * unknowns it uses. Within a level the order follows the smallest equation index. */
    nsdae_structural_block *blocks;
    int nblocks;

    nsdae_structural_numeric numeric;
} nsdae_structural_result;

/* Runs the whole structural analysis. Returns NSDAE_OK with a verdict for every well-formed
 * input; *out must be destroyed by the caller. */
nsdae_status nsdae_structural_analyze(const nsdae_sigma *sigma, nsdae_structural_result **out, nsdae_error *err);
void nsdae_structural_result_destroy(nsdae_structural_result *r);

/* Whether (i, j) is an entry of the leading system: i, j in the well-determined part,
 * sigma_ij finite and sigma_ij == d_j - c_i. */
int nsdae_structural_is_leading(const nsdae_structural_result *r, const nsdae_sigma *sigma, int i, int j);

/* Numeric check at a point. jac is neq x nvar, column-major (jac[i + j * neq]) and holds
 * df_i / d x_j^(d_j - c_i), the system Jacobian entry (equal to d f_i^(c_i) / d x_j^(d_j));
 * entries that are not leading entries are ignored. Computes rank and condition number of the
 * system Jacobian by SVD (LAPACKE), redoes the dummy-derivative selection preferring the largest
 * pivots at this point (dynamic state selection), and checks each level's pivot block.
 * Fills r->numeric. A verdict other than OK analyses the well-determined part. */
nsdae_status nsdae_structural_check_numeric(nsdae_structural_result *r, const nsdae_sigma *sigma, const double *jac,
                                            nsdae_error *err);

/* Same, with the entries supplied by a callback: partial(i, j, order, ctx) = df_i/dx_j^(order). */
typedef double (*nsdae_structural_partial_fn)(int eq, int var, int order, void *ctx);
nsdae_status nsdae_structural_check_numeric_cb(nsdae_structural_result *r, const nsdae_sigma *sigma,
                                               nsdae_structural_partial_fn partial, void *ctx, nsdae_error *err);

/* ==== modes of a model ==================================================================== */

/* Switches, mode codes and a mode's equations come from the mode module (nsdae/mode.h); the
 * structural analysis of a mode is below. `when` blocks are transient: a long mode analysed here
 * has every transient choice at 0. */

/* One mode of a model: its equations (residuals f_i = 0), unknowns (the model's, then one s per
 * sliding relaxation), signature matrix and analysis. */
typedef struct nsdae_structural_mode {
    int nswitches;
    int *choice;                /* nswitches (every switch of the list, transient ones at 0) */
    char *code;                 /* the mode code, e.g. "0.1.0" (nsdae_mode_format) */
    char *label;                /* the choices in words, e.g. "x1 > 0; lambda = 0" ("(no switch)") */
    int neq, nvar;              /* nvar = model unknowns + nrelax */
    int nrelax;
    const nsdae_expr **residual;/* neq, in `pool` */
    nsdae_expr_pool *pool;      /* owned: extends the model's pool with the residuals built for the mode */
    int *origin;                /* neq: the model equation it comes from, or -1 (a switching surface h = 0) */
    char **var_names;           /* nvar (owned) */
    nsdae_sigma *sigma;         /* names: the equations as text, the unknowns */
    nsdae_structural_result *result;
    int numeric_status;         /* NSDAE_OK when the numeric check ran; else why not (see numeric_message) */
    char numeric_message[NSDAE_ERROR_MESSAGE_SIZE];
} nsdae_structural_mode;

/* Builds the mode `choice` of m (a canonical long mode of sw), analyses it structurally, and runs the numeric
 * check at the start values (der(x) = dstart, higher derivatives 0, relaxation unknowns 1/2,
 * time 0). A numeric check that cannot run (e.g. a non-finite partial derivative there) is not an
 * error: numeric_status and numeric_message say why. */
nsdae_status nsdae_structural_mode_analyze(const nsdae_model *m, const nsdae_switches *sw, const int *choice,
                                           nsdae_structural_mode **out, nsdae_error *err);
void nsdae_structural_mode_destroy(nsdae_structural_mode *mode);

/* Printable name of x_var^(order) in a mode: "x", "der(x)", "der(der(x))", "der(x, 3)" beyond. */
void nsdae_structural_deriv_name(const char *var, int order, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
