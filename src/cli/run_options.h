/* Options shared by the commands that integrate a system (simulate, converge). */
#ifndef NSDAE_CLI_RUN_OPTIONS_H
#define NSDAE_CLI_RUN_OPTIONS_H

#include "examples/builtin.h"
#include <nsdae/moreau.h>
#include <nsdae/mlcs.h>
#include <nsdae/stepper.h>

#define CLI_MAX_PARAMS 64

typedef struct run_options {
    const char *model_path;        /* MODEL argument, or NULL */
    const char *example;           /* --example NAME, or NULL */
    double stop, step;             /* NAN when not given: the model's defaults apply */
    long nsteps;                   /* 0 when not given */
    nsdae_scheme scheme;
    int moreau;                    /* --scheme moreau: the Lagrangian contact form and Moreau-Jean */
    int scheme_given;              /* --scheme was on the command line */
    double theta;                  /* 0 when not given */
    double gamma;                  /* 0 when not given */
    int select_algebraic;
    int count_solutions;
    nsdae_param_value params[CLI_MAX_PARAMS];
    char param_names[CLI_MAX_PARAMS][128];   /* storage for params[].name */
    int nparams;
} run_options;

void run_options_init(run_options *o);

/* Tries to consume argv[*i] (and its value) as a shared option. Returns 1 if consumed, 0 if the
 * argument is not a shared option, -1 after printing an error naming the flag and its value. */
int run_options_parse(run_options *o, const char *cmd, int argc, char **argv, int *i);

/* Strict number parsing for flags: the whole text must be a finite number. */
int cli_parse_double(const char *text, double *out);
int cli_parse_long(const char *text, long *out);

/* Without --scheme, the scheme comes from the model: Moreau-Jean for a contact example or a model
 * with an impact law, else the model's `experiment scheme = ...`, else minnorm. Without --theta
 * and --gamma, the model's `experiment theta = ..., gamma = ...` apply (not to the euler scheme,
 * which has theta = gamma = 1). Prints the error. */
int run_resolve_scheme(run_options *o, const char *cmd);

/* Builds the system from --example or MODEL, with --param overrides. Prints the error. */
int run_load_system(const run_options *o, const char *cmd, nsdae_mlcs **out);

/* Builds a contact system (Lagrangian form) from --example or MODEL. Prints the error. */
int run_load_contact(const run_options *o, const char *cmd, nsdae_lagrangian **out);

/* Fills Moreau-Jean options from the run options and the system's defaults. Prints the error. */
int run_moreau_options(const run_options *o, const char *cmd, const nsdae_lagrangian *s, nsdae_moreau_options *mo);

/* Fills stepper options from the run options and the system's defaults. Prints the error. */
int run_stepper_options(const run_options *o, const char *cmd, const nsdae_mlcs *s, nsdae_stepper_options *so);

#define RUN_OPTIONS_HELP                                                                         \
    "  --example NAME       a built-in example instead of MODEL: rocca-crossing, rocca-repulsive,\n" \
    "                       relay-decay; with --scheme moreau: bouncing-ball, beads, cup-and-ball\n" \
    "  --stop T             stop time (default: the model's experiment, else 1)\n"             \
    "  --step H             fixed step; the last step is shortened to land on T\n"             \
    "  --steps N            N steps of h = T/N (default: the model's step, else 100 steps)\n"  \
    "  --scheme S           minnorm (default): minimal-norm implicit Euler, seed 003 (15);\n"  \
    "                       euler: implicit Euler keeping the first solution found;\n"         \
    "                       theta: theta-method with minimal-norm selection;\n"                \
    "                       moreau: Moreau-Jean for contact models (impacts, restitution)\n"   \
    "  --theta TH           theta in [1/2, 1] (default 1; 1/2 for --scheme theta and moreau)\n" \
    "  --gamma G            weight at t_k+1 of the multipliers and algebraic unknowns in the\n" \
    "                       rows with a derivative, in [1/2, 1] (default 1, or the experiment's)\n" \
    "  --param NAME=VALUE   override a parameter (repeatable)\n"                               \
    "  --select-all         minimal norm also over the algebraic unknowns\n"                   \
    "  --no-count           do not count the solutions of each step (nsol column 0)\n"

#endif
