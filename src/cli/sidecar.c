/* JSON of a run's facts (sidecar.h). Numbers are printed shortest round-trip (number_text.h);
 * non-finite numbers, which JSON lacks, are null. */
#include "cli/sidecar.h"

#include <nsdae/number_text.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void put_value(FILE *f, const meta_entry *e)
{
    if (e->is_text) {
        put_string(f, e->text);
        return;
    }
    char text[NSDAE_SHORTEST_SIZE];
    if (!isfinite(e->number)) fputs("null", f);
    else {
        nsdae_shortest_text(text, sizeof text, e->number);
        fputs(text, f);
    }
}

int sidecar_write(const char *path, const run_meta *m, char *why, size_t why_size)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(why, why_size, "%s: %s", path, strerror(errno));
        return -1;
    }
    char group[160] = "";
    fputs("{", f);
    for (int i = 0; i < m->n; i++) {
        const meta_entry *e = &m->e[i];
        const char *dot = strchr(e->key, '.');
        size_t glen = dot ? (size_t)(dot - e->key) : 0;
        int same = glen && strlen(group) == glen && strncmp(group, e->key, glen) == 0;
        if (group[0] && !same) fputs("\n  }", f);
        fputs(i ? ",\n" : "\n", f);
        if (glen && !same) {
            snprintf(group, sizeof group, "%.*s", (int)glen, e->key);
            fputs("  ", f);
            put_string(f, group);
            fputs(": {\n", f);
        } else if (!glen) group[0] = '\0';
        fputs(glen ? "    " : "  ", f);
        put_string(f, glen ? dot + 1 : e->key);
        fputs(": ", f);
        put_value(f, e);
    }
    if (group[0]) fputs("\n  }", f);
    if (m->dropped) fprintf(f, ",\n  \"entries_left_out\": %d", m->dropped);
    fputs("\n}\n", f);
    int failed = ferror(f) != 0;
    errno = 0;
    failed |= fclose(f) != 0;
    if (failed) snprintf(why, why_size, "writing %s failed: %s", path, errno ? strerror(errno) : "stream error");
    return failed ? -1 : 0;
}
