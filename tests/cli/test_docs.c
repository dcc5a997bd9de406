/* The manual page and the bash completion keep up with the commands: every command of
 * `nsdae --help`, every option of every command's --help and every built-in example is named in
 * doc/nsdae.1 and doc/nsdae.bash, and the completion completes. */
#include "cli_run.h"

#include <ctype.h>

static char man[1 << 16], completion[1 << 16];

/* "--no-count" as roff writes it: "\-\-no\-count". */
static void roff_name(char *buf, size_t size, const char *opt)
{
    size_t n = 0;
    for (; *opt && n + 3 < size; opt++) {
        if (*opt == '-') buf[n++] = '\\';
        buf[n++] = *opt;
    }
    buf[n] = '\0';
}

/* Checks every "--option" of text (a --help) against the man page and the completion. */
static void check_options(const char *cmd, const char *text)
{
    for (const char *p = text; (p = strstr(p, "--")) != NULL;) {
        p += 2;
        if (!islower((unsigned char)*p)) continue;
        char opt[64] = "--", roff[160], word[80];
        size_t n = 2;
        while ((islower((unsigned char)*p) || *p == '-') && n + 1 < sizeof opt) opt[n++] = *p++;
        opt[n] = '\0';
        if (strcmp(opt, "--opt") == 0) continue; /* "--opt VALUE", the placeholder */
        roff_name(roff, sizeof roff, opt);
        cr_expect(strstr(man, roff) != NULL, "nsdae %s %s is not in doc/nsdae.1", cmd, opt);
        snprintf(word, sizeof word, "%s ", opt);
        cr_expect(strstr(completion, word) != NULL || (snprintf(word, sizeof word, "%s\"", opt), strstr(completion, word)),
                  "nsdae %s %s is not in doc/nsdae.bash", cmd, opt);
    }
}

Test(docs, every_command_option_and_example_is_documented)
{
    slurp(NSDAE_SOURCE_DIR "/doc/nsdae.1", man, sizeof man);
    slurp(NSDAE_SOURCE_DIR "/doc/nsdae.bash", completion, sizeof completion);
    cr_assert_gt(strlen(man), 1000);
    cr_assert_eq(run_nsdae("--help", ""), 0);
    static char usage[1 << 16];
    size_t len = strlen(out_text);
    cr_assert_lt(len, sizeof usage);
    memcpy(usage, out_text, len + 1);
    const char *list = strstr(usage, "commands:\n");
    cr_assert_not_null(list);
    int ncommands = 0;
    for (const char *p = list + 10; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
        char cmd[32], bold[64];
        cr_assert_eq(sscanf(p, " %31s", cmd), 1);
        ncommands++;
        snprintf(bold, sizeof bold, ".B %s", cmd);
        cr_expect(strstr(man, bold) != NULL, "command %s is not in doc/nsdae.1", cmd);
        cr_expect(strstr(completion, cmd) != NULL, "command %s is not in doc/nsdae.bash", cmd);
        char args[64];
        snprintf(args, sizeof args, "%s --help", cmd);
        cr_assert_eq(run_nsdae(args, ""), 0, "%s", err_text);
        check_options(cmd, out_text);
    }
    cr_expect_geq(ncommands, 8);
    cr_assert_eq(run_nsdae("examples", ""), 0);
    for (const char *p = out_text; *p; p = strchr(p, '\n') + 1) {
        char name[64];
        if (*p != ' ' && sscanf(p, "%63s", name) == 1)
            cr_expect(strstr(completion, name) != NULL, "example %s is not in doc/nsdae.bash", name);
        if (!strchr(p, '\n')) break;
    }
}

/* What bash offers after the words typed, as `complete` would ask. */
static const char *complete_words(const char *words, int cword)
{
    char line[2048];
    snprintf(line, sizeof line,
             "bash -c 'source \"%s/doc/nsdae.bash\"; COMP_WORDS=(%s); COMP_CWORD=%d; _nsdae; echo \"${COMPREPLY[*]}\"'",
             NSDAE_SOURCE_DIR, words, cword);
    FILE *p = popen(line, "r");
    static char out[4096];
    size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = '\0';
    if (p) pclose(p);
    return out;
}

Test(docs, bash_completion_completes)
{
    cr_expect_str_eq(complete_words("nsdae sim", 1), "simulate\n");
    cr_expect_str_eq(complete_words("nsdae simulate --sch", 2), "--scheme\n");
    cr_expect_str_eq(complete_words("nsdae simulate --scheme mo", 3), "moreau\n");
    cr_expect_str_eq(complete_words("nsdae converge --example rocca-r", 3), "rocca-repulsive\n");
    cr_expect_str_eq(complete_words("nsdae simulate --format h", 3), "hdf5\n");
    cr_expect_str_eq(complete_words("nsdae compare --rt", 2), "--rtol\n");
}
