/* nsdae impulse stage: the structural restart analysis of one mode change (Benveniste et al.
 * 2026, sections 5-9) and the numeric restart it generates.
 *
 * A mode change is (previous long mode, optional transient mode, new long mode). The analysis
 * builds the mode change array (the new mode's completion shifted to t*, t*+e, ..., t*+Ke, plus
 * the Euler identities relating its shifted and differentiated variables, plus the transient
 * mode's law at the last instant), removes the facts entailed by the guard, finds a matching that
 * enables every must-enable equation and determines every dependent variable, computes the
 * impulse orders mu (rescaling offsets) as the least solution of a difference-bound system
 * (longest path), checks goodness (123)-(125), and generates Procedure 1's restart system: a
 * static system relating the restart values of the new mode's states (and rescaled auxiliaries
 * such as the percussion e*lambda) to the left limits. When it cannot, it says why with the
 * diagnostics D1-D8 (our classification of the failures of Benveniste et al. 2026, section 7.1
 * and Appendix D), each naming the array equations and variables involved.
 *
 * Input is a small explicit struct (not the model IR itself) so that the mode module can feed it
 * with a thin adapter: per mode the list of equations as residual expressions (lhs - rhs) of one
 * expression pool. An equation common to two modes is recognised by pointer equality of its
 * residual (expressions are hash-consed), as the model IR gives it.
 *
 * Array variables are x^(m) shifted k times, printed "der(x)@t*+e" (k = 1), "x@t*+2e", and
 * "x@t*-" for a pre() left limit. Engineering decisions where the paper is ambiguous
 * (ours):
 *   - one height K for the whole array, searched in [K_*, K^*] (4.2 item 4 allows one per coupled
 *     block; one height covers the paper's examples);
 *   - past variables: y^(m) shifted k with m + k <= d-_y - 1 (1.6 step B, closed form);
 *   - facts: f^(m) shifted k <= ell that is a constant multiple of the guard, tested numerically
 *     at pseudo-random points (1.6 [IMPL]); and f^(m) shifted k with only past variables when the
 *     previous mode had f^(m) (it holds at the left limits, so it is entailed, not violated);
 *   - Euler identities: per ~-class a star towards its most shifted member (1.4 [IMPL]);
 *   - every state and leading variable of the new mode at the last instant is in the array (the
 *     tail, read as in Lemma 4 and Example 1);
 *   - an invariant equation's derivative f^(m) shifted k < K (m >= 1) is not must-enable: its
 *     ~-equivalent f^(m-1) shifted k+1 is, and the Euler identity makes one of them redundant;
 *   - cascades: must-enable = tail consistency equations, the law T, equations active in all three
 *     modes, Euler identities; new-mode equations the transient mode replaces are enabled before
 *     the tail only for variables no other equation can take (1.14 [IMPL] ii);
 *   - the matching first covers the must-enable equations, then the variables (1.10 [IMPL]);
 *   - (125) failures go through Corollary 1 before (124)/(130) are checked on the determined part;
 *   - the last block's leading equations are kept (their variables are restart values of the
 *     leading derivatives, impulse order 0).
 * Cost: the array has O(K * sum c_f) equations; matching O(E V), longest path O(V E): small for
 * the modes of real models. Not thread-safe for one input: the analysis adds expressions to the
 * input's pool.
 */
#ifndef NSDAE_IMPULSE_H
#define NSDAE_IMPULSE_H

#include <nsdae/mode.h>
#include <nsdae/model.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In a transient mode's equations, the left limit pre(x_j^(d)) is the VAR leaf (nvars + j, d). */
#define NSDAE_IMPULSE_PRE(nvars, j) ((nvars) + (j))

/* The equations of one mode: residual[i] = 0, with a printable name per equation (may be NULL:
 * then "f<i>" is used). Views on caller arrays. */
typedef struct nsdae_impulse_eqs {
    int n;
    const nsdae_expr *const *residual;
    const char *const *name;
} nsdae_impulse_eqs;

typedef struct nsdae_impulse_input {
    nsdae_expr_pool *pool;          /* owns every residual; new expressions are added to it */
    int nvars;                      /* VAR leaves 0 .. nvars-1 are the unknowns */
    const char *const *var_names;   /* nvars entries */
    const double *params;           /* parameter values (nparams) for the numeric checks */
    int nparams;
    const char *const *param_names;
    nsdae_impulse_eqs prev;         /* previous long mode (square) */
    nsdae_impulse_eqs transient;    /* the transient mode's equations (n = 0: none). Those that are
                                       not equations of `next` form the hot-restart law T; they may
                                       use pre() leaves (NSDAE_IMPULSE_PRE) */
    nsdae_impulse_eqs next;         /* new long mode (square) */
    const nsdae_expr *guard;        /* g: the change happens as g(X-) crosses zero, expressed in the
                                       previous mode's states (e.g. L^2 - (x^2+y^2) rather than s).
                                       NULL: an exogenous switch (no facts) */
} nsdae_impulse_input;

typedef struct nsdae_impulse_options {
    int height;                     /* < 0: search K in [K_*, K^*] (Theorem 2); >= 0: this K only */
} nsdae_impulse_options;

typedef enum nsdae_impulse_verdict {
    NSDAE_IMPULSE_OK = 0,           /* a good solution: every restart state determined */
    NSDAE_IMPULSE_PARTIAL,          /* D6: (125) fails; some states determined (Corollary 1) */
    NSDAE_IMPULSE_UNDERDETERMINED,  /* D2: a dependent variable cannot be matched */
    NSDAE_IMPULSE_INCONSISTENT,     /* D3: must-enable equations conflict */
    NSDAE_IMPULSE_NOT_RESCALABLE,   /* D4: an impulsive variable inside a nonlinear term, mu = inf */
    NSDAE_IMPULSE_IMPULSIVE_STATE,  /* D5: a restart state would be impulsive */
    NSDAE_IMPULSE_SINGULAR_MODE     /* D1: a mode fails the Sigma-method */
} nsdae_impulse_verdict;

/* "ok", "partial", "underdetermined", "inconsistent", "not-rescalable", "impulsive-state",
 * "singular-mode" (the JSON words of issue 10). */
const char *nsdae_impulse_verdict_name(nsdae_impulse_verdict v);

typedef struct nsdae_impulse_diag {
    char code[4];                   /* "D1" .. "D8" */
    char *message;
    char **equations;               /* names of the array equations involved */
    int nequations;
    char **variables;               /* names of the array variables involved */
    int nvariables;
} nsdae_impulse_diag;

typedef enum nsdae_impulse_role {
    NSDAE_IMPULSE_PAST = 0,         /* fixed by the previous mode: renamed to its left limit */
    NSDAE_IMPULSE_HEAD,             /* auxiliary (rescaled) unknown of the restart system */
    NSDAE_IMPULSE_TAIL              /* at the last instant: a restart value */
} nsdae_impulse_role;

/* A variable of the mode change array: x_var^(order) shifted `shift` times. */
typedef struct nsdae_impulse_avar {
    int var, order, shift;
    nsdae_impulse_role role;
    int mu;                         /* impulse order (0 for past variables); -1: unknown/infinite */
    char *name;
} nsdae_impulse_avar;

/* A state x_var^(order), order < d_var of the new mode, and how its restart value is found. */
typedef struct nsdae_impulse_state {
    int var, order;
    int determined;                 /* 1 when the restart system (or continuity) fixes it */
    int continuous;                 /* 1: restart value = left limit (its tail variable is past) */
    int unknown;                    /* index of its restart unknown, or -1 */
    int tail_var;                   /* its array variable at the last instant (index in avars), or -1 */
} nsdae_impulse_state;

typedef struct nsdae_impulse_system nsdae_impulse_system;

typedef struct nsdae_impulse_result {
    nsdae_impulse_verdict verdict;
    int height;                     /* the K analysed last (the good one when verdict is OK) */
    int height_lo, height_hi;       /* K_* and K^* */
    nsdae_impulse_avar *avars;      /* every variable of the array at `height` */
    int navars;
    nsdae_impulse_diag *diags;
    int ndiags;
    nsdae_impulse_state *states;
    int nstates;
    char **restart_equations;       /* Procedure 1's A_* (on the determined part), printed */
    int nrestart_equations;
    nsdae_impulse_system *system;   /* the restart system for nsdae_impulse_restart, or NULL */
    nsdae_impulse_system *brute;    /* the unscaled array for nsdae_impulse_brute_force, or NULL
                                       (present whenever the matching covers the array) */
} nsdae_impulse_result;

/* Runs the analysis. NSDAE_OK with a verdict for every well-formed input; errors for bad input
 * and memory only. *out is destroyed by the caller. */
nsdae_status nsdae_impulse_analyze(const nsdae_impulse_input *in, const nsdae_impulse_options *opt,
                                   nsdae_impulse_result **out, nsdae_error *err);
void nsdae_impulse_result_destroy(nsdae_impulse_result *r);

/* mu of the array variable x_var^(order) at the given shift, or -2 when it is not in the array. */
int nsdae_impulse_mu(const nsdae_impulse_result *r, int var, int order, int shift);

/* ==== numeric restart ===================================================================== */

typedef struct nsdae_impulse_numeric {
    int iterations;                 /* Newton iterations used */
    double residual;                /* max-norm of the restart residual at the solution */
    int rank, n;                    /* numerical rank of the restart Jacobian, its size */
    double cond;                    /* its 2-norm condition number (INFINITY when singular) */
    int singular;                   /* D7: structurally regular, numerically singular */
    int nonlinear;                  /* the system is nonlinear in its unknowns: the solution
                                       found from the left limits is only locally unique */
    double step;                    /* max-norm distance from the left limits to the solution */
    double fact_residual;           /* the largest |residual| at the left limits of the facts the
                                       analysis assumed (the guard g, equations of the new mode the
                                       previous mode entailed); NAN when it assumed none */
    int fact_violated;              /* 1: a fact exceeds NSDAE_TOL_FACT (tolerances.h): the call
                                       returned NSDAE_INVALID_INPUT naming it, nothing solved */
} nsdae_impulse_numeric;

/* Solves the restart system at a left-limit state by Newton from the left limits. The facts the
 * analysis assumed are checked first (digest 1.4 Step D): left limits violating one (a rope not
 * taut, a state the previous mode does not satisfy) give NSDAE_INVALID_INPUT with the fact's name
 * and residual, num->fact_violated set and NAN outputs.
 * left[order * nvars + j] = (x_j^(order))^- for order 0 .. max_order (the previous mode's states
 * and whatever derivatives the equations need). Writes state_plus[k] = the restart value of
 * r->states[k] (NAN when undetermined) and, when aux is not NULL, aux[a] = the value of the
 * rescaled head variable r->avars[a] (e.g. e*lambda: the impulse), NAN for other variables.
 * A numerically singular system gives NSDAE_NUMERICAL (D7) with num->singular set; no
 * convergence gives NSDAE_NUMERICAL too. */
nsdae_status nsdae_impulse_restart(const nsdae_impulse_result *r, const double *left, int max_order,
                                   double *state_plus, double *aux, nsdae_impulse_numeric *num, nsdae_error *err);

/* The same at the event time t* = time: `time` in the equations (a time-dependent input, a time
 * guard's switching instant) is evaluated there; nsdae_impulse_restart is this at time 0. */
nsdae_status nsdae_impulse_restart_at(const nsdae_impulse_result *r, const double *left, int max_order, double time,
                                      double *state_plus, double *aux, nsdae_impulse_numeric *num, nsdae_error *err);

/* The brute-force fallback (the unscaled array at a small eps, as in Benveniste et al. 2021,
 * section 2.5.3): solves the unscaled matched array at a finite
 * eps > 0 by Newton from the left limits (past variables are the previous mode's Taylor
 * polynomials, x. = x + eps x'). Same outputs as nsdae_impulse_restart, except that aux[a] is the
 * head variable times eps^mu (comparable with the rescaled restart), or its raw value when mu is
 * unknown. Labelled brute force: it converges at O(eps) to the restart where the analysis succeeds,
 * and is ill-conditioned as eps -> 0 (the Euler identities scale as 1/eps^n). Available for D4. */
nsdae_status nsdae_impulse_brute_force(const nsdae_impulse_result *r, const double *left, int max_order, double eps,
                                       double *state_plus, double *aux, nsdae_impulse_numeric *num,
                                       nsdae_error *err);

/* ==== input from the mode module ============================================================ */

/* The storage behind an input built from the mode module (the three mode systems and the views
 * on them). Destroy with nsdae_impulse_modes_destroy after the analysis and its result. */
typedef struct nsdae_impulse_modes nsdae_impulse_modes;

/* Builds the analysis input of the mode change prev -> [transient] -> next of model m (choice arrays
 * of s->n entries as nsdae_mode_equations takes; transient NULL: no transient mode). The three
 * lists are the modes' equations as nsdae_mode_equations gives them, so an equation common to two
 * modes has the same residual pointer. Equations are named by their source text (or the choice,
 * "rope = 0"). pool: the input's pool, extending nsdae_model_pool(m) (nsdae_expr_pool_create_over;
 * the caller destroys it after the result): residuals the mode systems built in their own pools
 * are rebuilt there. guard: as nsdae_impulse_input.guard (see nsdae_impulse_guard). Parameters are the
 * model's current values. Sliding (relaxed) modes are refused (NSDAE_INVALID_INPUT): their
 * relaxation unknowns would collide with the pre() leaves. *in is a view on *store. */
nsdae_status nsdae_impulse_input_from_modes(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool,
                                            const int *prev, const int *transient, const int *next, const nsdae_expr *guard,
                                            nsdae_impulse_input *in, nsdae_impulse_modes **store,
                                            nsdae_error *err);
void nsdae_impulse_modes_destroy(nsdae_impulse_modes *store);

/* The guard of the long mode change prev -> next, in the previous mode's states (*guard is a
 * node of the model's pool or of pool, which extends it):
 *   - a complementarity switch closing (multiplier side -> gap side): the gap a; opening: the
 *     multiplier b (it crosses zero at the release, so the new mode's b = 0 is a fact);
 *   - a state `if` moving between branches i and j: the switching function of condition min(i, j)
 *     (the one that becomes true or false);
 *   - a relay entering its sliding choice: its argument;
 *   - exogenous (`if` on time) or a relay leaving sliding: NULL, no facts.
 * pre() in a condition reads the left limit (the value itself in the previous mode). An unknown that
 * the previous mode determines algebraically by an equation affine in it (s = L^2 - (x^2 + y^2)) is
 * replaced by its solution, so the guard is in the previous mode's states and its facts are found.
 * A condition with and/or has no single switching function: which comparison crosses depends on
 * the state, so that change is analysed without facts (NULL, as an exogenous one: conservative).
 * NSDAE_INVALID_INPUT when two switches that would each give a guard change together. */
nsdae_status nsdae_impulse_guard(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool, const int *prev,
                                 const int *next,
                                 const nsdae_expr **guard, nsdae_error *err);

/* The guard of the `when` switch k firing from the long mode prev: the switching function of its
 * condition (positive when it holds), pre() read as the left limit, in prev's states as
 * nsdae_impulse_guard gives it. A `when` whose guard is the guard of a long change prev -> next (up to
 * sign) fires at that change: the cascade prev -> [next with k fired] -> next; one that matches no
 * long change gives prev -> [prev with k fired] -> prev. NSDAE_INVALID_INPUT when k is no `when` or
 * its condition is an and/or. */
nsdae_status nsdae_impulse_when_guard(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool,
                                      const int *prev, int k, const nsdae_expr **guard, nsdae_error *err);

/* Newton's impact law of the complementarity switch k (a contact `0 <= a _|_ b >= 0 restitution e`,
 * Benveniste et al. 2026, (201)): 0 = d/dt a + e pre(d/dt a), the left limits as NSDAE_IMPULSE_PRE leaves. With it
 * in the transient mode (the closed contact's equations plus the law), a closing contact is the
 * cascade free -> transient -> free (e > 0). NSDAE_INVALID_INPUT when switch k is not a
 * complementarity with a restitution. *law is built in pool (extending the model's). */
nsdae_status nsdae_impulse_newton_law(const nsdae_model *m, const nsdae_switches *s, nsdae_expr_pool *pool, int k,
                                      const nsdae_expr **law, nsdae_error *err);

/* Appends residual (named name, kept by pointer) to the transient list of an input built by
 * nsdae_impulse_input_from_modes with a transient mode; in is updated. */
nsdae_status nsdae_impulse_modes_add_transient(nsdae_impulse_modes *store, nsdae_impulse_input *in,
                                               const nsdae_expr *residual, const char *name, nsdae_error *err);

/* ==== mode changes along a time-stepping run ================================================= */

/* A time stepper crosses mode changes without locating them; where the analysis says the model does
 * not determine the restart (partial, underdetermined), the minimal-norm scheme's pick there is a
 * regularisation, not physics (issue 10, digest 1.13 [IMPL]). The watch reads each step's long mode
 * off its values (a complementarity row closed when its multiplier side is positive, open when its
 * gap side is; a relay at hi, lo or strictly inside (sliding); an `if` by its conditions; a row that
 * does not tell, such as a grazing contact or a state on its guard's surface, keeps its previous
 * choice) and analyses each new (from, to) pair once (nsdae_impulse_guard, input_from_modes,
 * analyze, without transient modes: the MLCS steppers have none). Cost: a few expression
 * evaluations per step; nothing at all for a model without switches. */
typedef struct nsdae_impulse_watch nsdae_impulse_watch;

#define NSDAE_IMPULSE_CODE_MAX 128

typedef struct nsdae_impulse_crossing {
    double t;                                   /* the step that entered the new mode */
    char from[NSDAE_IMPULSE_CODE_MAX], to[NSDAE_IMPULSE_CODE_MAX];   /* mode codes (nsdae analyze --mode) */
    nsdae_impulse_verdict verdict;
    int analysis_failed;                        /* 1: the change could not be analysed (message says why);
                                                   reported for the first such change only */
    char message[512];                          /* the first diagnostic, or why the analysis failed */
} nsdae_impulse_crossing;

/* m must outlive the watch (its expressions are used). */
nsdae_status nsdae_impulse_watch_create(const nsdae_model *m, nsdae_impulse_watch **out, nsdae_error *err);

/* One step: x[order * nvars + j] = x_j^(order) at time t, orders 0 .. max_order (NAN where not
 * known). Returns 1 and fills *c when the step entered a new mode through a (from, to) pair met for
 * the first time that the analysis calls partial or underdetermined, or that could not be analysed
 * (once per run); 0 otherwise (the first step only sets the mode). */
int nsdae_impulse_watch_step(nsdae_impulse_watch *w, double t, const double *x, int max_order,
                             nsdae_impulse_crossing *c);
void nsdae_impulse_watch_destroy(nsdae_impulse_watch *w);

#ifdef __cplusplus
}
#endif

#endif
