/* nsdae converge: error at the stop time against a reference over several step counts, with
 * the observed order between successive runs and the least-squares order over all of them. */
#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/convergence.h"

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
    "  --steps N1,N2,...    step counts (at least two; 5 or more for a fitted order)\n"
    "  --reference R        exact (default for built-in MLCS examples with a closed form): the\n"
    "                       exact state at T; finest (default otherwise): the run with the\n"
    "                       largest N is the reference\n"
    "  --plot FILE.png      log-log plot of error against h (gnuplot)\n"
    "  --csv FILE           the table as CSV\n" RUN_OPTIONS_HELP
    "  -h, --help           this text\n";

static int parse_steps_list(const char *text, long **out, int *count)
{
    int cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    long *v = calloc((size_t)cap, sizeof *v);
    if (!v) return 0;
    char *copy = strdup(text), *save = NULL;
    int n = 0, ok = copy != NULL;
    for (char *tok = ok ? strtok_r(copy, ",", &save) : NULL; ok && tok; tok = strtok_r(NULL, ",", &save)) {
        ok = cli_parse_long(tok, &v[n]) && v[n] >= 1;
        n += ok;
    }
    free(copy);
    if (!ok || n < 2) {
        free(v);
        return 0;
    }
    *out = v;
    *count = n;
    return 1;
}

int nsdae_cmd_converge(int argc, char **argv)
{
    run_options ro;
    run_options_init(&ro);
    const char *steps_text = NULL, *plot_path = NULL, *csv_path = NULL, *reference = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        const char **slot = strcmp(argv[i], "--steps") == 0       ? &steps_text
                            : strcmp(argv[i], "--plot") == 0      ? &plot_path
                            : strcmp(argv[i], "--csv") == 0       ? &csv_path
                            : strcmp(argv[i], "--reference") == 0 ? &reference
                                                                  : NULL;
        if (slot) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nsdae converge: %s needs a value\n", argv[i]);
                return 2;
            }
            *slot = argv[++i];
            continue;
        }
        int r = run_options_parse(&ro, "converge", argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "nsdae converge: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
        if (ro.model_path) {
            fprintf(stderr, "nsdae converge: one model only ('%s' and '%s')\n", ro.model_path, argv[i]);
            return 2;
        }
        ro.model_path = argv[i];
    }
    long *steps = NULL;
    int nruns = 0;
    if (!run_resolve_scheme(&ro, "converge")) return 1;
    if (!steps_text) {
        fprintf(stderr, "nsdae converge: --steps N1,N2,... is required\n");
        return 2;
    }
    if (!parse_steps_list(steps_text, &steps, &nruns)) {
        fprintf(stderr, "nsdae converge: --steps '%s': expected at least two whole numbers >= 1, comma-separated\n",
                steps_text);
        return 2;
    }
    convergence_reference ref = CONVERGENCE_EXACT;
    if (reference && strcmp(reference, "finest") == 0) ref = CONVERGENCE_FINEST;
    else if (reference && strcmp(reference, "exact") != 0) {
        fprintf(stderr, "nsdae converge: --reference '%s': expected exact or finest\n", reference);
        free(steps);
        return 2;
    }
    if (!reference && (!ro.example || ro.moreau)) ref = CONVERGENCE_FINEST;

    int status = 2;
    convergence_runner run;
    if (ro.moreau) {
        nsdae_lagrangian *s = NULL;
        nsdae_moreau_options mo;
        moreau_runner mr;
        if (!run_load_contact(&ro, "converge", &s)) status = 1;
        else if (run_moreau_options(&ro, "converge", s, &mo)) {
            moreau_runner_init(&mr, &run, s, &mo);
            status = convergence_study(&run, &ro, ref, steps, nruns, plot_path, csv_path);
        }
        nsdae_lagrangian_destroy(s);
    } else {
        nsdae_mlcs *s = NULL;
        nsdae_stepper_options so;
        mlcs_runner mr;
        if (!run_load_system(&ro, "converge", &s)) status = 1;
        else if (run_stepper_options(&ro, "converge", s, &so)) {
            so.count_solutions = 0; /* only the final state matters here */
            if (mlcs_runner_init(&mr, &run, s, &so, &ro)) {
                status = convergence_study(&run, &ro, ref, steps, nruns, plot_path, csv_path);
                mlcs_runner_free(&mr);
            }
        }
        nsdae_mlcs_destroy(s);
    }
    free(steps);
    return status;
}
