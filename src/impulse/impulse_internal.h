/* Internal data of the impulse stage: the mode change array (Benveniste et al. 2026, section 5.2) at one
 * height K. */
#ifndef NSDAE_IMPULSE_INTERNAL_H
#define NSDAE_IMPULSE_INTERNAL_H

#include <nsdae/impulse.h>

/* In array expressions, array variable a is the VAR leaf (IMP_LEAF(in, a), 0): far above the
 * model's unknowns (0 .. nvars-1) and their pre() leaves (nvars .. 2 nvars - 1). */
#define IMP_LEAF(in, a) (2 * (in)->nvars + (a))

typedef struct imp_avar {
    int var, m, k;          /* x_var^(m) shifted k times */
    int past;
} imp_avar;

typedef enum imp_eq_kind { IMP_EQ_MODEL = 0, IMP_EQ_EULER, IMP_EQ_LAW } imp_eq_kind;

/* One array equation. `expr` (array leaves) for model and law equations. An Euler identity
 * x - e^-n sum_i coef[i] z_i is kept as its terms: x = zs[0]... see euler_* fields. Its rescaled
 * form needs no expression until Procedure 1. */
typedef struct imp_aeq {
    imp_eq_kind kind;
    int src, m, k;          /* MODEL: next-mode equation, m-th derivative, shift k; LAW: transient eq */
    const nsdae_expr *expr;
    int ex, en;             /* EULER: x (array var), n */
    int ez[8];              /* EULER: z shifted back 0..n (array vars, n <= 7) */
    double ecoef[8];        /*        C(n,i) (-1)^i */
    int ena, fact, tail;
    int reluctant;          /* cascade: a new-mode equation inactive in the transient mode, before the
                               tail: enabled only for variables no other equation can take */
    /* dependent variables occurring: dep[t], with lin[t] (in L_f) and n[t] (the e-exponent) */
    int *dep, *lin, *nexp;
    int ndep;
    int rest_n;             /* e-exponent of the part free of dependent variables, -1 when none */
    int matched;            /* array var, or -1 */
} imp_aeq;

typedef struct imp_array {
    int K;
    imp_avar *v;
    int nv, capv;
    imp_aeq *e;
    int ne, cape;
} imp_array;

/* Sigma data of one mode. */
typedef struct imp_mode_sigma {
    int ok;
    int *c;                 /* per equation */
    int *d;                 /* per unknown (-1 when the unknown does not occur) */
    int *match;             /* per equation: its transversal unknown */
    char *why;              /* D1 message when !ok */
} imp_mode_sigma;

/* Analysis context shared by the steps. */
typedef struct imp_ctx {
    const nsdae_impulse_input *in;
    imp_mode_sigma prev, next;
    int *law;               /* transient equations that are not in next: the law T */
    int nlaw;
    int ell;                /* facts hold at shifts 0 .. ell (-1: no facts) */
    const nsdae_expr **dnext; /* dnext[i * (cmax+1) + m] = m-th time derivative of next eq i */
    int cmax;
    int covered;            /* the last height's matching covers everything (no D2/D3) */
} imp_ctx;

/* Procedure 1's restart system A_* (Benveniste et al. 2026, section 6): equations in the left limits
 * (model leaves (j, m) = (x_j^(m))^-) and the unknowns (array leaves IMP_LEAF(a): restart values of tail
 * variables, rescaled head variables). */
struct nsdae_impulse_system {
    nsdae_expr_pool *pool;
    int nvars, nleaf;           /* env size: model leaves, pre leaves, array leaves */
    int n;
    int *unk;                   /* n array variables */
    int *unk_var, *unk_order, *unk_head;
    const nsdae_expr **eq;      /* n */
    const nsdae_expr **jac;     /* n x n, jac[i * n + u] = d eq_i / d unk_u */
    double *params;
    int nparams;
    int nonlinear;
    /* the brute-force (unscaled) array only: e is the array leaf eps_var, past variables are
     * Taylor polynomials of the left limits (prev_d: the previous mode's offsets, K the height) */
    int eps_var;                /* -1 for Procedure 1's system */
    int K;
    int *prev_d;
    int *unk_mu;                /* impulse order of each unknown, -1 when unknown */
    const nsdae_expr *guard;    /* the guard g (model leaves) whose root fact the analysis assumed */
    /* every fact the analysis removed from the array (digest 1.4 Step D): a new-mode equation,
     * differentiated, in model leaves; it must nearly hold at the left limits (checked at run time) */
    int nfacts;
    const nsdae_expr **fact;
    char **fact_name;
};

/* Slot of array variable a in the order-0 block of the evaluation environment. */
#define IMP_LEAF_SYS(sy, a) (2 * (sy)->nvars + (a))

/* procedure.c: builds A_* from the matched equations whose variable has keep[v] set. */
nsdae_status imp_procedure(const imp_ctx *cx, const imp_array *a, const int *mu, const int *keep,
                           nsdae_impulse_system **out, nsdae_error *err);
void imp_system_free(nsdae_impulse_system *s);
nsdae_status imp_system_alloc(const imp_ctx *cx, const imp_array *a, int n, int extra_leaves,
                              nsdae_impulse_system **out, nsdae_error *err);
/* Unknown r of s is array variable v (mu: impulse orders, or NULL). */
void imp_system_set_unknown(nsdae_impulse_system *s, int r, const imp_array *a, int v, const int *mu);
/* Jacobian expressions and the nonlinearity flag of a filled system. */
nsdae_status imp_system_jacobian(const imp_ctx *cx, nsdae_impulse_system *s, nsdae_error *err);

/* brute.c: the unscaled matched array (Benveniste et al. 2021, section 2.5.3), for any verdict with a
 * matching. */
nsdae_status imp_brute(const imp_ctx *cx, const imp_array *a, const int *mu, const int *keep,
                       nsdae_impulse_system **out, nsdae_error *err);

/* expr_walk.c */
/* Collects the distinct VAR leaves (index, order) of e into *leaves (malloc'd, 2 ints each). */
nsdae_status imp_leaves(const nsdae_expr *e, int **leaves, int *n, nsdae_error *err);
/* Rebuilds e with every VAR leaf (j, o) replaced by map(j, o, ctx) (NULL from map: failure). */
typedef const nsdae_expr *(*imp_leaf_map)(int j, int o, void *ctx);
nsdae_status imp_relabel(nsdae_expr_pool *pool, const nsdae_expr *e, imp_leaf_map map, void *ctx,
                         const nsdae_expr **out, nsdae_error *err);
/* Rebuilds e without pre() nodes: pre(a) becomes a with every leaf (j, o) renamed to the left-limit
 * leaf (NSDAE_IMPULSE_PRE(nvars, j), o), or, with strip, a itself (a guard is read on the previous
 * mode's state, where the left limit is the value). e itself when it has no pre(). */
nsdae_status imp_lower_pre(nsdae_expr_pool *pool, const nsdae_expr *e, int nvars, int strip, const nsdae_expr **out,
                           nsdae_error *err);

/* sigma.c */
nsdae_status imp_mode_sigma_run(const nsdae_impulse_input *in, const nsdae_impulse_eqs *eqs, imp_mode_sigma *s,
                                nsdae_error *err);
void imp_mode_sigma_free(imp_mode_sigma *s);

/* array.c */
int imp_is_past(const imp_ctx *cx, int var, int m, int k);
int imp_find_avar(const imp_array *a, int var, int m, int k);
/* Whether the new mode's equation i, differentiated m times and shifted k times, is a fact. */
int imp_is_fact(const imp_ctx *cx, int i, int m, int k);
/* Whether r = c g, c a nonzero constant, at three pseudo-random points of the leaves 0 .. nv-1. */
int imp_proportional(const nsdae_impulse_input *in, const nsdae_expr *r, const nsdae_expr *g, int nv);
nsdae_status imp_array_build(imp_ctx *cx, int K, imp_array *a, nsdae_error *err);
void imp_array_free(imp_array *a);
void imp_avar_name(const imp_ctx *cx, const imp_avar *v, char *buf, size_t size);
void imp_aeq_name(const imp_ctx *cx, const imp_array *a, const imp_aeq *e, char *buf, size_t size);

/* coverage.c: matching covering every must-enable equation and every dependent variable.
 * Returns the first must-enable equation left unmatched (or -1) in *bad_eq and the first
 * dependent variable left unmatched (or -1) in *bad_var. var_match[v] = equation or -1. */
nsdae_status imp_cover(imp_array *a, int *var_match, int *bad_eq, int *bad_var, nsdae_error *err);
/* Marks in under[v] the variables reachable by alternating paths from the unmatched dependent
 * variables (the DM under-determined part). */
void imp_under_part(const imp_array *a, const int *var_match, int *under);

/* offsets.c: least mu of the difference-bound system (Theorem 3). Returns 0 on success, or
 * 1 when some mu is infinite (positive cycle: inf[v] set). */
int imp_offsets(const imp_array *a, int *mu, int *inf);
/* (130) on the equations matched to kept variables: returns 1 with *bad_eq when it fails. */
int imp_check_nonlinear(const imp_array *a, const int *mu, const int *keep, int *bad_eq);
int imp_eq_mu(const imp_array *a, const imp_aeq *e, const int *mu);

#endif
