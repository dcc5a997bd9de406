/* The nsdae command: dispatches to subcommands. */
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: nsdae [--help | --version] COMMAND [ARGS]\n"
    "\n"
    "Simulates multi-mode (switched, nonsmooth) DAE systems by event capturing.\n"
    "\n"
    "commands:\n"
    "  (none yet)\n"
    "\n"
    "Run 'nsdae COMMAND --help' for the options of a command.\n";

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("nsdae %s\n", NSDAE_VERSION);
        return 0;
    }
    fprintf(stderr, "nsdae: unknown command '%s' (see 'nsdae --help')\n", argv[1]);
    return 2;
}
