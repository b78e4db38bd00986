/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A tiny test registry: TEST(name) { ... } defines a test case; CHECK()
 * records a failure with its place and goes on.  Each executable prints TAP.
 */
#ifndef KMSG_TESTS_H
#define KMSG_TESTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void test_register(const char *name, void (*fn)(void));
/*
 * Optional: a test file may define this; when it returns a reason, the
 * whole file is skipped ("1..0 # SKIP reason").
 */
const char *test_skip_reason(void) __attribute__((weak));
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Deterministic pseudo-random numbers (xorshift64*), the same on every machine. */
void test_seed(uint64_t seed);
uint32_t test_rand(void);
/* One of 0 to n - 1. */
size_t test_pick(size_t n);

/* A byte buffer that grows as needed (abort() when out of memory); free(p) at the end. */
struct test_buf {
        char *p;
        size_t len, cap;
};
void test_buf_put(struct test_buf *b, const void *s, size_t n);

#define TEST(name)                                                         \
        static void test_##name(void);                                     \
        __attribute__((constructor)) static void register_##name(void) {   \
                test_register(#name, test_##name);                         \
        }                                                                  \
        static void test_##name(void)

#define CHECK(cond)                                                        \
        do {                                                               \
                if (!(cond))                                               \
                        test_fail(__FILE__, __LINE__, "%s", #cond);        \
        } while (0)

#define CHECK_INT(a, b)                                                                      \
        do {                                                                                 \
                long long _a = (long long)(a), _b = (long long)(b);                          \
                if (_a != _b)                                                                \
                        test_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, \
                                  _a, #b, _b);                                               \
        } while (0)

#define CHECK_STR(a, b)                                                                          \
        do {                                                                                     \
                const char *_a = (a), *_b = (b);                                                 \
                if (!_a || !_b || strcmp(_a, _b) != 0)                                           \
                        test_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a,       \
                                  _a ? _a : "(null)", _b ? _b : "(null)");                       \
        } while (0)

#define CHECK_MEM(p, plen, q, qlen)                                                         \
        do {                                                                                \
                size_t _pl = (plen), _ql = (qlen);                                          \
                if (_pl != _ql || memcmp((p), (q), _pl) != 0)                                \
                        test_fail(__FILE__, __LINE__, "%s differs from %s (%zu vs %zu bytes)", \
                                  #p, #q, _pl, _ql);                                        \
        } while (0)

#endif
