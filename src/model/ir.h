/* The model IR as built by the parser (internal layout of nsdae_model). */
#ifndef NSDAE_MODEL_IR_H
#define NSDAE_MODEL_IR_H

#include <nsdae/model.h>

struct nsdae_model {
    char *name, *filename;
    nsdae_expr_pool *pool;

    nsdae_var *vars;
    char **var_names;
    int nvars, cap_vars;

    nsdae_param *params;
    char **param_names;
    double *param_values;
    int nparams, cap_params;

    nsdae_equation *eqs;
    int neqs, cap_eqs;

    nsdae_block *blocks;
    int nblocks, cap_blocks;

    nsdae_cond **conds;          /* every condition node, for freeing */
    int nconds, cap_conds;

    nsdae_experiment experiment;
    const nsdae_expr *stop_expr, *step_expr, *theta_expr, *gamma_expr; /* re-evaluated when parameters change */
};

/* Builder used by the parser. All return NSDAE_OK or NSDAE_NOMEM. */
nsdae_status nsdae_ir_create(const char *filename, nsdae_model **out, nsdae_error *err);
nsdae_status nsdae_ir_add_var(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos, nsdae_error *err);
nsdae_status nsdae_ir_add_param(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos,
                                const nsdae_expr *value, nsdae_error *err);
nsdae_status nsdae_ir_add_equation(nsdae_model *m, const nsdae_equation *eq, nsdae_error *err);
nsdae_status nsdae_ir_add_block(nsdae_model *m, const nsdae_block *b, int *index, nsdae_error *err);
nsdae_cond *nsdae_ir_new_cond(nsdae_model *m);

/* After parsing: derivative orders of the variables, parameter values, experiment values. */
void nsdae_ir_finish(nsdae_model *m);

#endif
