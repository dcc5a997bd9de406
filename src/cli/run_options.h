/* Options shared by the commands that integrate a system (simulate, converge). */
#ifndef NSDAE_CLI_RUN_OPTIONS_H
#define NSDAE_CLI_RUN_OPTIONS_H

#include "cli/model_source.h"
#include "cli/options.h"

#include <nsdae/moreau.h>
#include <nsdae/mlcs.h>
#include <nsdae/stepper.h>

typedef struct run_options {
    model_source src;              /* MODEL or --example, --param */
    double stop, step;             /* NAN when not given: the model's defaults apply */
    long nsteps;                   /* 0 when not given */
    nsdae_scheme scheme;
    int moreau;                    /* --scheme moreau: the Lagrangian contact form and Moreau-Jean */
    int scheme_given;              /* --scheme was on the command line */
    double theta;                  /* 0 when not given */
    double gamma;                  /* 0 when not given */
    int gamma_relation;            /* --gamma-relation: gamma on the state in the relations */
    int select_algebraic;
    int count_solutions;
    int engine_events;             /* --engine events: the event-driven engine (simulate only) */
    double rtol, atol;             /* --rtol, --atol: its IDA tolerances (0: the library's defaults) */
    const char *events_path;       /* --events FILE: its event log */
} run_options;

/* Option codes of the shared options (getopt_long's val). */
enum {
    RUN_OPT_EXAMPLE = CLI_OPT_BASE,
    RUN_OPT_STOP,
    RUN_OPT_STEP,
    RUN_OPT_STEPS,
    RUN_OPT_SCHEME,
    RUN_OPT_THETA,
    RUN_OPT_GAMMA,
    RUN_OPT_PARAM,
    RUN_OPT_SELECT_ALL,
    RUN_OPT_NO_COUNT,
    RUN_OPT_GAMMA_RELATION,
    RUN_OPT_END            /* a command's own options start here */
};

/* The shared entries of a struct option table, except --steps (converge gives it another meaning). */
#define RUN_LONG_OPTIONS                                                                            \
    {"example", required_argument, NULL, RUN_OPT_EXAMPLE}, {"stop", required_argument, NULL, RUN_OPT_STOP}, \
        {"step", required_argument, NULL, RUN_OPT_STEP}, {"scheme", required_argument, NULL, RUN_OPT_SCHEME}, \
        {"theta", required_argument, NULL, RUN_OPT_THETA}, {"gamma", required_argument, NULL, RUN_OPT_GAMMA}, \
        {"param", required_argument, NULL, RUN_OPT_PARAM},                                          \
        {"select-all", no_argument, NULL, RUN_OPT_SELECT_ALL}, {"no-count", no_argument, NULL, RUN_OPT_NO_COUNT}, \
        {"gamma-relation", no_argument, NULL, RUN_OPT_GAMMA_RELATION}

void run_options_init(run_options *o);
void run_options_free(run_options *o);

/* Applies a shared option (code with its value): 0 done, CLI_USAGE after printing an error naming
 * the flag and its value (or, silently, for a code that is not a shared option). */
int run_options_apply(run_options *o, const char *cmd, int code, const char *value);

/* --rtol or --atol (flag) of the event-driven engine into o->rtol / o->atol: 0, or CLI_USAGE after
 * printing why the value is refused. */
int run_options_tolerance(run_options *o, const char *cmd, const char *flag, const char *value);

/* Takes the operands: at most one, the MODEL. Returns 0 or CLI_USAGE after printing. */
int run_options_operands(run_options *o, const char *cmd, int argc, char **argv, int first);

/* Loads the model (model_source_load) and settles the scheme: --scheme, else the form the library
 * decides (contact: Moreau-Jean), else the model's `experiment scheme = ...`, else minnorm.
 * Without --theta and --gamma, the model's `experiment theta = ..., gamma = ...` apply (not to the
 * euler scheme, which has theta = gamma = 1). Returns 0 or the exit status after printing. */
int run_load(run_options *o, const char *cmd);

/* Fills Moreau-Jean options from the run options and the system's defaults. Returns 0 or CLI_USAGE. */
int run_moreau_options(const run_options *o, const char *cmd, const nsdae_lagrangian *s, nsdae_moreau_options *mo);

/* Fills stepper options from the run options and the system's defaults. Returns 0 or CLI_USAGE. */
int run_stepper_options(const run_options *o, const char *cmd, const nsdae_mlcs *s, nsdae_stepper_options *so);

/* --help text of the shared options, in parts: converge has its own --steps and no --step or
 * --no-count (each of its runs has h = T/N, and it counts no solutions). */
#define RUN_OPTIONS_HELP_MODEL                                                                   \
    "  --example NAME       a built-in example instead of MODEL (list: nsdae examples)\n"       \
    "  --stop T             stop time (default: the model's experiment, else 1)\n"

#define RUN_OPTIONS_HELP_GRID                                                                    \
    "  --step H             fixed step; the last step is shortened to land on T\n"             \
    "  --steps N            N steps of h = T/N (default: the model's step, else 100 steps)\n"

#define RUN_OPTIONS_HELP_SCHEME                                                                  \
    "  --scheme S           minnorm (default): minimal-norm implicit Euler, Rocca et al. (15);\n"  \
    "                       euler: implicit Euler keeping the first solution found;\n"         \
    "                       theta: theta-method with minimal-norm selection;\n"                \
    "                       moreau: Moreau-Jean for contact models (impacts, restitution)\n"   \
    "  --theta TH           theta in [1/2, 1] (default 1; 1/2 for --scheme theta and moreau)\n" \
    "  --gamma G            weight at t_k+1 of the multipliers and algebraic unknowns in the\n" \
    "                       rows with a derivative, in [1/2, 1] (default 1, or the experiment's)\n" \
    "  --gamma-relation     gamma on the state in the relations (setUseGammaForRelation)\n" \
    "  --param NAME=VALUE[,NAME=VALUE...]\n"                                                   \
    "                       override parameters (repeatable)\n"                                \
    "  --select-all         minimal norm also over the algebraic unknowns\n"

#define RUN_OPTIONS_HELP_COUNT                                                                   \
    "  --no-count           do not count the solutions of each step (nsol column 0)\n"

#define RUN_OPTIONS_HELP_TAIL "Options take their value as --opt VALUE or --opt=VALUE; -- ends the options.\n"

#define RUN_OPTIONS_HELP                                                                         \
    RUN_OPTIONS_HELP_MODEL RUN_OPTIONS_HELP_GRID RUN_OPTIONS_HELP_SCHEME RUN_OPTIONS_HELP_COUNT RUN_OPTIONS_HELP_TAIL

#endif
