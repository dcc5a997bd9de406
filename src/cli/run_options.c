/* Parsing of the integration options shared by simulate and converge, and the loading of the
 * system they integrate. Every error names the flag and its value. */
#include "cli/run_options.h"

#include "examples/builtin_contact.h"
#include <nsdae/model.h>
#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_options_init(run_options *o)
{
    memset(o, 0, sizeof *o);
    o->stop = NAN;
    o->step = NAN;
    o->scheme = NSDAE_SCHEME_MINNORM;
    o->count_solutions = 1;
}

int cli_parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

int cli_parse_long(const char *text, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE) return 0;
    *out = v;
    return 1;
}

static int bad_value(const char *cmd, const char *flag, const char *value, const char *why)
{
    fprintf(stderr, "nsdae %s: %s '%s': %s\n", cmd, flag, value, why);
    return -1;
}

static int parse_param(run_options *o, const char *cmd, const char *text)
{
    const char *eq = strchr(text, '=');
    double v;
    if (!eq || eq == text) return bad_value(cmd, "--param", text, "expected NAME=VALUE");
    if (!cli_parse_double(eq + 1, &v)) return bad_value(cmd, "--param", text, "the value is not a finite number");
    if (o->nparams >= CLI_MAX_PARAMS) return bad_value(cmd, "--param", text, "too many --param options");
    size_t len = (size_t)(eq - text);
    if (len >= sizeof o->param_names[0]) return bad_value(cmd, "--param", text, "name too long");
    memcpy(o->param_names[o->nparams], text, len);
    o->param_names[o->nparams][len] = '\0';
    o->params[o->nparams].name = o->param_names[o->nparams];
    o->params[o->nparams].value = v;
    o->nparams++;
    return 1;
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

int run_options_parse(run_options *o, const char *cmd, int argc, char **argv, int *i)
{
    const char *flag = argv[*i];
    static const char *with_value[] = {"--example", "--stop", "--step", "--steps", "--scheme", "--theta", "--gamma", "--param"};
    int takes_value = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        if (strcmp(flag, with_value[k]) == 0) takes_value = 1;
    if (!takes_value) {
        if (strcmp(flag, "--select-all") == 0) return o->select_algebraic = 1;
        if (strcmp(flag, "--no-count") == 0) {
            o->count_solutions = 0;
            return 1;
        }
        return 0;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "nsdae %s: %s needs a value\n", cmd, flag);
        return -1;
    }
    const char *value = argv[++*i];
    if (strcmp(flag, "--example") == 0) {
        o->example = value;
    } else if (strcmp(flag, "--stop") == 0) {
        if (!cli_parse_double(value, &o->stop)) return bad_value(cmd, flag, value, "not a finite number");
    } else if (strcmp(flag, "--step") == 0) {
        if (!cli_parse_double(value, &o->step)) return bad_value(cmd, flag, value, "not a finite number");
        if (!(o->step > 0)) return bad_value(cmd, flag, value, "the step must be > 0");
    } else if (strcmp(flag, "--steps") == 0) {
        if (!cli_parse_long(value, &o->nsteps)) return bad_value(cmd, flag, value, "not a whole number");
        if (o->nsteps < 1) return bad_value(cmd, flag, value, "the number of steps must be >= 1");
    } else if (strcmp(flag, "--scheme") == 0) {
        if (!set_scheme(o, value)) return bad_value(cmd, flag, value, "expected minnorm, euler, theta or moreau");
        o->scheme_given = 1;
    } else if (strcmp(flag, "--theta") == 0) {
        if (!cli_parse_double(value, &o->theta)) return bad_value(cmd, flag, value, "not a finite number");
        if (!(o->theta >= 0.5 && o->theta <= 1.0)) return bad_value(cmd, flag, value, "theta must be in [0.5, 1]");
    } else if (strcmp(flag, "--gamma") == 0) {
        if (!cli_parse_double(value, &o->gamma)) return bad_value(cmd, flag, value, "not a finite number");
        if (!(o->gamma >= 0.5 && o->gamma <= 1.0)) return bad_value(cmd, flag, value, "gamma must be in [0.5, 1]");
    } else {
        return parse_param(o, cmd, value);
    }
    return 1;
}

/* The experiment's theta and gamma where no flag gave them; the euler scheme keeps theta = gamma = 1. */
static void apply_experiment_weights(run_options *o, const nsdae_experiment *x)
{
    if (o->scheme == NSDAE_SCHEME_EULER && !o->moreau) return;
    if (o->theta <= 0 && x->theta > 0) o->theta = x->theta;
    if (o->gamma <= 0 && x->gamma > 0) o->gamma = x->gamma;
}

int run_resolve_scheme(run_options *o, const char *cmd)
{
    if (o->example) {
        if (!o->scheme_given) o->moreau = nsdae_builtin_contact_description(o->example) != NULL;
        return 1;
    }
    if (!o->model_path) return 1;
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    if (nsdae_model_parse_file(o->model_path, &m, &err) != NSDAE_OK) {
        if (o->scheme_given) return 1; /* the loader reports it, as before --scheme needed no parse */
        fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
        return 0;
    }
    const char *named = nsdae_model_experiment(m)->scheme;
    int ok = 1;
    if (o->scheme_given) { /* the flag wins */
    } else if (nsdae_translate_has_impact_law(m)) o->moreau = 1;
    else if (named && !set_scheme(o, named)) {
        fprintf(stderr, "nsdae %s: %s: experiment scheme '%s' is not one of minnorm, euler, theta, moreau\n", cmd,
                o->model_path, named);
        ok = 0;
    }
    if (ok) apply_experiment_weights(o, nsdae_model_experiment(m));
    nsdae_model_destroy(m);
    return ok;
}

/* An --example name must be one of either family; the message lists both. */
static int known_example(const char *name, const char *cmd)
{
    if (nsdae_builtin_description(name) || nsdae_builtin_contact_description(name)) return 1;
    fprintf(stderr, "nsdae %s: --example '%s': unknown example (known:", cmd, name);
    for (const char *const *n = nsdae_builtin_names(); *n; n++) fprintf(stderr, " %s", *n);
    for (const char *const *n = nsdae_builtin_contact_names(); *n; n++) fprintf(stderr, " %s", *n);
    fputs(")\n", stderr);
    return 0;
}

int run_load_system(const run_options *o, const char *cmd, nsdae_mlcs **out)
{
    nsdae_error err = {0};
    if (o->example && o->model_path) {
        fprintf(stderr, "nsdae %s: give either MODEL or --example, not both\n", cmd);
        return 0;
    }
    if (!o->example && !o->model_path) {
        fprintf(stderr, "nsdae %s: no model: give MODEL or --example NAME (see --help)\n", cmd);
        return 0;
    }
    if (o->example && !known_example(o->example, cmd)) return 0;
    if (o->example && nsdae_builtin_contact_description(o->example)) {
        fprintf(stderr, "nsdae %s: --example %s is a contact model: use --scheme moreau\n", cmd, o->example);
        return 0;
    }
    if (o->example) {
        if (nsdae_builtin_create(o->example, o->params, o->nparams, out, &err) != NSDAE_OK) {
            fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
            return 0;
        }
        return 1;
    }
    nsdae_model *m = NULL;
    nsdae_status st = nsdae_model_parse_file(o->model_path, &m, &err);
    for (int k = 0; st == NSDAE_OK && k < o->nparams; k++)
        st = nsdae_model_set_param(m, o->params[k].name, o->params[k].value, &err);
    if (st == NSDAE_OK) st = nsdae_translate_mlcs(m, out, NULL, &err);
    if (st == NSDAE_OK) {
        const nsdae_experiment *x = nsdae_model_experiment(m);
        if ((*out)->stop_time <= 0 && x->stop > 0) (*out)->stop_time = x->stop;
        if ((*out)->step <= 0 && x->step > 0) (*out)->step = x->step;
    }
    nsdae_model_destroy(m);
    if (st != NSDAE_OK) {
        fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
        return 0;
    }
    return 1;
}

/* The time grid from --stop/--step/--steps and the model's defaults, shared by every scheme. */
static int resolve_grid(const run_options *o, const char *cmd, double model_stop, double model_step, double *stop,
                        double *step, long *nsteps)
{
    *stop = !isnan(o->stop) ? o->stop : model_stop > 0 ? model_stop : 1.0;
    *step = 0.0;
    *nsteps = 0;
    if (o->nsteps > 0 && !isnan(o->step)) {
        fprintf(stderr, "nsdae %s: give either --step or --steps, not both\n", cmd);
        return 0;
    }
    if (o->nsteps > 0) *nsteps = o->nsteps;
    else if (!isnan(o->step)) *step = o->step;
    else if (model_step > 0) *step = model_step;
    else *nsteps = 100;
    if (!(*stop > 0.0)) {
        fprintf(stderr, "nsdae %s: --stop %g: the stop time must be > 0\n", cmd, *stop);
        return 0;
    }
    return 1;
}

int run_stepper_options(const run_options *o, const char *cmd, const nsdae_mlcs *s, nsdae_stepper_options *so)
{
    nsdae_stepper_defaults(so);
    so->scheme = o->scheme;
    so->theta = o->theta;
    so->gamma = o->gamma;
    so->select_algebraic = o->select_algebraic;
    so->count_solutions = o->count_solutions;
    so->t0 = 0.0;
    if (!resolve_grid(o, cmd, s->stop_time, s->step, &so->stop, &so->step, &so->nsteps)) return 0;
    if (o->scheme == NSDAE_SCHEME_EULER && o->theta > 0 && o->theta != 1.0) {
        fprintf(stderr, "nsdae %s: --theta %g: the euler scheme has theta = 1 (use --scheme theta)\n", cmd, o->theta);
        return 0;
    }
    if (o->scheme == NSDAE_SCHEME_EULER && o->gamma > 0 && o->gamma != 1.0) {
        fprintf(stderr, "nsdae %s: --gamma %g: the euler scheme has gamma = 1 (use --scheme theta)\n", cmd, o->gamma);
        return 0;
    }
    return 1;
}

int run_load_contact(const run_options *o, const char *cmd, nsdae_lagrangian **out)
{
    nsdae_error err = {0};
    if (!o->example == !o->model_path) {
        fprintf(stderr, "nsdae %s: give exactly one of MODEL or --example NAME (see --help)\n", cmd);
        return 0;
    }
    if (o->model_path) {
        nsdae_model *m = NULL;
        nsdae_status st = nsdae_model_parse_file(o->model_path, &m, &err);
        for (int k = 0; st == NSDAE_OK && k < o->nparams; k++)
            st = nsdae_model_set_param(m, o->params[k].name, o->params[k].value, &err);
        /* the system carries the experiment's stop and step as its defaults (run_moreau_options) */
        if (st == NSDAE_OK) st = nsdae_translate_lagrangian(m, out, &err);
        nsdae_model_destroy(m);
        if (st != NSDAE_OK) {
            fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
            return 0;
        }
        return 1;
    }
    if (!known_example(o->example, cmd)) return 0;
    if (nsdae_builtin_description(o->example)) {
        fprintf(stderr, "nsdae %s: --example %s is not a contact model: --scheme moreau needs one of "
                        "bouncing-ball, beads, cup-and-ball\n", cmd, o->example);
        return 0;
    }
    if (nsdae_builtin_contact_create(o->example, o->params, o->nparams, out, &err) != NSDAE_OK) {
        fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
        return 0;
    }
    return 1;
}

int run_moreau_options(const run_options *o, const char *cmd, const nsdae_lagrangian *s, nsdae_moreau_options *mo)
{
    nsdae_moreau_defaults(mo);
    if (o->theta > 0) mo->theta = o->theta;
    mo->t0 = 0.0;
    return resolve_grid(o, cmd, s->stop_time, s->step, &mo->stop, &mo->step, &mo->nsteps);
}
