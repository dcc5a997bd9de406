/* nsdae simulate: the minimal-norm scheme's steps held against the restart analysis (issue 10): a
 * warning on stderr, once per kind of mode change, when a step crosses a change the analysis calls
 * partial or underdetermined (the scheme's pick there is a regularisation, not physics). The library
 * reads the modes and analyses (nsdae_impulse_watch); this file feeds it the MLCS records and prints.
 * Internal to the CLI. */
#ifndef NSDAE_CLI_MODE_WATCH_H
#define NSDAE_CLI_MODE_WATCH_H

#include <nsdae/impulse.h>
#include <nsdae/mlcs.h>
#include <nsdae/stepper.h>
#include <nsdae/translate.h>

typedef struct mode_watch {
    nsdae_impulse_watch *w;
    int nv;
    int *y_slot, *l_slot;   /* per MLCS unknown / multiplier: its slot order * nv + var, or -1 */
    int ny, nl;
    double *x;              /* 2 nv: values, then first derivatives (NAN where not known) */
    const char *label;      /* the model's path, for the advice */
} mode_watch;

/* Sets up the watch of model m (NULL: an example system, no watch) for the MLCS s translated from it
 * (info: nsdae_translate_mlcs's). A model without switches gets no watch (nothing per step). If the
 * watch cannot be set up, says so once on stderr and runs without it. */
void mode_watch_open(mode_watch *mw, const nsdae_model *m, const nsdae_mlcs *s, const nsdae_translate_info *info,
                     const char *label);
/* One step record; prints a warning when the library reports a crossing. */
void mode_watch_step(mode_watch *mw, const nsdae_step_record *rec);
void mode_watch_close(mode_watch *mw);

#endif
