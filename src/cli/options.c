/* getopt_long with the messages of every nsdae command (options.h). */
#include "cli/options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_options_begin(void)
{
    /* 0, not 1: glibc then also forgets the state of a previous parse */
    optind = 0;
    opterr = 0;
}

/* The name of the option with code val, for messages ("--steps" or "-v"). */
static void option_name(char *buf, size_t size, int val, const struct option *longopts)
{
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == val && !o->flag) {
            snprintf(buf, size, "--%s", o->name);
            return;
        }
    snprintf(buf, size, "-%c", val);
}

int cli_options_next(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
                     const char **value, int *first)
{
    char spec[64];
    /* the leading ':' makes a missing value ':' instead of '?' */
    snprintf(spec, sizeof spec, ":%s", shortopts);
    int c = getopt_long(argc, argv, spec, longopts, NULL);
    *value = optarg;
    *first = optind;
    if (c != '?' && c != ':') return c;
    char name[128];
    const char *seen = argv[optind - 1];
    if (c == ':') {
        option_name(name, sizeof name, optopt, longopts);
        fprintf(stderr, "nsdae %s: %s needs a value\n", cmd, name);
    } else if (optopt >= CLI_OPT_BASE || (optopt && strncmp(seen, "--", 2) == 0)) {
        /* a known long option without a value given one ("--json=1") */
        option_name(name, sizeof name, optopt, longopts);
        fprintf(stderr, "nsdae %s: %s takes no value ('%s')\n", cmd, name, seen);
    } else {
        size_t len = strcspn(seen, "=");
        if (optopt && strncmp(seen, "--", 2) != 0) snprintf(name, sizeof name, "-%c", optopt);
        else snprintf(name, sizeof name, "%.*s", (int)(len < 100 ? len : 100), seen);
        fprintf(stderr, "nsdae %s: unknown option '%s' (see 'nsdae %s --help')\n", cmd, name, cmd);
    }
    return CLI_OPT_BAD;
}

int cli_parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

int cli_parse_long(const char *text, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE) return 0;
    *out = v;
    return 1;
}

int cli_bad_value(const char *cmd, const char *flag, const char *value, const char *why)
{
    fprintf(stderr, "nsdae %s: %s '%s': %s\n", cmd, flag, value, why);
    return CLI_USAGE;
}
