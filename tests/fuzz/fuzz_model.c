/* Fuzz target: the model front end. Bytes are a .nsm text: parse it, then (when it parses) list its
 * switches and analyse the structure of its first long modes, decide its form, translate it and run
 * a few steps of whichever engine applies (the MLCS stepper or Moreau-Jean).
 *
 * What counts as a finding besides a sanitizer report: a failing call without a message, a model
 * that parses but has no name, a run that succeeds with a non-finite number in a row it delivered.
 * Sizes are capped so one input stays in the millisecond range (the front end is linear in the
 * text; the steps' MLCPs are exponential in the number of complementarity rows). */
#include "fuzz_check.h"

#include <nsdae/mode.h>
#include <nsdae/model.h>
#include <nsdae/moreau.h>
#include <nsdae/stepper.h>
#include <nsdae/structural.h>
#include <nsdae/translate.h>
#include <nsdae/translate_form.h>
#include <nsdae/translate_lagrangian.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_TEXT 8192
#define MAX_MODES 4      /* long modes whose structure is analysed */
#define MAX_STEPS 3
#define MAX_ROWS 8       /* complementarity-side rows above which no step is taken */
#define MAX_UNKNOWNS 40

typedef struct run_check {
    int ny, nl, ndof, nc;
} run_check;

static int on_mlcs_row(const nsdae_step_record *rec, void *p)
{
    const run_check *c = p;
    FUZZ_CHECK(isfinite(rec->t));
    for (int i = 0; i < c->ny; i++) FUZZ_CHECK(isfinite(rec->y[i]));
    for (int i = 0; i < c->nl; i++) FUZZ_CHECK(isfinite(rec->lambda[i]));
    return 0;
}

static int on_contact_row(const nsdae_contact_record *rec, void *p)
{
    const run_check *c = p;
    FUZZ_CHECK(isfinite(rec->t));
    for (int i = 0; i < c->ndof; i++) FUZZ_CHECK(isfinite(rec->q[i]) && isfinite(rec->v[i]));
    for (int i = 0; i < c->nc; i++) FUZZ_CHECK(isfinite(rec->P[i]));
    return 0;
}

static void structure(const nsdae_model *m)
{
    nsdae_switches *sw = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_mode_switches(m, &sw, &err);
    FUZZ_CHECK_STATUS(st, err);
    if (st != NSDAE_OK) return;
    int choice[64] = {0};
    if (sw->n <= 64) {
        nsdae_mode_first(sw, choice);
        for (int k = 0; k < MAX_MODES; k++) {
            nsdae_structural_mode *md = NULL;
            st = nsdae_structural_mode_analyze(m, sw, choice, &md, &err);
            FUZZ_CHECK_STATUS(st, err);
            nsdae_structural_mode_destroy(md);
            if (!nsdae_mode_next(sw, choice)) break;
        }
    }
    nsdae_mode_switches_destroy(sw);
}

static void run_mlcs(const nsdae_model *m)
{
    nsdae_mlcs *s = NULL;
    nsdae_translate_info *info = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_translate_mlcs(m, &s, &info, &err);
    FUZZ_CHECK_STATUS(st, err);
    if (st == NSDAE_OK && s->nl <= MAX_ROWS && s->ny <= MAX_UNKNOWNS) {
        nsdae_stepper_options o;
        nsdae_stepper_defaults(&o);
        o.t0 = 0;
        o.stop = s->stop_time > 0 ? fmin(s->stop_time, 1.0) : 1.0;
        o.nsteps = MAX_STEPS;
        run_check c = {s->ny, s->nl, 0, 0};
        nsdae_stepper_summary sum;
        st = nsdae_stepper_run(s, &o, on_mlcs_row, &c, NULL, &sum, &err);
        FUZZ_CHECK_STATUS(st, err);
    }
    nsdae_translate_info_free(info);
    nsdae_mlcs_destroy(s);
}

static void run_contact(const nsdae_model *m)
{
    nsdae_lagrangian *s = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_translate_lagrangian(m, &s, &err);
    FUZZ_CHECK_STATUS(st, err);
    if (st == NSDAE_OK && s->ncontacts <= MAX_ROWS && s->ndof <= MAX_UNKNOWNS) {
        nsdae_moreau_options o;
        nsdae_moreau_defaults(&o);
        o.t0 = 0;
        o.stop = 1.0;
        o.nsteps = MAX_STEPS;
        run_check c = {0, 0, s->ndof, s->ncontacts};
        nsdae_moreau_summary sum;
        st = nsdae_moreau_run(s, &o, on_contact_row, &c, NULL, NULL, &sum, &err);
        FUZZ_CHECK_STATUS(st, err);
    }
    nsdae_lagrangian_destroy(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_TEXT) return 0;
    nsdae_model *m = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_model_parse_string((const char *)data, size, "fuzz.nsm", &m, &err);
    FUZZ_CHECK_STATUS(st, err);
    if (st != NSDAE_OK) return 0;
    FUZZ_CHECK(nsdae_model_name(m) != NULL);
    structure(m);
    nsdae_form_decision form = nsdae_translate_form(m);
    if (form.form == NSDAE_FORM_CONTACT) run_contact(m);
    else run_mlcs(m);
    nsdae_model_destroy(m);
    return 0;
}
