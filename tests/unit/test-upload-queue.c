/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --upload's queue: a unit per record, batches up to the size limit, bounded, kept until acknowledged; the retry waits. */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "output/export.h"
#include "ship/upload-queue.h"
#include "ship/upload-spool.h"

/* One entry of n bytes for record seq, marked at time seq. */
static void entry(struct upload_queue *q, uint64_t seq, size_t n) {
        char buf[256];

        memset(buf, 'a' + (int)(seq % 26), sizeof(buf));
        upload_queue_mark(q, seq, seq * 1000, seq);
        CHECK_INT(upload_queue_append(q, buf, n), 0);
}

TEST(a_unit_per_record_closed_at_the_next_mark_batches_up_to_the_size_limit) {
        struct upload_queue q;
        const struct upload_unit *last;
        char *buf = NULL;
        size_t cap = 0, len = 0;

        upload_queue_init(&q, 100, 1000);
        entry(&q, 1, 60);
        CHECK_INT(q.n_closed, 0);
        entry(&q, 2, 30);
        CHECK_INT(q.n_closed, 1);
        CHECK(q.head->seq == 1 && q.head->closed_ns == 2);
        entry(&q, 3, 30);
        CHECK_INT(q.n_closed, 2);
        CHECK_INT(q.closed_bytes, 90);
        /* Nothing is taken from the open unit; 60 + 30 fit in 100. */
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 2);
        CHECK_INT(len, 90);
        last = upload_queue_last_seq(&q, 2);
        CHECK(last && last->seq == 2 && last->usec == 2000);
        CHECK(buf[0] == 'b' && buf[89] == 'c');
        /* Not acknowledged: the same again; one at a time when asked. */
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 2);
        CHECK_INT(upload_queue_take(&q, 1, &buf, &cap, &len), 1);
        CHECK_INT(len, 60);
        upload_queue_ack(&q, 1);
        CHECK_INT(q.bytes, 60);
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 1);
        upload_queue_ack(&q, 1);
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 0);
        /* The reader goes idle: the open unit is closed, however small. */
        upload_queue_close(&q, 9);
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 1);
        CHECK(len == 30 && upload_queue_last_seq(&q, 1)->seq == 3 && q.head->closed_ns == 9);
        upload_queue_ack(&q, 1);
        CHECK_INT(q.bytes, 0);
        CHECK(q.head == NULL && q.tail == NULL);
        /* Closing with nothing in it makes no unit. */
        upload_queue_close(&q, 10);
        CHECK_INT(q.n_closed, 0);
        free(buf);
        upload_queue_done(&q);
}

TEST(entries_without_a_record_and_records_without_bytes) {
        struct upload_queue q;
        char *buf = NULL;
        size_t cap = 0, len = 0;

        upload_queue_init(&q, 100, 1000);
        /* A loss entry at the end of input names no record: the cursor stays. */
        CHECK_INT(upload_queue_append(&q, "LOSS\n\n", 6), 0);
        upload_queue_close(&q, 1);
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 1);
        CHECK(len == 6 && upload_queue_last_seq(&q, 1) == NULL);
        upload_queue_ack(&q, 1);
        /* A record filtered out writes nothing, and still moves the cursor when delivered. */
        upload_queue_mark(&q, 7, 7000, 2);
        upload_queue_close(&q, 3);
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 1);
        CHECK(len == 0 && upload_queue_last_seq(&q, 1)->seq == 7);
        upload_queue_ack(&q, 1);
        /* An entry larger than a batch is a batch of its own. */
        entry(&q, 30, 200);
        entry(&q, 31, 200);
        upload_queue_close(&q, 40);
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 1);
        CHECK(len == 200 && upload_queue_last_seq(&q, 1)->seq == 30);
        free(buf);
        upload_queue_done(&q);
}

TEST(the_memory_bound_counts_every_unit_until_acknowledged) {
        struct upload_queue q;
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
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 2);
        CHECK(upload_queue_full(&q));
        upload_queue_ack(&q, 2);
        CHECK(!upload_queue_full(&q));
        CHECK_INT(q.bytes, 400);
        free(buf);
        upload_queue_done(&q);
}

TEST(a_refused_unit_is_split_into_its_entries_and_replaced_by_a_loss_entry) {
        static const char loss[] = "MESSAGE=lost\nKDMESG_LOST=3\n\n";
        static const char rec[] = "MESSAGE\n\x05\0\0\0\0\0\0\0a\nb\n\n\nSEQNUM=4\n\n";
        static const char long_by_one[] = "MESSAGE\n\x05\0\0\0\0\0\0\0a\nb\n\nSEQNUM=4\n\n";
        struct upload_queue q;
        char *buf = NULL, *repl = NULL;
        size_t cap = 0, len = 0, rlen = 0;
        struct export_machine m = { .boot_id = "aba7d49a3f9a484a8905db37a872b9f5" };

        upload_queue_init(&q, 1000, 10000);
        upload_queue_mark(&q, 4, 4000, 1);
        CHECK_INT(upload_queue_append(&q, loss, sizeof(loss) - 1), 0);
        CHECK_INT(upload_queue_append(&q, rec, sizeof(rec) - 1), 0);
        entry(&q, 5, 10);
        upload_queue_close(&q, 2);
        /* The binary field's blank-looking bytes do not end the entry. */
        CHECK_INT(export_entry_len(rec, sizeof(rec) - 1), sizeof(rec) - 1);
        CHECK_INT(export_entry_len(rec, 12), 0);
        /* A binary value whose length is not followed by its newline is no entry (here one byte too long). */
        CHECK_INT(export_entry_len(long_by_one, sizeof(long_by_one) - 1), 0);
        CHECK_INT(upload_queue_split_head(&q, export_entry_len), 2);
        CHECK_INT(q.n_closed, 3);
        CHECK(!q.head->has_seq && q.head->len == sizeof(loss) - 1);
        CHECK(q.head->next->has_seq && q.head->next->seq == 4 && q.head->next->len == sizeof(rec) - 1);
        CHECK_INT(q.bytes, sizeof(loss) - 1 + sizeof(rec) - 1 + 10);
        /* One entry only: nothing to split. */
        upload_queue_ack(&q, 1);
        CHECK_INT(upload_queue_split_head(&q, export_entry_len), 1);
        /* The refused record: a loss entry in its place, which keeps its sequence number. */
        CHECK_INT(export_refused_entry(&m, NULL, 4, 4000, "Empty reply", &repl, &rlen), 0);
        /* The entry is rlen bytes, not a C string. */
        CHECK(memmem(repl, rlen, "KDMESG_LOST=1\nKDMESG_LOST_FIRST_SEQ=4\nKDMESG_LOST_CAUSE=refused\n", 64));
        CHECK(memmem(repl, rlen, "_BOOT_ID=aba7d49a3f9a484a8905db37a872b9f5\n", 42));
        CHECK_INT(export_entry_len(repl, rlen), rlen);
        CHECK_INT(upload_queue_replace_head(&q, repl, rlen), 0);
        CHECK(q.head->seq == 4 && q.head->len == rlen);
        CHECK_INT(upload_queue_take(&q, 1, &buf, &cap, &len), 1);
        CHECK(len == rlen && memcmp(buf, repl, rlen) == 0);
        CHECK_INT(q.bytes, rlen + 10);
        free(repl);
        free(buf);
        upload_queue_done(&q);
}

TEST(a_send_lingers_from_its_oldest_unit_until_the_time_or_a_full_batch) {
        struct upload_queue q;
        char *buf = NULL;
        size_t cap = 0, len = 0;

        upload_queue_init(&q, 100, 1000);
        /* Nothing closed: nothing to wait for. */
        CHECK(upload_queue_due_in(&q, 0, 50) == UINT64_MAX);
        entry(&q, 10, 20);
        CHECK(upload_queue_due_in(&q, 10, 50) == UINT64_MAX);
        /* Closed at 20 (the next mark): due 50 later, however many follow. */
        entry(&q, 20, 20);
        entry(&q, 30, 20);
        CHECK(upload_queue_due_in(&q, 30, 50) == 40);
        CHECK(upload_queue_due_in(&q, 69, 50) == 1);
        CHECK(upload_queue_due_in(&q, 70, 50) == 0);
        CHECK(upload_queue_due_in(&q, 1000, 50) == 0);
        /* No linger: due at once; a clock that went back waits no longer than the linger. */
        CHECK(upload_queue_due_in(&q, 30, 0) == 0);
        CHECK(upload_queue_due_in(&q, 5, 50) == 50);
        /* A batch's worth closed is due at once. */
        entry(&q, 40, 20);
        entry(&q, 50, 20);
        entry(&q, 60, 20);
        CHECK_INT(q.closed_bytes, 100);
        CHECK(upload_queue_due_in(&q, 60, 50) == 0);
        /* Sent and acknowledged: the next oldest unit's time counts. */
        CHECK_INT(upload_queue_take(&q, SIZE_MAX, &buf, &cap, &len), 5);
        upload_queue_ack(&q, 4);
        CHECK(q.head->closed_ns == 60);
        CHECK(upload_queue_due_in(&q, 61, 50) == 49);
        free(buf);
        upload_queue_done(&q);
}

TEST(a_drop_takes_the_oldest_after_those_in_flight_and_counts_the_loss_entries_it_takes_in) {
        struct upload_queue q;
        struct upload_drop d;
        const char *boot_a = "a", *boot_b = "b";
        uint64_t s;

        upload_queue_init(&q, 100, 1000);
        for (s = 10; s < 20; s++) {
                entry(&q, s, 100);
                q.open->boot = s < 18 ? boot_a : boot_b;
        }
        upload_queue_close(&q, 99);
        CHECK_INT(q.n_closed, 10);
        CHECK_INT(q.bytes, 1000);
        /* Two in flight stay; 10 and 11 are sent, 12 to 14 go to get down to 700 bytes. */
        q.busy = 2;
        CHECK_INT(upload_queue_drop_plan(&q, 700, &d), 3);
        CHECK(d.has_seq && d.records == 3 && d.first_seq == 12 && d.last_seq == 14 && d.last_usec == 14000);
        CHECK(d.before == q.head->next && d.boot == boot_a);
        CHECK_INT(upload_queue_drop(&q, &d, "LOSS", 4), 0);
        CHECK_INT(q.n_closed, 8);
        CHECK_INT(q.bytes, 704);
        CHECK(q.head->seq == 10 && q.head->next->seq == 11);
        CHECK(q.head->next->next->lost == 3 && q.head->next->next->lost_first == 12 && q.head->next->next->seq == 14);
        /* The next drop takes the loss entry in: its three and 15, 16 more. */
        CHECK_INT(upload_queue_drop_plan(&q, 500, &d), 3);
        CHECK(d.records == 5 && d.first_seq == 12 && d.last_seq == 16);
        CHECK_INT(upload_queue_drop(&q, &d, "LOSS2", 5), 0);
        CHECK_INT(q.bytes, 505);
        /* Nothing in flight: 10, 11, the loss entry and 17 (boot a) go, not 18 of boot b. */
        q.busy = 0;
        CHECK_INT(upload_queue_drop_plan(&q, 100, &d), 4);
        CHECK(d.records == 8 && d.first_seq == 10 && d.last_seq == 17 && d.boot == boot_a && d.before == NULL);
        CHECK_INT(upload_queue_drop(&q, &d, "L", 1), 0);
        CHECK(q.head->lost == 8 && q.head->next->seq == 18 && q.tail->seq == 19);
        /* A loss entry alone in its boot makes no room: the next boot's oldest go. */
        CHECK_INT(upload_queue_drop_plan(&q, 100, &d), 2);
        CHECK(d.boot == boot_b && d.first_seq == 18 && d.last_seq == 19 && d.before == q.head);
        CHECK_INT(upload_queue_drop(&q, &d, "M", 1), 0);
        CHECK(q.tail == q.head->next && q.tail->lost == 2);
        CHECK_INT(q.bytes, 2);
        upload_queue_done(&q);
}

/* Append the export entry text (fields, '\n' each, then a blank line) to the open unit. */
static void put_entry(struct upload_queue *q, const char *text) {
        CHECK_INT(upload_queue_append(q, text, strlen(text)), 0);
}

#define LOSS_FIELDS "MESSAGE_ID=" EXPORT_LOSS_MESSAGE_ID "\n"

TEST(a_drop_merges_the_loss_entries_of_the_stream_and_keeps_those_it_cannot) {
        struct upload_queue q;
        struct upload_drop d;
        const char *boot = "b";
        const struct upload_unit *n;

        upload_queue_init(&q, 10000, 100000);
        /* The new boot's entry and the tail of the boot before (unknown): kept; then 2000 rotated out: merged. */
        upload_queue_mark(&q, 2000, 1, 1);
        q.open->boot = boot;
        put_entry(&q, "MESSAGE_ID=" EXPORT_BOOT_MESSAGE_ID "\nKDMESG_BOOT=2\n\n");
        put_entry(&q, LOSS_FIELDS "KDMESG_LOST=0\nKDMESG_LOST_FIRST_SEQ=50\nKDMESG_LOST_CAUSE=reboot\n\n");
        put_entry(&q, LOSS_FIELDS "KDMESG_LOST=2000\nKDMESG_LOST_FIRST_SEQ=0\nKDMESG_LOST_CAUSE=rotated\n\n");
        put_entry(&q, "SEQNUM=2000\nMESSAGE=record 2000\n\n");
        upload_queue_mark(&q, 2001, 2, 2);
        q.open->boot = boot;
        put_entry(&q, "SEQNUM=2001\nMESSAGE=record 2001\n\n");
        upload_queue_mark(&q, 2002, 3, 3);
        q.open->boot = boot;
        put_entry(&q, "SEQNUM=2002\nMESSAGE=record 2002\n\n");
        upload_queue_close(&q, 4);
        CHECK_INT(upload_queue_drop_plan(&q, q.bytes - q.head->len - q.head->next->len, &d), 2);
        /* 2000 rotated and two records, from seq 0 to 2001, and the rotated cause named. */
        CHECK(d.records == 2002 && d.first_seq == 0 && d.last_lost == 2001 && d.last_seq == 2001);
        CHECK_STR(d.merged, "rotated");
        CHECK(d.keep > 0);
        CHECK_INT(upload_queue_drop(&q, &d, "SPOOLFULL\n\n", 11), 0);
        n = q.head;
        /* The kept entries first, then the one that takes the others' place. */
        CHECK(n->len == d.keep + 11 && memcmp(n->data + d.keep, "SPOOLFULL\n\n", 11) == 0);
        CHECK(memmem(n->data, d.keep, EXPORT_BOOT_MESSAGE_ID, strlen(EXPORT_BOOT_MESSAGE_ID)) != NULL);
        CHECK(memmem(n->data, d.keep, "CAUSE=reboot", 12) != NULL);
        CHECK(memmem(n->data, d.keep, "CAUSE=rotated", 13) == NULL);
        CHECK(n->lost == 2002 && n->lost_first == 0 && n->seq == 2001 && n->next->seq == 2002);
        upload_queue_done(&q);
}

TEST(spool_frames_carry_their_record_and_a_crc) {
        struct spool_rec r = { .has_seq = true, .seq = 7, .usec = 8, .lost = 3, .lost_first = 5, .boot = "b0" };
        char frame[SPOOL_FRAME_HEAD + 5];

        /* The CRC-32 of zlib and IEEE 802.3. */
        CHECK(spool_crc32(0, "123456789", 9) == 0xcbf43926u);
        CHECK_INT(spool_frame_size(5), sizeof(frame));
        spool_frame(frame, &r, "hello", 5);
        CHECK(memcmp(frame, "KSPU", 4) == 0 && memcmp(frame + SPOOL_FRAME_HEAD, "hello", 5) == 0);
        CHECK(frame[4] == 5 && frame[8] == 7 && frame[16] == 8 && frame[24] == 3 && frame[32] == 5 && frame[40] == 1);
        CHECK(strcmp(frame + 44, "b0") == 0);
        /* Flags: 2 replaced, 4 the newest record in the ring when it was read. */
        r.newest = true;
        spool_frame(frame, &r, "hello", 5);
        CHECK(frame[40] == 5);
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
