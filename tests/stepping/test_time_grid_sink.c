/* The one time grid and the CSV sink of every engine: grid points against the closed form, rows
 * as text, and write errors as NSDAE_IO. */
#include <criterion/criterion.h>

#include <nsdae/csv_sink.h>
#include <nsdae/time_grid.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

Test(time_grid, step_count_gives_h_and_lands_on_stop)
{
    nsdae_time_grid g;
    cr_assert_eq(nsdae_time_grid_make(0.0, 1.0, 3, 0.0, &g, NULL), NSDAE_OK);
    cr_expect_eq(g.n, 3);
    cr_expect_eq(g.h, 1.0 / 3.0);
    /* 3 * (1/3) rounds, the last point does not: it is the stop time itself */
    cr_expect_eq(nsdae_time_grid_time(&g, 3), 1.0);
    cr_expect_eq(nsdae_time_grid_time(&g, 1), 1.0 / 3.0);
    cr_expect_eq(nsdae_time_grid_step(&g, 0), 1.0 / 3.0);
    /* the last step too: 1 - 2/3 is 0.33333333333333337, a rounding of h, not a shorter step */
    cr_expect_neq(1.0 - nsdae_time_grid_time(&g, 2), 1.0 / 3.0);
    cr_expect_eq(nsdae_time_grid_step(&g, 2), 1.0 / 3.0);
    /* the diode ladder's grid: 0.04 - 3999e-5 = 9.9999999999961e-6 (time_grid.c) */
    cr_assert_eq(nsdae_time_grid_make(0.0, 0.04, 4000, 0, &g, NULL), NSDAE_OK);
    cr_expect_neq(0.04 - nsdae_time_grid_time(&g, 3999), g.h);
    cr_expect_eq(nsdae_time_grid_step(&g, 3999), g.h);
}

Test(time_grid, fixed_step_shortens_the_last_one)
{
    nsdae_time_grid g;
    /* 0.3, 0.6, 0.9, then 1 - 0.9 = 0.1 */
    cr_assert_eq(nsdae_time_grid_make(0.0, 1.0, 0, 0.3, &g, NULL), NSDAE_OK);
    cr_expect_eq(g.n, 4);
    cr_expect_eq(nsdae_time_grid_step(&g, 2), 0.3, "full steps are exactly h");
    cr_expect(fabs(nsdae_time_grid_step(&g, 3) - 0.1) < 1e-15);
    cr_expect_eq(nsdae_time_grid_time(&g, 4), 1.0);
    /* h dividing the span: no sliver step, although 1 / 0.1 is 9.999999999999998 in doubles */
    cr_assert_eq(nsdae_time_grid_make(0.0, 1.0, 0, 0.1, &g, NULL), NSDAE_OK);
    cr_expect_eq(g.n, 10);
}

Test(time_grid, refusals_name_the_value)
{
    nsdae_time_grid g;
    nsdae_error err = {0};
    cr_expect_eq(nsdae_time_grid_make(0.0, 0.0, 10, 0.0, &g, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "stop time 0") != NULL, "%s", err.message);
    cr_expect_eq(nsdae_time_grid_make(0.0, 1.0, 0, -1.0, &g, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "step -1") != NULL, "%s", err.message);
    /* 1e-300 steps on [0, 1] are more than a long counts */
    cr_expect_eq(nsdae_time_grid_make(0.0, 1.0, 0, 1e-300, &g, &err), NSDAE_INVALID_INPUT);
    cr_expect(strstr(err.message, "more than") != NULL, "%s", err.message);
}

static const char *names[] = {"x", "nsol", "res"};
static const nsdae_column_format formats[] = {NSDAE_COLUMN_REAL, NSDAE_COLUMN_COUNT, NSDAE_COLUMN_RESIDUAL};

Test(csv_sink, rows_every_kth_and_the_last)
{
    nsdae_run_columns cols = {3, (char **)names, (nsdae_column_format *)formats};
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    nsdae_csv_sink *sink = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_csv_sink_open(f, "tmp", &cols, (nsdae_csv_thinning){2, 3}, &sink, &err), NSDAE_OK);
    for (long k = 0; k <= 3; k++) {
        double v[3] = {0.1 * (double)k, k == 2 ? INFINITY : 1.0, 1.0 / 3.0};
        nsdae_run_record r = {k, (double)k / 4, v};
        cr_assert_eq(nsdae_csv_sink_write(sink, &r, &err), NSDAE_OK, "%s", err.message);
    }
    cr_assert_eq(nsdae_csv_sink_finish(sink, &err), NSDAE_OK);
    cr_expect_eq(nsdae_csv_sink_last_k(sink), 3);
    cr_expect_eq(nsdae_csv_sink_last_t(sink), 0.75);
    nsdae_csv_sink_destroy(sink);
    char text[512];
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    /* k = 0 and 2 (every second), k = 3 (the last); numbers print in the shortest text that reads
     * back to the same double: 0.1 * 2 is the double nearest 0.2, 0.1 * 3 is not 0.3's */
    cr_expect_str_eq(text, "t,x,nsol,res\n"
                           "0,0,1,0.333\n"
                           "0.5,0.2,inf,0.333\n"
                           "0.75,0.30000000000000004,1,0.333\n");
}

Test(csv_sink, a_full_device_is_an_io_error)
{
    FILE *f = fopen("/dev/full", "w");
    cr_assert_not_null(f);
    nsdae_run_columns cols = {3, (char **)names, (nsdae_column_format *)formats};
    nsdae_csv_sink *sink = NULL;
    nsdae_error err = {0};
    cr_assert_eq(nsdae_csv_sink_open(f, "/dev/full", &cols, (nsdae_csv_thinning){1, 1}, &sink, &err), NSDAE_OK);
    double v[3] = {1, 1, 0};
    nsdae_run_record r = {0, 0.0, v};
    /* step 0 is a flush point: the header and the row reach the device, which refuses them */
    cr_expect_eq(nsdae_csv_sink_write(sink, &r, &err), NSDAE_IO);
    cr_expect(strstr(err.message, "writing /dev/full failed") != NULL, "%s", err.message);
    cr_expect_eq(nsdae_csv_sink_finish(sink, &err), NSDAE_IO, "a failed sink stays failed");
    nsdae_csv_sink_destroy(sink);
    fclose(f);
}
