/* nsdae/version.h: the runtime calls answer what the macros say, and both agree with the project
 * VERSION that CMake passes independently of the generated header (NSDAE_VERSION). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <nsdae/version.h>
#include <stdio.h>
#include <string.h>

Test(version, runtime_matches_macros_and_project_version)
{
    char joined[64];
    snprintf(joined, sizeof joined, "%d.%d.%d", NSDAE_VERSION_MAJOR, NSDAE_VERSION_MINOR, NSDAE_VERSION_PATCH);
    cr_expect_str_eq(joined, NSDAE_VERSION);
    cr_expect_str_eq(nsdae_version(), NSDAE_VERSION);
    cr_expect_str_eq(NSDAE_VERSION_STRING, NSDAE_VERSION);
    cr_expect_eq(NSDAE_VERSION_NUMBER, NSDAE_VERSION_MAJOR * 10000L + NSDAE_VERSION_MINOR * 100L + NSDAE_VERSION_PATCH);
}

Test(version, commit_is_a_hash_or_unknown)
{
    const char *c = nsdae_git_commit();
    cr_expect_str_eq(c, NSDAE_GIT_COMMIT);
    if (strcmp(c, "unknown") == 0) return;
    size_t n = 0;
    while (isxdigit((unsigned char)c[n])) n++;
    cr_expect_eq(n, 12, "commit %s: want 12 hex digits", c);
    cr_expect(c[n] == '\0' || strcmp(c + n, "-dirty") == 0, "commit %s: unexpected suffix", c);
}
