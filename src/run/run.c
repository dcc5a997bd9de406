/* Preparing a run (run.h): the form, the scheme, its weights and the grid settled from the
 * settings and the model's experiment, in the command's order, before any step. */
#include "run/run_internal.h"

#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const nsdae_run_settings no_settings;

/* The settings' own errors, before anything is built: each names the setting. */
static nsdae_status check_settings(const nsdae_run_settings *set, nsdae_error *err)
{
    if (set->stop < 0 || set->stop != set->stop)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: stop %g must be > 0", set->stop);
    if (set->nsteps < 0) return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: nsteps %ld must be >= 1", set->nsteps);
    if (set->step < 0 || set->step != set->step)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: step %g must be > 0", set->step);
    if (set->nsteps > 0 && set->step > 0)
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: give nsteps or step, not both");
    const double w[2] = {set->theta, set->gamma};
    for (int i = 0; i < 2; i++)
        if (w[i] != 0 && !(w[i] >= 0.5 && w[i] <= 1.0))
            return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: %s %g is outside [1/2, 1]", i ? "gamma" : "theta", w[i]);
    nsdae_scheme scheme;
    if (set->scheme && nsdae_scheme_from_name(set->scheme, &scheme, err) != NSDAE_OK) return NSDAE_INVALID_INPUT;
    if (set->nparams < 0 || (set->nparams > 0 && !set->params))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: %d parameter overrides without their array", set->nparams);
    return NSDAE_OK;
}

/* The grid of the settings over the system's defaults (already in *stop, *nsteps, *step):
 * without a step from either, 100 steps, as the command does. */
static nsdae_status settle_grid(const nsdae_run_settings *set, double sys_step, double *stop, long *nsteps,
                                double *step, nsdae_time_grid *grid, nsdae_error *err)
{
    if (set->stop > 0) *stop = set->stop;
    *nsteps = 0;
    if (set->nsteps > 0) *nsteps = set->nsteps;
    else if (set->step > 0) *step = set->step;
    else if (sys_step > 0) *step = sys_step;
    else *nsteps = 100;
    if (*nsteps > 0) *step = 0;
    return nsdae_time_grid_make(0.0, *stop, *nsteps, *step, grid, err);
}

static nsdae_status new_run(nsdae_run **out, nsdae_error *err)
{
    *out = calloc(1, sizeof **out);
    return *out ? NSDAE_OK : nsdae_error_set(err, NSDAE_NOMEM, "run: out of memory");
}

static nsdae_status plan_mlcs(nsdae_run *r, const nsdae_run_settings *set, nsdae_error *err)
{
    /* the settings' scheme replaces the system's: a shallow copy reads the rest as it is */
    nsdae_mlcs view = *r->mlcs;
    if (set->scheme) snprintf(view.scheme, sizeof view.scheme, "%s", set->scheme);
    nsdae_stepper_options *so = &r->so;
    nsdae_status st = nsdae_stepper_options_for(&view, so, err);
    if (st != NSDAE_OK) return st;
    if (set->theta > 0) so->theta = set->theta;
    if (set->gamma > 0) so->gamma = set->gamma;
    if (so->scheme == NSDAE_SCHEME_EULER && ((so->theta > 0 && so->theta != 1) || (so->gamma > 0 && so->gamma != 1)))
        return nsdae_error_set(err, NSDAE_INVALID_INPUT, "run: the euler scheme has theta = gamma = 1 (use theta)");
    so->select_algebraic = set->select_algebraic;
    so->count_solutions = !set->skip_count;
    st = settle_grid(set, r->mlcs->step, &so->stop, &so->nsteps, &so->step, &r->plan.grid, err);
    if (st == NSDAE_OK) st = nsdae_mlcs_validate(r->mlcs, err);
    if (st == NSDAE_OK) st = nsdae_run_columns_mlcs(r->mlcs, &r->plan.columns, err);
    if (st != NSDAE_OK) return st;
    r->plan.form = NSDAE_FORM_MLCS;
    r->plan.scheme = so->scheme;
    r->plan.theta = so->theta > 0 ? so->theta : so->scheme == NSDAE_SCHEME_THETA ? 0.5 : 1.0;
    r->plan.gamma = so->gamma > 0 ? so->gamma : 1.0;
    r->plan.ny = r->mlcs->ny;
    r->plan.nl = r->mlcs->nl;
    return NSDAE_OK;
}

static nsdae_status plan_contact(nsdae_run *r, const nsdae_run_settings *set, nsdae_error *err)
{
    if (set->scheme && strcmp(set->scheme, "moreau") != 0)
        return nsdae_error_set(err, NSDAE_UNSUPPORTED, "run: scheme %s runs an MLCS; this is the contact form "
                                                       "(its scheme is moreau)", set->scheme);
    nsdae_moreau_options *mo = &r->mo;
    nsdae_moreau_options_for(r->contact, mo);
    if (set->theta > 0) mo->theta = set->theta;
    nsdae_status st = settle_grid(set, r->contact->step, &mo->stop, &mo->nsteps, &mo->step, &r->plan.grid, err);
    if (st == NSDAE_OK) st = nsdae_lagrangian_validate(r->contact, err);
    if (st == NSDAE_OK) st = nsdae_run_columns_contact(r->contact, &r->plan.columns, err);
    if (st != NSDAE_OK) return st;
    r->plan.form = NSDAE_FORM_CONTACT;
    r->plan.scheme = NSDAE_SCHEME_MOREAU;
    r->plan.theta = mo->theta;
    r->plan.gamma = 0;
    r->plan.ndof = r->contact->ndof;
    r->plan.ncontacts = r->contact->ncontacts;
    return NSDAE_OK;
}

/* Plans r (holding its system), or destroys it on failure. */
static nsdae_status finish_prepare(nsdae_run *r, const nsdae_run_settings *set, nsdae_run **out, nsdae_error *err)
{
    if (!r->plan.form_reason) r->plan.form_reason = r->mlcs ? "a system built as an MLCS" : "a system built in contact form";
    nsdae_status st = r->mlcs ? plan_mlcs(r, set, err) : plan_contact(r, set, err);
    if (st != NSDAE_OK) {
        nsdae_run_destroy(r);
        return st;
    }
    *out = r;
    return NSDAE_OK;
}

nsdae_status nsdae_run_prepare_mlcs(nsdae_mlcs *s, const nsdae_run_settings *set, nsdae_run **out, nsdae_error *err)
{
    nsdae_run *r;
    set = set ? set : &no_settings;
    nsdae_status st = check_settings(set, err);
    if (st == NSDAE_OK) st = new_run(&r, err);
    if (st != NSDAE_OK) {
        nsdae_mlcs_destroy(s);
        return st;
    }
    r->mlcs = s;
    return finish_prepare(r, set, out, err);
}

nsdae_status nsdae_run_prepare_contact(nsdae_lagrangian *s, const nsdae_run_settings *set, nsdae_run **out,
                                       nsdae_error *err)
{
    nsdae_run *r;
    set = set ? set : &no_settings;
    nsdae_status st = check_settings(set, err);
    if (st == NSDAE_OK) st = new_run(&r, err);
    if (st != NSDAE_OK) {
        nsdae_lagrangian_destroy(s);
        return st;
    }
    r->contact = s;
    return finish_prepare(r, set, out, err);
}

/* The form: the settings' scheme asks for one, else the library's rule on the model. */
static nsdae_form_decision decide_form(const nsdae_model *m, const nsdae_run_settings *set)
{
    if (!set->scheme) return nsdae_translate_form(m);
    if (strcmp(set->scheme, "moreau") == 0) return (nsdae_form_decision){NSDAE_FORM_CONTACT, "the settings name the moreau scheme"};
    return (nsdae_form_decision){NSDAE_FORM_MLCS, "the settings name an MLCS scheme"};
}

static nsdae_status prepare_model(nsdae_model *m, nsdae_model *own, const nsdae_run_settings *set, nsdae_run **out,
                                  nsdae_error *err)
{
    nsdae_run *r = NULL;
    set = set ? set : &no_settings;
    nsdae_status st = check_settings(set, err);
    for (int k = 0; k < set->nparams && st == NSDAE_OK; k++)
        st = nsdae_model_set_param(m, set->params[k].name, set->params[k].value, err);
    if (st == NSDAE_OK) st = new_run(&r, err);
    if (st != NSDAE_OK) {
        nsdae_model_destroy(own);
        return st;
    }
    r->own_model = own;
    nsdae_form_decision form = decide_form(m, set);
    r->plan.form_reason = form.reason;
    st = form.form == NSDAE_FORM_CONTACT ? nsdae_translate_lagrangian(m, &r->contact, err)
                                         : nsdae_translate_mlcs(m, &r->mlcs, NULL, err);
    if (st != NSDAE_OK) {
        nsdae_run_destroy(r);
        return st;
    }
    return finish_prepare(r, set, out, err);
}

nsdae_status nsdae_run_prepare_model(nsdae_model *m, const nsdae_run_settings *set, nsdae_run **out,
                                     nsdae_error *err)
{
    return prepare_model(m, NULL, set, out, err);
}

nsdae_status nsdae_run_prepare_file(const char *path, const nsdae_run_settings *set, nsdae_run **out,
                                    nsdae_error *err)
{
    nsdae_model *m = NULL;
    nsdae_status st = nsdae_model_parse_file(path, &m, err);
    return st == NSDAE_OK ? prepare_model(m, m, set, out, err) : st;
}

const nsdae_run_plan *nsdae_run_plan_of(const nsdae_run *run)
{
    return &run->plan;
}

void nsdae_run_destroy(nsdae_run *run)
{
    if (!run) return;
    nsdae_run_columns_free(&run->plan.columns);
    nsdae_mlcs_destroy(run->mlcs);
    nsdae_lagrangian_destroy(run->contact);
    nsdae_model_destroy(run->own_model);
    free(run);
}
