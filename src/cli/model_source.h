/* Where every command gets its model from: a model file (parsed once) or a built-in example
 * (--example NAME), with the --param overrides applied, and which form it takes (MLCS or
 * Lagrangian contact), as decided by the library (nsdae_translate_form). */
#ifndef NSDAE_CLI_MODEL_SOURCE_H
#define NSDAE_CLI_MODEL_SOURCE_H

#include "examples/builtin.h"
#include <nsdae/lagrangian.h>
#include <nsdae/mlcs.h>
#include <nsdae/model.h>
#include <nsdae/translate.h>
#include <nsdae/translate_form.h>

#define CLI_MAX_PARAMS 256

/* The --param overrides, in command-line order (a later one wins). */
typedef struct cli_params {
    nsdae_param_value v[CLI_MAX_PARAMS];
    const char *flag_text[CLI_MAX_PARAMS];   /* the --param value each came from, for messages */
    char names[CLI_MAX_PARAMS][128];         /* storage for v[].name */
    int n;
} cli_params;

/* Parses one --param value, NAME=VALUE[,NAME=VALUE...]. Prints the error naming the flag and the
 * value and returns CLI_USAGE, else 0. */
int cli_params_add(cli_params *p, const char *cmd, const char *text);

typedef struct model_source {
    /* what the command line asked for */
    const char *path;           /* MODEL operand, or NULL */
    const char *example;        /* --example NAME, or NULL */
    cli_params params;
    /* what model_source_load found */
    nsdae_model *model;         /* a parsed model file, overrides applied; NULL for an example */
    nsdae_mlcs *example_mlcs;   /* the built example, until model_source_mlcs hands it out */
    nsdae_lagrangian *example_contact;
    nsdae_form_decision form;   /* the form the model takes */
    const char *label;          /* the path or the example name, for messages and headings */
} model_source;

void model_source_init(model_source *src);

/* Loads the model once: checks that exactly one of MODEL and --example is given, parses the file
 * and applies the overrides (or checks the example's name and overrides), and decides the form.
 * Returns 0, or the exit status after printing the error: CLI_USAGE for a bad command line
 * (no model, both, an unknown example), 1 for a model that does not parse, and
 * unknown_param_status for an override of a parameter the model does not have. */
int model_source_load(model_source *src, const char *cmd, int unknown_param_status);

/* The MLCS of the model (experiment stop and step carried as its defaults); info may be NULL.
 * For an example, the built-in system (handed over once) and no info. The caller owns *out.
 * Returns 0, or 1 after printing the error. */
int model_source_mlcs(model_source *src, const char *cmd, nsdae_mlcs **out, nsdae_translate_info **info);

/* The Lagrangian contact form of the model or contact example. Returns 0 or 1 after printing. */
int model_source_contact(model_source *src, const char *cmd, nsdae_lagrangian **out);

void model_source_free(model_source *src);

#endif
