/* The table, CSV and JSON of a cross-check (crosscheck_report.h). */
#include "cli/crosscheck_report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void engine_line(FILE *out, const xc_system *sys, const xc_study *st)
{
    fprintf(out, "# engine: event-driven (IDA, rtol %g, atol %g): %ld events after t0, %ld modes visited, %ld "
                 "accumulation points, %ld IDA steps (finest grid)\n",
            sys->rtol, sys->atol, st->engine_events, st->engine.modes_visited, st->engine.accumulations,
            st->engine.ida_steps);
    if (isfinite(st->first.t))
        fprintf(out, "# first event: t = %.12g, %s, mode %s -> %s\n", st->first.t, st->first.kind, st->first.from,
                st->first.to);
    else fputs("# no event after t0: the event-time and post-event columns do not apply\n", out);
}

static void cell(FILE *out, double v, double floor)
{
    if (!isfinite(v)) fprintf(out, " %13s", "-");
    else fprintf(out, " %12.4e%c", v, v <= floor ? '*' : ' ');
}

void xc_report_table(FILE *out, const xc_heading *hd, const xc_system *sys, const xc_study *st)
{
    fprintf(out, "# %s: time stepper %s against the event-driven engine, T = %.10g, states:", hd->label,
            hd->scheme, sys->stop);
    for (int k = 0; k < sys->nx; k++) fprintf(out, " %s", sys->names[k]);
    fputc('\n', out);
    engine_line(out, sys, st);
    fprintf(out, "%12s %8s %13s %13s %13s %13s %9s %9s\n", "h", "N", "err(T)", "err(grid)", "event dt",
            "post-event", "excluded", "switches");
    for (int r = 0; r < st->nruns; r++) {
        const xc_result *res = &st->runs[r];
        fprintf(out, "%12.4e %8ld", res->h, res->n);
        for (int m = 0; m < XC_NMEASURES; m++) cell(out, m == XC_ERR_EVENT_TIME ? res->event_time_signed : res->err[m],
                                                   st->floor[m]);
        fprintf(out, " %9ld %9ld\n", res->excluded, res->stepper_changes);
    }
    fputs("# err: 2-norm over the states; event dt: the stepper's first mode change minus the engine's first\n"
          "# event; post-event: the stepper's state there against the engine's restart carried along the new\n"
          "# mode to that time; excluded: grid rows within a step of an event, not in err(grid); switches:\n"
          "# the stepper's mode changes.\n", out);
    int starred = 0;
    for (int r = 0; r < st->nruns; r++)
        for (int m = 0; m < XC_NMEASURES; m++) starred |= isfinite(st->runs[r].err[m]) && st->runs[r].err[m] <= st->floor[m];
    if (starred)
        fprintf(out, "# *: at the engine's accuracy (states %.2g, times %.2g): in no fit\n", st->floor[XC_ERR_T],
                st->floor[XC_ERR_EVENT_TIME]);
    fputs("fitted order (least squares of log error against log h):\n", out);
    for (int m = 0; m < XC_NMEASURES; m++) {
        if (isfinite(st->order[m]))
            fprintf(out, "  %-40s %8.4f  (over %d runs)\n", xc_measure_text[m], st->order[m], st->used[m]);
        else fprintf(out, "  %-40s %8s  (%d runs above the engine's accuracy)\n", xc_measure_text[m], "none",
                     st->used[m]);
    }
}

static void csv_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, ",%.17g", v);
    else fputs(",", out);
}

void xc_report_csv(FILE *out, const xc_study *st)
{
    fputs("h,N", out);
    for (int m = 0; m < XC_NMEASURES; m++) fprintf(out, ",%s", xc_measure_key[m]);
    fputs(",event_time_signed,excluded_rows,stepper_mode_changes\n", out);
    for (int r = 0; r < st->nruns; r++) {
        const xc_result *res = &st->runs[r];
        fprintf(out, "%.17g,%ld", res->h, res->n);
        for (int m = 0; m < XC_NMEASURES; m++) csv_number(out, res->err[m]);
        csv_number(out, res->event_time_signed);
        fprintf(out, ",%ld,%ld\n", res->excluded, res->stepper_changes);
    }
}

void xc_report_csv_file(FILE *out, const xc_heading *hd, const xc_system *sys, const xc_study *st)
{
    (void)hd, (void)sys;
    xc_report_csv(out, st);
}

static void json_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, "%.17g", v);
    else fputs("null", out);
}

/* A JSON string: the model's path may hold quotes or backslashes. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', out);
        if ((unsigned char)*s < 0x20) fprintf(out, "\\u%04x", *s);
        else fputc(*s, out);
    }
    fputc('"', out);
}

void xc_report_json(FILE *out, const xc_heading *hd, const xc_system *sys, const xc_study *st)
{
    fputs("{\n  \"model\": ", out);
    json_string(out, hd->label);
    fputs(",\n  \"scheme\": ", out);
    json_string(out, hd->scheme);
    fprintf(out, ",\n  \"stop\": %.17g,\n  \"rtol\": %g,\n  \"atol\": %g,\n", sys->stop, sys->rtol, sys->atol);
    fprintf(out, "  \"engine\": {\"events\": %ld, \"modes_visited\": %ld, \"accumulations\": %ld, \"ida_steps\": %ld, "
                 "\"first_event\": ",
            st->engine_events, st->engine.modes_visited, st->engine.accumulations, st->engine.ida_steps);
    json_number(out, st->first.t);
    fputs("},\n  \"runs\": [\n", out);
    for (int r = 0; r < st->nruns; r++) {
        const xc_result *res = &st->runs[r];
        fprintf(out, "    {\"N\": %ld, \"h\": %.17g", res->n, res->h);
        for (int m = 0; m < XC_NMEASURES; m++) {
            fprintf(out, ", \"%s\": ", xc_measure_key[m]);
            json_number(out, res->err[m]);
        }
        fputs(", \"event_time_signed\": ", out);
        json_number(out, res->event_time_signed);
        fprintf(out, ", \"excluded_rows\": %ld, \"stepper_mode_changes\": %ld}%s\n", res->excluded,
                res->stepper_changes, r + 1 < st->nruns ? "," : "");
    }
    fputs("  ],\n  \"orders\": {", out);
    for (int m = 0; m < XC_NMEASURES; m++) {
        fprintf(out, "%s\"%s\": ", m ? ", " : "", xc_measure_key[m]);
        json_number(out, st->order[m]);
    }
    fputs("},\n  \"fitted_runs\": {", out);
    for (int m = 0; m < XC_NMEASURES; m++) fprintf(out, "%s\"%s\": %d", m ? ", " : "", xc_measure_key[m], st->used[m]);
    fputs("}\n}\n", out);
}

int xc_report_file(const char *cmd, const char *flag, const char *path, const xc_heading *hd, const xc_system *sys,
                   const xc_study *st, void (*write)(FILE *, const xc_heading *, const xc_system *, const xc_study *))
{
    if (strcmp(path, "-") == 0) {
        write(stdout, hd, sys, st);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "nsdae %s: %s '%s': %s\n", cmd, flag, path, strerror(errno));
        return 1;
    }
    write(f, hd, sys, st);
    int failed = ferror(f) != 0;
    errno = 0;
    failed |= fclose(f) != 0;
    if (failed)
        fprintf(stderr, "nsdae %s: %s '%s': writing failed: %s\n", cmd, flag, path, errno ? strerror(errno) : "stream error");
    return failed;
}
