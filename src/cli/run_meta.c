/* The run's facts (run_meta.h). */
#include "cli/run_meta.h"
#include "cli/build_info.h"
#include "cli/sha256.h"

#include "examples/builtin_contact.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static meta_entry *add(run_meta *m, const char *key)
{
    if (m->n == RUN_META_MAX) { /* sized for every fact and ~100 parameters; the rest are counted */
        m->dropped++;
        return NULL;
    }
    meta_entry *e = &m->e[m->n++];
    snprintf(e->key, sizeof e->key, "%s", key);
    return e;
}

void meta_text(run_meta *m, const char *key, const char *text)
{
    meta_entry *e = add(m, key);
    if (!e) return;
    e->is_text = 1;
    snprintf(e->text, sizeof e->text, "%s", text ? text : "");
}

void meta_number(run_meta *m, const char *key, double v)
{
    meta_entry *e = add(m, key);
    if (!e) return;
    e->is_text = 0;
    e->number = v;
}

/* The parameters after the overrides: a file's from the model, an example's defaults with the
 * --param values applied in order. */
static void parameters(run_meta *m, const run_options *ro)
{
    char key[128];
    if (ro->src.model) {
        for (int i = 0; i < nsdae_model_nparams(ro->src.model); i++) {
            const nsdae_param *p = nsdae_model_param(ro->src.model, i);
            snprintf(key, sizeof key, "parameters.%s", p->name);
            meta_number(m, key, p->value);
        }
        return;
    }
    const char *names[32];
    double values[32];
    int n = nsdae_builtin_params(ro->src.example, names, values, 32);
    if (n == 0) n = nsdae_builtin_contact_params(ro->src.example, names, values, 32);
    for (int k = 0; k < ro->src.params.n; k++)
        for (int i = 0; i < n && i < 32; i++)
            if (strcmp(names[i], ro->src.params.v[k].name) == 0) values[i] = ro->src.params.v[k].value;
    for (int i = 0; i < n && i < 32; i++) {
        snprintf(key, sizeof key, "parameters.%s", names[i]);
        meta_number(m, key, values[i]);
    }
}

void run_meta_begin(run_meta *m, const char *command, const run_options *ro, int writes_hdf5)
{
    m->n = 0;
    m->dropped = 0;
    meta_text(m, "nsdae.version", build_info_version());
    meta_text(m, "nsdae.commit", build_info_commit());
    meta_text(m, "nsdae.command", command);
    dependency_version deps[BUILD_INFO_NDEPS];
    build_info_dependencies(deps, writes_hdf5 ? BUILD_INFO_HDF5_LOAD : BUILD_INFO_HDF5_IF_LOADED);
    for (int i = 0; i < BUILD_INFO_NDEPS; i++) {
        char key[96];
        snprintf(key, sizeof key, "dependencies.%s", deps[i].name);
        meta_text(m, key, deps[i].version);
    }
    if (ro->src.path) {
        char hex[65];
        meta_text(m, "model.path", ro->src.path);
        meta_text(m, "model.sha256", sha256_file(ro->src.path, hex) ? hex : strerror(errno));
    } else meta_text(m, "model.example", ro->src.example);
    if (ro->src.model) meta_text(m, "model.name", nsdae_model_name(ro->src.model));
    parameters(m, ro);
}
