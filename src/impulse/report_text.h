/* A growing text buffer for the restart report (restart_report.c): printf-like appends, a sticky
 * out-of-memory flag instead of a status per call. Internal to the impulse stage. */
#ifndef NSDAE_IMPULSE_REPORT_TEXT_H
#define NSDAE_IMPULSE_REPORT_TEXT_H

#include <stddef.h>

typedef struct rt_text {
    char *buf;
    size_t len, cap;
    int nomem;
} rt_text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void rt_printf(rt_text *t, const char *fmt, ...);
void rt_puts(rt_text *t, const char *s);
void rt_putc(rt_text *t, char ch);
void rt_line(rt_text *t, const char *s); /* s and a newline */
/* The text (NUL-terminated, "" when empty), handed over: the buffer is reset. NULL after nomem. */
char *rt_take(rt_text *t);
void rt_free(rt_text *t);

#endif
