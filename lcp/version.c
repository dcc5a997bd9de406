/* The version this library was built as (include/nsdae/version.h). With status.c in the lowest
 * library, so that every nsdae library can answer it. */
#include <nsdae/version.h>

const char *nsdae_version(void)
{
    return NSDAE_VERSION_STRING;
}

const char *nsdae_git_commit(void)
{
    return NSDAE_GIT_COMMIT;
}
