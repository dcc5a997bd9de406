/* nsdae expression tape: a batch of expressions of the model DAG (nsdae/model.h) compiled once
 * into a flat instruction list, evaluated many times (residuals, Jacobians and root functions
 * at every Newton iteration of an engine; the callbacks of a translated system).
 *
 *   values[i] = exprs[i](x, params, time)                       i < nexprs
 *   jac[i + j*nexprs] = d exprs[i] / d wrt[j]   (column-major)   j < nwrt
 *
 * The leaves the batch may read are named by the caller: inputs[k] = (var, order) is read from
 * x[k], so the numbering of x is the caller's (a system's coordinates, a solver's vector), not
 * the model's. The Jacobian columns are symbolic derivatives (nsdae_expr_diff, same one-sided
 * choices at kinks) compiled into the same tape: a subexpression shared by several values and
 * derivatives (sin(q) in a force and in its derivative, a gap in its gradient) is one instruction,
 * evaluated once. Instructions run in increasing node id, which is a topological order.
 *
 * A tape copies everything it needs (operations, constants, leaf slots): it does not refer to the
 * pool after nsdae_tape_create, so it may outlive the model.
 */
#ifndef NSDAE_TAPE_H
#define NSDAE_TAPE_H

#include <nsdae/model.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What to compile: views on caller arrays, read during nsdae_tape_create only. */
typedef struct nsdae_tape_spec {
    const nsdae_expr *const *exprs; /* nexprs >= 0 expressions, non-NULL, repeats allowed */
    int nexprs;
    const nsdae_leaf *inputs;       /* ninputs distinct leaves (var >= 0, order >= 0); may be NULL if 0 */
    int ninputs;
    int nparams;                    /* PARAM leaves must have index < nparams (read from params) */
    const nsdae_leaf *wrt;          /* nwrt Jacobian columns, each one of the inputs; NULL if 0 */
    int nwrt;                       /* 0: values only */
} nsdae_tape_spec;

typedef struct nsdae_tape nsdae_tape;

/* Compiles spec. pool is where the derivative expressions are built: it must hold (or extend, see
 * nsdae_expr_pool_create_over) the pool of exprs; it may be NULL when nwrt == 0. Errors:
 * INVALID_INPUT when an expression reads a leaf that is not one of the inputs ("unknown
 * variable"), a parameter index >= nparams, a Jacobian column that is not an input, repeated
 * inputs, or bad sizes; NOMEM. Cost: O(max id of the batch) memory and time once, plus
 * nexprs * nwrt symbolic derivatives (each linear in the size of its expression). */
nsdae_status nsdae_tape_create(nsdae_expr_pool *pool, const nsdae_tape_spec *spec, nsdae_tape **out,
                               nsdae_error *err);
void nsdae_tape_destroy(nsdae_tape *t);   /* NULL is a no-op */

/* Where to evaluate: views on caller arrays. */
typedef struct nsdae_tape_point {
    const double *x;        /* ninputs values: x[k] is inputs[k]; may be NULL if ninputs == 0 */
    const double *params;   /* nparams values; may be NULL if nparams == 0 */
    double time;
} nsdae_tape_point;

/* Evaluates the batch at `at`: values (nexprs entries) and, when jac != NULL, the Jacobian
 * (nexprs x nwrt, column-major). Either output may be NULL; with jac == NULL only the
 * instructions the values need run. NaN policy: a NaN or infinite value of an input the batch
 * reads (an x[k] whose leaf occurs, a parameter, the time) is refused with INVALID_INPUT naming
 * it, and nothing is written; inputs the batch does not read are not looked at. A domain error
 * inside the batch (log of a negative, 0/0) gives NaN in the affected outputs with status OK, as
 * nsdae_expr_eval: the caller decides what a non-finite output means. Cost O(instructions), no
 * allocation. Not thread safe: the tape owns its work array (one tape per thread). */
nsdae_status nsdae_tape_eval(nsdae_tape *t, const nsdae_tape_point *at, double *values, double *jac,
                             nsdae_error *err);

/* Sizes, for callers and for tests of the sharing. */
typedef struct nsdae_tape_info {
    int nexprs, ninputs, nparams, nwrt;
    int nodes;          /* distinct DAG nodes in the tape (values and derivatives), each evaluated once */
    int value_nodes;    /* of which the values need (run when jac == NULL) */
    int constants;      /* of the nodes, constants (stored once, never re-evaluated) */
} nsdae_tape_info;

void nsdae_tape_get_info(const nsdae_tape *t, nsdae_tape_info *info);

#ifdef __cplusplus
}
#endif

#endif
