/* nsdae simulate: integrate a system and write its trajectory as CSV. */
#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/progress.h"
#include "cli/simulate_contact.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
    "exit status: 0 done; 1 the model failed or a step had no solution (rows so far are kept);\n"
    "2 bad command line.\n";

typedef struct writer {
    FILE *out;
    long every;
    long last_step;
    progress prog;
} writer;

static void write_row(writer *wr, const nsdae_step_record *rec, int ny, int nl)
{
    fprintf(wr->out, "%.17g", rec->t);
    for (int j = 0; j < ny; j++) fprintf(wr->out, ",%.17g", rec->y[j]);
    for (int j = 0; j < nl; j++) fprintf(wr->out, ",%.17g", rec->lambda[j]);
    if (rec->nsol < 0) fputs(",inf", wr->out);
    else fprintf(wr->out, ",%ld", rec->nsol);
    fprintf(wr->out, ",%.3g\n", rec->residual);
}

typedef struct sim_ctx {
    writer wr;
    const nsdae_mlcs *s;
} sim_ctx;

static int on_step(const nsdae_step_record *rec, void *p)
{
    sim_ctx *c = p;
    int due = rec->k % c->wr.every == 0 || rec->k == c->wr.last_step;
    if (due) write_row(&c->wr, rec, c->s->ny, c->s->nl);
    if (rec->k % 1000 == 0) fflush(c->wr.out);
    progress_tick(&c->wr.prog, rec->k, rec->t);
    return 0;
}

static void write_header(FILE *out, const nsdae_mlcs *s)
{
    fputs("t", out);
    for (int j = 0; j < s->ny; j++) fprintf(out, ",%s", s->y_names[j] ? s->y_names[j] : "y");
    for (int j = 0; j < s->nl; j++) fprintf(out, ",%s", s->l_names[j] ? s->l_names[j] : "lambda");
    fputs(",nsol,res\n", out);
}

int nsdae_cmd_simulate(int argc, char **argv)
{
    run_options ro;
    run_options_init(&ro);
    const char *out_path = NULL;
    long every = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        int r = run_options_parse(&ro, "simulate", argc, argv, &i);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "--every") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "nsdae simulate: %s needs a value\n", argv[i]);
                return 2;
            }
            if (argv[i][2] == 'o') {
                out_path = argv[++i];
            } else if (!cli_parse_long(argv[i + 1], &every) || every < 1) {
                fprintf(stderr, "nsdae simulate: --every '%s': expected a whole number >= 1\n", argv[i + 1]);
                return 2;
            } else {
                i++;
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "nsdae simulate: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        } else if (ro.model_path) {
            fprintf(stderr, "nsdae simulate: one model only ('%s' and '%s')\n", ro.model_path, argv[i]);
            return 2;
        } else {
            ro.model_path = argv[i];
        }
    }

    if (!run_resolve_scheme(&ro, "simulate")) return 1;
    if (ro.moreau) return simulate_contact(&ro, out_path, every);
    nsdae_mlcs *s = NULL;
    if (!run_load_system(&ro, "simulate", &s)) return 1;
    nsdae_stepper_options so;
    if (!run_stepper_options(&ro, "simulate", s, &so)) {
        nsdae_mlcs_destroy(s);
        return 2;
    }
    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "nsdae simulate: --out '%s': %s\n", out_path, strerror(errno));
        nsdae_mlcs_destroy(s);
        return 2;
    }
    sim_ctx c = {{out, every, 0, {0}}, s};
    double h;
    c.wr.last_step = nsdae_stepper_steps(&so, &h);
    progress_start(&c.wr.prog, c.wr.last_step);
    write_header(out, s);

    nsdae_error err = {0};
    nsdae_stepper_summary sum;
    nsdae_status st = nsdae_stepper_run(s, &so, on_step, &c, NULL, &sum, &err);
    double wall = progress_end(&c.wr.prog);
    int failed = fflush(out) != 0;
    if (out != stdout) failed |= fclose(out) != 0;
    if (failed) fprintf(stderr, "nsdae simulate: writing %s failed\n", out_path ? out_path : "standard output");
    if (st != NSDAE_OK) {
        fprintf(stderr, "nsdae simulate: %s\n", err.message);
        fprintf(stderr, "nsdae simulate: %ld steps written before the failure\n", sum.steps);
    } else {
        fprintf(stderr, "nsdae simulate: %ld steps of h = %.6g to t = %.10g; %ld with several solutions%s; %.3f s\n",
                sum.steps, sum.h, sum.t_end, sum.several,
                sum.continuum ? " (some a continuum)" : "", wall);
    }
    nsdae_mlcs_destroy(s);
    return st != NSDAE_OK || failed ? 1 : 0;
}
