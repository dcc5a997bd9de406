/* The event-driven engine's cost per example model (issue 11: events found, IDA steps, wall time):
 * each model of examples/ is parsed, translated to the form the library picks for it
 * (translate_form.h), and run by nsdae_events_run_mlcs or nsdae_events_run_contact on the model's
 * experiment (T and the output step) with the default tolerances (rtol 1e-10, atol 1e-12). Rows go
 * to a callback that drops them, so the time is the engine's (IDA, root finding, event handling),
 * not parsing, translation or writing; the least of --repeat runs is printed. A model the engine
 * refuses (friction) gets its refusal instead of a row.
 *
 * --ladders N,...: instead, examples/diode_ladder.nsm with N cells (3N unknowns) over T = 2e-3
 * (200 output rows), IDA with KLU on the compressed columns (the default from
 * NSDAE_EVENTS_SPARSE_MIN unknowns) against dense LU in the same run (dense only up to
 * --dense-max cells: 3000 unknowns take 40 s); the system stays compressed, as the command keeps it.
 *
 * --columns N,...: the contact family: examples/bead_column.nsm with N beads (4N unknowns: q, v and
 * two multipliers per contact) over T = 0.6 s (the column falls, bead 1 hits the ground at 0.226 s
 * and the impacts travel up the column), 100 rows, KLU on the compressed columns against dense LU with IDA's
 * difference quotients (up to --dense-max beads), in the same run.
 *
 *   OPENBLAS_NUM_THREADS=1 ./bench_events [--repeat N] [--examples DIR] [--ladders N,... | --columns N,...]
 *                                         [--dense-max N]
 */
#include <nsdae/eventdriven.h>
#include <nsdae/model.h>
#include <nsdae/translate.h>
#include <nsdae/translate_form.h>
#include <nsdae/translate_lagrangian.h>

#include "bench_clock.h"
#include "bench_list.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bench_model {
    const char *file;        /* examples/<file>.nsm */
    const char *label;       /* printed name */
    const char *param;       /* a parameter override or NULL */
    double value;
} bench_model;

/* The models first (bouncing ball, rectifier, RLC diode, relays, clutch, bridge, cup-and-ball),
 * then every other example: the frictional ones print the engine's refusal. */
static const bench_model models[] = {
    {"bouncing_ball", "bouncing_ball", NULL, 0},
    {"half_wave_rectifier", "half_wave_rectifier", NULL, 0},
    {"rlc_diode", "rlc_diode", NULL, 0},
    {"relay_two_states", "relay_two_states", NULL, 0},
    {"relay_oscillator", "relay_oscillator", NULL, 0},
    {"coulomb_friction", "coulomb_friction", NULL, 0},
    {"clutch_exogenous", "clutch_exogenous", NULL, 0},
    {"diode_bridge", "diode_bridge", NULL, 0},
    {"cup_and_ball", "cup_and_ball (e=0)", NULL, 0},
    {"cup_and_ball", "cup_and_ball (e=1)", "e", 1.0},
    {"circuit_rlcd", "circuit_rlcd", NULL, 0},
    {"diode_ladder", "diode_ladder", NULL, 0},
    {"rocca_repulsive", "rocca_repulsive", NULL, 0},
    {"bead_column", "bead_column", NULL, 0},
    {"rocca_crossing", "rocca_crossing", NULL, 0},
    {"incline", "incline", NULL, 0},
    {"rolling_ball", "rolling_ball", NULL, 0},
    {"woodpecker", "woodpecker", NULL, 0},
};

static int drop_mlcs(const nsdae_step_record *rec, void *ctx)
{
    (void)rec, (void)ctx;
    return 0;
}

static int drop_contact(const nsdae_contact_record *rec, void *ctx)
{
    (void)rec, (void)ctx;
    return 0;
}

/* The model's experiment on the engine's options: T and the output step (100 rows when unset). */
static void options_of(double stop, double step, nsdae_events_options *o)
{
    nsdae_events_defaults(o);
    o->stop = stop > 0 ? stop : 1.0;
    if (step > 0) {
        o->nsteps = 0;
        o->step = step;
    }
}

/* One model: the least wall time of `repeat` runs; prints its row or why it has none. */
static void bench_one(const char *dir, const bench_model *b, int repeat)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.nsm", dir, b->file);
    nsdae_model *m = NULL;
    nsdae_mlcs *ms = NULL;
    nsdae_lagrangian *cs = NULL;
    nsdae_error err = {0};
    nsdae_status st = nsdae_model_parse_file(path, &m, &err);
    if (!st && b->param) st = nsdae_model_set_param(m, b->param, b->value, &err);
    nsdae_form form = NSDAE_FORM_MLCS;
    if (!st) {
        form = nsdae_translate_form(m).form;
        st = form == NSDAE_FORM_CONTACT ? nsdae_translate_lagrangian(m, &cs, &err) : nsdae_translate_mlcs(m, &ms, NULL, &err);
    }
    nsdae_model_destroy(m);
    nsdae_events_options o;
    if (ms) options_of(ms->stop_time, ms->step, &o);
    if (cs) options_of(cs->stop_time, cs->step, &o);
    double best = INFINITY;
    nsdae_events_summary sum = {0};
    for (int r = 0; !st && r < repeat; r++) {
        double t0 = bench_seconds();
        st = ms ? nsdae_events_run_mlcs(ms, &o, drop_mlcs, NULL, NULL, &sum, &err)
                : nsdae_events_run_contact(cs, &o, drop_contact, NULL, NULL, &sum, &err);
        best = fmin(best, bench_seconds() - t0);
    }
    if (st) printf("%-22s %-7s not run: %s\n", b->label, nsdae_form_name(form), err.message);
    else
        printf("%-22s %-7s %8.4g %7ld %6ld %5ld %10ld %8ld %10.4f\n", b->label, nsdae_form_name(form), o.stop,
               sum.events, sum.modes_visited, sum.accumulations, sum.ida_steps, sum.rows, best);
    fflush(stdout);
    nsdae_mlcs_destroy(ms);
    nsdae_lagrangian_destroy(cs);
}

/* The least wall time of `repeat` runs of the ladder with one linear solver; NAN when refused. */
static double ladder_time(const nsdae_mlcs *s, nsdae_events_linsol linsol, int repeat, nsdae_events_summary *sum)
{
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.stop = 2e-3;
    o.nsteps = 200;
    o.linsol = linsol;
    double best = INFINITY;
    for (int r = 0; r < repeat; r++) {
        nsdae_error err = {0};
        double t0 = bench_seconds();
        if (nsdae_events_run_mlcs(s, &o, drop_mlcs, NULL, NULL, sum, &err) != NSDAE_OK) {
            printf("  (%s refused: %s)\n", linsol == NSDAE_EVENTS_LINSOL_DENSE ? "dense" : "KLU", err.message);
            return NAN;
        }
        best = fmin(best, bench_seconds() - t0);
    }
    return best;
}

static int bench_ladders(const char *dir, const int *cells, int count, int repeat, int dense_max)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/diode_ladder.nsm", dir);
    printf("diode ladder, T = 2e-3, 200 rows (events: switches; IDA steps of the KLU run)\n");
    printf("%6s %9s %7s %10s %10s %10s %8s\n", "N", "unknowns", "events", "IDA steps", "KLU s", "dense s",
           "x dense");
    for (int k = 0; k < count; k++) {
        nsdae_model *m = NULL;
        nsdae_mlcs *s = NULL;
        nsdae_error err = {0};
        if (nsdae_model_parse_file(path, &m, &err) || nsdae_model_set_param(m, "N", cells[k], &err) ||
            nsdae_translate_mlcs(m, &s, NULL, &err)) {
            fprintf(stderr, "bench_events: %s: %s\n", path, err.message);
            nsdae_model_destroy(m);
            return 1;
        }
        nsdae_model_destroy(m);
        nsdae_events_summary sum = {0}, dsum = {0};
        double klu = ladder_time(s, NSDAE_EVENTS_LINSOL_SPARSE, repeat, &sum);
        double dense = cells[k] <= dense_max ? ladder_time(s, NSDAE_EVENTS_LINSOL_DENSE, repeat, &dsum) : NAN;
        printf("%6d %9d %7ld %10ld %10.4f %10.4f %8.2f\n", cells[k], s->ny + s->nl, sum.events, sum.ida_steps, klu,
               dense, dense / klu);
        fflush(stdout);
        nsdae_mlcs_destroy(s);
    }
    return 0;
}

/* The least wall time of `repeat` runs of the bead column with one linear solver; NAN when refused. */
static double column_time(const nsdae_lagrangian *s, nsdae_events_linsol linsol, int repeat, nsdae_events_summary *sum)
{
    nsdae_events_options o;
    nsdae_events_defaults(&o);
    o.stop = 0.6;
    o.nsteps = 100;
    o.linsol = linsol;
    double best = INFINITY;
    for (int r = 0; r < repeat; r++) {
        nsdae_error err = {0};
        double t0 = bench_seconds();
        if (nsdae_events_run_contact(s, &o, drop_contact, NULL, NULL, sum, &err) != NSDAE_OK) {
            printf("  (%s refused: %s)\n", linsol == NSDAE_EVENTS_LINSOL_DENSE ? "dense" : "KLU", err.message);
            return NAN;
        }
        best = fmin(best, bench_seconds() - t0);
    }
    return best;
}

static int bench_columns(const char *dir, const int *beads, int count, int repeat, int dense_max)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/bead_column.nsm", dir);
    printf("bead column, T = 0.6, 100 rows (events and IDA steps of the KLU run; the dense run's in brackets)\n");
    printf("%6s %9s %7s %10s %10s %10s %8s %16s\n", "N", "unknowns", "events", "IDA steps", "KLU s", "dense s",
           "x dense", "[events, steps]");
    for (int k = 0; k < count; k++) {
        nsdae_model *m = NULL;
        nsdae_lagrangian *s = NULL;
        nsdae_error err = {0};
        if (nsdae_model_parse_file(path, &m, &err) || nsdae_model_set_param(m, "N", beads[k], &err) ||
            nsdae_translate_lagrangian(m, &s, &err)) {
            fprintf(stderr, "bench_events: %s: %s\n", path, err.message);
            nsdae_model_destroy(m);
            return 1;
        }
        nsdae_model_destroy(m);
        nsdae_events_summary sum = {0}, dsum = {0};
        double klu = column_time(s, NSDAE_EVENTS_LINSOL_SPARSE, repeat, &sum);
        double dense = beads[k] <= dense_max ? column_time(s, NSDAE_EVENTS_LINSOL_DENSE, repeat, &dsum) : NAN;
        printf("%6d %9d %7ld %10ld %10.4f %10.4f %8.2f %7ld %8ld\n", beads[k], 2 * s->ndof + 2 * s->ncontacts,
               sum.events, sum.ida_steps, klu, dense, dense / klu, dsum.events, dsum.ida_steps);
        fflush(stdout);
        nsdae_lagrangian_destroy(s);
    }
    return 0;
}

static void usage(const char *prog)
{
    printf("usage: %s [--repeat N] [--examples DIR] [--ladders N,... | --columns N,...] [--dense-max N]\n"
           "The event-driven engine on the example models (their experiment's T and output step,\n"
           "rtol 1e-10, atol 1e-12): events, modes visited, accumulation points, IDA steps, rows and\n"
           "the least wall time of N runs (default 3), rows dropped. Run with OPENBLAS_NUM_THREADS=1.\n"
           "  --examples DIR  the models' directory (default: the source tree's examples/)\n"
           "  --ladders N,... diode ladders of N cells instead: IDA with KLU against dense LU\n"
           "  --columns N,... bead columns of N beads instead (contact form): KLU against dense LU\n"
           "  --dense-max N   the largest ladder or column also run with dense LU (default 400)\n",
           prog);
}

int main(int argc, char **argv)
{
    int repeat = 3, cells[32], ncells = 0, beads[32], nbeads = 0, dense_max = 400;
    const char *dir = NSDAE_SOURCE_DIR "/examples";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--ladders") == 0 && i + 1 < argc) {
            if ((ncells = bench_parse_list(argv[++i], cells, 32)) < 1) {
                fprintf(stderr, "bench_events: --ladders %s: expected sizes like 100,400,1000\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc) {
            if ((nbeads = bench_parse_list(argv[++i], beads, 32)) < 1) {
                fprintf(stderr, "bench_events: --columns %s: expected sizes like 50,100,200\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--dense-max") == 0 && i + 1 < argc) dense_max = atoi(argv[++i]);
        else if (strcmp(argv[i], "--examples") == 0 && i + 1 < argc) dir = argv[++i];
        else {
            usage(argv[0]);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (repeat < 1) repeat = 1;
    if (ncells > 0) return bench_ladders(dir, cells, ncells, repeat, dense_max);
    if (nbeads > 0) return bench_columns(dir, beads, nbeads, repeat, dense_max);
    printf("%-22s %-7s %8s %7s %6s %5s %10s %8s %10s\n", "model", "form", "T", "events", "modes", "accum",
           "IDA steps", "rows", "wall s");
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) bench_one(dir, &models[k], repeat);
    return 0;
}
