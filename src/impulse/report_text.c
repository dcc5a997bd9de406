/* The restart report's growing text buffer (report_text.h). */
#include "impulse/report_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(rt_text *t, size_t more)
{
    if (t->nomem) return 0;
    if (t->len + more + 1 <= t->cap) return 1;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->len + more + 1) cap *= 2;
    char *p = realloc(t->buf, cap);
    if (!p) {
        t->nomem = 1;
        return 0;
    }
    t->buf = p, t->cap = cap;
    return 1;
}

void rt_printf(rt_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(t, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void rt_puts(rt_text *t, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(t, n)) return;
    memcpy(t->buf + t->len, s, n + 1);
    t->len += n;
}

void rt_putc(rt_text *t, char ch)
{
    if (!reserve(t, 1)) return;
    t->buf[t->len++] = ch;
    t->buf[t->len] = '\0';
}

void rt_line(rt_text *t, const char *s)
{
    rt_puts(t, s);
    rt_putc(t, '\n');
}

char *rt_take(rt_text *t)
{
    if (t->nomem || !reserve(t, 0)) {
        rt_free(t);
        return NULL;
    }
    t->buf[t->len] = '\0';
    char *s = t->buf;
    memset(t, 0, sizeof *t);
    return s;
}

void rt_free(rt_text *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}
