/* nsdae simulate's mode watch: MLCS records -> the model's variables -> nsdae_impulse_watch_step,
 * and the warning it asks for (mode_watch.h). */
#include "cli/mode_watch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model variable of an MLCS unknown's name "der(x)" (a velocity unknown), or -1. */
static int velocity_var(const nsdae_model *m, const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 6 || strncmp(name, "der(", 4) || name[n - 1] != ')' || n - 5 >= 256) return -1;
    char buf[256];
    memcpy(buf, name + 4, n - 5);
    buf[n - 5] = '\0';
    return nsdae_model_find_var(m, buf);
}

void mode_watch_open(mode_watch *mw, const nsdae_model *m, const nsdae_mlcs *s, const nsdae_translate_info *info,
                     const char *label)
{
    memset(mw, 0, sizeof *mw);
    if (!m || !info) return;
    nsdae_error err = {0};
    if (nsdae_impulse_watch_create(m, &mw->w, &err) != NSDAE_OK) {
        fprintf(stderr, "nsdae simulate: note: the mode changes are not checked against the restart analysis: %s\n",
                err.message);
        return;
    }
    mw->nv = nsdae_model_nvars(m), mw->ny = s->ny, mw->nl = s->nl, mw->label = label;
    mw->y_slot = malloc(((size_t)s->ny + 1) * sizeof *mw->y_slot);
    mw->l_slot = malloc(((size_t)s->nl + 1) * sizeof *mw->l_slot);
    mw->x = malloc((2 * (size_t)mw->nv + 1) * sizeof *mw->x);
    if (!mw->y_slot || !mw->l_slot || !mw->x) {
        fputs("nsdae simulate: note: out of memory: the mode changes are not checked against the restart analysis\n",
              stderr);
        mode_watch_close(mw);
        return;
    }
    for (int i = 0; i < s->ny; i++) {
        int v = info->y_var[i] >= 0 ? info->y_var[i] : velocity_var(m, s->y_names ? s->y_names[i] : NULL);
        mw->y_slot[i] = v < 0 ? -1 : info->y_var[i] >= 0 ? v : mw->nv + v;
    }
    for (int k = 0; k < s->nl; k++) mw->l_slot[k] = info->l_var[k];
}

void mode_watch_step(mode_watch *mw, const nsdae_step_record *rec)
{
    if (!mw->w || rec->k == 0) return; /* the initial row's multipliers are not a step's */
    for (int i = 0; i < 2 * mw->nv; i++) mw->x[i] = NAN;
    for (int i = 0; i < mw->ny; i++)
        if (mw->y_slot[i] >= 0) mw->x[mw->y_slot[i]] = rec->y[i];
    for (int k = 0; k < mw->nl; k++)
        if (mw->l_slot[k] >= 0) mw->x[mw->l_slot[k]] = rec->lambda[k];
    nsdae_impulse_crossing c;
    if (!nsdae_impulse_watch_step(mw->w, rec->t, mw->x, 1, &c)) return;
    if (c.analysis_failed)
        fprintf(stderr, "nsdae simulate: note: t = %.10g: the mode change %s -> %s could not be analysed (%s); said "
                        "once: other changes that cannot be analysed are not reported\n",
                c.t, c.from, c.to, c.message);
    else
        fprintf(stderr, "nsdae simulate: warning: t = %.10g: the minimal-norm scheme crosses the mode change %s -> %s, "
                        "which the restart analysis calls %s (%s): its pick there is a regularisation, not physics "
                        "(nsdae restart %s --from %s --to %s --at ...)\n",
                c.t, c.from, c.to, nsdae_impulse_verdict_name(c.verdict), c.message, mw->label, c.from, c.to);
}

void mode_watch_close(mode_watch *mw)
{
    nsdae_impulse_watch_destroy(mw->w);
    free(mw->y_slot);
    free(mw->l_slot);
    free(mw->x);
    memset(mw, 0, sizeof *mw);
}
