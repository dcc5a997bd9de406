/* nsdae examples: the built-in examples with their form, description and parameters (name and
 * default), so that --example and --param can be used without reading an error message first. */
#include "cli/commands.h"
#include "cli/options.h"

#include "examples/builtin.h"
#include "examples/builtin_contact.h"
#include <nsdae/number_text.h>

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: nsdae examples [NAME]\n"
    "\n"
    "Lists the built-in examples (usable as --example NAME in every command), each with its form,\n"
    "a description and its parameters with their defaults (override with --param NAME=VALUE).\n"
    "MLCS examples run with the minnorm, euler and theta schemes; contact examples with Moreau-Jean\n"
    "(chosen by default for them). With NAME, that example only.\n"
    "\n"
    "  -h, --help           this text\n"
    "exit status: 0 done; 2 bad command line or unknown NAME.\n";

#define MAX_LISTED 16

static void print_one(const char *name, const char *form, const char *description, const char **pnames,
                      const double *pvalues, int np)
{
    printf("%s (%s)\n  %s\n  parameters:", name, form, description);
    if (np == 0) printf(" none");
    for (int i = 0; i < np && i < MAX_LISTED; i++) {
        char text[NSDAE_SHORTEST_SIZE];
        nsdae_shortest_text(text, sizeof text, pvalues[i]);
        printf(" %s=%s", pnames[i], text);
    }
    printf("\n");
}

/* Prints the examples named `only` (NULL: all); returns how many were printed. */
static int list(const char *only)
{
    const char *pnames[MAX_LISTED];
    double pvalues[MAX_LISTED];
    int printed = 0;
    for (const char *const *n = nsdae_builtin_names(); *n; n++) {
        if (only && strcmp(only, *n) != 0) continue;
        int np = nsdae_builtin_params(*n, pnames, pvalues, MAX_LISTED);
        print_one(*n, "MLCS", nsdae_builtin_description(*n), pnames, pvalues, np);
        printed++;
    }
    for (const char *const *n = nsdae_builtin_contact_names(); *n; n++) {
        if (only && strcmp(only, *n) != 0) continue;
        int np = nsdae_builtin_contact_params(*n, pnames, pvalues, MAX_LISTED);
        print_one(*n, "contact, Moreau-Jean", nsdae_builtin_contact_description(*n), pnames, pvalues, np);
        printed++;
    }
    return printed;
}

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int nsdae_cmd_examples(int argc, char **argv)
{
    const char *value;
    int code, first;
    cli_options_begin();
    while ((code = cli_options_next("examples", argc, argv, "h", long_options, &value, &first)) != CLI_OPT_END) {
        if (code == 'h') {
            fputs(help, stdout);
            return 0;
        }
        return CLI_USAGE;
    }
    if (first + 1 < argc) {
        fprintf(stderr, "nsdae examples: one example name at most ('%s' and '%s')\n", argv[first], argv[first + 1]);
        return CLI_USAGE;
    }
    const char *only = first < argc ? argv[first] : NULL;
    if (list(only) == 0) {
        fprintf(stderr, "nsdae examples: unknown example '%s' (run 'nsdae examples' for the list)\n", only);
        return CLI_USAGE;
    }
    return 0;
}
