/* The one place where a command gets its model (model_source.h). */
#include "cli/model_source.h"
#include "cli/options.h"

#include "examples/builtin_contact.h"
#include <nsdae/translate_lagrangian.h>

#include <stdio.h>
#include <string.h>

void model_source_init(model_source *src)
{
    memset(src, 0, sizeof *src);
}

/* One NAME=VALUE item of the --param value text. */
static int add_one(cli_params *p, const char *cmd, const char *text, const char *item, size_t len)
{
    const char *eq = memchr(item, '=', len);
    if (!eq || eq == item) return cli_bad_value(cmd, "--param", text, "expected NAME=VALUE[,NAME=VALUE...]");
    size_t nlen = (size_t)(eq - item), vlen = len - nlen - 1;
    char value[128];
    double v;
    if (vlen >= sizeof value) vlen = sizeof value - 1;
    memcpy(value, eq + 1, vlen);
    value[vlen] = '\0';
    if (!cli_parse_double(value, &v)) {
        fprintf(stderr, "nsdae %s: --param '%s': value '%s' is not a finite number\n", cmd, text, value);
        return CLI_USAGE;
    }
    if (p->n >= CLI_MAX_PARAMS) return cli_bad_value(cmd, "--param", text, "too many parameter overrides");
    if (nlen >= sizeof p->names[0]) return cli_bad_value(cmd, "--param", text, "the name is too long");
    memcpy(p->names[p->n], item, nlen);
    p->names[p->n][nlen] = '\0';
    p->v[p->n] = (nsdae_param_value){p->names[p->n], v};
    p->flag_text[p->n] = text;
    p->n++;
    return 0;
}

int cli_params_add(cli_params *p, const char *cmd, const char *text)
{
    /* values are numbers, which have no comma: a comma always separates two overrides */
    for (const char *item = text;; item++) {
        size_t len = strcspn(item, ",");
        int rc = add_one(p, cmd, text, item, len);
        if (rc) return rc;
        item += len;
        if (*item == '\0') return 0;
    }
}

static int known_example(const char *name)
{
    return nsdae_builtin_description(name) || nsdae_builtin_contact_description(name);
}

/* "--example 'x': unknown example (known: a b c)" */
static int unknown_example(const char *cmd, const char *name)
{
    fprintf(stderr, "nsdae %s: --example '%s': unknown example (known:", cmd, name);
    for (const char *const *n = nsdae_builtin_names(); *n; n++) fprintf(stderr, " %s", *n);
    for (const char *const *n = nsdae_builtin_contact_names(); *n; n++) fprintf(stderr, " %s", *n);
    fputs(")\n", stderr);
    return CLI_USAGE;
}

static int load_example(model_source *src, const char *cmd, int unknown_param_status)
{
    if (!known_example(src->example)) return unknown_example(cmd, src->example);
    int contact = nsdae_builtin_contact_description(src->example) != NULL;
    src->form = contact ? (nsdae_form_decision){NSDAE_FORM_CONTACT, "a built-in contact example"}
                        : (nsdae_form_decision){NSDAE_FORM_MLCS, "a built-in MLCS example"};
    /* the overrides are checked against the example's parameters now, as a file's are */
    nsdae_error err = {0};
    nsdae_status st = contact ? nsdae_builtin_contact_create(src->example, src->params.v, src->params.n,
                                                             &src->example_contact, &err)
                              : nsdae_builtin_create(src->example, src->params.v, src->params.n, &src->example_mlcs,
                                                     &err);
    if (st == NSDAE_OK) return 0;
    fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
    return st == NSDAE_INVALID_INPUT ? unknown_param_status : 1;
}

int model_source_load(model_source *src, const char *cmd, int unknown_param_status)
{
    if (src->example && src->path) {
        fprintf(stderr, "nsdae %s: give either MODEL or --example, not both\n", cmd);
        return CLI_USAGE;
    }
    if (!src->example && !src->path) {
        fprintf(stderr, "nsdae %s: no model file given: give MODEL or --example NAME (see 'nsdae %s --help')\n",
                cmd, cmd);
        return CLI_USAGE;
    }
    src->label = src->path ? src->path : src->example;
    if (src->example) return load_example(src, cmd, unknown_param_status);
    nsdae_error err = {0};
    if (nsdae_model_parse_file(src->path, &src->model, &err) != NSDAE_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    for (int k = 0; k < src->params.n; k++)
        if (nsdae_model_set_param(src->model, src->params.v[k].name, src->params.v[k].value, &err) != NSDAE_OK) {
            fprintf(stderr, "nsdae %s: --param '%s': %s\n", cmd, src->params.flag_text[k], err.message);
            return unknown_param_status;
        }
    src->form = nsdae_translate_form(src->model);
    return 0;
}

int model_source_mlcs(model_source *src, const char *cmd, nsdae_mlcs **out, nsdae_translate_info **info)
{
    nsdae_error err = {0};
    if (info) *info = NULL;
    if (src->example) {
        if (src->form.form == NSDAE_FORM_CONTACT) {
            fprintf(stderr, "nsdae %s: --example %s is a contact model: use --scheme moreau\n", cmd, src->example);
            return 1;
        }
        *out = src->example_mlcs;
        src->example_mlcs = NULL;
        return 0;
    }
    if (nsdae_translate_mlcs(src->model, out, info, &err) == NSDAE_OK) {
        /* the system carries the experiment's stop and step as its defaults */
        const nsdae_experiment *x = nsdae_model_experiment(src->model);
        if ((*out)->stop_time <= 0 && x->stop > 0) (*out)->stop_time = x->stop;
        if ((*out)->step <= 0 && x->step > 0) (*out)->step = x->step;
        /* check, simulate, converge and crosscheck read the compressed form (the time stepper and
         * the event-driven engine make the dense matrices themselves when a dense path is needed);
         * every other command runs a dense consumer (impulse analysis) */
        const char *compressed[] = {"check", "simulate", "converge", "crosscheck"};
        int keep = 0;
        for (size_t k = 0; k < sizeof compressed / sizeof *compressed; k++) keep |= strcmp(cmd, compressed[k]) == 0;
        if (keep || nsdae_mlcs_dense(*out, &err) == NSDAE_OK)
            return 0;
        nsdae_mlcs_destroy(*out);
        *out = NULL;
        if (info) {
            nsdae_translate_info_free(*info);
            *info = NULL;
        }
    }
    fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
    return 1;
}

int model_source_contact(model_source *src, const char *cmd, nsdae_lagrangian **out)
{
    nsdae_error err = {0};
    if (src->example) {
        if (src->form.form != NSDAE_FORM_CONTACT) {
            fprintf(stderr, "nsdae %s: --example %s is not a contact model: --scheme moreau needs one of "
                            "bouncing-ball, beads, cup-and-ball\n", cmd, src->example);
            return 1;
        }
        *out = src->example_contact;
        src->example_contact = NULL;
        return 0;
    }
    if (nsdae_translate_lagrangian(src->model, out, &err) == NSDAE_OK) {
        return 0; /* the system carries the experiment's stop and step as its defaults */
    }
    fprintf(stderr, "nsdae %s: %s\n", cmd, err.message);
    return 1;
}

void model_source_free(model_source *src)
{
    nsdae_model_destroy(src->model);
    nsdae_mlcs_destroy(src->example_mlcs);
    nsdae_lagrangian_destroy(src->example_contact);
    src->model = NULL;
    src->example_mlcs = NULL;
    src->example_contact = NULL;
}
