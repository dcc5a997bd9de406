/* Replay driver: a plain main over a fuzz target's LLVMFuzzerTestOneInput, built by the normal
 * (gcc) build so that ctest replays the seed corpus and every saved finding on every run, and under
 * ASan/UBSan in the sanitizer build. Arguments are files or directories (every regular file in
 * them); a missing path fails, so a renamed corpus does not silently replay nothing. */
#include "fuzz_check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    int failed = ferror(f) || !buf;
    fclose(f);
    if (failed) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int replay_path(const char *path, long *count)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "replay: %s does not exist\n", path);
        return 1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", path);
        return 1;
    }
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(n);
        if (!full) {
            rc = 1;
            break;
        }
        snprintf(full, n, "%s/%s", path, e->d_name);
        if (stat(full, &sb) == 0 && S_ISREG(sb.st_mode)) {
            (*count)++;
            rc |= replay_file(full);
        }
        free(full);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    long count = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= replay_path(argv[i], &count);
    printf("replayed %ld inputs\n", count);
    return rc;
}
