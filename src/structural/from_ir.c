/* One mode of a model IR, analysed: its equations (from the mode module), its unknowns, its
 * signature matrix from the expression DAG, the structural analysis, and the numeric check with the
 * IR's symbolic derivatives evaluated at the start values. One function per job, called in that
 * order by nsdae_structural_mode_analyze. */
#include <nsdae/structural.h>
#include <nsdae/tape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 256

void nsdae_structural_deriv_name(const char *var, int order, char *buf, size_t size)
{
    if (order == 0) snprintf(buf, size, "%s", var);
    else if (order == 1) snprintf(buf, size, "der(%s)", var);
    else if (order == 2) snprintf(buf, size, "der(der(%s))", var);
    else snprintf(buf, size, "der(%s, %d)", var, order);
}

void nsdae_structural_mode_destroy(nsdae_structural_mode *md)
{
    if (!md) return;
    for (int j = 0; md->var_names && j < md->nvar; j++) free(md->var_names[j]);
    free(md->var_names);
    free(md->choice);
    free(md->code);
    free(md->label);
    free(md->residual);
    free(md->origin);
    nsdae_sigma_destroy(md->sigma);
    nsdae_structural_result_destroy(md->result);
    nsdae_expr_pool_destroy(md->pool);
    free(md);
}

/* 1. The mode record: its code, its label, and the choices. */
static nsdae_status describe(nsdae_structural_mode *md, const nsdae_model *m, const nsdae_switches *sw,
                             const int *choice, nsdae_error *err)
{
    char code[TEXT_SIZE];
    md->nswitches = sw->n;
    md->choice = malloc(((size_t)sw->n + 1) * sizeof *md->choice);
    if (!md->choice) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    memcpy(md->choice, choice, (size_t)sw->n * sizeof *choice);
    nsdae_mode_format(sw, choice, code, sizeof code);
    if (!(md->code = strdup(code))) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    return nsdae_mode_label(m, sw, choice, &md->label, err);
}

/* 2. Equations (the mode module's residuals) and unknowns (the model's, then the relaxations). */
static nsdae_status take_equations(nsdae_structural_mode *md, const nsdae_model *m, const nsdae_mode_system *ms,
                                   nsdae_error *err)
{
    int nv = nsdae_model_nvars(m);
    md->neq = ms->neq;
    md->nrelax = ms->nrelax;
    md->nvar = nv + ms->nrelax;
    md->residual = malloc(((size_t)ms->neq + 1) * sizeof *md->residual);
    md->origin = malloc(((size_t)ms->neq + 1) * sizeof *md->origin);
    md->var_names = calloc((size_t)md->nvar + 1, sizeof *md->var_names);
    if (!md->residual || !md->origin || !md->var_names)
        return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    for (int i = 0; i < ms->neq; i++) {
        md->residual[i] = ms->eqs[i].residual;
        md->origin[i] = ms->eqs[i].origin;
    }
    for (int j = 0; j < md->nvar; j++) {
        const char *name = j < nv ? nsdae_model_var(m, j)->name : ms->relax_names[j - nv];
        if (!(md->var_names[j] = strdup(name))) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    }
    return NSDAE_OK;
}

/* 3. The signature matrix: sigma_ij = highest derivative order of unknown j in residual i. */
static nsdae_status build_sigma(nsdae_structural_mode *md, const nsdae_mode_system *ms, nsdae_error *err)
{
    nsdae_status st = nsdae_sigma_create(md->neq, md->nvar, &md->sigma, err);
    if (st != NSDAE_OK) return st;
    for (int i = 0; i < md->neq; i++) {
        if ((st = nsdae_sigma_set_name(md->sigma, 'e', i, ms->eqs[i].text, err)) != NSDAE_OK) return st;
        for (int j = 0; j < md->nvar; j++) {
            int o = nsdae_expr_max_order(md->residual[i], j);
            if (o > NSDAE_SIGMA_MAX_ORDER)
                return nsdae_error_set(err, NSDAE_UNSUPPORTED, "structural: derivative order %d of '%s' in '%s'", o,
                                       md->var_names[j], ms->eqs[i].text);
            if (o >= 0) md->sigma->s[(size_t)i * md->nvar + j] = o;
        }
    }
    for (int j = 0; j < md->nvar; j++)
        if ((st = nsdae_sigma_set_name(md->sigma, 'v', j, md->var_names[j], err)) != NSDAE_OK) return st;
    return NSDAE_OK;
}

/* The partial derivatives the numeric check needs, d f_i / d x_j^(d_j - c_i) at the leading
 * entries of the signature matrix, into jac (neq x nvar, column-major), at vals (order * nvar + j,
 * orders 0..maxo), time 0: one tape over the residuals with a Jacobian column per leading leaf.
 * When they cannot be had, md->numeric_status and numeric_message say why. */
static void numeric_jacobian(const nsdae_model *m, nsdae_structural_mode *md, int maxo, const double *vals,
                             double *jac)
{
    const nsdae_structural_result *r = md->result;
    const int nvar = md->nvar, neq = md->neq, nin = (maxo + 1) * nvar;
    nsdae_leaf *in = malloc(((size_t)nin + 1) * sizeof *in), *wrt = malloc(((size_t)nin + 1) * sizeof *wrt);
    int *col = malloc(((size_t)nin + 1) * sizeof *col), nwrt = 0;
    double *J = NULL;
    nsdae_tape *t = NULL;
    nsdae_error e2 = {0};
    if (!in || !wrt || !col) {
        md->numeric_status = nsdae_error_set(&e2, NSDAE_NOMEM, "structural: out of memory");
        goto done;
    }
    for (int k = 0; k < nin; k++) {
        in[k] = (nsdae_leaf){k % nvar, k / nvar};
        col[k] = -1;
    }
    for (int i = 0; i < neq; i++)
        for (int j = 0; j < nvar; j++) {
            int k = (r->d[j] - r->c[i]) * nvar + j;
            if (nsdae_structural_is_leading(r, md->sigma, i, j) && col[k] < 0) {
                col[k] = nwrt;
                wrt[nwrt++] = in[k];
            }
        }
    if (neq == 0 || nwrt == 0) goto done;
    nsdae_tape_spec spec = {md->residual, neq, in, nin, nsdae_model_nparams(m), wrt, nwrt};
    nsdae_tape_point at = {vals, nsdae_model_param_values(m), 0.0};
    if ((md->numeric_status = nsdae_tape_create(md->pool, &spec, &t, &e2)) != NSDAE_OK) goto done;
    if (!(J = malloc((size_t)neq * (size_t)nwrt * sizeof *J))) {
        md->numeric_status = nsdae_error_set(&e2, NSDAE_NOMEM, "structural: out of memory");
        goto done;
    }
    if (nsdae_tape_eval(t, &at, NULL, J, &e2) != NSDAE_OK) {
        md->numeric_status = NSDAE_NUMERICAL;
        goto done;
    }
    for (int i = 0; i < neq; i++)
        for (int j = 0; j < nvar; j++) {
            if (!nsdae_structural_is_leading(r, md->sigma, i, j)) continue;
            double v = J[i + (size_t)col[(r->d[j] - r->c[i]) * nvar + j] * neq];
            if (!isfinite(v)) {
                char dn[TEXT_SIZE];
                nsdae_structural_deriv_name(md->var_names[j], r->d[j] - r->c[i], dn, sizeof dn);
                md->numeric_status = nsdae_error_set(&e2, NSDAE_NUMERICAL, "d/d %s of '%.60s' is not finite at the "
                                                     "start values", dn, md->sigma->eq_names[i]);
                goto done;
            }
            jac[i + (size_t)j * neq] = v;
        }
done:
    if (md->numeric_status != NSDAE_OK) snprintf(md->numeric_message, sizeof md->numeric_message, "%s", e2.message);
    nsdae_tape_destroy(t);
    free(J);
    free(in);
    free(wrt);
    free(col);
}

/* 5. The numeric check at the start values. Not being able to run it is not an error: numeric_status
 * and numeric_message say why. Errors are memory only. */
static nsdae_status check_at_start_values(nsdae_structural_mode *md, const nsdae_model *m, nsdae_error *err)
{
    int nv = nsdae_model_nvars(m);
    nsdae_structural_result *r = md->result;
    int maxo = 0;
    for (size_t k = 0; k < (size_t)md->neq * md->nvar; k++)
        if (md->sigma->s[k] != NSDAE_SIGMA_NONE && md->sigma->s[k] > maxo) maxo = md->sigma->s[k];
    double *vals = calloc((size_t)(maxo + 1) * md->nvar + 1, sizeof *vals);
    double *jac = calloc((size_t)md->neq * md->nvar + 1, sizeof *jac);
    if (!vals || !jac) {
        free(vals);
        free(jac);
        return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    }
    for (int o = 0; o <= maxo; o++)
        for (int j = 0; j < md->nvar; j++)
            vals[(size_t)o * md->nvar + j] = j < nv ? nsdae_model_start_value(m, j, o) : (o == 0 ? 0.5 : 0.0);
    md->numeric_status = NSDAE_OK;
    numeric_jacobian(m, md, maxo, vals, jac);
    if (md->numeric_status == NSDAE_OK) {
        nsdae_error e2 = {0};
        nsdae_status s2 = nsdae_structural_check_numeric(r, md->sigma, jac, &e2);
        if (s2 != NSDAE_OK) {
            md->numeric_status = s2;
            snprintf(md->numeric_message, sizeof md->numeric_message, "%s", e2.message);
        }
    }
    free(vals);
    free(jac);
    return NSDAE_OK;
}

nsdae_status nsdae_structural_mode_analyze(const nsdae_model *m, const nsdae_switches *sw, const int *choice,
                                           nsdae_structural_mode **out, nsdae_error *err)
{
    *out = NULL;
    if (!nsdae_mode_canonical(sw, choice))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "structural: not a canonical mode code");
    nsdae_structural_mode *md = calloc(1, sizeof *md);
    if (!md) return nsdae_error_set(err, NSDAE_NOMEM, "structural: out of memory");
    nsdae_mode_system *ms = NULL;
    nsdae_status st = describe(md, m, sw, choice, err);
    if (!st) st = nsdae_mode_equations(m, sw, choice, &ms, err);
    if (!st) st = take_equations(md, m, ms, err);
    if (!st) { /* the residuals live in the system's pool: the mode keeps it */
        md->pool = ms->pool;
        ms->pool = NULL;
    }
    if (!st) st = build_sigma(md, ms, err);
    if (!st) st = nsdae_structural_analyze(md->sigma, &md->result, err); /* 4. */
    if (!st) st = check_at_start_values(md, m, err);
    nsdae_mode_system_destroy(ms);
    if (st) {
        nsdae_structural_mode_destroy(md);
        return st;
    }
    *out = md;
    return NSDAE_OK;
}
