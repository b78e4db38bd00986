/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>
#include <stdlib.h>

#include "tests.h"

struct test {
        const char *name;
        void (*fn)(void);
};

static struct test *tests;
static size_t n_tests;
static int failures;

void test_register(const char *name, void (*fn)(void)) {
        tests = realloc(tests, (n_tests + 1) * sizeof(*tests));
        if (!tests)
                abort();
        tests[n_tests].name = name;
        tests[n_tests].fn = fn;
        n_tests++;
}

void test_fail(const char *file, int line, const char *fmt, ...) {
        va_list ap;

        printf("# %s:%d: ", file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        failures++;
}

int main(int argc, char **argv) {
        int failed = 0;
        size_t i;

        setvbuf(stdout, NULL, _IOLBF, 0);
        if (test_skip_reason) {
                const char *why = test_skip_reason();

                if (why) {
                        printf("1..0 # SKIP %s\n", why);
                        free(tests);
                        return 0;
                }
        }
        printf("1..%zu\n", n_tests);
        for (i = 0; i < n_tests; i++) {
                int before = failures;

                tests[i].fn();
                if (failures != before)
                        failed++;
                printf("%s %zu - %s\n", failures != before ? "not ok" : "ok", i + 1, tests[i].name);
        }
        free(tests);
        return failed ? 1 : 0;
}
