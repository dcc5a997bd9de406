/* The built-in examples' twin model files: each built-in (a system of matrices or callbacks, see
 * examples/builtin.h) has a model file in examples/ that states the same system as equations, for
 * the commands that need equations (analyze, restart). The files' texts are compiled into nsdae
 * (src/CMakeLists.txt generates example_twin_texts.c), so the installed command needs no source tree. */
#ifndef NSDAE_CLI_EXAMPLE_TWIN_H
#define NSDAE_CLI_EXAMPLE_TWIN_H

#include "cli/model_source.h"

#include <stddef.h>

typedef struct example_twin_text {
    const char *path;            /* "examples/NAME.nsm", as in the source tree */
    const unsigned char *text;   /* the file's bytes, NUL-terminated */
    size_t length;
} example_twin_text;

/* Every twin, ended by a NULL path (generated). */
extern const example_twin_text example_twin_texts[];

/* As model_source_load, but an --example is loaded as its twin model file: src->model is the parsed
 * twin with the --param overrides applied (checked first against the built-in's parameters, so that
 * --param means what it means for simulate), and one line on stderr names the file. Returns 0 or the
 * exit status after printing, as model_source_load. */
int model_source_load_equations(model_source *src, const char *cmd, int unknown_param_status);

#endif
