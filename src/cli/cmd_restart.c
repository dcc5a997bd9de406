/* nsdae restart MODEL [--param NAME=VALUE]... [--json] [--at NAME=VALUE,... [--from MODE] [--to MODE]]:
 * the restart analysis (Benveniste et al. 2026) of every mode change of a model, or the numeric restart
 * of one mode change at a given left-limit state. The report is the library's
 * (nsdae/restart_report.h, which the Python module calls too); this file reads the options and prints. */
#include "cli/commands.h"
#include "cli/example_twin.h"
#include "cli/model_source.h"
#include "cli/options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/restart_report.h>

static void usage(FILE *out)
{
    fputs("usage: nsdae restart MODEL [--param NAME=VALUE[,NAME=VALUE...]]... [--json]\n"
          "       nsdae restart MODEL --at NAME=VALUE[,NAME=VALUE...] [--from MODE] [--to MODE] [--json]\n"
          "       (both forms take --height K)\n"
          "\n"
          "Restart analysis of mode changes (Benveniste et al. 2026): for every change between two long modes that\n"
          "differ in one switch (a state guard crossing, a complementarity closing or opening, an\n"
          "exogenous 'if' on time), the mode change array, its height K, the impulse order of every\n"
          "impulsive variable, Procedure 1's restart equations relating the restart values to the left\n"
          "limits, and, when the model does not determine the restart, the diagnostics D1-D8 naming the\n"
          "equations and variables involved. Sliding (relaxed) modes are not restart modes.\n"
          "\n"
          "With --at, the numeric restart of one change at a left-limit state: the restart value of every\n"
          "state and the impulses (integrals of the impulsive multipliers). The change is --from -> --to\n"
          "when given, otherwise the one change whose guard vanishes at the state and is being crossed\n"
          "(a contact gap closing, a guard becoming true or false, time reaching an exogenous switch).\n"
          "\n"
          "options:\n"
          "  --param NAME=VALUE[,NAME=VALUE...]  override parameters (repeatable)\n"
          "  --example NAME     a built-in example: its twin model file (built into nsdae, e.g.\n"
          "                     examples/cup_and_ball.nsm) is analysed; beads' n is the file's N\n"
          "  --at NAME=VALUE[,...]  left limits: x=.., der(x)=.., der(der(x))=.., time=..; values not\n"
          "                     given are 0. They must satisfy the facts the analysis assumed (the guard\n"
          "                     at 0, the previous mode's equations): else no restart, the fact named\n"
          "  --from MODE, --to MODE  the change, as codes of 'nsdae analyze --mode' (e.g. 1 and 0)\n"
          "  --height K         analyse the array at height K only (default: search [K_*, K^*])\n"
          "  --json             JSON report: {\"model\", \"transitions\": [{\"from\", \"to\", \"via\",\n"
          "                     \"status\", \"diagnostics\", \"height\", \"impulse_orders\",\n"
          "                     \"restart_equations\", \"undetermined\", \"restart\", \"impulses\",\n"
          "                     \"sign_error\" (a closing contact that would need a negative percussion),\n"
          "                     \"brute_force\" (not-rescalable: the unscaled array at small eps)}]}\n"
          "  -h, --help         this text\n"
          "\n"
          "status: ok, partial, underdetermined, inconsistent, not-rescalable, impulsive-state,\n"
          "singular-mode, numerically-singular (--at), error (the change cannot be analysed: why).\n"
          "exit status: 0 done, 1 model error or failed numeric restart, 2 bad usage\n",
          out);
}

enum { OPT_PARAM = CLI_OPT_BASE, OPT_EXAMPLE, OPT_JSON, OPT_AT, OPT_FROM, OPT_TO, OPT_HEIGHT };

static const struct option long_options[] = {
    {"param", required_argument, NULL, OPT_PARAM}, {"example", required_argument, NULL, OPT_EXAMPLE},
    {"json", no_argument, NULL, OPT_JSON},         {"at", required_argument, NULL, OPT_AT},
    {"from", required_argument, NULL, OPT_FROM},   {"to", required_argument, NULL, OPT_TO},
    {"height", required_argument, NULL, OPT_HEIGHT},
    {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0},
};

typedef struct restart_cmd {
    model_source src;
    int json;
    const char *at, *from, *to;
    int height;         /* --height K, or -1: search */
} restart_cmd;

/* --height K: a whole number in [0, 64] (the array grows as K times the equations). */
static int parse_height(const char *value, int *height)
{
    double v;
    if (!cli_parse_double(value, &v) || v != floor(v) || v < 0 || v > 64)
        return cli_bad_value("restart", "--height", value, "a whole number in [0, 64]");
    *height = (int)v;
    return 0;
}

static int parse(int argc, char **argv, restart_cmd *c)
{
    const char *value;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("restart", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            usage(stdout);
            return -1;
        }
        if (code == OPT_PARAM) rc = cli_params_add(&c->src.params, "restart", value);
        else if (code == OPT_EXAMPLE) c->src.example = value;
        else if (code == OPT_JSON) c->json = 1;
        else if (code == OPT_AT) c->at = value;
        else if (code == OPT_FROM) c->from = value;
        else if (code == OPT_TO) c->to = value;
        else if (code == OPT_HEIGHT) rc = parse_height(value, &c->height);
        else rc = CLI_USAGE;
    }
    if (!rc && first + 1 < argc) {
        fprintf(stderr, "nsdae restart: one model only ('%s' and '%s')\n", argv[first], argv[first + 1]);
        rc = CLI_USAGE;
    }
    if (!rc && (c->from || c->to) && !c->at) {
        fputs("nsdae restart: --from and --to name the change of a numeric restart: give --at too\n", stderr);
        rc = CLI_USAGE;
    }
    if (!rc && first < argc) c->src.path = argv[first];
    return rc;
}

/* ---- the left-limit state ---------------------------------------------------------------- */
/* The library's message without its "restart: " (the command says "nsdae restart: "). */
static const char *unprefixed(const char *message)
{
    return strncmp(message, "restart: ", 9) ? message : message + 9;
}

/* Loads the model, reads --at, asks the library for the report and prints it. */
static int run(restart_cmd *c)
{
    const nsdae_model *m = c->src.model;
    nsdae_error err = {0};
    double *left = NULL, time = 0;
    if (c->at && nsdae_restart_parse_left(m, c->at, &left, &time, &err) != NSDAE_OK) {
        if (err.status == NSDAE_NOMEM) return fprintf(stderr, "nsdae restart: %s\n", err.message), 1;
        const char *why = strstr(err.message, "': ");
        return cli_bad_value("restart", "--at", c->at, why ? why + 3 : err.message);
    }
    nsdae_restart_request rq = {left, time, c->from, c->to, c->height, !c->json};
    char *report = NULL;
    int failed = 0, rc = 0;
    nsdae_status st = nsdae_restart_report(m, &rq, &report, &failed, &err);
    if (st == NSDAE_OK) {
        fputs(report, stdout);
        rc = failed;
    } else if (st == NSDAE_INVALID_INPUT) {
        fprintf(stderr, "nsdae restart: --from/--to: %s\n", unprefixed(err.message));
        rc = CLI_USAGE;
    } else {
        fprintf(stderr, "nsdae restart: %s%s\n", unprefixed(err.message),
                st == NSDAE_NO_SOLUTION ? ": name the change with --from and --to"
                : st == NSDAE_LIMIT     ? ": name one change with --at, --from and --to"
                                        : "");
        rc = 1;
    }
    nsdae_restart_report_free(report);
    free(left);
    return rc;
}

int nsdae_cmd_restart(int argc, char **argv)
{
    restart_cmd c = {0};
    c.height = -1;
    model_source_init(&c.src);
    int rc = parse(argc, argv, &c);
    if (rc < 0) {
        rc = 0;
        goto done;
    }
    if (!rc) rc = model_source_load_equations(&c.src, "restart", CLI_USAGE);
    if (rc) goto done;
    rc = run(&c);
done:
    model_source_free(&c.src);
    return rc;
}
