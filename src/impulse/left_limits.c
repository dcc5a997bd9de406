/* Left limits of a numeric restart from text, "x=0.6,der(x)=1,time=1" (nsdae/restart_report.h): the
 * form `nsdae restart --at` and the Python module's `at` take. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nsdae/restart_report.h>

/* "der(der(x))" -> variable of x, order 2; -1 when no such variable. */
static int leaf_of(const nsdae_model *m, const char *name, size_t len, int *order)
{
    char buf[256];
    *order = 0;
    while (len > 5 && !strncmp(name, "der(", 4) && name[len - 1] == ')') name += 4, len -= 5, ++*order;
    if (len >= sizeof buf) return -1;
    memcpy(buf, name, len);
    buf[len] = 0;
    return nsdae_model_find_var(m, buf);
}

static int number(const char *text, size_t len, double *out)
{
    char num[64], *end;
    if (len == 0 || len >= sizeof num) return 0;
    memcpy(num, text, len);
    num[len] = 0;
    errno = 0;
    *out = strtod(num, &end);
    return *end == '\0' && errno != ERANGE && isfinite(*out);
}

nsdae_status nsdae_restart_parse_left(const nsdae_model *m, const char *text, double **left, double *time,
                                      nsdae_error *err)
{
    int n = nsdae_model_nvars(m);
    *left = calloc((size_t)(NSDAE_RESTART_MAX_ORDER + 1) * (size_t)n + 1, sizeof **left);
    *time = 0;
    if (!*left) return nsdae_error_set(err, NSDAE_NOMEM, "restart: out of memory for the left limits");
    const char *why = NULL;
    for (const char *p = text ? text : ""; *p && !why;) {
        const char *end = strchr(p, ','), *eq = strchr(p, '=');
        if (!end) end = p + strlen(p);
        double v;
        int order, j;
        if (!eq || eq > end) why = "each item is NAME=VALUE";
        else if (!number(eq + 1, (size_t)(end - eq - 1), &v)) why = "a value is not a number";
        else if ((size_t)(eq - p) == 4 && !strncmp(p, "time", 4)) *time = v;
        else if ((j = leaf_of(m, p, (size_t)(eq - p), &order)) < 0 || order > NSDAE_RESTART_MAX_ORDER)
            why = "a name is not a variable (or der(...) of one, order <= 3)";
        else (*left)[order * n + j] = v;
        p = *end ? end + 1 : end;
    }
    if (!why) return NSDAE_OK;
    free(*left);
    *left = NULL;
    return nsdae_error_set(err, NSDAE_INVALID_INPUT, "'%s': %s", text, why);
}
