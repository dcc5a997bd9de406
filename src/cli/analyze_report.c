/* nsdae analyze: text and JSON reports. Everything printed comes from the structural result
 * (nsdae_structural_mode); nothing is recomputed here. */
#include "cli/analyze_report.h"

#include <math.h>
#include <string.h>

#define NAME_SIZE 256

/* The choices of a switch in words (short, for the header). */
static void switch_choices(const nsdae_model *m, const nsdae_switch *s, char *buf, size_t size)
{
    if (s->kind == NSDAE_SWITCH_COMPL)
        snprintf(buf, size, "0: first side = 0, 1: second side = 0");
    else if (s->kind == NSDAE_SWITCH_SIGN)
        snprintf(buf, size, "0: argument = 0 (sliding), 1: %s = upper bound, 2: %s = lower bound",
                 nsdae_model_var(m, nsdae_model_equation(m, s->equation)->var)->name,
                 nsdae_model_var(m, nsdae_model_equation(m, s->equation)->var)->name);
    else if (s->sliding)
        snprintf(buf, size, "0: then, 1: else, 2: relaxed sliding mode");
    else
        snprintf(buf, size, "0..%d: branch (0 = then, %d = else)", s->nchoices - 1, s->nchoices - 1);
}

void nsdae_analyze_text_header(FILE *out, const nsdae_model *m, const nsdae_switches *list,
                               double nmodes)
{
    const nsdae_switch *sw = list->sw;
    int nsw = list->ncode; /* the long switches: one code digit each */
    int nv = nsdae_model_nvars(m), ne = nsdae_model_nequations(m);
    fprintf(out, "model %s (%s): %d unknown%s, %d equation%s, %d switch%s, %.0f mode%s\n", nsdae_model_name(m),
            nsdae_model_filename(m), nv, nv == 1 ? "" : "s", ne, ne == 1 ? "" : "s", nsw, nsw == 1 ? "" : "es",
            nmodes, nmodes == 1 ? "" : "s");
    for (int s = 0; s < nsw; s++) {
        char c[NAME_SIZE];
        switch_choices(m, &sw[s], c, sizeof c);
        fprintf(out, "  switch %d: %s at line %d%s; %s\n", s + 1, nsdae_switch_kind_name(sw[s].kind), sw[s].pos.line,
                sw[s].parent >= 0 ? " (nested)" : "", c);
    }
}

static void deriv(const nsdae_structural_mode *md, nsdae_structural_deriv dv, char *buf, size_t size)
{
    nsdae_structural_deriv_name(md->var_names[dv.var], dv.order, buf, size);
}

static void text_list_part(FILE *out, const nsdae_structural_mode *md, nsdae_dm_part part)
{
    const nsdae_structural_result *r = md->result;
    int first = 1;
    fputs("equations {", out);
    for (int i = 0; i < r->neq; i++)
        if (r->eq_part[i] == part) { fprintf(out, "%s\"%s\"", first ? "" : ", ", r->eq_names[i]); first = 0; }
    fputs("}, unknowns {", out);
    first = 1;
    for (int j = 0; j < r->nvar; j++)
        if (r->var_part[j] == part) { fprintf(out, "%s%s", first ? "" : ", ", r->var_names[j]); first = 0; }
    fputs("}", out);
}

static const char *status_name(const nsdae_structural_result *r)
{
    if (r->verdict == NSDAE_STRUCTURAL_OK && r->numeric.done && r->numeric.singular) return "numerically singular";
    return nsdae_structural_verdict_name(r->verdict);
}

void nsdae_analyze_text_mode(FILE *out, const nsdae_structural_mode *md, int number)
{
    const nsdae_structural_result *r = md->result;
    char code[NAME_SIZE], name[NAME_SIZE];
    snprintf(code, sizeof code, "%s", md->code);
    fprintf(out, "\nmode %d [--mode %s]: %s\n", number, code, md->label);
    fprintf(out, "  %d equation%s, %d unknown%s%s\n", md->neq, md->neq == 1 ? "" : "s", md->nvar, md->nvar == 1 ? "" : "s",
            md->nrelax ? " (with relaxation unknowns)" : "");
    fprintf(out, "  status: %s\n", status_name(r));
    switch (r->verdict) {
    case NSDAE_STRUCTURAL_SINGULAR:
        fputs("  structurally singular (no transversal): overdetermined part ", out);
        text_list_part(out, md, NSDAE_DM_OVER);
        fputs("; underdetermined part ", out);
        text_list_part(out, md, NSDAE_DM_UNDER);
        fputs("\n", out);
        break;
    case NSDAE_STRUCTURAL_UNDERDETERMINED:
        fputs("  underdetermined part: ", out);
        text_list_part(out, md, NSDAE_DM_UNDER);
        fputs("\n", out);
        break;
    case NSDAE_STRUCTURAL_OVERDETERMINED:
        fputs("  overdetermined part: ", out);
        text_list_part(out, md, NSDAE_DM_OVER);
        fputs("\n", out);
        break;
    case NSDAE_STRUCTURAL_OK: break;
    }
    if (r->verdict != NSDAE_STRUCTURAL_OK) fputs("  the rest below is the well-determined part:\n", out);
    fprintf(out, "  index %d (structural, Pryce: max c + [some d = 0]); worst equation differentiated %d time%s\n",
            r->index, r->max_c, r->max_c == 1 ? "" : "s");
    fprintf(out, "  degrees of freedom: %d\n", r->dof);
    for (int i = 0; i < r->neq; i++)
        if (r->c[i] > 0) fprintf(out, "  latent: \"%s\" differentiated %d time%s\n", r->eq_names[i], r->c[i],
                                 r->c[i] == 1 ? "" : "s");
    fputs("  offsets c:", out);
    for (int i = 0; i < r->neq; i++) if (r->c[i] >= 0) fprintf(out, " %d", r->c[i]);
    fputs("\n  offsets d:", out);
    for (int j = 0; j < r->nvar; j++) if (r->d[j] >= 0) fprintf(out, " %s=%d", r->var_names[j], r->d[j]);
    fputs("\n  state candidates:", out);
    for (int k = 0; k < r->nstates; k++) { deriv(md, r->states[k], name, sizeof name); fprintf(out, " %s", name); }
    fputs("\n  selected states:", out);
    for (int k = 0; k < r->nselected; k++) { deriv(md, r->selected[k], name, sizeof name); fprintf(out, " %s", name); }
    fputs("\n  dummy derivatives:", out);
    for (int k = 0; k < r->ndummies; k++) { deriv(md, r->dummies[k], name, sizeof name); fprintf(out, " %s", name); }
    fprintf(out, "\n  blocks (%d, in solving order):\n", r->nblocks);
    for (int b = 0; b < r->nblocks; b++) {
        fprintf(out, "    %d:", b + 1);
        for (int k = 0; k < r->blocks[b].n; k++) {
            int i = r->blocks[b].eqs[k], j = r->blocks[b].vars[k];
            nsdae_structural_deriv_name(r->var_names[j], r->d[j], name, sizeof name);
            fprintf(out, "%s \"%s\" -> %s", k ? "," : "", r->eq_names[i], name);
        }
        fputs("\n", out);
    }
    if (md->numeric_status != NSDAE_OK) {
        fprintf(out, "  numeric check not done: %s\n", md->numeric_message);
    } else if (r->numeric.done) {
        const nsdae_structural_numeric *nm = &r->numeric;
        fprintf(out, "  numeric check at the start values: system Jacobian rank %d of %d, condition %.3g%s\n", nm->rank,
                nm->n, nm->cond, nm->singular ? ": structurally fine but numerically singular" : "");
        if (nm->static_singular)
            fprintf(out, "  the structural state selection is numerically singular here (level %d)%s\n", nm->static_level,
                    nm->reselected && !nm->selection_singular ? "; the selection above avoids it" : "");
        if (nm->selection_singular) fputs("  no numerically regular state selection at this point\n", out);
    }
}

/* ---- JSON ---- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, "%.17g", v);
    else fputs("null", out);
}

void nsdae_analyze_json_begin(FILE *out, const nsdae_model *m, const nsdae_switches *list,
                              double nmodes)
{
    const nsdae_switch *sw = list->sw;
    int nsw = list->ncode;
    fputs("{\"model\": ", out);
    json_string(out, nsdae_model_name(m));
    fputs(", \"switches\": [", out);
    for (int s = 0; s < nsw; s++) {
        char c[NAME_SIZE];
        switch_choices(m, &sw[s], c, sizeof c);
        fprintf(out, "%s{\"kind\": \"%s\", \"line\": %d, \"choices\": %d, \"meaning\": ", s ? ", " : "",
                nsdae_switch_kind_name(sw[s].kind), sw[s].pos.line, sw[s].nchoices);
        json_string(out, c);
        fputs("}", out);
    }
    fputs("], \"mode_count\": ", out);
    json_number(out, nmodes);
    fputs(", \"modes\": [", out);
}

static void json_part(FILE *out, const nsdae_structural_result *r, nsdae_dm_part part)
{
    fputs("{\"equations\": [", out);
    int first = 1;
    for (int i = 0; i < r->neq; i++)
        if (r->eq_part[i] == part) { if (!first) fputs(", ", out); json_string(out, r->eq_names[i]); first = 0; }
    fputs("], \"unknowns\": [", out);
    first = 1;
    for (int j = 0; j < r->nvar; j++)
        if (r->var_part[j] == part) { if (!first) fputs(", ", out); json_string(out, r->var_names[j]); first = 0; }
    fputs("]}", out);
}

static void json_derivs(FILE *out, const nsdae_structural_mode *md, const nsdae_structural_deriv *list, int n)
{
    char name[NAME_SIZE];
    fputs("[", out);
    for (int k = 0; k < n; k++) {
        if (k) fputs(", ", out);
        deriv(md, list[k], name, sizeof name);
        json_string(out, name);
    }
    fputs("]", out);
}

void nsdae_analyze_json_mode(FILE *out, const nsdae_structural_mode *md, int first)
{
    const nsdae_structural_result *r = md->result;
    char code[NAME_SIZE], name[NAME_SIZE];
    snprintf(code, sizeof code, "%s", md->code);
    fputs(first ? "\n  {" : ",\n  {", out);
    fputs("\"mode\": ", out);
    json_string(out, md->label);
    fputs(", \"code\": ", out);
    json_string(out, code);
    fputs(", \"status\": ", out);
    json_string(out, nsdae_structural_verdict_name(r->verdict));
    fprintf(out, ", \"index\": %d, \"differentiations\": %d, \"dof\": %d", r->index, r->max_c, r->dof);
    fputs(", \"equations\": [", out);
    for (int i = 0; i < r->neq; i++) { if (i) fputs(", ", out); json_string(out, r->eq_names[i]); }
    fputs("], \"unknowns\": [", out);
    for (int j = 0; j < r->nvar; j++) { if (j) fputs(", ", out); json_string(out, r->var_names[j]); }
    fputs("], \"states\": ", out);
    json_derivs(out, md, r->states, r->nstates);
    fputs(", \"selected_states\": ", out);
    json_derivs(out, md, r->selected, r->nselected);
    fputs(", \"dummy_derivatives\": ", out);
    json_derivs(out, md, r->dummies, r->ndummies);
    fputs(", \"latent\": [", out);
    int any = 0;
    for (int i = 0; i < r->neq; i++) {
        if (r->c[i] <= 0) continue;
        fputs(any ? ", {\"equation\": " : "{\"equation\": ", out);
        json_string(out, r->eq_names[i]);
        fprintf(out, ", \"times\": %d}", r->c[i]);
        any = 1;
    }
    fputs("], \"offsets\": {\"c\": [", out);
    for (int i = 0; i < r->neq; i++) {
        if (i) fputs(", ", out);
        if (r->c[i] >= 0) fprintf(out, "%d", r->c[i]); else fputs("null", out);
    }
    fputs("], \"d\": [", out);
    for (int j = 0; j < r->nvar; j++) {
        if (j) fputs(", ", out);
        if (r->d[j] >= 0) fprintf(out, "%d", r->d[j]); else fputs("null", out);
    }
    fputs("]}, \"blocks\": [", out);
    for (int b = 0; b < r->nblocks; b++) {
        fputs(b ? ", {\"equations\": [" : "{\"equations\": [", out);
        for (int k = 0; k < r->blocks[b].n; k++) {
            if (k) fputs(", ", out);
            json_string(out, r->eq_names[r->blocks[b].eqs[k]]);
        }
        fputs("], \"unknowns\": [", out);
        for (int k = 0; k < r->blocks[b].n; k++) {
            int j = r->blocks[b].vars[k];
            if (k) fputs(", ", out);
            nsdae_structural_deriv_name(r->var_names[j], r->d[j], name, sizeof name);
            json_string(out, name);
        }
        fputs("]}", out);
    }
    fputs("]", out);
    if (r->verdict == NSDAE_STRUCTURAL_SINGULAR || r->verdict == NSDAE_STRUCTURAL_OVERDETERMINED) {
        fputs(", \"overdetermined\": ", out);
        json_part(out, r, NSDAE_DM_OVER);
    }
    if (r->verdict == NSDAE_STRUCTURAL_SINGULAR || r->verdict == NSDAE_STRUCTURAL_UNDERDETERMINED) {
        fputs(", \"underdetermined\": ", out);
        json_part(out, r, NSDAE_DM_UNDER);
    }
    fputs(", \"numeric\": ", out);
    if (md->numeric_status != NSDAE_OK || !r->numeric.done) {
        fputs("{\"done\": false, \"reason\": ", out);
        json_string(out, md->numeric_message);
        fputs("}", out);
    } else {
        const nsdae_structural_numeric *nm = &r->numeric;
        fprintf(out, "{\"done\": true, \"size\": %d, \"rank\": %d, \"cond\": ", nm->n, nm->rank);
        json_number(out, nm->cond);
        fprintf(out, ", \"singular\": %s, \"static_selection_singular\": %s, \"selection_singular\": %s}",
                nm->singular ? "true" : "false", nm->static_singular ? "true" : "false",
                nm->selection_singular ? "true" : "false");
    }
    fputs("}", out);
}

void nsdae_analyze_json_end(FILE *out, double skipped)
{
    fputs("\n], \"skipped\": ", out);
    json_number(out, skipped);
    fputs("}\n", out);
}
