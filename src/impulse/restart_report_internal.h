/* The restart report (nsdae/restart_report.h) across its files: restart_changes.c finds the mode
 * changes (every one, or the one at the left limits) and builds each change's analysis input;
 * restart_report.c analyses and writes them. Internal to the impulse stage. */
#ifndef NSDAE_IMPULSE_RESTART_REPORT_INTERNAL_H
#define NSDAE_IMPULSE_RESTART_REPORT_INTERNAL_H

#include <nsdae/impulse.h>
#include <nsdae/mode.h>
#include <nsdae/restart_report.h>

#include "impulse/report_text.h"

/* Returned by the change walkers when memory ran out (the only reason they stop early). */
#define RR_NOMEM 2

typedef struct rr_ctx {
    const nsdae_model *m;
    nsdae_switches *sw;
    const char *from, *to;  /* the request's codes, or NULL */
    const double *left;     /* (NSDAE_RESTART_MAX_ORDER + 1) x nvars, or NULL: no numeric restart */
    double time;
    int height;             /* < 0: search */
    int json;
    int printed;            /* transitions written so far */
    int restart_failed;     /* some numeric restart failed */
    rt_text out;
} rr_ctx;

/* A contact closing between from and to with a nonzero restitution (the elastic cascade), or -1. */
int rr_elastic_closing(rr_ctx *c, const int *from, const int *to);
/* The `when` that fires at from -> to, or -1; whether `when` w fires there; whether it fires with a
 * long change from `from` (then it is no lone `when`). */
int rr_firing_when(rr_ctx *c, const int *from, const int *to);
int rr_when_fires(rr_ctx *c, nsdae_expr_pool *pool, const int *from, const int *to, int w);
int rr_fired_by_change(rr_ctx *c, nsdae_expr_pool *pool, const int *from, int w);
/* The analysis input of from -> to: straight, the elastic cascade (elastic >= 0) or through the
 * `when` (when >= 0, via its transient mode). */
nsdae_status rr_change_input(rr_ctx *c, const int *from, const int *to, int elastic, const int *via, int when,
                             nsdae_expr_pool *pool, nsdae_impulse_input *in, nsdae_impulse_modes **store,
                             nsdae_error *err);
/* Whether the long mode `choice` is a sliding (relaxed) mode: no restart mode. */
int rr_sliding(const nsdae_switches *s, const int *choice);
typedef int (*rr_change_fn)(rr_ctx *c, const int *from, const int *to, void *data);
/* Calls fn for every change between two non-sliding long modes that differ in one active long
 * switch; stops at the first nonzero return (returned). */
int rr_for_each_change(rr_ctx *c, rr_change_fn fn, void *data);
/* The change of a numeric restart: the request's codes, or the one crossing at the left limits.
 * NSDAE_INVALID_INPUT for bad codes, NSDAE_NO_SOLUTION when no change or several are found. */
nsdae_status rr_pick_change(rr_ctx *c, int *from, int *to, nsdae_error *err);

#endif
