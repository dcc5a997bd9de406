/* nsdae mode concept: the switches of a model, mode codes, and the equations of one mode.
 *
 * A mode is a valuation of the guards (Benveniste et al. 2026, section 3.1). Every stage that reasons about modes
 * (structural analysis, translation to an MLCS, impulse analysis, the event-driven engine) takes
 * them from here, so that "switch 2" and the code "0.1.0" mean the same thing everywhere.
 *
 * A switch is a source of mode choices, in one list per model:
 *   IF_TIME   an `if` whose conditions read time and parameters only (exogenous: the mode is
 *             known at each time); choice k < nbranches takes branch k (0 = then, 1.. = elseif/else).
 *   IF_STATE  an `if` on some unknown (a state switch): choices as IF_TIME; a state switch with one
 *             comparison h > 0 (or >=, <, <=), two branches of plain equations and no nested
 *             block has one more choice: the relaxed sliding mode (examples/LANGUAGE.md; Rocca et al., section 1), where
 *             h = 0 holds and each pair of branch equations g1, g2 becomes g2 + s (g1 - g2) = 0
 *             with a new unknown s in [0, 1] (nsdae_mode_relax).
 *   COMPL     `0 <= a _|_ b >= 0`: choice 0 is a = 0 (the gap closed, b free), 1 is b = 0 (the
 *             multiplier zero, a free).
 *   SIGN      `v in [lo, hi] * sign(e)`: choice 0 is e = 0 (sliding, v free), 1 is v = hi, 2 is v = lo.
 *   WHEN      a `when` block (a transient mode, Benveniste et al. 2026, section 9): choice 0 is the long mode (its
 *             then equations do not hold; its else equations, if any, do), 1 the instant it fires
 *             (its then equations hold, its else equations do not). Its condition and its then
 *             equations may read left limits, pre(EXPR) (NSDAE_EXPR_PRE nodes).
 *
 * Long and transient switches. A `when` and every switch inside its then branch are transient:
 * they hold for zero duration at events and are no part of a long mode. Switches in a `when`'s
 * else branch are long (their parent is the `when`, branch 1, taken when it does not fire). The list puts the `ncode` long switches
 * first (in source order), then the transient ones (in source order). A choice array has one entry
 * per switch of the list (n entries); a mode code names the long switches only, so the code of
 * `nsdae analyze --mode` is "k1.k2....k_ncode" ("-" when ncode is 0) and a long mode has every
 * transient choice at 0.
 *
 * A switch nested in a branch matters only when that branch is chosen (its parent switch); in a
 * canonical choice array it is then 0. Cost: every function here is linear in the model size (times
 * the nesting depth), except nsdae_mode_equations which pairs the branches of each sliding switch
 * (quadratic in the size of that block). Nothing here keeps state: all functions are reentrant.
 */
#ifndef NSDAE_MODE_H
#define NSDAE_MODE_H

#include <stddef.h>

#include <nsdae/model.h>
#include <nsdae/status.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nsdae_switch_kind {
    NSDAE_SWITCH_IF_TIME = 0,
    NSDAE_SWITCH_IF_STATE,
    NSDAE_SWITCH_COMPL,
    NSDAE_SWITCH_SIGN,
    NSDAE_SWITCH_WHEN
} nsdae_switch_kind;

typedef struct nsdae_switch {
    nsdae_switch_kind kind;
    int block;                  /* IF_TIME, IF_STATE, WHEN: the model block; else -1 */
    int equation;               /* COMPL, SIGN: the model equation; else -1 */
    int nchoices;
    int sliding;                /* IF_STATE: 1 when the last choice is the relaxed sliding mode */
    int parent, parent_branch;  /* the switch (index in the list) and branch it lives in, or -1, -1 */
    int transient;              /* 1: a `when` or inside one (not part of a mode code) */
    nsdae_srcpos pos;           /* of the `if`/`when` keyword or of the relation */
} nsdae_switch;

typedef struct nsdae_switches {
    int n;                      /* every switch */
    int ncode;                  /* the first ncode are the long switches: one code digit each */
    nsdae_switch *sw;           /* n entries */
} nsdae_switches;

/* Every switch of m. Also checks that the branches of every long `if` have the same number of
 * equations (NSDAE_INVALID_INPUT naming the block otherwise: its modes would not be square).
 * Destroy with nsdae_mode_switches_destroy. */
nsdae_status nsdae_mode_switches(const nsdae_model *m, nsdae_switches **out, nsdae_error *err);
void nsdae_mode_switches_destroy(nsdae_switches *s);

/* "if", "complementarity", "sign", "when" (both `if` kinds print "if"). */
const char *nsdae_switch_kind_name(nsdae_switch_kind k);

/* Whether switch k matters under choice: every enclosing branch is chosen. */
int nsdae_mode_switch_active(const nsdae_switches *s, const int *choice, int k);

/* ---- long modes and their codes ---------------------------------------------------------- */

/* The number of distinct long modes (a double: it may be astronomically large). */
double nsdae_mode_count(const nsdae_switches *s);

/* `first` sets the first canonical long mode (all zeros); `next` advances to the next one in
 * lexicographic order of the code and returns 0 after the last. `canonical` tells whether a choice
 * array is a long mode (choices in range, switches in branches not chosen at 0, transient at 0). */
void nsdae_mode_first(const nsdae_switches *s, int *choice);
int nsdae_mode_next(const nsdae_switches *s, int *choice);
int nsdae_mode_canonical(const nsdae_switches *s, const int *choice);

/* Parses a code "k1.k2....k_ncode" ("" or "-" when ncode is 0) into choice (n entries; transient
 * entries set to 0), canonicalised (switches in branches not chosen set to 0). Prints a code
 * (buf always terminated). */
nsdae_status nsdae_mode_parse(const nsdae_switches *s, const char *text, int *choice, nsdae_error *err);
void nsdae_mode_format(const nsdae_switches *s, const int *choice, char *buf, size_t size);

/* ---- exogenous phases ---------------------------------------------------------------------- */

/* A phase is a combination of choices of the long IF_TIME switches that can hold together; the
 * other choices are left at 0 and do not restrict a phase. An IF_TIME switch matters in a phase
 * when every enclosing IF_TIME branch is chosen (an enclosing state switch does not exclude it:
 * the state decides at run time). `first`/`next` enumerate phases in lexicographic order. */
int nsdae_mode_phase_active(const nsdae_switches *s, const int *choice, int k);
void nsdae_mode_phase_first(const nsdae_switches *s, int *choice);
int nsdae_mode_phase_next(const nsdae_switches *s, int *choice);

/* ---- the equations of a mode --------------------------------------------------------------- */

/* The switching function h of a comparison, oriented so that the guard holds for h > 0
 * (lhs - rhs for > and >=, rhs - lhs for < and <=, -h(a) for `not a`). NULL for `and`/`or` (no
 * single switching function) or when out of memory (the pool then says so). */
const nsdae_expr *nsdae_mode_switching_function(nsdae_expr_pool *pool, const nsdae_cond *c);

/* The relaxed pair of a state switch `if h > 0 then g1 = 0 else g2 = 0`: the graph filled in at
 * h = 0, g2 + s (g1 - g2) = 0 with s in step(h) (the set-valued Heaviside: 1 for h > 0, 0 for
 * h < 0, [0, 1] at h = 0). With s an unknown of the sliding mode, this is the sliding mode's
 * equation. When g1 - g2 = a h + k with constants a, k (the case an MLCS represents exactly,
 * examples/LANGUAGE.md), s (g1 - g2) = a (s h) + k s, and s h = h+ for s in step(h):
 * nsdae_mode_relax_affine writes g2 + a sh + k s from given expressions sh (standing for s h) and s,
 * leaving out the zero terms. NULL when out of memory. */
const nsdae_expr *nsdae_mode_relax(nsdae_expr_pool *pool, const nsdae_expr *g1, const nsdae_expr *g2,
                                   const nsdae_expr *s);
const nsdae_expr *nsdae_mode_relax_affine(nsdae_expr_pool *pool, const nsdae_expr *g2, double a, const nsdae_expr *sh,
                                          double k, const nsdae_expr *s);

/* One equation of a mode: residual = 0. */
typedef struct nsdae_mode_eq {
    const nsdae_expr *residual; /* in the system's pool */
    int origin;                 /* the model equation it comes from; -1 for a switching surface h = 0 */
    int sw;                     /* the switch whose choice gave it; -1 for an unguarded equality */
    char *text;                 /* printable: the source text or the choice, e.g. "lambda = 0" */
} nsdae_mode_eq;

/* The equations of a mode, in source order: an equality in a chosen branch (or at top level) as
 * written; a complementarity pair as the side its choice sets to 0; a relay as its argument = 0
 * (sliding) or v = hi / v = lo; a state switch in its sliding choice as the switching surface h = 0
 * (at the place of its first then-branch equation) followed by its relaxed pairs, each with a new
 * unknown s (index nvars + k for the k-th relaxation, named "s_lineL" after the `if`'s line); a
 * fired `when` adds its equations. The unknowns are the model's (index 0 .. nvars-1), then the
 * nrelax relaxation unknowns. */
typedef struct nsdae_mode_system {
    nsdae_expr_pool *pool;      /* owned: extends the model's (read-only) pool with the residuals
                                   built here; a caller keeping the residuals beyond the system
                                   takes it (and sets the field to NULL) */
    int neq;
    nsdae_mode_eq *eqs;         /* neq */
    int nrelax;
    int *relax_switch;          /* nrelax: the sliding switch of each relaxation unknown */
    char **relax_names;         /* nrelax: "s_line15" */
} nsdae_mode_system;

/* The equations of the mode `choice` (n entries, each in range; inactive entries are ignored).
 * Errors: NSDAE_INVALID_INPUT for a choice out of range or a sliding `if` whose branches cannot be
 * paired, NSDAE_NOMEM. Destroy with nsdae_mode_system_destroy. */
nsdae_status nsdae_mode_equations(const nsdae_model *m, const nsdae_switches *s, const int *choice,
                                  nsdae_mode_system **out, nsdae_error *err);
void nsdae_mode_system_destroy(nsdae_mode_system *ms);

/* The choices of the active switches in words, e.g. "x1 > 0; lambda = 0", "(no switch)" when no
 * switch is active. *out: free() it. */
nsdae_status nsdae_mode_label(const nsdae_model *m, const nsdae_switches *s, const int *choice, char **out,
                              nsdae_error *err);

#ifdef __cplusplus
}
#endif

#endif
