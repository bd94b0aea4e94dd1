/*
 * fuzz/replay.c - the main() of a fuzz target built without libFuzzer
 * (gcc, the sanitizer and valgrind builds): each file named on the
 * command line, or each file of each folder named, is run through
 * LLVMFuzzerTestOneInput() once, so ctest replays the seed corpora and
 * every crash ever found (tests/regress/NAME/) as SQLite's fuzzcheck
 * does.  A crash, a sanitizer report or a leak fails the test.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (fp == NULL) {
        perror(path);
        return 1;
    }
    do {
        if (len == cap) {
            unsigned char *grown = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (grown == NULL) {
                free(buf);
                fclose(fp);
                return 1;
            }
            buf = grown;
        }
        n = fread(buf + len, 1, cap - len, fp);
        len += n;
    } while (n > 0);
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int
main(int argc, char **argv)
{
    int failed = 0, count = 0;

    for (int i = 1; i < argc; i++) {
        struct stat st;
        DIR *dir;
        struct dirent *e;

        if (stat(argv[i], &st) != 0)
            continue;           /* a corpus folder not made: nothing */
        if (!S_ISDIR(st.st_mode)) {
            failed |= replay_file(argv[i]);
            count++;
            continue;
        }
        if ((dir = opendir(argv[i])) == NULL) {
            perror(argv[i]);
            return 1;
        }
        while ((e = readdir(dir)) != NULL) {
            char path[4096];
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                failed |= replay_file(path);
                count++;
            }
        }
        closedir(dir);
    }
    printf("%d inputs replayed\n", count);
    return failed;
}
