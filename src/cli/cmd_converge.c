/* nsdae converge: not implemented yet; replaced by the issue that brings it. */
#include "cli/commands.h"

#include <stdio.h>

int nsdae_cmd_converge(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("nsdae converge: not available in this build yet\n", stderr);
    return 2;
}
