/* The nsdae command: dispatches to subcommands. */
#include "cli/commands.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"simulate", nsdae_cmd_simulate, "integrate a model with an event-capturing scheme, CSV out"},
    {"converge", nsdae_cmd_converge, "convergence study over several step sizes"},
    {"check", nsdae_cmd_check, "parse and translate a model, print its MLCS sizes"},
    {"analyze", nsdae_cmd_analyze, "structural analysis of every mode (Sigma-method)"},
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
    fputs("\nRun 'nsdae COMMAND --help' for the options of a command.\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("nsdae %s\n", NSDAE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "nsdae: unknown command '%s' (see 'nsdae --help')\n", argv[1]);
    return 2;
}
