/* The model's numbers are finite: a parameter or start value that evaluates to NaN or Inf
 * (1/0, 10^400, exp(1000), log(-2)) is refused where it is written, instead of surfacing later as
 * a non-finite matrix entry that names nothing the user wrote. */
#include <nsdae/model.h>

#include <math.h>
#include <stdio.h>

static nsdae_status not_finite(const nsdae_model *m, nsdae_srcpos pos, const char *what, const char *name,
                               const nsdae_expr *e, double v, nsdae_error *err)
{
    char text[160];
    nsdae_model_print_expr(m, e, text, sizeof text);
    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "%s:%d:%d: %s '%s' = %s evaluates to %g: it must be finite",
                           nsdae_model_filename(m) ? nsdae_model_filename(m) : "model", pos.line, pos.col, what, name,
                           text, v);
}

nsdae_status nsdae_model_check_finite(const nsdae_model *m, nsdae_error *err)
{
    for (int k = 0; k < nsdae_model_nparams(m); k++) {
        const nsdae_param *p = nsdae_model_param(m, k);
        /* an overridden value was checked by nsdae_model_set_param; a parameter computed from it
         * is checked here with the override in place */
        if (!isfinite(p->value)) return not_finite(m, p->pos, "parameter", p->name, p->expr, p->value, err);
    }
    for (int j = 0; j < nsdae_model_nvars(m); j++) {
        const nsdae_var *v = nsdae_model_var(m, j);
        for (int order = 0; order < 2; order++) {
            double x = nsdae_model_start_value(m, j, order);
            if (!isfinite(x))
                return not_finite(m, v->pos, order ? "the dstart value of" : "the start value of", v->name,
                                  order ? v->dstart : v->start, x, err);
        }
    }
    return NSDAE_OK;
}
