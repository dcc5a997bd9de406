/* Fuzz target: the restart analysis (impulse.h). Bytes are a .nsm text; when it parses and has
 * switches, the changes from the first long mode to each of the next few are built
 * (nsdae_impulse_guard, nsdae_impulse_input_from_modes), analysed, and restarted numerically from
 * left limits that are all 0.5 (and all 0, all 1e300, all NaN: overflow and NaN must end in a clear
 * error, never in LAPACK, whose error reports lapack_trap.c turns into findings). Findings besides
 * sanitizer reports: a failure without a message, a result whose verdict is OK with no restart system,
 * a restart that succeeds with a non-finite determined state or residual. */
#include "fuzz_check.h"

#include <nsdae/impulse.h>
#include <nsdae/mode.h>
#include <nsdae/model.h>

#include <math.h>
#include <stdlib.h>

#define MAX_TEXT 4096
#define MAX_CHANGES 3
#define MAX_ORDER 3
#define MAX_SWITCHES 32

static void restart_at(const nsdae_impulse_result *r, int nvars, double left_value)
{
    size_t nleft = (size_t)(MAX_ORDER + 1) * (size_t)nvars + 1;
    double *left = malloc(nleft * sizeof *left), *plus = malloc(((size_t)r->nstates + 1) * sizeof *plus),
           *aux = malloc(((size_t)r->navars + 1) * sizeof *aux);
    if (left && plus && aux) {
        for (size_t i = 0; i < nleft; i++) left[i] = left_value;
        nsdae_impulse_numeric num;
        nsdae_error err = {0};
        nsdae_status st = nsdae_impulse_restart(r, left, MAX_ORDER, plus, aux, &num, &err);
        FUZZ_CHECK_STATUS(st, err);
        if (st == NSDAE_OK) {
            FUZZ_CHECK(isfinite(num.residual));
            for (int k = 0; k < r->nstates; k++)
                if (r->states[k].determined) FUZZ_CHECK(isfinite(plus[k]));
        }
    }
    free(left);
    free(plus);
    free(aux);
}

static void one_change(const nsdae_model *m, const nsdae_switches *sw, const int *from, const int *to)
{
    nsdae_expr_pool *pool = NULL;
    nsdae_error err = {0};
    nsdae_impulse_input in;
    nsdae_impulse_modes *store = NULL;
    nsdae_impulse_result *r = NULL;
    const nsdae_expr *guard = NULL;
    nsdae_status st = nsdae_expr_pool_create_over(nsdae_model_pool(m), &pool, &err);
    if (!st) {
        st = nsdae_impulse_guard(m, sw, pool, from, to, &guard, &err);
        FUZZ_CHECK_STATUS(st, err);
        if (st) guard = NULL; /* a change of two guarded switches: analysed without facts */
        st = nsdae_impulse_input_from_modes(m, sw, pool, from, NULL, to, guard, &in, &store, &err);
        FUZZ_CHECK_STATUS(st, err);
    }
    if (!st) {
        nsdae_impulse_options opt = {-1};
        st = nsdae_impulse_analyze(&in, &opt, &r, &err);
        FUZZ_CHECK_STATUS(st, err);
    }
    if (!st) {
        if (r->verdict == NSDAE_IMPULSE_OK) FUZZ_CHECK(r->system != NULL);
        if (r->system) {
            restart_at(r, nsdae_model_nvars(m), 0.5);
            restart_at(r, nsdae_model_nvars(m), 0.0);
            restart_at(r, nsdae_model_nvars(m), 1e300);
            restart_at(r, nsdae_model_nvars(m), NAN);
        }
    }
    nsdae_impulse_result_destroy(r);
    nsdae_impulse_modes_destroy(store);
    nsdae_expr_pool_destroy(pool);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_TEXT) return 0;
    nsdae_model *m = NULL;
    nsdae_switches *sw = NULL;
    nsdae_error err = {0};
    if (nsdae_model_parse_string((const char *)data, size, "fuzz.nsm", &m, &err) != NSDAE_OK) return 0;
    if (nsdae_mode_switches(m, &sw, &err) == NSDAE_OK && sw->n > 0 && sw->n <= MAX_SWITCHES) {
        int from[MAX_SWITCHES], to[MAX_SWITCHES];
        nsdae_mode_first(sw, from);
        nsdae_mode_first(sw, to);
        for (int k = 0; k < MAX_CHANGES && nsdae_mode_next(sw, to); k++) {
            one_change(m, sw, from, to);
            one_change(m, sw, to, from);
        }
    }
    nsdae_mode_switches_destroy(sw);
    nsdae_model_destroy(m);
    return 0;
}
