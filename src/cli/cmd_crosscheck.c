/* nsdae crosscheck: the time stepper at several step counts against the event-driven engine on the
 * same grids (crosscheck_study.h), as a table, CSV, JSON and plots (crosscheck_report.h). */
#include "cli/commands.h"
#include "cli/convergence.h"
#include "cli/crosscheck_report.h"
#include "cli/plot.h"
#include "cli/run_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: nsdae crosscheck (MODEL | --example NAME) --steps N1,N2,... [options]\n"
    "\n"
    "Runs the time stepper with h = T/N for each N and the event-driven engine (SUNDIALS IDA) on the\n"
    "same grid, and prints per N: the error at T, the largest error on the grid away from events\n"
    "(rows within a step of an event left out), the event-time error (the stepper's first mode\n"
    "change against the engine's first event), the stepper's state there against the engine's\n"
    "restart state; then the order fitted to each (implicit Euler with events: 1). Errors are\n"
    "2-norms over the differential unknowns (positions and velocities for --scheme moreau).\n"
    "\n"
    "options:\n"
    "  --steps N1,N2,...    distinct step counts (at least two; 5 or more for a fitted order)\n"
    "  --rtol R, --atol A   the engine's IDA tolerances (default 1e-10, 1e-12)\n"
    "  --plot FILE.png      log-log plot of the errors against h, and FILE_overlay.png: both\n"
    "                       trajectories (engine, coarsest and finest N) per state (gnuplot)\n"
    "  --csv FILE           the table as CSV\n"
    "  --json FILE          the table, the engine's counts and the orders as JSON (- : stdout,\n"
    "                       instead of the table)\n" RUN_OPTIONS_HELP_MODEL RUN_OPTIONS_HELP_SCHEME
    "  -h, --help           this text\n" RUN_OPTIONS_HELP_TAIL;

enum { OPT_STEPS_LIST = RUN_OPT_END, OPT_PLOT, OPT_CSV, OPT_JSON, OPT_RTOL, OPT_ATOL };

static const struct option long_options[] = {
    RUN_LONG_OPTIONS,
    {"steps", required_argument, NULL, OPT_STEPS_LIST},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"csv", required_argument, NULL, OPT_CSV},
    {"json", required_argument, NULL, OPT_JSON},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct xc_request {
    const char *steps_text, *plot, *csv, *json;
    long *steps;
    int nruns;
} xc_request;

/* Parses the command line. Returns 0, -1 after --help, or the exit status of a bad command line. */
static int parse(int argc, char **argv, run_options *ro, xc_request *rq)
{
    const char *value;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("crosscheck", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == CLI_OPT_BAD) rc = CLI_USAGE;
        else if (code == 'h') {
            fputs(help, stdout);
            return -1;
        } else if (code == OPT_STEPS_LIST) rq->steps_text = value;
        else if (code == OPT_PLOT) rq->plot = value;
        else if (code == OPT_CSV) rq->csv = value;
        else if (code == OPT_JSON) rq->json = value;
        else if (code == OPT_RTOL || code == OPT_ATOL)
            rc = run_options_tolerance(ro, "crosscheck", code == OPT_RTOL ? "--rtol" : "--atol", value);
        else if (code == RUN_OPT_STEP)
            rc = cli_bad_value("crosscheck", "--step", value,
                               "crosscheck runs h = T/N for each N of --steps N1,N2,...; a fixed step does not apply");
        else if (code == RUN_OPT_NO_COUNT) {
            fputs("nsdae crosscheck: --no-count: crosscheck counts no solutions (it compares states)\n", stderr);
            rc = CLI_USAGE;
        } else rc = run_options_apply(ro, "crosscheck", code, value);
    }
    if (!rc) rc = run_options_operands(ro, "crosscheck", argc, argv, first);
    if (!rc && !rq->steps_text) {
        fputs("nsdae crosscheck: --steps N1,N2,... is required\n", stderr);
        rc = CLI_USAGE;
    } else if (!rc && !convergence_parse_steps(rq->steps_text, &rq->steps, &rq->nruns))
        rc = cli_bad_value("crosscheck", "--steps", rq->steps_text,
                           "expected at least two distinct whole numbers >= 1, comma-separated");
    return rc;
}

static const char *scheme_name(const run_options *ro)
{
    if (ro->moreau) return "moreau";
    return ro->scheme == NSDAE_SCHEME_EULER ? "euler" : ro->scheme == NSDAE_SCHEME_THETA ? "theta" : "minnorm";
}

/* The study on a system already set up, and everything it writes. */
static int study(const xc_system *sys, const run_options *ro, const xc_request *rq)
{
    xc_study st;
    xc_heading hd = {ro->src.label, scheme_name(ro)};
    int rc = xc_study_run(sys, "crosscheck", rq->steps, rq->nruns, &st);
    if (!rc) {
        if (!rq->json || strcmp(rq->json, "-") != 0) xc_report_table(stdout, &hd, sys, &st);
        if (rq->json) rc |= xc_report_file("crosscheck", "--json", rq->json, &hd, sys, &st, xc_report_json);
        if (rq->csv) rc |= xc_report_file("crosscheck", "--csv", rq->csv, &hd, sys, &st, xc_report_csv_file);
        if (rq->plot) rc |= xc_report_plots("crosscheck", rq->plot, &hd, sys, &st);
    }
    xc_study_free(&st);
    return rc;
}

static int run_form(run_options *ro, const xc_request *rq)
{
    nsdae_mlcs *ms = NULL;
    nsdae_lagrangian *cs = NULL;
    xc_system sys;
    memset(&sys, 0, sizeof sys);
    int rc;
    if (ro->moreau) {
        nsdae_moreau_options mo;
        rc = model_source_contact(&ro->src, "crosscheck", &cs);
        if (!rc) rc = run_moreau_options(ro, "crosscheck", cs, &mo);
        if (!rc) rc = xc_system_contact(&sys, cs, &mo, ro->rtol, ro->atol);
    } else {
        nsdae_stepper_options so;
        rc = model_source_mlcs(&ro->src, "crosscheck", &ms, NULL);
        if (!rc) rc = run_stepper_options(ro, "crosscheck", ms, &so);
        if (!rc) rc = xc_system_mlcs(&sys, ms, &so, ro->rtol, ro->atol);
    }
    if (!rc) rc = study(&sys, ro, rq);
    xc_system_free(&sys);
    nsdae_mlcs_destroy(ms);
    nsdae_lagrangian_destroy(cs);
    return rc;
}

int nsdae_cmd_crosscheck(int argc, char **argv)
{
    run_options ro;
    run_options_init(&ro);
    xc_request rq = {0};
    int rc = parse(argc, argv, &ro, &rq);
    if (rc < 0) rc = 0; /* --help */
    else {
        if (!rc && rq.plot && !plot_check("crosscheck", rq.plot)) rc = 1; /* before the runs, not after */
        if (!rc) rc = run_load(&ro, "crosscheck");
        if (!rc) rc = run_form(&ro, &rq);
    }
    free(rq.steps);
    run_options_free(&ro);
    return rc;
}
