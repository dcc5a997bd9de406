/* nsdae simulate --scheme moreau: a contact model through Moreau-Jean, CSV out. */
#include "cli/simulate_contact.h"
#include "cli/progress.h"

#include <nsdae/stepper.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct contact_ctx {
    FILE *out;
    long every, last_step;
    const nsdae_lagrangian *s;
    progress prog;
} contact_ctx;

static void write_header(FILE *out, const nsdae_lagrangian *s)
{
    fputs("t", out);
    for (int j = 0; j < s->ndof; j++) fprintf(out, ",%s", s->q_names[j] ? s->q_names[j] : "q");
    for (int j = 0; j < s->ndof; j++) fprintf(out, ",der(%s)", s->q_names[j] ? s->q_names[j] : "q");
    for (int c = 0; c < s->ncontacts; c++) fprintf(out, ",P_%s", s->c_names[c] ? s->c_names[c] : "contact");
    for (int c = 0; c < s->ncontacts; c++) fprintf(out, ",active_%s", s->c_names[c] ? s->c_names[c] : "contact");
    fputs(",res\n", out);
}

static int on_step(const nsdae_contact_record *rec, void *p)
{
    contact_ctx *c = p;
    if (rec->k % c->every == 0 || rec->k == c->last_step) {
        const int n = c->s->ndof, m = c->s->ncontacts;
        fprintf(c->out, "%.17g", rec->t);
        for (int j = 0; j < n; j++) fprintf(c->out, ",%.17g", rec->q[j]);
        for (int j = 0; j < n; j++) fprintf(c->out, ",%.17g", rec->v[j]);
        for (int j = 0; j < m; j++) fprintf(c->out, ",%.17g", rec->P[j]);
        for (int j = 0; j < m; j++) fprintf(c->out, ",%d", rec->active[j]);
        fprintf(c->out, ",%.3g\n", rec->residual);
    }
    if (rec->k % 1000 == 0) fflush(c->out);
    progress_tick(&c->prog, rec->k, rec->t);
    return 0;
}

int simulate_contact(const run_options *ro, const char *out_path, long every)
{
    nsdae_lagrangian *s = NULL;
    if (!run_load_contact(ro, "simulate", &s)) return 1;
    nsdae_moreau_options mo;
    if (!run_moreau_options(ro, "simulate", s, &mo)) {
        nsdae_lagrangian_destroy(s);
        return 2;
    }
    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "nsdae simulate: --out '%s': %s\n", out_path, strerror(errno));
        nsdae_lagrangian_destroy(s);
        return 2;
    }
    nsdae_stepper_options grid = {.t0 = mo.t0, .stop = mo.stop, .nsteps = mo.nsteps, .step = mo.step};
    double h;
    contact_ctx c = {out, every, nsdae_stepper_steps(&grid, &h), s, {0}};
    progress_start(&c.prog, c.last_step);
    write_header(out, s);
    nsdae_error err = {0};
    nsdae_moreau_summary sum = {0};
    nsdae_status st = nsdae_moreau_run(s, &mo, on_step, &c, NULL, NULL, &sum, &err);
    double wall = progress_end(&c.prog);
    int failed = fflush(out) != 0;
    if (out != stdout) failed |= fclose(out) != 0;
    if (failed) fprintf(stderr, "nsdae simulate: writing %s failed\n", out_path ? out_path : "standard output");
    if (st != NSDAE_OK)
        fprintf(stderr, "nsdae simulate: %s\nnsdae simulate: %ld steps written before the failure\n", err.message,
                sum.steps);
    else
        fprintf(stderr, "nsdae simulate: %ld Moreau-Jean steps of h = %.6g to t = %.10g; %ld with active contacts; "
                        "%.3f s\n", sum.steps, sum.h, sum.t_end, sum.lcp_steps, wall);
    nsdae_lagrangian_destroy(s);
    return st != NSDAE_OK || failed ? 1 : 0;
}
