/* nsdae simulate: integrate a system and write its trajectory as CSV. */
#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/simulate_run.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: nsdae simulate (MODEL | --example NAME) [options]\n"
    "\n"
    "Integrates the system with a fixed-step event-capturing scheme (or, with --engine events, the\n"
    "event-driven engine) and writes one CSV row per step: t, every unknown, every multiplier, nsol (solutions of that step's MLCP; inf for a\n"
    "continuum) and res (the step's MLCP residual). A summary line goes to stderr.\n"
    "With --scheme moreau (contact models): t, positions, velocities der(q), the percussion P_c\n"
    "of each contact over the step, its activity flag active_c, and res.\n"
    "\n"
    "options:\n" RUN_OPTIONS_HELP
    "  --engine E           mlcs-stepper (default): the event-capturing schemes above (--scheme);\n"
    "                       events: the event-driven engine (SUNDIALS IDA per mode, events located\n"
    "                       as roots, the new mode chosen from the state, restarts at impacts and\n"
    "                       impulsive changes): rows on the grid plus, at every event, a row at\n"
    "                       the left limit and one at the restart (same t); MLCS rows have nsol 1\n"
    "                       and res the mode's DAE residual, contact rows the event's impulse P_c.\n"
    "                       The summary line counts events, modes visited and accumulation points\n"
    "  --rtol R, --atol A   IDA's tolerances with --engine events (default 1e-10, 1e-12)\n"
    "  --events FILE        with --engine events: the event log, CSV t,kind,from,to, pre(NAME)\n"
    "                       and NAME for every state (left limit, restart), then the impulses\n"
    "  --out FILE           write the rows to FILE (default: standard output), and the run's facts\n"
    "                       (version, commit, model and its sha256, parameters, scheme, grid,\n"
    "                       tolerances, library versions, wall time, counts) to FILE.json when\n"
    "                       FILE is a regular file\n"
    "  --format F           csv (default) or hdf5: one dataset per column, the facts as attributes\n"
    "                       of the root group (needs --out)\n"
    "  --sidecar FILE       the facts' JSON to FILE (also when the rows go to standard output)\n"
    "  --no-sidecar         no JSON facts file\n"
    "  --every K            write every K-th step only (the last step is always written)\n"
    "  --plot FILE.png      also draw the run with gnuplot: the state columns against time, or\n"
    "  --vars X1,X2,...     these columns against time, or\n"
    "  --phase X,Y          Y against X (a phase portrait)\n"
    "A progress line (share done, steps per second, time left) goes to stderr when it is a terminal\n"
    "and the rows do not go to that terminal.\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 done; 1 the model failed, a step had no solution or writing the CSV failed\n"
    "(rows so far are kept); 2 bad command line; 128 + the signal after SIGINT or SIGTERM (the\n"
    "CSV ends with the last whole row, and the message says which).\n";

enum {
    OPT_OUT = RUN_OPT_END,
    OPT_EVERY,
    OPT_FORMAT,
    OPT_SIDECAR,
    OPT_NO_SIDECAR,
    OPT_PLOT,
    OPT_VARS,
    OPT_PHASE,
    OPT_ENGINE,
    OPT_RTOL,
    OPT_ATOL,
    OPT_EVENTS
};

static const struct option long_options[] = {
    RUN_LONG_OPTIONS,
    {"steps", required_argument, NULL, RUN_OPT_STEPS},
    {"out", required_argument, NULL, OPT_OUT},
    {"every", required_argument, NULL, OPT_EVERY},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"sidecar", required_argument, NULL, OPT_SIDECAR},
    {"no-sidecar", no_argument, NULL, OPT_NO_SIDECAR},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"vars", required_argument, NULL, OPT_VARS},
    {"phase", required_argument, NULL, OPT_PHASE},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"events", required_argument, NULL, OPT_EVENTS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* An option of simulate's own output (not a shared run option): 0 done, 1 not one of them, or
 * CLI_USAGE after printing. */
static int apply_output_option(simulate_output *so, int code, const char *value)
{
    switch (code) {
    case OPT_OUT: so->path = value; return 0;
    case OPT_SIDECAR: so->sidecar = value; return 0;
    case OPT_NO_SIDECAR: so->no_sidecar = 1; return 0;
    case OPT_PLOT: so->plot.png = value; return 0;
    case OPT_VARS: so->plot.vars = value; return 0;
    case OPT_PHASE: so->plot.phase = value; return 0;
    case OPT_EVERY:
        return cli_parse_long(value, &so->every) && so->every >= 1
                   ? 0 : cli_bad_value("simulate", "--every", value, "expected a whole number >= 1");
    case OPT_FORMAT:
        if (strcmp(value, "csv") != 0 && strcmp(value, "hdf5") != 0)
            return cli_bad_value("simulate", "--format", value, "expected csv or hdf5");
        so->hdf5 = strcmp(value, "hdf5") == 0;
        return 0;
    default: return 1;
    }
}

/* --engine, --rtol, --atol, --events: 0 done, 1 not one of them, or CLI_USAGE after printing. */
static int apply_engine_option(run_options *ro, int code, const char *value)
{
    if (code == OPT_EVENTS) {
        ro->events_path = value;
        return 0;
    }
    if (code == OPT_ENGINE) {
        if (strcmp(value, "events") == 0) ro->engine_events = 1;
        else if (strcmp(value, "mlcs-stepper") == 0) ro->engine_events = 0;
        else return cli_bad_value("simulate", "--engine", value, "expected mlcs-stepper or events");
        return 0;
    }
    if (code != OPT_RTOL && code != OPT_ATOL) return 1;
    return run_options_tolerance(ro, "simulate", code == OPT_RTOL ? "--rtol" : "--atol", value);
}

/* The event-driven options go with --engine events only, --every with the time steppers only (the
 * event rows are not on the grid's step count). */
static int check_engine(const run_options *ro, const simulate_output *so)
{
    if (!ro->engine_events && (ro->rtol > 0 || ro->atol > 0 || ro->events_path)) {
        fputs("nsdae simulate: --rtol, --atol and --events need --engine events\n", stderr);
        return CLI_USAGE;
    }
    if (ro->engine_events && so->every != 1) {
        fputs("nsdae simulate: --every thins the time steppers' rows; --engine events writes the grid (choose it "
              "with --step or --steps) and the event rows\n", stderr);
        return CLI_USAGE;
    }
    return 0;
}

/* Combinations that cannot work, before the model is loaded. */
static int check_output(const simulate_output *so)
{
    if (so->hdf5 && !so->path) {
        fputs("nsdae simulate: --format hdf5 needs --out FILE (HDF5 is not written to a stream)\n", stderr);
        return CLI_USAGE;
    }
    if ((so->plot.vars || so->plot.phase) && !so->plot.png) {
        fprintf(stderr, "nsdae simulate: %s needs --plot FILE.png\n", so->plot.vars ? "--vars" : "--phase");
        return CLI_USAGE;
    }
    if (so->sidecar && so->no_sidecar) {
        fputs("nsdae simulate: give either --sidecar or --no-sidecar, not both\n", stderr);
        return CLI_USAGE;
    }
    return 0;
}

int nsdae_cmd_simulate(int argc, char **argv)
{
    run_options ro;
    run_options_init(&ro);
    simulate_output so = {.every = 1};
    const char *value;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("simulate", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == CLI_OPT_BAD) rc = CLI_USAGE;
        else if (code == 'h') {
            fputs(help, stdout);
            run_options_free(&ro);
            return 0;
        } else if ((rc = apply_output_option(&so, code, value)) == 1 && (rc = apply_engine_option(&ro, code, value)) == 1)
            rc = run_options_apply(&ro, "simulate", code, value);
    }
    if (!rc) rc = check_output(&so);
    if (!rc) rc = check_engine(&ro, &so);
    if (!rc) rc = run_options_operands(&ro, "simulate", argc, argv, first);
    if (!rc) rc = run_load(&ro, "simulate");
    if (!rc) rc = simulate_run(&ro, &so);
    run_options_free(&ro);
    return rc;
}
