/* nsdae check: parse and translate a model; print its unknowns and their roles, parameters,
 * the MLCS sizes, and with --verbose its matrices (text or --json). Models with an impact law
 * get the sizes of their Lagrangian contact form instead. */
#include "cli/commands.h"

#include <nsdae/model.h>
#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 256

static void usage(FILE *out)
{
    fputs("usage: nsdae check MODEL [--json] [--verbose] [--param NAME=VALUE]...\n"
          "\n"
          "Parses MODEL (.nsm), translates it into a mixed linear complementarity system and prints\n"
          "its unknowns (differential, algebraic, multiplier), parameters and MLCS sizes (equality,\n"
          "complementarity and box rows). A model with an impact law (restitution), which the MLCS\n"
          "refuses, is checked in the Lagrangian contact form instead (--scheme moreau).\n"
          "Exit status: 0 ok, 1 model error, 2 bad usage.\n"
          "\n"
          "  --json               machine-readable output\n"
          "  --verbose            also print the matrices E, A, B, b, C, D, c of every phase\n"
          "  --param NAME=VALUE   override a parameter (repeatable)\n"
          "  --help               this text\n",
          out);
}

static const char *role_name(nsdae_unknown_role r)
{
    return r == NSDAE_ROLE_DIFFERENTIAL ? "differential" : r == NSDAE_ROLE_ALGEBRAIC ? "algebraic" : "multiplier";
}

static const char *kind_name(nsdae_row_kind k)
{
    return k == NSDAE_ROW_EQUALITY ? "equality" : k == NSDAE_ROW_BOX ? "box" : "complementarity";
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

static void json_number(double v)
{
    if (isfinite(v)) printf("%.17g", v);
    else printf("null");
}

/* rows x cols column-major matrix */
static void json_matrix(const char *name, const double *M, int rows, int cols, int last)
{
    printf("\"%s\": [", name);
    for (int i = 0; i < rows; i++) {
        printf("%s[", i ? ", " : "");
        for (int j = 0; j < cols; j++) {
            if (j) printf(", ");
            json_number(M[i + (size_t)j * rows]);
        }
        printf("]");
    }
    printf("]%s", last ? "" : ", ");
}

static void text_matrix(const char *name, const double *M, int rows, int cols)
{
    printf("  %s (%d x %d):\n", name, rows, cols);
    for (int i = 0; i < rows; i++) {
        printf("   ");
        for (int j = 0; j < cols; j++) printf(" %10.4g", M[i + (size_t)j * rows]);
        printf("\n");
    }
}

static void print_text(const nsdae_model *m, const nsdae_mlcs *s, const nsdae_translate_info *in, int verbose)
{
    printf("model %s (%s)\n", nsdae_model_name(m), nsdae_model_filename(m));
    printf("parameters (%d):\n", nsdae_model_nparams(m));
    for (int k = 0; k < nsdae_model_nparams(m); k++) {
        const nsdae_param *p = nsdae_model_param(m, k);
        printf("  %-16s = %.17g%s\n", p->name, p->value, p->overridden ? "  (overridden)" : "");
    }
    printf("unknowns (%d):\n", s->ny);
    for (int i = 0; i < s->ny; i++)
        printf("  %-24s %-13s start %.17g\n", s->y_names[i], role_name(in->y_role[i]), s->y0[i]);
    printf("multipliers (%d):\n", s->nl);
    for (int i = 0; i < s->nl; i++) {
        printf("  %-24s %-13s %s", s->l_names[i], role_name(NSDAE_ROLE_MULTIPLIER), kind_name(s->kind[i]));
        if (s->kind[i] == NSDAE_ROW_BOX) printf(" [%g, %g]", s->lo[i], s->hi[i]);
        printf("\n");
    }
    printf("MLCS: ny = %d, nl = %d (equality %d, complementarity %d, box %d), phases %d\n", s->ny, s->nl,
           in->n_equality, in->n_complementarity, in->n_box, s->nphases);
    printf("time-dependent forcing: %s\n", s->forcing ? "yes" : "no");
    if (s->stop_time > 0 || s->step > 0) printf("experiment: stop %g, step %g\n", s->stop_time, s->step);
    if (!verbose) return;
    for (int p = 0; p < s->nphases; p++) {
        const nsdae_mlcs_phase *ph = &s->phases[p];
        printf("phase %d:\n", p);
        text_matrix("E", ph->E, s->ny, s->ny);
        text_matrix("A", ph->A, s->ny, s->ny);
        text_matrix("B", ph->B, s->ny, s->nl);
        text_matrix("b", ph->b, s->ny, 1);
        text_matrix("C", ph->C, s->nl, s->ny);
        text_matrix("D", ph->D, s->nl, s->nl);
        text_matrix("c", ph->c, s->nl, 1);
    }
}

static void print_json(const nsdae_model *m, const nsdae_mlcs *s, const nsdae_translate_info *in, int verbose)
{
    printf("{\"model\": ");
    json_string(nsdae_model_name(m));
    printf(", \"file\": ");
    json_string(nsdae_model_filename(m));
    printf(", \"parameters\": [");
    for (int k = 0; k < nsdae_model_nparams(m); k++) {
        const nsdae_param *p = nsdae_model_param(m, k);
        printf("%s{\"name\": ", k ? ", " : "");
        json_string(p->name);
        printf(", \"value\": ");
        json_number(p->value);
        printf(", \"overridden\": %s}", p->overridden ? "true" : "false");
    }
    printf("], \"unknowns\": [");
    for (int i = 0; i < s->ny; i++) {
        printf("%s{\"name\": ", i ? ", " : "");
        json_string(s->y_names[i]);
        printf(", \"role\": \"%s\", \"start\": ", role_name(in->y_role[i]));
        json_number(s->y0[i]);
        printf("}");
    }
    printf("], \"multipliers\": [");
    for (int i = 0; i < s->nl; i++) {
        printf("%s{\"name\": ", i ? ", " : "");
        json_string(s->l_names[i]);
        printf(", \"role\": \"multiplier\", \"kind\": \"%s\"", kind_name(s->kind[i]));
        if (s->kind[i] == NSDAE_ROW_BOX) {
            printf(", \"lo\": ");
            json_number(s->lo[i]);
            printf(", \"hi\": ");
            json_number(s->hi[i]);
        }
        printf("}");
    }
    printf("], \"sizes\": {\"ny\": %d, \"nl\": %d, \"equality\": %d, \"complementarity\": %d, \"box\": %d, "
           "\"phases\": %d}, \"forcing\": %s",
           s->ny, s->nl, in->n_equality, in->n_complementarity, in->n_box, s->nphases, s->forcing ? "true" : "false");
    printf(", \"experiment\": {\"stop\": ");
    json_number(s->stop_time);
    printf(", \"step\": ");
    json_number(s->step);
    printf("}");
    if (verbose) {
        printf(", \"phases\": [");
        for (int p = 0; p < s->nphases; p++) {
            const nsdae_mlcs_phase *ph = &s->phases[p];
            printf("%s{", p ? ", " : "");
            json_matrix("E", ph->E, s->ny, s->ny, 0);
            json_matrix("A", ph->A, s->ny, s->ny, 0);
            json_matrix("B", ph->B, s->ny, s->nl, 0);
            json_matrix("b", ph->b, s->ny, 1, 0);
            json_matrix("C", ph->C, s->nl, s->ny, 0);
            json_matrix("D", ph->D, s->nl, s->nl, 0);
            json_matrix("c", ph->c, s->nl, 1, 1);
            printf("}");
        }
        printf("]");
    }
    printf("}\n");
}

/* A model with an impact law is refused by the MLCS translation (mlcs_err): it belongs to the
 * Lagrangian contact form (Moreau-Jean), so that form is checked instead. */
static int check_contact(const nsdae_model *m, const nsdae_error *mlcs_err, int json)
{
    nsdae_lagrangian *L = NULL;
    nsdae_error err;
    nsdae_error_clear(&err);
    if (mlcs_err->status != NSDAE_UNSUPPORTED || !nsdae_translate_has_impact_law(m)) {
        fprintf(stderr, "%s\n", mlcs_err->message);
        return 1;
    }
    if (nsdae_translate_lagrangian(m, &L, &err)) {
        fprintf(stderr, "%s\n%s\n", mlcs_err->message, err.message);
        return 1;
    }
    if (json) {
        printf("{\"model\": ");
        json_string(nsdae_model_name(m));
        printf(", \"file\": ");
        json_string(nsdae_model_filename(m));
        printf(", \"contact\": {\"ndof\": %d, \"ncontacts\": %d}}\n", L->ndof, L->ncontacts);
    } else {
        printf("model %s (%s)\n", nsdae_model_name(m), nsdae_model_filename(m));
        printf("contact model: Lagrangian form with %d dof and %d contacts\n", L->ndof, L->ncontacts);
    }
    nsdae_lagrangian_destroy(L);
    return 0;
}

int nsdae_cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, verbose = 0, nparams = 0;
    const char *params[MAX_PARAMS];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            verbose = 1;
        } else if (strcmp(a, "--param") == 0 || strncmp(a, "--param=", 8) == 0) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                fprintf(stderr, "nsdae check: --param needs a value NAME=VALUE\n");
                return 2;
            }
            if (nparams == MAX_PARAMS) {
                fprintf(stderr, "nsdae check: more than %d --param options\n", MAX_PARAMS);
                return 2;
            }
            params[nparams++] = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "nsdae check: unknown option '%s' (see 'nsdae check --help')\n", a);
            return 2;
        } else if (path) {
            fprintf(stderr, "nsdae check: a second model file '%s' (only one is checked)\n", a);
            return 2;
        } else {
            path = a;
        }
    }
    if (!path) {
        fprintf(stderr, "nsdae check: no model file given\n");
        usage(stderr);
        return 2;
    }
    nsdae_model *m = NULL;
    nsdae_error err;
    nsdae_error_clear(&err);
    if (nsdae_model_parse_file(path, &m, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    for (int k = 0; k < nparams; k++) {
        const char *eq = strchr(params[k], '=');
        char name[256];
        char *end = NULL;
        double v = 0.0;
        if (eq && eq > params[k] && (size_t)(eq - params[k]) < sizeof name) {
            memcpy(name, params[k], (size_t)(eq - params[k]));
            name[eq - params[k]] = '\0';
            v = strtod(eq + 1, &end);
        }
        if (!eq || eq == params[k] || (size_t)(eq - params[k]) >= sizeof name) {
            fprintf(stderr, "nsdae check: --param '%s': expected NAME=VALUE\n", params[k]);
        } else if (end == eq + 1 || *end != '\0' || !isfinite(v)) {
            fprintf(stderr, "nsdae check: --param '%s': value '%s' is not a finite number\n", params[k], eq + 1);
        } else if (nsdae_model_set_param(m, name, v, &err)) {
            fprintf(stderr, "nsdae check: --param '%s': %s\n", params[k], err.message);
        } else {
            continue;
        }
        nsdae_model_destroy(m);
        return 2;
    }
    nsdae_mlcs *s = NULL;
    nsdae_translate_info *info = NULL;
    if (nsdae_translate_mlcs(m, &s, &info, &err)) {
        int st = check_contact(m, &err, json);
        nsdae_model_destroy(m);
        return st;
    }
    if (json) print_json(m, s, info, verbose);
    else print_text(m, s, info, verbose);
    nsdae_translate_info_free(info);
    nsdae_mlcs_destroy(s);
    nsdae_model_destroy(m);
    return 0;
}
