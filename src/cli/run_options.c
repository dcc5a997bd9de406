/* The integration options shared by simulate and converge. Every error names the flag and its
 * value. */
#include "cli/run_options.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void run_options_init(run_options *o)
{
    memset(o, 0, sizeof *o);
    model_source_init(&o->src);
    o->stop = NAN;
    o->step = NAN;
    o->scheme = NSDAE_SCHEME_MINNORM;
    o->count_solutions = 1;
}

void run_options_free(run_options *o)
{
    model_source_free(&o->src);
}

/* Sets o->scheme / o->moreau from a scheme name; 0 when the name is unknown. */
static int set_scheme(run_options *o, const char *name)
{
    static const struct { const char *name; nsdae_scheme scheme; int moreau; } names[] = {
        {"minnorm", NSDAE_SCHEME_MINNORM, 0}, {"euler", NSDAE_SCHEME_EULER, 0},
        {"theta", NSDAE_SCHEME_THETA, 0},     {"moreau", NSDAE_SCHEME_MINNORM, 1}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i].name) == 0) {
            o->scheme = names[i].scheme;
            o->moreau = names[i].moreau;
            return 1;
        }
    return 0;
}

int run_options_apply(run_options *o, const char *cmd, int code, const char *value)
{
    switch (code) {
    case RUN_OPT_EXAMPLE:
        o->src.example = value;
        return 0;
    case RUN_OPT_PARAM:
        return cli_params_add(&o->src.params, cmd, value);
    case RUN_OPT_SELECT_ALL:
        o->select_algebraic = 1;
        return 0;
    case RUN_OPT_NO_COUNT:
        o->count_solutions = 0;
        return 0;
    case RUN_OPT_GAMMA_RELATION:
        o->gamma_relation = 1;
        return 0;
    case RUN_OPT_STOP:
        return cli_parse_double(value, &o->stop) ? 0 : cli_bad_value(cmd, "--stop", value, "not a finite number");
    case RUN_OPT_STEP:
        if (!cli_parse_double(value, &o->step)) return cli_bad_value(cmd, "--step", value, "not a finite number");
        return o->step > 0 ? 0 : cli_bad_value(cmd, "--step", value, "the step must be > 0");
    case RUN_OPT_STEPS:
        if (!cli_parse_long(value, &o->nsteps)) return cli_bad_value(cmd, "--steps", value, "not a whole number");
        return o->nsteps >= 1 ? 0 : cli_bad_value(cmd, "--steps", value, "the number of steps must be >= 1");
    case RUN_OPT_SCHEME:
        if (!set_scheme(o, value))
            return cli_bad_value(cmd, "--scheme", value, "expected minnorm, euler, theta or moreau");
        o->scheme_given = 1;
        return 0;
    case RUN_OPT_THETA:
        if (!cli_parse_double(value, &o->theta)) return cli_bad_value(cmd, "--theta", value, "not a finite number");
        return o->theta >= 0.5 && o->theta <= 1.0 ? 0 : cli_bad_value(cmd, "--theta", value, "theta must be in [0.5, 1]");
    case RUN_OPT_GAMMA:
        if (!cli_parse_double(value, &o->gamma)) return cli_bad_value(cmd, "--gamma", value, "not a finite number");
        return o->gamma >= 0.5 && o->gamma <= 1.0 ? 0 : cli_bad_value(cmd, "--gamma", value, "gamma must be in [0.5, 1]");
    default:
        return CLI_USAGE; /* not a shared option: the caller handles its own first */
    }
}

int run_options_operands(run_options *o, const char *cmd, int argc, char **argv, int first)
{
    if (first < argc) o->src.path = argv[first];
    if (first + 1 < argc) {
        fprintf(stderr, "nsdae %s: one model only ('%s' and '%s')\n", cmd, argv[first], argv[first + 1]);
        return CLI_USAGE;
    }
    return 0;
}

/* The experiment's theta and gamma where no flag gave them; the euler scheme keeps theta = gamma = 1. */
static void apply_experiment_weights(run_options *o, const nsdae_experiment *x)
{
    if (o->scheme == NSDAE_SCHEME_EULER && !o->moreau) return;
    if (o->theta <= 0 && x->theta > 0) o->theta = x->theta;
    if (o->gamma <= 0 && x->gamma > 0) o->gamma = x->gamma;
}

int run_load(run_options *o, const char *cmd)
{
    /* an override of a parameter the model lacks ends an integration as a model error (status 1) */
    int rc = model_source_load(&o->src, cmd, 1);
    if (rc) return rc;
    const nsdae_experiment *x = o->src.model ? nsdae_model_experiment(o->src.model) : NULL;
    if (!o->scheme_given && o->src.form.form == NSDAE_FORM_CONTACT) {
        o->moreau = 1;
    } else if (!o->scheme_given && x && x->scheme && !set_scheme(o, x->scheme)) {
        fprintf(stderr, "nsdae %s: %s: experiment scheme '%s' is not one of minnorm, euler, theta, moreau\n", cmd,
                o->src.path, x->scheme);
        return 1;
    }
    if (x) apply_experiment_weights(o, x);
    return 0;
}

/* The time grid's inputs from --stop/--step/--steps and the model's defaults, for every scheme;
 * the grid itself is nsdae_time_grid_make's. */
static int resolve_grid(const run_options *o, const char *cmd, double model_stop, double model_step, double *stop,
                        double *step, long *nsteps)
{
    *stop = !isnan(o->stop) ? o->stop : model_stop > 0 ? model_stop : 1.0;
    *step = 0.0;
    *nsteps = 0;
    if (o->nsteps > 0 && !isnan(o->step)) {
        fprintf(stderr, "nsdae %s: give either --step or --steps, not both\n", cmd);
        return CLI_USAGE;
    }
    if (o->nsteps > 0) *nsteps = o->nsteps;
    else if (!isnan(o->step)) *step = o->step;
    else if (model_step > 0) *step = model_step;
    else *nsteps = 100;
    if (!(*stop > 0.0)) {
        fprintf(stderr, "nsdae %s: --stop %g: the stop time must be > 0\n", cmd, *stop);
        return CLI_USAGE;
    }
    return 0;
}

int run_options_tolerance(run_options *o, const char *cmd, const char *flag, const char *value)
{
    double *tol = strcmp(flag, "--rtol") == 0 ? &o->rtol : &o->atol;
    if (!cli_parse_double(value, tol)) return cli_bad_value(cmd, flag, value, "not a finite number");
    return *tol > 0 ? 0 : cli_bad_value(cmd, flag, value, "the tolerance must be > 0");
}

int run_stepper_options(const run_options *o, const char *cmd, const nsdae_mlcs *s, nsdae_stepper_options *so)
{
    nsdae_stepper_defaults(so);
    so->scheme = o->scheme;
    so->theta = o->theta;
    so->gamma = o->gamma;
    so->gamma_relation = o->gamma_relation;
    so->select_algebraic = o->select_algebraic;
    so->count_solutions = o->count_solutions;
    so->t0 = 0.0;
    int rc = resolve_grid(o, cmd, s->stop_time, s->step, &so->stop, &so->step, &so->nsteps);
    if (rc) return rc;
    if (o->scheme == NSDAE_SCHEME_EULER && o->theta > 0 && o->theta != 1.0) {
        fprintf(stderr, "nsdae %s: --theta %g: the euler scheme has theta = 1 (use --scheme theta)\n", cmd, o->theta);
        return CLI_USAGE;
    }
    if (o->scheme == NSDAE_SCHEME_EULER && o->gamma > 0 && o->gamma != 1.0) {
        fprintf(stderr, "nsdae %s: --gamma %g: the euler scheme has gamma = 1 (use --scheme theta)\n", cmd, o->gamma);
        return CLI_USAGE;
    }
    return 0;
}

int run_moreau_options(const run_options *o, const char *cmd, const nsdae_lagrangian *s, nsdae_moreau_options *mo)
{
    nsdae_moreau_defaults(mo);
    if (o->theta > 0) mo->theta = o->theta;
    mo->t0 = 0.0;
    return resolve_grid(o, cmd, s->stop_time, s->step, &mo->stop, &mo->step, &mo->nsteps);
}
