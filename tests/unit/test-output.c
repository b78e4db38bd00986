/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The buffered output's writers: the numbers (out_u64(), put_seconds()) against printf. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "tests.h"

/* What reached the writer: the bytes, and the length of each write. */
struct capture {
        char *buf;
        size_t len, cap;
        size_t writes[64];
        size_t n_writes;
};

static struct capture cap;
static char dots[OUT_BUF_SIZE];

static int capture_writer(void *userdata, const void *p, size_t len) {
        struct capture *c = userdata;

        if (c->len + len > c->cap) {
                c->cap = (c->len + len) * 2;
                c->buf = realloc(c->buf, c->cap);
                if (!c->buf)
                        abort();
        }
        memcpy(c->buf + c->len, p, len);
        c->len += len;
        if (c->n_writes < sizeof(c->writes) / sizeof(c->writes[0]))
                c->writes[c->n_writes] = len;
        c->n_writes++;
        return 0;
}

static void capture_start(void) {
        out_set_writer(capture_writer, &cap);
        out_flush();
        cap.len = 0;
        cap.n_writes = 0;
}

/* Everything written since capture_start(), flushed. */
static const char *capture_end(size_t *ret_len) {
        out_flush();
        *ret_len = cap.len;
        return cap.buf ? cap.buf : "";
}

static unsigned long long failures;

static void check_u64(uint64_t v) {
        char want[32];
        size_t got_len;
        const char *got;

        snprintf(want, sizeof(want), "%" PRIu64, v);
        capture_start();
        out_u64(v);
        got = capture_end(&got_len);
        if ((got_len != strlen(want) || memcmp(got, want, got_len) != 0) && failures++ < 10)
                CHECK_MEM(got, got_len, want, strlen(want));
}

TEST(u64_as_printf) {
        uint64_t p = 1;
        unsigned seed = 1;

        failures = 0;
        for (uint64_t v = 0; v < 100000; v++)
                check_u64(v);
        for (int i = 0; i < 64; i++) {
                check_u64((UINT64_C(1) << i) - 1);
                check_u64(UINT64_C(1) << i);
                check_u64((UINT64_C(1) << i) + 1);
        }
        for (int i = 0; i < 20; i++, p *= 10) {
                check_u64(p - 1);
                check_u64(p);
                check_u64(p + 1);
        }
        check_u64(UINT64_MAX);
        for (int i = 0; i < 20000; i++)
                check_u64((uint64_t)rand_r(&seed) << 33 ^ (uint64_t)rand_r(&seed) << 11 ^ (uint64_t)rand_r(&seed));
        CHECK_INT(failures, 0);
}

TEST(u64_near_the_buffer_end) {
        size_t got_len, room;
        const char *got;

        memset(dots, '.', sizeof(dots));
        for (room = 0; room < 30; room++) {
                capture_start();
                out_write(dots, OUT_BUF_SIZE - room);
                out_u64(UINT64_C(18446744073709551615));
                out_usec(UINT64_C(18446744073709551615), 5);
                got = capture_end(&got_len);
                CHECK_INT(got_len, OUT_BUF_SIZE - room + 20 + 21);
                CHECK_MEM(got + OUT_BUF_SIZE - room, 41, "1844674407370955161518446744073709.551615", 41);
        }
}

static void check_seconds(uint64_t usec, unsigned width) {
        char want[64], got[64];
        size_t n;

        snprintf(want, sizeof(want), "%*" PRIu64 ".%06" PRIu64, (int)width, usec / 1000000, usec % 1000000);
        memset(got, 'x', sizeof(got));
        n = put_seconds(got, usec, width);
        if ((n != strlen(want) || strcmp(got, want) != 0) && failures++ < 10)
                CHECK_STR(got, want);
}

TEST(seconds_as_printf) {
        uint64_t p = 1;
        unsigned seed = 2;

        failures = 0;
        for (unsigned w = 0; w <= 20; w++) {
                for (int i = 0; i < 20; i++, p *= 10) {
                        check_seconds(p - 1, w);
                        check_seconds(p, w);
                        check_seconds(p * 1000000 - 1, w);
                }
                p = 1;
                for (int i = 0; i < 64; i++)
                        check_seconds(UINT64_C(1) << i, w);
                check_seconds(0, w);
                check_seconds(UINT64_MAX, w);
                for (int i = 0; i < 2000; i++)
                        check_seconds((uint64_t)rand_r(&seed) << 20 ^ (uint64_t)rand_r(&seed), w);
        }
        CHECK_INT(failures, 0);
}
