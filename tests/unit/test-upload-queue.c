/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload's batches: cut at entry boundaries, bounded, kept until acknowledged; the retry waits. */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "pipeline/upload-queue.h"

/* One entry of n bytes for record seq. */
static void entry(struct upload_queue *q, uint64_t seq, size_t n) {
        char buf[256];

        memset(buf, 'a' + (int)(seq % 26), sizeof(buf));
        upload_queue_mark(q, seq, seq * 1000);
        CHECK_INT(upload_queue_append(q, buf, n), 0);
}

TEST(batches_cut_at_the_size_limit_between_entries) {
        struct upload_queue q;
        const struct upload_batch *last;
        char *buf = NULL;
        size_t cap = 0, len = 0;

        upload_queue_init(&q, 100, 1000);
        /* 60 + 60: the second entry goes into the same batch (the limit is checked before an entry). */
        entry(&q, 1, 60);
        entry(&q, 2, 60);
        CHECK_INT(q.n_closed, 0);
        entry(&q, 3, 10);
        CHECK_INT(q.n_closed, 1);
        /* Nothing is taken from the open batch. */
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 1);
        CHECK_INT(len, 120);
        CHECK(last && last->seq == 2 && last->usec == 2000);
        CHECK(buf[0] == 'b' && buf[119] == 'c');
        /* Not acknowledged: the same batch again. */
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 1);
        CHECK_INT(len, 120);
        upload_queue_ack(&q);
        CHECK_INT(q.bytes, 10);
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 0);
        /* The reader goes idle: the open batch goes at once, however small. */
        upload_queue_close(&q);
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 1);
        CHECK(len == 10 && last->seq == 3);
        upload_queue_ack(&q);
        CHECK_INT(q.bytes, 0);
        CHECK(q.head == NULL && q.tail == NULL);
        /* Closing with nothing in it makes no batch. */
        upload_queue_close(&q);
        CHECK_INT(q.n_closed, 0);
        free(buf);
        upload_queue_done(&q);
}

TEST(small_batches_are_sent_together_up_to_the_limit) {
        struct upload_queue q;
        const struct upload_batch *last;
        char *buf = NULL;
        size_t cap = 0, len = 0;
        uint64_t s;

        upload_queue_init(&q, 100, 1000);
        /* Idle after every record (a slow trickle while the collector was away). */
        for (s = 10; s < 20; s++) {
                entry(&q, s, 30);
                upload_queue_close(&q);
        }
        CHECK_INT(q.n_closed, 10);
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 3);
        CHECK(len == 90 && last->seq == 12);
        /* More closes while a send is out do not change what it took. */
        entry(&q, 20, 30);
        upload_queue_close(&q);
        upload_queue_ack(&q);
        CHECK_INT(q.n_closed, 8);
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 3);
        CHECK(last->seq == 15 && buf[0] == 'a' + 13 % 26);
        upload_queue_ack(&q);
        /* A batch with no record of its own (a loss entry at the end) leaves the cursor where it is. */
        upload_queue_done(&q);
        upload_queue_init(&q, 100, 1000);
        CHECK_INT(upload_queue_append(&q, "LOSS\n\n", 6), 0);
        upload_queue_close(&q);
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 1);
        CHECK(len == 6 && last == NULL);
        /* An entry larger than a batch is a batch of its own. */
        upload_queue_ack(&q);
        entry(&q, 30, 200);
        upload_queue_close(&q);
        entry(&q, 31, 200);
        upload_queue_close(&q);
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 1);
        CHECK(len == 200 && last->seq == 30);
        free(buf);
        upload_queue_done(&q);
}

TEST(the_memory_bound_counts_every_batch_until_acknowledged) {
        struct upload_queue q;
        const struct upload_batch *last;
        char *buf = NULL;
        size_t cap = 0, len = 0;
        uint64_t s;

        upload_queue_init(&q, 100, 500);
        for (s = 0; s < 9; s++)
                entry(&q, s, 50);
        CHECK(!upload_queue_full(&q));
        entry(&q, 9, 50);
        CHECK(upload_queue_full(&q));
        /* Taking (sending) frees nothing; only the collector's answer does. */
        CHECK_INT(upload_queue_take(&q, &buf, &cap, &len, &last), 1);
        CHECK(upload_queue_full(&q));
        upload_queue_ack(&q);
        CHECK(!upload_queue_full(&q));
        CHECK_INT(q.bytes, 500 - len);
        free(buf);
        upload_queue_done(&q);
}

TEST(backoff_doubles_to_the_cap_with_jitter_in_the_upper_half) {
        CHECK_INT(upload_backoff_ms(1, 500, 30000, UINT32_MAX), 500);
        CHECK_INT(upload_backoff_ms(1, 500, 30000, 0), 250);
        CHECK_INT(upload_backoff_ms(2, 500, 30000, UINT32_MAX), 1000);
        CHECK_INT(upload_backoff_ms(3, 500, 30000, 0), 1000);
        CHECK_INT(upload_backoff_ms(7, 500, 30000, UINT32_MAX), 30000);
        CHECK_INT(upload_backoff_ms(1000, 500, 30000, UINT32_MAX), 30000);
        CHECK_INT(upload_backoff_ms(1000, 500, 30000, 0), 15000);
        /* Different random numbers spread the waits. */
        CHECK(upload_backoff_ms(4, 500, 30000, 1u << 30) != upload_backoff_ms(4, 500, 30000, 3u << 30));
}
