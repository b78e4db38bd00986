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

static uint64_t rng_state;

void test_seed(uint64_t seed) {
        rng_state = seed;
}

uint32_t test_rand(void) {
        /* xorshift64*: deterministic and the same everywhere. */
        rng_state ^= rng_state >> 12;
        rng_state ^= rng_state << 25;
        rng_state ^= rng_state >> 27;
        return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

size_t test_pick(size_t n) {
        return test_rand() % n;
}

void test_buf_put(struct test_buf *b, const void *s, size_t n) {
        if (n == 0)
                return;
        if (b->len + n > b->cap) {
                b->cap = (b->len + n) * 2;
                b->p = realloc(b->p, b->cap);
                if (!b->p)
                        abort();
        }
        memcpy(b->p + b->len, s, n);
        b->len += n;
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
                /* TEST_ONLY=WORD: only the tests whose name holds it (by hand, while working on them). */
                const char *only = getenv("TEST_ONLY");
                int before = failures;

                if (only && *only && !strstr(tests[i].name, only)) {
                        printf("ok %zu - %s # SKIP not in TEST_ONLY\n", i + 1, tests[i].name);
                        continue;
                }
                tests[i].fn();
                if (failures != before)
                        failed++;
                printf("%s %zu - %s\n", failures != before ? "not ok" : "ok", i + 1, tests[i].name);
        }
        free(tests);
        return failed ? 1 : 0;
}
