/* nsdae model stage: the .nsm language (examples/LANGUAGE.md), its IR, and the expression DAG.
 *
 * A model is parsed into an IR that keeps, for the analyses (structural, impulse) and the
 * translation to an MLCS:
 *   - the unknowns (`var`), with the highest derivative order used anywhere and start/dstart;
 *   - the parameters (overridable before translation);
 *   - the equations in source order, each with a stable index, its source position and text,
 *     its kind (equality, complementarity, sign membership) and its guard context (which branch
 *     of which `if`/`when` block it belongs to; blocks nest);
 *   - every expression as a node of a hash-consed DAG owned by the model's expression pool:
 *     structurally equal subexpressions are the same node, so pointer equality is equality.
 *
 * Derivatives are explicit leaves: a VAR node carries (variable index, derivative order), with
 * der(x) -> order 1, der(der(x)) -> order 2. Nothing is index-reduced or rewritten at this stage.
 */
#ifndef NSDAE_MODEL_H
#define NSDAE_MODEL_H

#include <stddef.h>

#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== expression DAG ==================================================================== */

typedef enum nsdae_expr_kind {
    NSDAE_EXPR_CONST = 0, /* value */
    NSDAE_EXPR_PARAM,     /* index: parameter index (its value is looked up at evaluation) */
    NSDAE_EXPR_VAR,       /* index: variable index, order: derivative order (0 = x, 1 = der(x), ...) */
    NSDAE_EXPR_TIME,      /* `time` */
    NSDAE_EXPR_ADD,       /* a + b */
    NSDAE_EXPR_SUB,       /* a - b */
    NSDAE_EXPR_MUL,       /* a * b */
    NSDAE_EXPR_DIV,       /* a / b */
    NSDAE_EXPR_POW,       /* a ^ b */
    NSDAE_EXPR_NEG,       /* -a */
    NSDAE_EXPR_SIN,       /* unary functions of a */
    NSDAE_EXPR_COS,
    NSDAE_EXPR_EXP,
    NSDAE_EXPR_LOG,
    NSDAE_EXPR_SQRT,
    NSDAE_EXPR_ABS,
    NSDAE_EXPR_SIGN,      /* the single-valued sign: sign(0) = 0 (set-valued sign is a relation) */
    NSDAE_EXPR_MIN,       /* binary functions of a, b */
    NSDAE_EXPR_MAX,
    NSDAE_EXPR_PRE        /* pre(a): the left limit of a at an event (only in `when` branches and
                             guards). Evaluates as a (a guard is read on the left-limit state);
                             its derivative with respect to the current unknowns and time is 0;
                             the impulse analysis renames its leaves to past variables */
} nsdae_expr_kind;

#define NSDAE_EXPR_KIND_COUNT (NSDAE_EXPR_PRE + 1)

/* A node. Read-only for users: nodes are created and owned by a pool, never freed singly.
 * Children always have a smaller `id` than their parent (ids follow creation order), so
 * visiting ids in increasing order is a topological order. */
typedef struct nsdae_expr {
    nsdae_expr_kind kind;
    int id;                     /* dense index in the pool, 0 .. nsdae_expr_pool_size()-1 */
    double value;               /* CONST */
    int index;                  /* PARAM, VAR */
    int order;                  /* VAR: derivative order >= 0 */
    const struct nsdae_expr *a; /* first operand (unary and binary kinds) */
    const struct nsdae_expr *b; /* second operand (binary kinds) */
    unsigned flags;             /* NSDAE_EXPR_HAS_* summary of the subtree */
} nsdae_expr;

#define NSDAE_EXPR_HAS_VAR   1u  /* depends on some unknown (any derivative order) */
#define NSDAE_EXPR_HAS_TIME  2u  /* depends on `time` */
#define NSDAE_EXPR_HAS_PARAM 4u  /* depends on a parameter */
#define NSDAE_EXPR_NONSMOOTH 8u  /* contains abs, sign, min or max */
#define NSDAE_EXPR_HAS_PRE   16u /* contains pre() */
#define NSDAE_EXPR_HAS_ORDER3 32u /* contains a derivative of order 3 or more (a summary that spares
                                     a walk per variable to find one) */

typedef struct nsdae_expr_pool nsdae_expr_pool;

nsdae_status nsdae_expr_pool_create(nsdae_expr_pool **out, nsdae_error *err);
/* A pool that extends base without writing into it: base's nodes are found (pointer equality
 * holds across the two), new nodes live in the new pool and take ids after base's. This is how a
 * stage builds expressions on a model's (nsdae_model_pool is read-only): the new pool lives as long
 * as the expressions built in it, and base must outlive it and not grow meanwhile (the
 * constructors of the new pool return NULL and mark it failed if base grew). Several pools may
 * extend one base at once, in different threads: base is only read. */
nsdae_status nsdae_expr_pool_create_over(const nsdae_expr_pool *base, nsdae_expr_pool **out, nsdae_error *err);
void nsdae_expr_pool_destroy(nsdae_expr_pool *pool);
size_t nsdae_expr_pool_size(const nsdae_expr_pool *pool);   /* ids in use, base's included */

/* Constructors: hash-consed and lightly simplified on the fly (constant folding, x+0, x*1, x*0,
 * x-x, --x, ...). They return NULL when out of memory or when an operand is NULL, so that a
 * chain of constructors needs one NULL check at the end; the pool then remembers the failure
 * (nsdae_expr_pool_failed). Binary kinds: ADD SUB MUL DIV POW MIN MAX; unary: NEG and the
 * functions SIN .. SIGN, and PRE. */
const nsdae_expr *nsdae_expr_const(nsdae_expr_pool *pool, double value);
const nsdae_expr *nsdae_expr_param(nsdae_expr_pool *pool, int index);
const nsdae_expr *nsdae_expr_var(nsdae_expr_pool *pool, int index, int order);
const nsdae_expr *nsdae_expr_time(nsdae_expr_pool *pool);
const nsdae_expr *nsdae_expr_unary(nsdae_expr_pool *pool, nsdae_expr_kind kind, const nsdae_expr *a);
const nsdae_expr *nsdae_expr_binary(nsdae_expr_pool *pool, nsdae_expr_kind kind, const nsdae_expr *a,
                                    const nsdae_expr *b);
int nsdae_expr_pool_failed(const nsdae_expr_pool *pool);

/* Values for evaluation. vars[order * nvars + j] is the value of the order-th derivative of
 * variable j, for order 0 .. max_order; params[k] the value of parameter k. */
typedef struct nsdae_eval_env {
    const double *params;
    int nparams;
    const double *vars;
    int nvars;
    int max_order;
    double time;
} nsdae_eval_env;

/* Evaluates e. A leaf outside env (index or order out of range), a domain error, or running out
 * of memory gives NaN, which the caller tests with isnan(). Never fails otherwise. A walk of the
 * tree with explicit stacks (no recursion: any depth works); a subexpression shared by several
 * paths is walked once per path. To evaluate a batch, or repeatedly, or a DAG with much sharing,
 * compile it once into a tape (nsdae/tape.h): every node once, no allocation per evaluation. */
double nsdae_expr_eval(const nsdae_expr *e, const nsdae_eval_env *env);

/* Partial derivative of e with respect to the leaf (variable var, derivative order order),
 * simplified. abs' = sign, sign' = 0, max(a,b)' = (a'+b')/2 + sign(a-b)(a'-b')/2: the one-sided
 * choices at kinks are those of the single-valued sign. */
nsdae_status nsdae_expr_diff(nsdae_expr_pool *pool, const nsdae_expr *e, int var, int order,
                             const nsdae_expr **out, nsdae_error *err);

/* Total derivative with respect to time: every VAR leaf (j, k) becomes (j, k+1) by the chain
 * rule, d time/dt = 1, parameters are constant. */
nsdae_status nsdae_expr_dt(nsdae_expr_pool *pool, const nsdae_expr *e, const nsdae_expr **out, nsdae_error *err);

/* Rebuilds e through the simplifying constructors; with params != NULL, parameter leaves are
 * replaced by their values first (so that the result folds to constants where possible). */
nsdae_status nsdae_expr_simplify(nsdae_expr_pool *pool, const nsdae_expr *e, const double *params, int nparams,
                                 const nsdae_expr **out, nsdae_error *err);

/* Replaces every VAR leaf (var, order) by repl (used to eliminate or rename unknowns). */
nsdae_status nsdae_expr_substitute(nsdae_expr_pool *pool, const nsdae_expr *e, int var, int order,
                                   const nsdae_expr *repl, const nsdae_expr **out, nsdae_error *err);

/* Highest derivative order of variable var in e; -1 when var does not occur. */
int nsdae_expr_max_order(const nsdae_expr *e, int var);

/* Whether e depends on any VAR leaf (any variable, any order). */
int nsdae_expr_has_var(const nsdae_expr *e);

/* Prints e in .nsm syntax (der(x), der(der(x)), fully parenthesised only where needed) into
 * buf (always NUL-terminated, truncated with "..." when too small). Names: var_names[j],
 * param_names[k]; NULL arrays or out-of-range indices print as v12 / p3. Returns the length the
 * full text would need (like snprintf). */
size_t nsdae_expr_print(const nsdae_expr *e, const char *const *var_names, int nvars,
                        const char *const *param_names, int nparams, char *buf, size_t size);

/* ==== affine decomposition ============================================================== */

/* A leaf of the decomposition: the order-th derivative of variable var. */
typedef struct nsdae_leaf {
    int var;
    int order;
} nsdae_leaf;

/* Writes e = sum_k coef[k] * leaf_k + rest, where no coef[k] and not rest depends on any of the
 * nleaves leaves (they may depend on parameters, time, and on other variables). When e is not
 * affine in the leaves, returns NSDAE_UNSUPPORTED with a message that prints the offending
 * term, e.g. "nonlinear term 'x1*z' in the unknowns". coef has nleaves entries. Names are used
 * only for the message (may be NULL). */
nsdae_status nsdae_expr_affine(nsdae_expr_pool *pool, const nsdae_expr *e, const nsdae_leaf *leaves, int nleaves,
                               const char *const *var_names, int nvars, const char *const *param_names,
                               int nparams, const nsdae_expr **coef, const nsdae_expr **rest, nsdae_error *err);

/* ==== model IR ========================================================================== */

typedef struct nsdae_model nsdae_model;

typedef struct nsdae_srcpos {
    int line, col;                  /* 1-based */
} nsdae_srcpos;

typedef struct nsdae_var {
    const char *name;
    nsdae_srcpos pos;
    int max_order;                  /* highest derivative order used in any equation or guard;
                                       -1 when the variable is declared but never used */
    const nsdae_expr *start;        /* start = EXPR, or NULL (then 0) */
    const nsdae_expr *dstart;       /* dstart = EXPR (start of der(x)), or NULL (then 0) */
} nsdae_var;

typedef struct nsdae_param {
    const char *name;
    nsdae_srcpos pos;
    const nsdae_expr *expr;         /* its defining expression (may use earlier parameters) */
    double value;                   /* current value: from expr, or the override */
    int overridden;                 /* set by nsdae_model_set_param */
} nsdae_param;

typedef enum nsdae_cond_kind {
    NSDAE_COND_GT = 0,              /* lhs > rhs */
    NSDAE_COND_GE,
    NSDAE_COND_LT,
    NSDAE_COND_LE,
    NSDAE_COND_AND,                 /* a and b */
    NSDAE_COND_OR,
    NSDAE_COND_NOT                  /* not a */
} nsdae_cond_kind;

typedef struct nsdae_cond {
    nsdae_cond_kind kind;
    const nsdae_expr *lhs, *rhs;    /* comparisons */
    const struct nsdae_cond *a, *b; /* AND, OR: a, b; NOT: a */
    nsdae_srcpos pos;
} nsdae_cond;

typedef enum nsdae_block_kind {
    NSDAE_BLOCK_IF = 0,             /* if c1 then .. elseif c2 then .. else .. end if */
    NSDAE_BLOCK_WHEN                /* when c then .. end when: transient mode (Benveniste et al. 2026, section 9) */
} nsdae_block_kind;

typedef struct nsdae_block {
    int index;
    nsdae_block_kind kind;
    nsdae_srcpos pos;
    int parent, parent_branch;      /* enclosing block and branch, or -1, -1 at top level */
    int nbranches;                  /* IF: number of conditions + 1 (the else); WHEN: 1, or 2 with
                                       an else branch (branch 1: the long mode's equations) */
    const nsdae_cond *const *conds; /* IF: nbranches - 1 conditions (branch k holds when conds[k]
                                       is true and no earlier one is); WHEN: 1 condition */
    int neqs;                       /* equations per branch, nested blocks counted (WHEN: of the
                                       then branch) */
    int time_only;                  /* 1: every condition depends on time and parameters only
                                       (an exogenous switch); 0: on some unknown (a state switch) */
    int neqs_else;                  /* WHEN with an else branch: its equations (they count in the
                                       enclosing branch, the then branch's do not); else 0 */
} nsdae_block;

typedef enum nsdae_eq_kind {
    NSDAE_EQ_EQUAL = 0,             /* lhs = rhs */
    NSDAE_EQ_COMPL,                 /* 0 <= a _|_ b >= 0 [restitution e] [friction mu tangent s force f] */
    NSDAE_EQ_SIGN                   /* var in [lo, hi] * sign(arg) (lo, hi default -1, 1) */
} nsdae_eq_kind;

typedef struct nsdae_equation {
    int index;                      /* stable: position in source order, 0-based */
    nsdae_eq_kind kind;
    nsdae_srcpos pos;
    const char *text;               /* the source text of the equation, without the ';' */

    int block, branch;              /* innermost enclosing block and its branch, or -1, -1 */

    const nsdae_expr *lhs, *rhs;    /* EQUAL */
    const nsdae_expr *residual;     /* EQUAL: lhs - rhs; COMPL: NULL; SIGN: NULL */

    const nsdae_expr *a, *b;        /* COMPL: the two sides */
    const nsdae_expr *restitution;  /* COMPL: NULL when absent */
    /* COMPL, 2-D Coulomb friction (NULL when absent): the coefficient mu (constant), the sliding
     * coordinate s(q) whose time derivative is the tangential velocity, and the tangential force
     * (the unknown that enters the equations of motion as grad s(q)^T f). */
    const nsdae_expr *friction, *tangent, *tforce;

    int var;                        /* SIGN: the variable index (order 0) */
    const nsdae_expr *arg;          /* SIGN: the argument of sign */
    const nsdae_expr *lo, *hi;      /* SIGN: bounds (constants -1, 1 when absent) */
} nsdae_equation;

typedef struct nsdae_experiment {
    double stop, step;              /* <= 0: unset */
    const char *scheme;             /* NULL: unset */
    double theta, gamma;            /* <= 0: unset; else in [1/2, 1] */
} nsdae_experiment;

/* Parses and lowers a model. filename is used in messages only. Syntax and naming errors give
 * NSDAE_PARSE with "file:line:col: message". Never crashes or hangs: input size, nesting depth,
 * and counts are bounded (NSDAE_PARSE with a message when exceeded). */
nsdae_status nsdae_model_parse_string(const char *text, size_t length, const char *filename, nsdae_model **out,
                                      nsdae_error *err);
nsdae_status nsdae_model_parse_file(const char *path, nsdae_model **out, nsdae_error *err);
void nsdae_model_destroy(nsdae_model *m);

const char *nsdae_model_name(const nsdae_model *m);
const char *nsdae_model_filename(const nsdae_model *m);
/* The model's expressions, read-only: to build new expressions on them (derivatives,
 * substitutions), extend it with nsdae_expr_pool_create_over. */
const nsdae_expr_pool *nsdae_model_pool(const nsdae_model *m);

int nsdae_model_nvars(const nsdae_model *m);
const nsdae_var *nsdae_model_var(const nsdae_model *m, int index);
int nsdae_model_find_var(const nsdae_model *m, const char *name);      /* -1 if absent */
const char *const *nsdae_model_var_names(const nsdae_model *m);         /* nvars entries */

int nsdae_model_nparams(const nsdae_model *m);
const nsdae_param *nsdae_model_param(const nsdae_model *m, int index);
int nsdae_model_find_param(const nsdae_model *m, const char *name);    /* -1 if absent */
const char *const *nsdae_model_param_names(const nsdae_model *m);       /* nparams entries */
const double *nsdae_model_param_values(const nsdae_model *m);           /* nparams entries */

/* Overrides a parameter (--param NAME=VALUE); parameters defined from it and not themselves
 * overridden are recomputed. Unknown name or non-finite value: NSDAE_INVALID_INPUT.
 * A parameter that sizes an array, bounds a loop or indexes an element is read while parsing:
 * overriding it parses the model again with every override so far (NSDAE_PARSE with
 * file:line:col when the new value is not a valid size, the model then unchanged); m stays the
 * same handle, but variables, equations and expressions obtained from it before are invalid. */
nsdae_status nsdae_model_set_param(nsdae_model *m, const char *name, double value, nsdae_error *err);

int nsdae_model_nequations(const nsdae_model *m);
const nsdae_equation *nsdae_model_equation(const nsdae_model *m, int index);

int nsdae_model_nblocks(const nsdae_model *m);
const nsdae_block *nsdae_model_block(const nsdae_model *m, int index);

const nsdae_experiment *nsdae_model_experiment(const nsdae_model *m);

/* Start value of the order-th derivative of variable var (order 0: start, 1: dstart, else 0),
 * evaluated with the current parameter values. */
double nsdae_model_start_value(const nsdae_model *m, int var, int order);

/* The equations of a mode: see nsdae/mode.h (nsdae_mode_equations). */

/* Evaluates a condition at given values (env->params are typically nsdae_model_param_values). */
int nsdae_cond_eval(const nsdae_cond *c, const nsdae_eval_env *env);

/* Whether c depends on some unknown (0: on time and parameters only). */
int nsdae_cond_has_var(const nsdae_cond *c);

/* NSDAE_INVALID_INPUT when a parameter, start or dstart value (current parameter values) is NaN
 * or Inf, naming it with file:line:col and its expression; the translations call it first. */
nsdae_status nsdae_model_check_finite(const nsdae_model *m, nsdae_error *err);

/* Prints an expression with the model's names (see nsdae_expr_print). */
size_t nsdae_model_print_expr(const nsdae_model *m, const nsdae_expr *e, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
