/* Running the nsdae command from a CLI test: its standard output and error are kept in files of the
 * build directory and read back into out_text and err_text, so that a failing assertion can show them. */
#ifndef NSDAE_TESTS_CLI_RUN_H
#define NSDAE_TESTS_CLI_RUN_H

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char out_text[1 << 20], err_text[1 << 16];

static inline void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f) fclose(f);
}

/* Reads BINARY_DIR/<tag>.out and .err into out_text and err_text; returns the exit status of the
 * system() result st, -1 when the command did not exit normally. */
static inline int collect_run(int st, const char *tag)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.out", NSDAE_BINARY_DIR, tag);
    slurp(path, out_text, sizeof out_text);
    snprintf(path, sizeof path, "%s/%s.err", NSDAE_BINARY_DIR, tag);
    slurp(path, err_text, sizeof err_text);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs `nsdae COMMAND ARGS` from the source tree (model paths relative to it) and returns its exit
 * status, with its output in out_text and err_text. */
static inline int run_nsdae(const char *command, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/nsdae' %s %s >'%s/%s.out' 2>'%s/%s.err'", NSDAE_SOURCE_DIR,
             NSDAE_BINARY_DIR, command, args, NSDAE_BINARY_DIR, command, NSDAE_BINARY_DIR, command);
    return collect_run(system(cmd), command);
}

/* The number after `"key": ` in text (first occurrence after `after`), NAN when absent: reads a
 * value out of a JSON report without a JSON library. */
static inline double number_after(const char *text, const char *after, const char *key)
{
    const char *p = after ? strstr(text, after) : text;
    char pattern[128];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    p = p ? strstr(p, pattern) : NULL;
    return p ? strtod(p + strlen(pattern), NULL) : NAN;
}

#define HAS(buf, s) cr_expect(strstr(buf, s) != NULL, "missing '%s' in:\n%s", s, buf)

#endif
