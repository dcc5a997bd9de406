/* nsdae check: not implemented yet; replaced by the issue that brings it. */
#include "cli/commands.h"

#include <stdio.h>

int nsdae_cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("nsdae check: not available in this build yet\n", stderr);
    return 2;
}
