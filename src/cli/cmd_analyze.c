/* nsdae analyze MODEL [--mode CODE]... [--param NAME=VALUE]... [--json] [--strict]:
 * the structural analysis (Sigma-method) of every mode of a model, or of the named ones. */
#include "cli/commands.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/structural.h>

#include "cli/analyze_report.h"

/* Analyse every mode when there are at most this many (issue 6). */
#define ANALYZE_ALL_LIMIT 4096.0

static void usage(FILE *out)
{
    fputs("usage: nsdae analyze MODEL [--mode CODE]... [--param NAME=VALUE]... [--json] [--strict]\n"
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
          "  --param NAME=VALUE override a parameter (repeatable)\n"
          "  --json             JSON report: {\"model\", \"switches\", \"mode_count\", \"modes\": [{\"mode\",\n"
          "                     \"code\", \"status\", \"index\", \"differentiations\", \"dof\", \"states\",\n"
          "                     \"latent\", \"offsets\", \"blocks\", ...}], \"skipped\"}\n"
          "  --strict           exit with status 3 when some analysed mode is not structurally ok\n"
          "  -h, --help         this text\n"
          "\n"
          "status: ok, singular (no transversal), underdetermined, overdetermined; a structurally ok\n"
          "mode whose system Jacobian is singular at the start values is reported as numerically\n"
          "singular. The index is Pryce's structural index max c + (1 if some d = 0); the number of\n"
          "times the worst equation is differentiated is reported beside it.\n"
          "exit status: 0 done, 1 model error, 2 bad usage, 3 (--strict) some mode not ok\n",
          out);
}

/* Value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL (and *bad set) if missing. */
static const char *option_value(int argc, char **argv, int *i, const char *opt, int *bad)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n) == 0 && argv[*i][n] == '=') return argv[*i] + n + 1;
    if (strcmp(argv[*i], opt) == 0) {
        if (*i + 1 < argc) return argv[++*i];
        *bad = 1;
    }
    return NULL;
}

int nsdae_cmd_analyze(int argc, char **argv)
{
    const char *model_path = NULL;
    const char **modes = calloc((size_t)argc + 1, sizeof *modes);
    const char **params = calloc((size_t)argc + 1, sizeof *params);
    int nmodes_named = 0, nparams = 0, json = 0, strict = 0, rc = 0;
    nsdae_model *m = NULL;
    nsdae_switches *sw = NULL;
    int *choice = NULL;
    if (!modes || !params) {
        fputs("nsdae analyze: out of memory\n", stderr);
        rc = 1;
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        int bad = 0;
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            goto done;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--strict") == 0) {
            strict = 1;
        } else if ((v = option_value(argc, argv, &i, "--mode", &bad)) != NULL) {
            modes[nmodes_named++] = v;
        } else if ((v = option_value(argc, argv, &i, "--param", &bad)) != NULL) {
            params[nparams++] = v;
        } else if (bad) {
            fprintf(stderr, "nsdae analyze: option '%s' needs a value (see 'nsdae analyze --help')\n", argv[i]);
            rc = 2;
            goto done;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "nsdae analyze: unknown option '%s' (see 'nsdae analyze --help')\n", argv[i]);
            rc = 2;
            goto done;
        } else if (model_path) {
            fprintf(stderr, "nsdae analyze: one model only ('%s' and '%s')\n", model_path, argv[i]);
            rc = 2;
            goto done;
        } else {
            model_path = argv[i];
        }
    }
    if (!model_path) {
        fputs("nsdae analyze: missing MODEL (see 'nsdae analyze --help')\n", stderr);
        rc = 2;
        goto done;
    }
    /* --param syntax is a usage matter; the name and value are checked against the model below. */
    for (int k = 0; k < nparams; k++) {
        const char *eq = strchr(params[k], '=');
        if (!eq || eq == params[k] || eq[1] == '\0') {
            fprintf(stderr, "nsdae analyze: --param '%s': expected NAME=VALUE\n", params[k]);
            rc = 2;
            goto done;
        }
    }

    nsdae_error err = {0};
    if (nsdae_model_parse_file(model_path, &m, &err) != NSDAE_OK) {
        fprintf(stderr, "%s\n", err.message);
        rc = 1;
        goto done;
    }
    for (int k = 0; k < nparams; k++) {
        const char *eq = strchr(params[k], '=');
        char name[256];
        size_t len = (size_t)(eq - params[k]);
        if (len >= sizeof name) len = sizeof name - 1;
        memcpy(name, params[k], len);
        name[len] = '\0';
        char *end;
        errno = 0;
        double value = strtod(eq + 1, &end);
        if (*end != '\0' || errno != 0 || !isfinite(value)) {
            fprintf(stderr, "nsdae analyze: --param '%s': '%s' is not a finite number\n", params[k], eq + 1);
            rc = 2;
            goto done;
        }
        if (nsdae_model_set_param(m, name, value, &err) != NSDAE_OK) {
            fprintf(stderr, "nsdae analyze: --param '%s': %s\n", params[k], err.message);
            rc = 2;
            goto done;
        }
    }
    if (nsdae_mode_switches(m, &sw, &err) != NSDAE_OK) {
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
    for (int k = 0; k < nmodes_named; k++)
        if (nsdae_mode_parse(sw, modes[k], choice, &err) != NSDAE_OK) {
            fprintf(stderr, "nsdae analyze: --mode %s\n", err.message);
            rc = 2;
            goto done;
        }
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
            rc = 1;
            goto done;
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
    if (strict && not_ok) rc = 3;
done:
    free(modes);
    free(params);
    nsdae_mode_switches_destroy(sw);
    free(choice);
    nsdae_model_destroy(m);
    return rc;
}
