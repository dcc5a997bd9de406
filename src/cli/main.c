/* The nsdae command: dispatches to subcommands. */
#include "cli/build_info.h"
#include "cli/commands.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"simulate", nsdae_cmd_simulate, "integrate a model with an event-capturing scheme, CSV out"},
    {"converge", nsdae_cmd_converge, "convergence study over several step sizes"},
    {"crosscheck", nsdae_cmd_crosscheck, "time stepper against the event-driven engine: errors, orders"},
    {"check", nsdae_cmd_check, "parse and translate a model, print its MLCS sizes"},
    {"analyze", nsdae_cmd_analyze, "structural analysis of every mode (Sigma-method)"},
    {"restart", nsdae_cmd_restart, "restart analysis of every mode change: impulses, restart values"},
    {"plot", nsdae_cmd_plot, "plot a run's CSV: trajectories or a phase portrait (gnuplot)"},
    {"compare", nsdae_cmd_compare, "compare two runs (CSV or Siconos .ref): deviation per column"},
    {"examples", nsdae_cmd_examples, "list the built-in examples with their parameters and defaults"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out)
{
    fputs("usage: nsdae [--help | --version] COMMAND [ARGS]\n"
          "\n"
          "Simulates multi-mode (switched, nonsmooth) DAE systems by event capturing: a model is\n"
          "translated into a mixed linear complementarity system and integrated by fixed-step\n"
          "implicit schemes, with the minimal-norm implicit Euler selecting among several solutions.\n"
          "\n"
          "commands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nRun 'nsdae help COMMAND' or 'nsdae COMMAND --help' for the options of a command.\n"
          "Exit status 2 for a bad command line, in every command.\n",
          out);
}

static int find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0) return (int)i;
    return -1;
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "nsdae: unknown command '%s' (see 'nsdae --help')\n", name);
    return 2;
}

/* A report that did not reach standard output (a full disk, /dev/full) is a failure: exit 1 with
 * the reason, whatever the command thought of its own work. */
static int stdout_checked(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    fprintf(stderr, "nsdae: writing standard output failed: %s\n", errno ? strerror(errno) : "stream error");
    return rc ? rc : 1;
}

/* nsdae --version: the version and commit, then one line per library nsdae runs on. */
static int print_version(void)
{
    dependency_version deps[BUILD_INFO_NDEPS];
    build_info_dependencies(deps, BUILD_INFO_HDF5_LOAD);
    printf("nsdae %s (commit %s)\n", build_info_version(), build_info_commit());
    for (int i = 0; i < BUILD_INFO_NDEPS; i++) printf("  %-17s %s\n", deps[i].name, deps[i].version);
    return stdout_checked(0);
}

/* nsdae help [COMMAND]: the general usage, or the command's own --help. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        print_usage(stdout);
        return 0;
    }
    if (argc > 3) {
        fprintf(stderr, "nsdae help: one command only ('%s' and '%s')\n", argv[2], argv[3]);
        return 2;
    }
    int c = find_command(argv[2]);
    if (c < 0) return unknown_command(argv[2]);
    char *args[] = {argv[2], "--help", NULL};
    return commands[c].run(2, args);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "help") == 0) return help(argc, argv);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) return print_version();
    int c = find_command(argv[1]);
    return c < 0 ? unknown_command(argv[1]) : stdout_checked(commands[c].run(argc - 1, argv + 1));
}
