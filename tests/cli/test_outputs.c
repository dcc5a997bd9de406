/* What a run leaves behind and how it is looked at (issue 13): shortest numbers in the CSV, the
 * JSON sidecar, HDF5, plots and their failures, comparisons, the examples list, converge's flags,
 * --version. Expected numbers come from the examples' published parameters (Rocca et al.), decimal
 * arithmetic of the grid, sha256sum, and tables written here by hand. */
#include "cli_run.h"

#include <hdf5.h>

#include <math.h>
#include <sys/stat.h>

/* Runs a shell command line (from the source tree) with its output in out_text and err_text. */
static int run_shell(const char *tag, const char *line)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && OPENBLAS_NUM_THREADS=1 %s >'%s/%s.out' 2>'%s/%s.err'", NSDAE_SOURCE_DIR, line,
             NSDAE_BINARY_DIR, tag, NSDAE_BINARY_DIR, tag);
    return collect_run(system(cmd), tag);
}

#define NSDAE NSDAE_BINARY_DIR "/nsdae"
#define OUT(name) NSDAE_BINARY_DIR "/outputs_" name

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

Test(outputs, csv_numbers_are_shortest_round_trip)
{
    /* h = 2/400 = 0.005 exactly in decimal: the second row's time prints as 0.005 */
    cr_assert_eq(run_nsdae("simulate", "--example relay-decay --stop 2 --steps 400"), 0, "%s", err_text);
    HAS(out_text, "\n0.005,");
    cr_expect(strstr(out_text, "0.0050000000000000001") == NULL, "17-digit noise in:\n%.300s", out_text);
    HAS(out_text, "\n2,"); /* the last row, t = 2, not 2.0000000000000000 */
}

Test(outputs, examples_list_parameters_and_defaults)
{
    cr_assert_eq(run_nsdae("examples", ""), 0, "%s", err_text);
    /* Rocca et al., sliding-crossing case: B = (-0.5, 1), x0 = (-5, 4) */
    HAS(out_text, "rocca-crossing (MLCS)");
    HAS(out_text, "B1=-0.5 B2=1 x1_0=-5 x2_0=4");
    HAS(out_text, "rocca-repulsive (MLCS)");
    HAS(out_text, "B1=-1 B2=0.5 x1_0=0 x2_0=0");
    HAS(out_text, "bouncing-ball (contact, Moreau-Jean)");
    HAS(out_text, "q0=1 v0=0 g=9.81 m=1 e=0.9");
    cr_expect_eq(run_nsdae("examples", "cup-and-ball"), 0);
    cr_expect(strstr(out_text, "rocca") == NULL);
    cr_expect_eq(run_nsdae("examples", "no-such"), 2);
    HAS(err_text, "unknown example 'no-such'");
}

Test(outputs, check_accepts_every_example)
{
    cr_expect_eq(run_nsdae("check", "--example rocca-crossing"), 0, "%s", err_text);
    HAS(out_text, "rocca-crossing");
    cr_expect_eq(run_nsdae("check", "--example bouncing-ball"), 0, "%s", err_text);
}

Test(outputs, converge_flags_mean_one_thing)
{
    cr_expect_eq(run_nsdae("converge", "--example rocca-crossing --steps 10,20,40 --step 0.5"), 2);
    HAS(err_text, "--step '0.5'");
    cr_expect_eq(run_nsdae("converge", "--example rocca-crossing --steps 10,20,40 --no-count"), 2);
    HAS(err_text, "--no-count");
    cr_assert_eq(run_nsdae("converge", "--help"), 0);
    int lines = 0;
    for (const char *p = out_text; (p = strstr(p, "\n  --steps")) != NULL; p++) lines++;
    cr_expect_eq(lines, 1, "--steps described %d times in:\n%s", lines, out_text);
    cr_expect(strstr(out_text, "--no-count") == NULL);
    cr_expect(strstr(out_text, "--step H") == NULL);
}

/* HDF5 lives in a module loaded on first use (src/cli/hdf5_sink_ops.h): a run without HDF5 output
 * must not load it, since its 36 libraries took a 10-diode ladder's run from 27 M to 49 M
 * instructions (issue 12; the run's facts once asked the module for HDF5's version). The dynamic
 * loader's own trace (LD_DEBUG=files) names every object it maps; the run writing HDF5 is the
 * control that the trace does name the module and libhdf5. */
#define MAPS_HDF5 "sed -E -n '/file=([^ ]*\\/)?[^/ ]*hdf5[^/ ]* /p'" /* the objects named *hdf5* mapped */
Test(outputs, hdf5_module_loaded_by_hdf5_runs_only)
{
    struct stat st;
    remove(OUT("noh5.csv"));
    cr_assert_eq(run_shell("noh5", "LD_DEBUG=files " NSDAE " simulate --example rocca-crossing --steps 10 --out "
                                   OUT("noh5.csv") " 2>&1 >/dev/null | " MAPS_HDF5), 0, "%s", err_text);
    cr_assert(stat(OUT("noh5.csv"), &st) == 0 && st.st_size > 0, "the CSV run wrote nothing");
    cr_expect(strstr(out_text, "file=") == NULL, "a run without HDF5 output loaded:\n%.2000s", out_text);
    remove(OUT("yesh5.h5"));
    cr_assert_eq(run_shell("yesh5", "LD_DEBUG=files " NSDAE " simulate --example rocca-crossing --steps 10 --format hdf5 "
                                    "--out " OUT("yesh5.h5") " 2>&1 >/dev/null | " MAPS_HDF5), 0, "%s",
                 err_text);
    cr_assert(stat(OUT("yesh5.h5"), &st) == 0 && st.st_size > 0, "the HDF5 run wrote nothing");
    HAS(out_text, "nsdae_hdf5.so");
    HAS(out_text, "libhdf5");
}

Test(outputs, version_names_commit_and_libraries)
{
    cr_assert_eq(run_nsdae("--version", ""), 0);
    HAS(out_text, "(commit ");
    unsigned maj, min, rel;
    H5get_libversion(&maj, &min, &rel);
    char hdf5[64];
    snprintf(hdf5, sizeof hdf5, "hdf5              %u.%u.%u", maj, min, rel);
    HAS(out_text, hdf5);
    HAS(out_text, "sundials");
    HAS(out_text, "openblas");
    HAS(out_text, "lapack");
    HAS(out_text, "siconos-numerics");
}

/* The text of a whole file into out_text. */
static void read_back(const char *path)
{
    slurp(path, out_text, sizeof out_text);
}

Test(outputs, sidecar_holds_the_runs_facts)
{
    remove(OUT("side.csv.json"));
    cr_assert_eq(run_shell("side", NSDAE " simulate --example rocca-crossing --param B1=-0.25 --steps 100 --out "
                                   OUT("side.csv")), 0, "%s", err_text);
    read_back(OUT("side.csv.json"));
    HAS(out_text, "\"example\": \"rocca-crossing\"");
    HAS(out_text, "\"B1\": -0.25"); /* after the override */
    HAS(out_text, "\"B2\": 1");
    HAS(out_text, "\"N\": 100");
    HAS(out_text, "\"h\": 0.1");    /* T/N = 10/100 */
    HAS(out_text, "\"T\": 10");
    HAS(out_text, "\"scheme\": \"minnorm\"");
    HAS(out_text, "\"steps\": 100");
    HAS(out_text, "\"status\": \"complete\"");
    HAS(out_text, "\"commit\": ");
    HAS(out_text, "\"wall_seconds\": ");
    HAS(out_text, "\"sundials\": ");

    /* a model file: its path and the sha256 that sha256sum computes */
    cr_assert_eq(run_shell("side_model", NSDAE " simulate examples/diode_bridge.nsm --stop 1e-4 --param R=500 --out "
                                         OUT("side2.csv")), 0, "%s", err_text);
    cr_assert_eq(run_shell("side_sum", "sha256sum examples/diode_bridge.nsm"), 0);
    char want[128];
    snprintf(want, sizeof want, "\"sha256\": \"%.64s\"", out_text);
    read_back(OUT("side2.csv.json"));
    HAS(out_text, want);
    HAS(out_text, "\"path\": \"examples/diode_bridge.nsm\"");
    HAS(out_text, "\"R\": 500");
    HAS(out_text, "\"L\": 0.01");

    /* no sidecar next to a device, none with --no-sidecar */
    cr_expect_eq(run_shell("side_dev", NSDAE " simulate --example rocca-crossing --steps 10 --out /dev/null"), 0);
    struct stat st;
    cr_expect_neq(stat("/dev/null.json", &st), 0, "a sidecar next to /dev/null");
    remove(OUT("side3.csv.json"));
    cr_expect_eq(run_shell("side_no", NSDAE " simulate --example rocca-crossing --steps 10 --no-sidecar --out "
                                      OUT("side3.csv")), 0);
    cr_expect_neq(stat(OUT("side3.csv.json"), &st), 0);
}

/* Reads a 1-D double dataset of an HDF5 file into v (n entries at most); returns its length. */
static long read_dataset(hid_t file, const char *name, double *v, long n)
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    cr_assert_geq(d, 0, "no dataset %s", name);
    hid_t space = H5Dget_space(d);
    hsize_t len = 0;
    H5Sget_simple_extent_dims(space, &len, NULL);
    cr_assert_leq((long)len, n);
    cr_assert_geq(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
    H5Sclose(space);
    H5Dclose(d);
    return (long)len;
}

Test(outputs, hdf5_has_a_dataset_per_column_and_the_facts)
{
    cr_assert_eq(run_shell("h5", NSDAE " simulate --example rocca-crossing --steps 10000 --format hdf5 --out "
                                 OUT("run.h5")), 0, "%s", err_text);
    cr_assert_eq(run_shell("h5csv", NSDAE " simulate --example rocca-crossing --steps 10000 --no-sidecar --out "
                                    OUT("run.csv")), 0, "%s", err_text);
    static double t[10001], x1[10001];
    hid_t f = H5Fopen(OUT("run.h5"), H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_assert_geq(f, 0);
    cr_assert_eq(read_dataset(f, "t", t, 10001), 10001); /* more rows than one 4096-row chunk */
    cr_assert_eq(read_dataset(f, "x1", x1, 10001), 10001);
    for (long k = 0; k <= 10000; k++) cr_assert_float_eq(t[k], k * 1e-3, 1e-12, "t[%ld] = %.17g", k, t[k]);
    double n = 0;
    hid_t a = H5Aopen(f, "run.N", H5P_DEFAULT);
    cr_assert_geq(a, 0);
    H5Aread(a, H5T_NATIVE_DOUBLE, &n);
    H5Aclose(a);
    cr_expect_eq(n, 10000.0);
    cr_expect_gt(H5Aexists(f, "model.example"), 0);
    cr_expect_gt(H5Aexists(f, "nsdae.commit"), 0);
    H5Fclose(f);
    /* the same values as the CSV of the same run, read back by strtod */
    FILE *csv = fopen(OUT("run.csv"), "r");
    cr_assert_not_null(csv);
    char line[4096];
    cr_assert_not_null(fgets(line, sizeof line, csv)); /* header */
    for (long k = 0; fgets(line, sizeof line, csv); k++) {
        char *end;
        double tk = strtod(line, &end), xk = strtod(end + 1, NULL);
        cr_assert(tk == t[k] && xk == x1[k], "row %ld: CSV %.17g %.17g, HDF5 %.17g %.17g", k, tk, xk, t[k], x1[k]);
    }
    fclose(csv);
    cr_expect_eq(run_nsdae("simulate", "--example rocca-crossing --format hdf5"), 2);
    HAS(err_text, "--format hdf5 needs --out");
}

static int is_png(const char *path)
{
    unsigned char magic[8] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(magic, 1, 8, f);
    fclose(f);
    return n == 8 && memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0;
}

Test(outputs, plots_are_written)
{
    remove(OUT("phase.png"));
    cr_assert_eq(run_shell("plot1", NSDAE " simulate --example rocca-crossing --steps 200 --out " OUT("p.csv")
                                    " --plot " OUT("phase.png") " --phase x1,x2"), 0, "%s", err_text);
    cr_expect(is_png(OUT("phase.png")));
    remove(OUT("p.png"));
    cr_assert_eq(run_shell("plot2", NSDAE " plot " OUT("p.csv")), 0, "%s", err_text);
    cr_expect(is_png(OUT("p.png")), "nsdae plot RUN.csv writes RUN.png");
    cr_expect_eq(run_shell("plot3", NSDAE " plot " OUT("p.csv") " --vars x1,nope"), 2);
    HAS(err_text, "no column 'nope'");
    remove(OUT("conv.png"));
    cr_expect_eq(run_shell("plot4", NSDAE " converge --example relay-decay --steps 10,20,40 --plot " OUT("conv.png")),
                 0, "%s", err_text);
    cr_expect(is_png(OUT("conv.png")));
}

Test(outputs, plot_failures_name_their_cause)
{
    /* an output directory that does not exist: the directory is named, gnuplot is not blamed */
    cr_expect_eq(run_shell("pf1", NSDAE " simulate --example rocca-crossing --steps 10 --plot /missing/x.png"), 1);
    HAS(err_text, "directory '/missing'");
    cr_expect(strstr(err_text, "installed") == NULL, "%s", err_text);
    cr_expect_eq(run_shell("pf2", NSDAE " converge --example relay-decay --steps 10,20 --plot /missing/x.png"), 1);
    HAS(err_text, "directory '/missing'");
    /* no gnuplot on PATH: said before the run, not a SIGPIPE (status 141) */
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(run_shell("pf3", "PATH=/nonexistent " NSDAE " simulate --example rocca-crossing --steps 10 --plot "
                                      OUT("np.png")), 1, "run %d: %s", i, err_text);
        HAS(err_text, "gnuplot is not installed");
    }
    /* a gnuplot that exits without reading its input: the write fails with EPIPE, not SIGPIPE */
    char dir[1024], fake[1200];
    snprintf(dir, sizeof dir, "%s/outputs_fakebin", NSDAE_BINARY_DIR);
    mkdir(dir, 0755);
    snprintf(fake, sizeof fake, "%s/gnuplot", dir);
    write_file(fake, "#!/bin/sh\nexit 1\n");
    chmod(fake, 0755);
    char line[4096];
    snprintf(line, sizeof line, "PATH=%s:/usr/bin:/bin " NSDAE " simulate --example rocca-crossing --steps 20000 "
                                "--out /dev/null --plot " OUT("fake.png"), dir);
    cr_expect_eq(run_shell("pf4", line), 1, "%s", err_text);
    HAS(err_text, "gnuplot failed");
}

Test(outputs, compare_reports_deviation_per_column)
{
    /* A: x = t^2 at t = 0, 1, 2. B: a Siconos-style table (dimension line, no header) with x = 2 t + 0.1
     * at t = 0 and 2 only: interpolated at t = 1 it is 2.1, so |A - B| is 0.1, 1.1, 0.1: max 1.1 at t = 1,
     * relative to the column's largest magnitude 4.1. */
    write_file(OUT("a.csv"), "t,x\n0,0\n1,1\n2,4\n");
    write_file(OUT("b.ref"), "2 2\n0 0.1\n2 4.1\n");
    cr_assert_eq(run_shell("cmp1", NSDAE " compare " OUT("a.csv") " " OUT("b.ref")), 0, "%s", err_text);
    HAS(out_text, "3 of the first run's times compared");
    char want[128];
    snprintf(want, sizeof want, "%14.6e %14.8g %14.6e", 1.1, 1.0, 1.1 / 4.1);
    HAS(out_text, want);
    cr_expect_eq(run_shell("cmp2", NSDAE " compare " OUT("a.csv") " " OUT("b.ref") " --tol 1"), 1);
    HAS(out_text, "ABOVE TOLERANCE");
    cr_expect_eq(run_shell("cmp3", NSDAE " compare " OUT("a.csv") " " OUT("b.ref") " --tol 1.2 --rtol 0.3"), 0);
    cr_expect_eq(run_shell("cmp4", NSDAE " compare " OUT("a.csv") " " OUT("b.ref") " --rtol 0.2"), 1);
    /* common times, columns by name: y is compared, x (A only) is not */
    write_file(OUT("c.csv"), "t,y,x\n0,5,0\n1,5.5,1\n");
    write_file(OUT("d.csv"), "t,y\n0,5\n1,5.25\n");
    cr_assert_eq(run_shell("cmp5", NSDAE " compare " OUT("c.csv") " " OUT("d.csv")), 0, "%s", err_text);
    HAS(out_text, "2 common times compared");
    snprintf(want, sizeof want, "%-24s %14.6e %14.8g", "y", 0.25, 1.0);
    HAS(out_text, want);
    cr_expect(strstr(out_text, "\nx ") == NULL);
    cr_expect_eq(run_shell("cmp6", NSDAE " compare " OUT("c.csv") " " OUT("d.csv") " --cols x=y"), 0);
    cr_expect_eq(run_shell("cmp7", NSDAE " compare " OUT("c.csv") " " OUT("d.csv") " --cols z"), 2);
    HAS(err_text, "no column 'z'");
    cr_expect_eq(run_shell("cmp8", NSDAE " compare " OUT("c.csv") " " OUT("missing.csv")), 2);
    HAS(err_text, "missing.csv");
}
