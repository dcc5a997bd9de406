/* nsdae simulate: integrate a system and write its trajectory as CSV. */
#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/simulate_run.h"

#include <stdio.h>

static const char help[] =
    "usage: nsdae simulate (MODEL | --example NAME) [options]\n"
    "\n"
    "Integrates the system with a fixed-step event-capturing scheme and writes one CSV row per\n"
    "step: t, every unknown, every multiplier, nsol (solutions of that step's MLCP; inf for a\n"
    "continuum) and res (the step's MLCP residual). A summary line goes to stderr.\n"
    "With --scheme moreau (contact models): t, positions, velocities der(q), the percussion P_c\n"
    "of each contact over the step, its activity flag active_c, and res.\n"
    "\n"
    "options:\n" RUN_OPTIONS_HELP
    "  --out FILE           write the CSV to FILE (default: standard output)\n"
    "  --every K            write every K-th step only (the last step is always written)\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 done; 1 the model failed, a step had no solution or writing the CSV failed\n"
    "(rows so far are kept); 2 bad command line; 128 + the signal after SIGINT or SIGTERM (the\n"
    "CSV ends with the last whole row, and the message says which).\n";

enum { OPT_OUT = RUN_OPT_END, OPT_EVERY };

static const struct option long_options[] = {
    RUN_LONG_OPTIONS,
    {"steps", required_argument, NULL, RUN_OPT_STEPS},
    {"out", required_argument, NULL, OPT_OUT},
    {"every", required_argument, NULL, OPT_EVERY},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int nsdae_cmd_simulate(int argc, char **argv)
{
    run_options ro;
    run_options_init(&ro);
    const char *out_path = NULL, *value;
    long every = 1;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("simulate", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == CLI_OPT_BAD) rc = CLI_USAGE;
        else if (code == 'h') {
            fputs(help, stdout);
            run_options_free(&ro);
            return 0;
        } else if (code == OPT_OUT) out_path = value;
        else if (code == OPT_EVERY) {
            if (!cli_parse_long(value, &every) || every < 1)
                rc = cli_bad_value("simulate", "--every", value, "expected a whole number >= 1");
        } else rc = run_options_apply(&ro, "simulate", code, value);
    }
    if (!rc) rc = run_options_operands(&ro, "simulate", argc, argv, first);
    if (!rc) rc = run_load(&ro, "simulate");
    if (!rc) rc = simulate_run(&ro, out_path, every);
    run_options_free(&ro);
    return rc;
}
