/* Command-line parsing shared by every command: getopt_long with one set of messages, so that
 * `--steps=100` and `--steps 100` are the same, `--` ends the options, operands may come before or
 * after options, and every bad command line is reported the same way (exit status 2). */
#ifndef NSDAE_CLI_OPTIONS_H
#define NSDAE_CLI_OPTIONS_H

#include <getopt.h>

/* Exit status of a bad command line, for every command. */
#define CLI_USAGE 2

/* Long-only options use codes from here up (short options are their character). */
#define CLI_OPT_BASE 256

/* End of the options: the operands are argv[*first .. argc-1]. */
#define CLI_OPT_END (-1)
/* A bad option; the message naming it has been printed. */
#define CLI_OPT_BAD (-2)

/* Starts a fresh parse of argv (argv[0] is the command name, e.g. "simulate"). */
void cli_options_begin(void);

/* The next option: its code (val of its struct option, or its short letter) with *value its
 * argument or NULL; CLI_OPT_END with *first the index of the first operand; CLI_OPT_BAD after
 * printing "nsdae CMD: unknown option '--x' ...", "nsdae CMD: --x needs a value" or
 * "nsdae CMD: --x takes no value". shortopts lists the short options (e.g. "hv"). */
int cli_options_next(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts,
                     const char **value, int *first);

/* Strict number parsing for flags: the whole text must be a finite number / a whole number. */
int cli_parse_double(const char *text, double *out);
int cli_parse_long(const char *text, long *out);

/* Prints "nsdae CMD: FLAG 'VALUE': WHY" and returns CLI_USAGE. */
int cli_bad_value(const char *cmd, const char *flag, const char *value, const char *why);

#endif
