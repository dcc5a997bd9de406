/* nsdae analyze MODEL [--mode CODE]... [--param NAME=VALUE]... [--json] [--strict]:
 * the structural analysis (Sigma-method) of every mode of a model, or of the named ones. */
#include "cli/commands.h"
#include "cli/example_twin.h"
#include "cli/model_source.h"
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/structural.h>

#include "cli/analyze_report.h"

/* Analyse every mode when there are at most this many (issue 6). */
#define ANALYZE_ALL_LIMIT 4096.0

static void usage(FILE *out)
{
    fputs("usage: nsdae analyze MODEL [--mode CODE]... [--param NAME=VALUE[,NAME=VALUE...]]... [--json] [--strict]\n"
          "\n"
          "Structural analysis (Pryce's Sigma-method) of every mode of MODEL: signature matrix,\n"
          "highest-value transversal, offsets c (equations) and d (unknowns), structural index,\n"
          "latent equations, state candidates and a dummy-derivative state selection, degrees of\n"
          "freedom, block-triangular form of the leading system, and a numeric check of the system\n"
          "Jacobian at the start values (rank, condition number). Modes that are structurally\n"
          "singular, underdetermined or overdetermined are reported with the equations and unknowns\n"
          "involved.\n"
          "\n"
          "Modes come from switches, in source order: an 'if' (choice = branch: 0 then, 1.. elseif or\n"
          "else; a state switch 'if h > 0 then G1 else G2' also has the relaxed sliding mode h = 0 as\n"
          "its last choice), a complementarity '0 <= a _|_ b >= 0' (0: a = 0, 1: b = 0), and a sign\n"
          "membership 'v in [lo, hi] * sign(e)' (0: e = 0, sliding; 1: v = hi; 2: v = lo). 'when'\n"
          "equations (transient modes) are not part of any mode. The text report lists the switches.\n"
          "All modes are analysed when there are at most 4096; otherwise only those named with --mode,\n"
          "and the report says how many were skipped.\n"
          "\n"
          "options:\n"
          "  --mode CODE        analyse this mode only (repeatable). CODE has one choice per switch,\n"
          "                     separated by dots, e.g. 0.1.2 for three switches; '-' when there is\n"
          "                     none. Choices of switches nested in branches not chosen are ignored.\n"
          "  --param NAME=VALUE[,NAME=VALUE...]\n"
          "                     override parameters (repeatable)\n"
          "  --example NAME     a built-in example: its twin model file (built into nsdae, e.g.\n"
          "                     examples/rocca_crossing.nsm) is analysed; beads' n is the file's N\n"
          "  --json             JSON report: {\"model\", \"switches\", \"mode_count\", \"modes\": [{\"mode\",\n"
          "                     \"code\", \"status\", \"index\", \"differentiations\", \"dof\", \"states\",\n"
          "                     \"latent\", \"offsets\", \"blocks\", ...}], \"skipped\"}\n"
          "  --strict           exit with status 3 when some analysed mode is not structurally ok\n"
          "  -h, --help         this text\n"
          "Options take their value as --opt VALUE or --opt=VALUE; -- ends the options.\n"
          "\n"
          "status: ok, singular (no transversal), underdetermined, overdetermined; a structurally ok\n"
          "mode whose system Jacobian is singular at the start values is reported as numerically\n"
          "singular. The index is Pryce's structural index max c + (1 if some d = 0); the number of\n"
          "times the worst equation is differentiated is reported beside it.\n"
          "exit status: 0 done, 1 model error, 2 bad usage, 3 (--strict) some mode not ok\n",
          out);
}

enum { OPT_MODE = CLI_OPT_BASE, OPT_PARAM, OPT_EXAMPLE, OPT_JSON, OPT_STRICT };

static const struct option long_options[] = {
    {"mode", required_argument, NULL, OPT_MODE},
    {"param", required_argument, NULL, OPT_PARAM},
    {"example", required_argument, NULL, OPT_EXAMPLE},
    {"json", no_argument, NULL, OPT_JSON},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Parses the command line. Returns 0, -1 after --help, or the exit status of a bad command line. */
static int parse(int argc, char **argv, model_source *src, const char **modes, int *nmodes, int *json, int *strict)
{
    const char *value;
    int code, first, rc = 0;
    cli_options_begin();
    while (!rc && (code = cli_options_next("analyze", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            usage(stdout);
            return -1;
        }
        if (code == OPT_MODE) modes[(*nmodes)++] = value;
        else if (code == OPT_PARAM) rc = cli_params_add(&src->params, "analyze", value);
        else if (code == OPT_EXAMPLE) src->example = value;
        else if (code == OPT_JSON) *json = 1;
        else if (code == OPT_STRICT) *strict = 1;
        else rc = CLI_USAGE;
    }
    if (!rc && first + 1 < argc) {
        fprintf(stderr, "nsdae analyze: one model only ('%s' and '%s')\n", argv[first], argv[first + 1]);
        rc = CLI_USAGE;
    }
    if (!rc && first < argc) src->path = argv[first];
    return rc;
}

/* Analyses the named modes (or all of them), printing each; 0 done, 1 an analysis failed, 3 with
 * strict when a mode is not structurally ok. choice has room for one choice per switch. */
static int analyse_modes(const nsdae_model *m, const nsdae_switches *sw, const char **modes, int nmodes_named,
                         int json, int strict, int *choice)
{
    nsdae_error err = {0};
    double total = nsdae_mode_count(sw);
    int all = nmodes_named == 0 && total <= ANALYZE_ALL_LIMIT;
    double analysed = 0;
    int not_ok = 0;
    if (json) nsdae_analyze_json_begin(stdout, m, sw, total);
    else nsdae_analyze_text_header(stdout, m, sw, total);

    int more = all || nmodes_named > 0;
    int k = 0;
    if (all) nsdae_mode_first(sw, choice);
    while (more) {
        if (!all && nsdae_mode_parse(sw, modes[k], choice, &err) != NSDAE_OK) break;
        nsdae_structural_mode *md = NULL;
        if (nsdae_structural_mode_analyze(m, sw, choice, &md, &err) != NSDAE_OK) {
            if (json) nsdae_analyze_json_end(stdout, total - analysed);
            fflush(stdout);
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        if (json) nsdae_analyze_json_mode(stdout, md, analysed == 0);
        else nsdae_analyze_text_mode(stdout, md, (int)analysed + 1);
        if (md->result->verdict != NSDAE_STRUCTURAL_OK) not_ok = 1;
        analysed++;
        nsdae_structural_mode_destroy(md);
        more = all ? nsdae_mode_next(sw, choice) : ++k < nmodes_named;
    }
    double skipped = total - analysed;
    if (skipped < 0) skipped = 0; /* a mode named twice */
    if (json) {
        nsdae_analyze_json_end(stdout, skipped);
    } else {
        printf("\nanalysed %.0f of %.0f mode%s", analysed, total, total == 1 ? "" : "s");
        if (skipped > 0)
            printf("; skipped %.0f (more than %.0f modes: name the ones to analyse with --mode)", skipped,
                   ANALYZE_ALL_LIMIT);
        printf("\n");
    }
    return strict && not_ok ? 3 : 0;
}

int nsdae_cmd_analyze(int argc, char **argv)
{
    model_source src;
    model_source_init(&src);
    const char **modes = calloc((size_t)argc + 1, sizeof *modes);
    int nmodes_named = 0, json = 0, strict = 0, rc = 0;
    nsdae_switches *sw = NULL;
    int *choice = NULL;
    nsdae_error err = {0};
    if (!modes) {
        fputs("nsdae analyze: out of memory\n", stderr);
        return 1;
    }
    rc = parse(argc, argv, &src, modes, &nmodes_named, &json, &strict);
    if (rc < 0) {
        rc = 0;
        goto done;
    }
    /* an override of a parameter the model lacks is a bad command line here (status 2) */
    if (!rc) rc = model_source_load_equations(&src, "analyze", CLI_USAGE);
    if (rc) goto done;
    if (nsdae_mode_switches(src.model, &sw, &err) != NSDAE_OK) {
        fprintf(stderr, "%s\n", err.message);
        rc = 1;
        goto done;
    }
    choice = calloc((size_t)sw->n + 1, sizeof *choice);
    if (!choice) {
        fputs("nsdae analyze: out of memory\n", stderr);
        rc = 1;
        goto done;
    }
    /* Check every --mode before printing anything. */
    for (int k = 0; k < nmodes_named && !rc; k++)
        if (nsdae_mode_parse(sw, modes[k], choice, &err) != NSDAE_OK) {
            fprintf(stderr, "nsdae analyze: --mode %s\n", err.message);
            rc = 2;
        }
    if (!rc) rc = analyse_modes(src.model, sw, modes, nmodes_named, json, strict, choice);
done:
    free(modes);
    nsdae_mode_switches_destroy(sw);
    free(choice);
    model_source_free(&src);
    return rc;
}
