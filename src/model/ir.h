/* The model IR as built by the parser (internal layout of nsdae_model). */
#ifndef NSDAE_MODEL_IR_H
#define NSDAE_MODEL_IR_H

#include <nsdae/model.h>

#include "model/names.h"

/* An array of unknowns or parameters (`var z[N];`, `parameter m[N] = ...;`). Arrays exist only
 * while parsing and for naming: each element is an ordinary scalar unknown or parameter named
 * "z[k]" (k = 1..size, indices first .. first+size-1), so that translation, analysis and the
 * steppers see scalars only. */
typedef struct nsdae_ir_array {
    char *name;
    nsdae_srcpos pos;
    int is_param;
    int first, size;
} nsdae_ir_array;

/* A parameter override given before parsing (the values of size parameters must be known while
 * the arrays are built and the loops unrolled). */
typedef struct nsdae_ir_override {
    const char *name;
    double value;
} nsdae_ir_override;

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

    nsdae_ir_array *arrays;
    int narrays, cap_arrays;
    name_table names;            /* every declared name, see names.h */

    /* Parameters whose value the parser used to build the model (array sizes, loop bounds,
     * indices, and the parameters those are defined from): overriding one re-parses the source
     * with every override so far. One flag per parameter. */
    unsigned char *param_structural;
    char *source;                /* a copy of the model text, for that re-parse */
    size_t source_len;
};

/* Builder used by the parser. All return NSDAE_OK or NSDAE_NOMEM. */
nsdae_status nsdae_ir_create(const char *filename, nsdae_model **out, nsdae_error *err);
nsdae_status nsdae_ir_add_var(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos, nsdae_error *err);
nsdae_status nsdae_ir_add_param(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos,
                                const nsdae_expr *value, nsdae_error *err);
/* Adds the array record (its elements are added after with nsdae_ir_add_var/_param). */
nsdae_status nsdae_ir_add_array(nsdae_model *m, const char *name, size_t len, nsdae_srcpos pos, int is_param,
                                int first, int size, nsdae_error *err);
/* Marks the parameters e uses, and those their definitions use, as structural. */
void nsdae_ir_mark_structural(nsdae_model *m, const nsdae_expr *e);
nsdae_status nsdae_ir_add_equation(nsdae_model *m, const nsdae_equation *eq, nsdae_error *err);
nsdae_status nsdae_ir_add_block(nsdae_model *m, const nsdae_block *b, int *index, nsdae_error *err);
nsdae_cond *nsdae_ir_new_cond(nsdae_model *m);

/* After parsing: derivative orders of the variables, parameter values, experiment values.
 * Linear in the size of the model's expressions. */
nsdae_status nsdae_ir_finish(nsdae_model *m, nsdae_error *err);

/* Parses text with parameter overrides applied as the parameters are declared (parser.c). */
nsdae_status nsdae_model_parse_with(const char *text, size_t length, const char *filename,
                                    const nsdae_ir_override *ov, int nov, nsdae_model **out, nsdae_error *err);

#endif
