/* nsdae converge: error at the stop time against a reference over several step counts, with
 * the observed order between successive runs and the least-squares order over all of them. */
#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/convergence.h"
#include "cli/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: nsdae converge (MODEL | --example NAME) --steps N1,N2,... [options]\n"
    "\n"
    "Simulates with h = T/N for each N and prints, per run: h, N, the error at T in the 2-norm\n"
    "over the differential unknowns (positions and velocities for --scheme moreau), the ratio\n"
    "to the previous error and the observed order;\n"
    "then the least-squares order (slope of log error against log h).\n"
    "\n"
    "options:\n"
    "  --steps N1,N2,...    distinct step counts (at least two; 5 or more for a fitted order)\n"
    "  --reference R        exact (default for built-in MLCS examples with a closed form): the\n"
    "                       exact state at T; finest (default otherwise): the run with the\n"
    "                       largest N is the reference; events: the event-driven engine's\n"
    "                       state at T (SUNDIALS IDA)\n"
    "  --rtol R, --atol A   with --reference events: IDA's tolerances (default 1e-10, 1e-12)\n"
    "  --plot FILE.png      log-log plot of error against h (gnuplot)\n"
    "  --csv FILE           the table as CSV\n" RUN_OPTIONS_HELP_MODEL RUN_OPTIONS_HELP_SCHEME
    "  -h, --help           this text\n" RUN_OPTIONS_HELP_TAIL;

enum { OPT_STEPS_LIST = RUN_OPT_END, OPT_PLOT, OPT_CSV, OPT_REFERENCE, OPT_RTOL, OPT_ATOL };

static const struct option long_options[] = {
    RUN_LONG_OPTIONS,
    {"steps", required_argument, NULL, OPT_STEPS_LIST},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"csv", required_argument, NULL, OPT_CSV},
    {"reference", required_argument, NULL, OPT_REFERENCE},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Parses the command line into ro and the converge options. Returns 0, -1 after --help, or the exit
 * status of a bad command line. */
static int parse(int argc, char **argv, run_options *ro, const char **steps_text, const char **plot_path,
                 const char **csv_path, const char **reference)
{
    const char *value;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("converge", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == CLI_OPT_BAD) rc = CLI_USAGE;
        else if (code == 'h') {
            fputs(help, stdout);
            return -1;
        } else if (code == OPT_STEPS_LIST) *steps_text = value;
        else if (code == OPT_PLOT) *plot_path = value;
        else if (code == OPT_CSV) *csv_path = value;
        else if (code == OPT_REFERENCE) *reference = value;
        else if (code == OPT_RTOL || code == OPT_ATOL)
            rc = run_options_tolerance(ro, "converge", code == OPT_RTOL ? "--rtol" : "--atol", value);
        else if (code == RUN_OPT_STEP)
            rc = cli_bad_value("converge", "--step", value,
                               "converge runs h = T/N for each N of --steps N1,N2,...; a fixed step does not apply");
        else if (code == RUN_OPT_NO_COUNT) {
            fputs("nsdae converge: --no-count: converge counts no solutions (it compares final states only)\n", stderr);
            rc = CLI_USAGE;
        } else rc = run_options_apply(ro, "converge", code, value);
    }
    return rc ? rc : run_options_operands(ro, "converge", argc, argv, first);
}

static int study_contact(run_options *ro, convergence_reference ref, const long *steps, int nruns,
                         const char *plot_path, const char *csv_path)
{
    nsdae_lagrangian *s = NULL;
    nsdae_moreau_options mo;
    convergence_runner run;
    moreau_runner mr;
    int status = model_source_contact(&ro->src, "converge", &s);
    if (!status) status = run_moreau_options(ro, "converge", s, &mo);
    if (!status) {
        moreau_runner_init(&mr, &run, s, &mo, ro);
        status = convergence_study(&run, ro, ref, steps, nruns, plot_path, csv_path);
    }
    nsdae_lagrangian_destroy(s);
    return status;
}

static int study_mlcs(run_options *ro, convergence_reference ref, const long *steps, int nruns,
                      const char *plot_path, const char *csv_path)
{
    nsdae_mlcs *s = NULL;
    nsdae_stepper_options so;
    convergence_runner run;
    mlcs_runner mr;
    int status = model_source_mlcs(&ro->src, "converge", &s, NULL);
    if (!status) status = run_stepper_options(ro, "converge", s, &so);
    if (!status) {
        so.count_solutions = 0; /* only the final state matters here */
        status = 1;
        if (mlcs_runner_init(&mr, &run, s, &so, ro)) {
            status = convergence_study(&run, ro, ref, steps, nruns, plot_path, csv_path);
            mlcs_runner_free(&mr);
        }
    }
    nsdae_mlcs_destroy(s);
    return status;
}

int nsdae_cmd_converge(int argc, char **argv)
{
    run_options ro;
    run_options_init(&ro);
    const char *steps_text = NULL, *plot_path = NULL, *csv_path = NULL, *reference = NULL;
    long *steps = NULL;
    int nruns = 0;
    int rc = parse(argc, argv, &ro, &steps_text, &plot_path, &csv_path, &reference);
    if (rc < 0) { /* --help */
        run_options_free(&ro);
        return 0;
    }
    if (!rc && !steps_text) {
        fputs("nsdae converge: --steps N1,N2,... is required\n", stderr);
        rc = CLI_USAGE;
    }
    else if (!rc && !convergence_parse_steps(steps_text, &steps, &nruns))
        rc = cli_bad_value("converge", "--steps", steps_text,
                           "expected at least two distinct whole numbers >= 1, comma-separated");
    convergence_reference ref = CONVERGENCE_EXACT;
    if (!rc && reference && strcmp(reference, "finest") == 0) ref = CONVERGENCE_FINEST;
    else if (!rc && reference && strcmp(reference, "events") == 0) ref = CONVERGENCE_EVENTS;
    else if (!rc && reference && strcmp(reference, "exact") != 0)
        rc = cli_bad_value("converge", "--reference", reference, "expected exact, finest or events");
    if (!rc && ref != CONVERGENCE_EVENTS && (ro.rtol > 0 || ro.atol > 0)) {
        fputs("nsdae converge: --rtol and --atol are the event-driven engine's: they need --reference events\n",
              stderr);
        rc = CLI_USAGE;
    }
    if (!rc && plot_path && !plot_check("converge", plot_path)) rc = 1; /* before the runs, not after */
    if (!rc) rc = run_load(&ro, "converge");
    if (!rc) {
        if (!reference && (!ro.src.example || ro.moreau)) ref = CONVERGENCE_FINEST;
        rc = ro.moreau ? study_contact(&ro, ref, steps, nruns, plot_path, csv_path)
                       : study_mlcs(&ro, ref, steps, nruns, plot_path, csv_path);
    }
    free(steps);
    run_options_free(&ro);
    return rc;
}
