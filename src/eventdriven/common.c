/* Small pieces every event-driven problem uses: option defaults, names in words, a dense solve,
 * the set of modes visited. */
#include "eventdriven/ed_internal.h"

#include <ida/ida.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void nsdae_events_defaults(nsdae_events_options *o)
{
    memset(o, 0, sizeof *o);
    o->stop = 1.0;
    o->nsteps = 100;
    o->rtol = NSDAE_EVENTS_RTOL;
    o->atol = NSDAE_EVENTS_ATOL;
    o->max_events = NSDAE_EVENTS_MAX_EVENTS;
}

nsdae_events_options ed_options_resolved(const nsdae_events_options *o)
{
    nsdae_events_options r = *o;
    if (!(r.rtol > 0)) r.rtol = NSDAE_EVENTS_RTOL;
    if (!(r.atol > 0)) r.atol = NSDAE_EVENTS_ATOL;
    if (r.max_events <= 0) r.max_events = NSDAE_EVENTS_MAX_EVENTS;
    if (!(r.probe > 0)) r.probe = NSDAE_EVENTS_PROBE * (r.stop - r.t0);
    return r;
}

const char *nsdae_event_kind_name(nsdae_event_kind kind)
{
    switch (kind) {
    case NSDAE_EVENT_SWITCH: return "switch";
    case NSDAE_EVENT_TIME: return "time";
    case NSDAE_EVENT_IMPACT: return "impact";
    case NSDAE_EVENT_RELEASE: return "release";
    case NSDAE_EVENT_ACCUMULATION: return "accumulation";
    }
    return "unknown";
}

const char *ed_ida_flag_words(int flag)
{
    switch (flag) {
    case IDA_TOO_MUCH_WORK: return "too much work (the step limit was reached before the output time)";
    case IDA_TOO_MUCH_ACC: return "too much accuracy requested (the tolerances are below what the arithmetic allows)";
    case IDA_ERR_FAIL: return "error test failed repeatedly (or at the minimum step)";
    case IDA_CONV_FAIL: return "the corrector did not converge repeatedly (or at the minimum step)";
    case IDA_LINIT_FAIL: return "the linear solver failed to initialise";
    case IDA_LSETUP_FAIL: return "the linear solver set-up failed (singular iteration matrix)";
    case IDA_LSOLVE_FAIL: return "the linear solve failed";
    case IDA_RES_FAIL: return "the residual failed unrecoverably";
    case IDA_REP_RES_ERR: return "the residual failed repeatedly";
    case IDA_RTFUNC_FAIL: return "a root function failed";
    case IDA_CONSTR_FAIL: return "the inequality constraints could not be met";
    case IDA_FIRST_RES_FAIL: return "the residual failed at the first call";
    case IDA_NO_RECOVERY: return "no recovery from a recoverable residual failure";
    case IDA_NLS_FAIL: return "the nonlinear solver failed";
    case IDA_MEM_FAIL: return "out of memory";
    case IDA_ILL_INPUT: return "illegal input";
    case IDA_BAD_T: return "interpolation time outside the last step";
    default: return "unrecognised IDA flag";
    }
}

int ed_dense_solve(int n, double *A, double *b, int nrhs)
{
    int *piv = malloc((size_t)n * sizeof *piv);
    if (!piv) return -1;
    lapack_int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, A, n, piv, b, n);
    free(piv);
    if (info != 0) return 1;
    for (int i = 0; i < n * nrhs; i++)
        if (!isfinite(b[i])) return 1;
    return 0;
}

int ed_mode_set_add(ed_mode_set *set, const char *label)
{
    for (long i = 0; i < set->n; i++)
        if (strcmp(set->labels[i], label) == 0) return 0;
    if (set->n == set->cap) {
        long cap = set->cap ? 2 * set->cap : 16;
        char **l = realloc(set->labels, (size_t)cap * sizeof *l);
        if (!l) return 0;
        set->labels = l;
        set->cap = cap;
    }
    size_t len = strlen(label) + 1;
    char *c = malloc(len);
    if (!c) return 0;
    memcpy(c, label, len);
    set->labels[set->n++] = c;
    return 1;
}

void ed_mode_set_free(ed_mode_set *set)
{
    for (long i = 0; i < set->n; i++) free(set->labels[i]);
    free(set->labels);
    memset(set, 0, sizeof *set);
}
