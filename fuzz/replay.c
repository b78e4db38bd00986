/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Replay a fuzz target's corpus without libFuzzer: each file under the
 * directories (or the files) given is passed to LLVMFuzzerTestOneInput()
 * once.  Prints TAP, one case per file; a crash fails the run.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char **paths;
static size_t n_paths;

static void add(const char *path) {
        paths = realloc(paths, (n_paths + 1) * sizeof(*paths));
        if (!paths || !(paths[n_paths] = strdup(path))) {
                perror("replay");
                exit(EXIT_FAILURE);
        }
        n_paths++;
}

static int cmp(const void *a, const void *b) {
        return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect(const char *path) {
        struct stat st;
        DIR *d;
        struct dirent *de;

        if (stat(path, &st) < 0) {
                fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
                return -1;
        }
        if (!S_ISDIR(st.st_mode)) {
                add(path);
                return 0;
        }
        d = opendir(path);
        if (!d) {
                fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
                return -1;
        }
        while ((de = readdir(d))) {
                char *p;

                if (de->d_name[0] == '.')
                        continue;
                if (asprintf(&p, "%s/%s", path, de->d_name) < 0) {
                        closedir(d);
                        return -1;
                }
                add(p);
                free(p);
        }
        closedir(d);
        return 0;
}

static int replay(const char *path) {
        FILE *f = fopen(path, "rb");
        uint8_t *data = NULL;
        size_t size = 0, cap = 0, n;

        if (!f)
                return -errno;
        for (;;) {
                if (size == cap) {
                        uint8_t *p;

                        cap = cap ? cap * 2 : 4096;
                        p = realloc(data, cap);
                        if (!p) {
                                free(data);
                                fclose(f);
                                return -ENOMEM;
                        }
                        data = p;
                }
                n = fread(data + size, 1, cap - size, f);
                size += n;
                if (n == 0)
                        break;
        }
        fclose(f);
        /* An exact-size copy, so that ASan sees reads past the end. */
        {
                uint8_t *exact = malloc(size ? size : 1);

                if (!exact) {
                        free(data);
                        return -ENOMEM;
                }
                memcpy(exact, data, size);
                free(data);
                LLVMFuzzerTestOneInput(exact, size);
                free(exact);
        }
        return 0;
}

int main(int argc, char **argv) {
        int failed = 0, i;
        size_t j;

        for (i = 1; i < argc; i++)
                if (collect(argv[i]) < 0)
                        return EXIT_FAILURE;
        if (n_paths == 0) {
                fprintf(stderr, "replay: no corpus files\n");
                return EXIT_FAILURE;
        }
        qsort(paths, n_paths, sizeof(*paths), cmp);
        setvbuf(stdout, NULL, _IOLBF, 0);
        printf("1..%zu\n", n_paths);
        for (j = 0; j < n_paths; j++) {
                const char *base = strrchr(paths[j], '/');
                int e = replay(paths[j]);

                base = base && base > paths[j] ? base - 1 : paths[j];
                while (base > paths[j] && base[-1] != '/')
                        base--;
                if (e < 0) {
                        printf("not ok %zu - %s: %s\n", j + 1, base, strerror(-e));
                        failed++;
                } else
                        printf("ok %zu - %s\n", j + 1, base);
                free(paths[j]);
        }
        free(paths);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
