/* Loading a built-in example as its twin model file (example_twin.h). */
#include "cli/example_twin.h"

#include <stdio.h>
#include <string.h>

/* Which file states which built-in, and the built-in parameter names the file spells differently
 * (the file's names are kept: its own tests and users pass them). */
typedef struct twin {
    const char *example;
    const char *path;
    const char *builtin_param, *file_param;   /* one renamed parameter, or NULL */
} twin;

static const twin twins[] = {
    {"rocca-crossing", "examples/rocca_crossing.nsm", NULL, NULL},
    {"rocca-repulsive", "examples/rocca_repulsive.nsm", NULL, NULL},
    {"relay-decay", "examples/relay_decay.nsm", NULL, NULL},
    {"bouncing-ball", "examples/bouncing_ball.nsm", NULL, NULL},
    {"beads", "examples/bead_column.nsm", "n", "N"},
    {"cup-and-ball", "examples/cup_and_ball.nsm", NULL, NULL},
};

static const example_twin_text *find_text(const char *path)
{
    for (const example_twin_text *t = example_twin_texts; t->path; t++)
        if (strcmp(t->path, path) == 0) return t;
    return NULL;
}

int model_source_load_equations(model_source *src, const char *cmd, int unknown_param_status)
{
    /* the built-in first: it checks the name and the overrides against the built-in's parameters */
    int rc = model_source_load(src, cmd, unknown_param_status);
    if (rc || !src->example) return rc;
    const twin *w = NULL;
    for (size_t i = 0; i < sizeof twins / sizeof twins[0] && !w; i++)
        if (strcmp(twins[i].example, src->example) == 0) w = &twins[i];
    const example_twin_text *t = w ? find_text(w->path) : NULL;
    if (!t) {
        fprintf(stderr, "nsdae %s: --example %s has no model file with its equations: analyze a model file\n", cmd,
                src->example);
        return 1;
    }
    fprintf(stderr, "nsdae %s: analyzing the built-in's twin model file %s", cmd, t->path);
    if (w->builtin_param) fprintf(stderr, " (the built-in's parameter %s is the file's %s)", w->builtin_param, w->file_param);
    fputc('\n', stderr);
    nsdae_error err = {0};
    if (nsdae_model_parse_string((const char *)t->text, t->length, t->path, &src->model, &err) != NSDAE_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    for (int k = 0; k < src->params.n; k++) {
        const char *name = src->params.v[k].name;
        if (w->builtin_param && strcmp(name, w->builtin_param) == 0) name = w->file_param;
        if (nsdae_model_set_param(src->model, name, src->params.v[k].value, &err) != NSDAE_OK) {
            fprintf(stderr, "nsdae %s: --param '%s': %s\n", cmd, src->params.flag_text[k], err.message);
            return unknown_param_status;
        }
    }
    src->form = nsdae_translate_form(src->model);
    return 0;
}
