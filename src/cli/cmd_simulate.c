/* nsdae simulate: not implemented yet; replaced by the issue that brings it. */
#include "cli/commands.h"

#include <stdio.h>

int nsdae_cmd_simulate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("nsdae simulate: not available in this build yet\n", stderr);
    return 2;
}
