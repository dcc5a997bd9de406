/* nsdae check: parse and translate a model; print its unknowns and their roles, parameters,
 * the MLCS sizes, and with --verbose its matrices (text or --json). Models with an impact law
 * get the sizes of their Lagrangian contact form instead. */
#include "cli/commands.h"
#include "cli/model_source.h"
#include "cli/options.h"

#include <nsdae/model.h>
#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fputs("usage: nsdae check MODEL [--json] [--verbose] [--param NAME=VALUE[,NAME=VALUE...]]...\n"
          "       nsdae check --example NAME [--json] [--verbose] [--param ...]\n"
          "\n"
          "Parses MODEL (.nsm), translates it into a mixed linear complementarity system and prints\n"
          "its unknowns (differential, algebraic, multiplier), parameters and MLCS sizes (equality,\n"
          "complementarity and box rows). A model with an impact law (restitution), which the MLCS\n"
          "refuses, is checked in the Lagrangian contact form instead (--scheme moreau).\n"
          "Exit status: 0 ok, 1 model error, 2 bad usage.\n"
          "\n"
          "  --json               machine-readable output\n"
          "  --verbose            also print the matrices E, A, B, b, C, D, c of every phase\n"
          "  --example NAME       a built-in example instead of MODEL (its system, without equations)\n"
          "  --param NAME=VALUE[,NAME=VALUE...]\n"
          "                       override parameters (repeatable)\n"
          "  --help               this text\n"
          "Options take their value as --opt VALUE or --opt=VALUE; -- ends the options.\n",
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

/* What is checked: a model file (m) or a built-in example (m NULL: no parameter table). */
typedef struct subject {
    const char *name, *file;
    const nsdae_model *m;
} subject;

static void print_text(const subject *sub, const nsdae_mlcs *s, const nsdae_translate_info *in, int verbose)
{
    const nsdae_model *m = sub->m;
    printf("model %s (%s)\n", sub->name, sub->file);
    if (m) printf("parameters (%d):\n", nsdae_model_nparams(m));
    for (int k = 0; m && k < nsdae_model_nparams(m); k++) {
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

static void print_json(const subject *sub, const nsdae_mlcs *s, const nsdae_translate_info *in, int verbose)
{
    const nsdae_model *m = sub->m;
    printf("{\"model\": ");
    json_string(sub->name);
    printf(", \"file\": ");
    json_string(sub->file);
    printf(", \"parameters\": [");
    for (int k = 0; m && k < nsdae_model_nparams(m); k++) {
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

/* The roles and row counts of a built-in system, which has no translation info: an unknown with a
 * non-zero column of E is differential, as the translator says. */
static nsdae_translate_info *info_of_system(const nsdae_mlcs *s)
{
    nsdae_translate_info *in = calloc(1, sizeof *in);
    int *diff = calloc((size_t)s->ny + 1, sizeof *diff);
    if (in) in->y_role = calloc((size_t)s->ny + 1, sizeof *in->y_role);
    if (!in || !diff || !in->y_role) {
        free(diff);
        if (in) free(in->y_role);
        free(in);
        return NULL;
    }
    *in = (nsdae_translate_info){s->ny, s->nl, s->nphases, in->y_role, NULL, NULL, 0, 0, 0};
    nsdae_mlcs_differential(s, diff);
    for (int i = 0; i < s->ny; i++) in->y_role[i] = diff[i] ? NSDAE_ROLE_DIFFERENTIAL : NSDAE_ROLE_ALGEBRAIC;
    for (int i = 0; i < s->nl; i++) {
        if (s->kind[i] == NSDAE_ROW_EQUALITY) in->n_equality++;
        else if (s->kind[i] == NSDAE_ROW_BOX) in->n_box++;
        else in->n_complementarity++;
    }
    free(diff);
    return in;
}

static int check_mlcs(model_source *src, const subject *sub, int json, int verbose)
{
    nsdae_mlcs *s = NULL;
    nsdae_translate_info *info = NULL;
    if (model_source_mlcs(src, "check", &s, &info)) return 1;
    nsdae_error err = {0};
    if (verbose && nsdae_mlcs_dense(s, &err) != NSDAE_OK) { /* the matrices are printed dense */
        fprintf(stderr, "nsdae check: %s\n", err.message);
        nsdae_translate_info_free(info);
        nsdae_mlcs_destroy(s);
        return 1;
    }
    if (!info) info = info_of_system(s);
    if (!info) {
        fputs("nsdae check: out of memory\n", stderr);
        nsdae_mlcs_destroy(s);
        return 1;
    }
    if (json) print_json(sub, s, info, verbose);
    else print_text(sub, s, info, verbose);
    nsdae_translate_info_free(info);
    nsdae_mlcs_destroy(s);
    return 0;
}

/* The Lagrangian contact form (the form the library chose for a model with an impact law). When it
 * refuses a model file, the MLCS translator's reason is printed too: the user sees why neither
 * form takes the model. */
static int check_contact(model_source *src, const subject *sub, int json)
{
    nsdae_lagrangian *L = NULL;
    if (model_source_contact(src, "check", &L)) {
        nsdae_mlcs *s = NULL;
        nsdae_error err;
        nsdae_error_clear(&err);
        if (src->model && nsdae_translate_mlcs(src->model, &s, NULL, &err) != NSDAE_OK)
            fprintf(stderr, "%s\n", err.message);
        nsdae_mlcs_destroy(s);
        return 1;
    }
    if (json) {
        printf("{\"model\": ");
        json_string(sub->name);
        printf(", \"file\": ");
        json_string(sub->file);
        printf(", \"contact\": {\"ndof\": %d, \"ncontacts\": %d}}\n", L->ndof, L->ncontacts);
    } else {
        printf("model %s (%s)\n", sub->name, sub->file);
        printf("contact model: Lagrangian form with %d dof and %d contacts\n", L->ndof, L->ncontacts);
    }
    nsdae_lagrangian_destroy(L);
    return 0;
}

enum { OPT_JSON = CLI_OPT_BASE, OPT_PARAM, OPT_EXAMPLE };

static const struct option long_options[] = {
    {"json", no_argument, NULL, OPT_JSON},
    {"verbose", no_argument, NULL, 'v'},
    {"param", required_argument, NULL, OPT_PARAM},
    {"example", required_argument, NULL, OPT_EXAMPLE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int nsdae_cmd_check(int argc, char **argv)
{
    model_source src;
    model_source_init(&src);
    int json = 0, verbose = 0, code, first, rc = 0;
    const char *value;
    cli_options_begin();
    while (!rc && (code = cli_options_next("check", argc, argv, "hv", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            usage(stdout);
            return 0;
        }
        if (code == OPT_JSON) json = 1;
        else if (code == 'v') verbose = 1;
        else if (code == OPT_EXAMPLE) src.example = value;
        else if (code == OPT_PARAM) rc = cli_params_add(&src.params, "check", value);
        else rc = CLI_USAGE;
    }
    if (!rc && first + 1 < argc) {
        fprintf(stderr, "nsdae check: a second model file '%s' (only one is checked)\n", argv[first + 1]);
        rc = CLI_USAGE;
    }
    if (!rc && first < argc) src.path = argv[first];
    /* an override of a parameter the model lacks is a bad command line here (status 2) */
    if (!rc) rc = model_source_load(&src, "check", CLI_USAGE);
    if (!rc) {
        subject sub = {src.example, "built-in", src.model};
        if (src.model) sub = (subject){nsdae_model_name(src.model), nsdae_model_filename(src.model), src.model};
        rc = src.form.form == NSDAE_FORM_CONTACT ? check_contact(&src, &sub, json) : check_mlcs(&src, &sub, json, verbose);
    }
    model_source_free(&src);
    return rc;
}
