/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wall-clock offsets for the stretches of the log between suspends. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "time/suspend.h"

#define MAX_SUSPENDS 4096 /* more, and the later ones share the total */

enum { MARK_NONE = 0, MARK_SUSPEND = 1, MARK_RESUME = 2 };

struct sleep {
        uint64_t resume_seq; /* the first record of the stretch after it */
        int64_t duration;    /* µs, or -1 when the log does not say */
};

struct suspends {
        int64_t total;        /* slept since boot, µs; -1 unknown */
        bool prescanned;
        bool complete;        /* the prescan saw seq 0: no sleep rotated out */
        struct sleep *sleeps; /* from the prescan */
        size_t n;
        int64_t *offsets;     /* n + 1: before the first resume, after each */

        /* The running state as records are fed. */
        bool in_suspend;      /* a suspend entry, and no resume-side record yet */
        size_t stretch;       /* resumes passed */
        bool duration_known;  /* the current sleep's duration was logged */
        uint64_t scanned_seq; /* the last record the prescan saw */
        int64_t offset;
        int64_t (*total_now)(void); /* live: the time slept since boot, now */
        /* The first bytes of the marks: this runs for every record, and most are passed over at their first byte. */
        bool mark_first[256];
};

static const char *const suspend_marks[] = {
        "PM: suspend entry", "PM: hibernation: hibernation entry", "PM: hibernation entry",
};
static const char *const resume_marks[] = {
        "ACPI: PM: Low-level resume complete", "ACPI: Low-level resume complete",
        "PM: resume from suspend-to-idle", "PM: Timekeeping suspended for", "Timekeeping suspended for",
        "PM: Suspended for", "Suspended for", "Enabling non-boot CPUs", "PM: suspend exit",
        "PM: hibernation: hibernation exit", "PM: hibernation exit",
};

static bool starts(const char *msg, size_t len, const char *word) {
        size_t n = strlen(word);

        return len >= n && memcmp(msg, word, n) == 0;
}

/* "... for 12.345 seconds": the duration in µs, or -1. */
static int64_t logged_duration(const char *msg, size_t len) {
        const char *p, *end = msg + len;
        int64_t sec = 0, usec = 0, scale = 100000;
        bool digits = false;

        /* After the "for ". */
        for (p = msg; p + 4 <= end && memcmp(p, "for ", 4) != 0; p++)
                ;
        if (p + 4 > end)
                return -1;
        for (p += 4; p < end && *p >= '0' && *p <= '9' && sec < INT64_MAX / 10000000; p++, digits = true)
                sec = sec * 10 + (*p - '0');
        if (p < end && *p == '.')
                for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
                        usec += (*p - '0') * scale;
                        scale /= 10;
                }
        if (!digits || end - p < 8 || memcmp(p, " seconds", 8) != 0)
                return -1;
        return sec * 1000000 + usec;
}

int suspends_classify(const char *msg, size_t len, int64_t *ret_duration_usec) {
        size_t i;

        *ret_duration_usec = -1;
        if (len == 0)
                return MARK_NONE;
        for (i = 0; i < sizeof(suspend_marks) / sizeof(suspend_marks[0]); i++)
                if (starts(msg, len, suspend_marks[i]))
                        return MARK_SUSPEND;
        for (i = 0; i < sizeof(resume_marks) / sizeof(resume_marks[0]); i++)
                if (starts(msg, len, resume_marks[i])) {
                        if (strstr(resume_marks[i], "uspended for"))
                                *ret_duration_usec = logged_duration(msg, len);
                        return MARK_RESUME;
                }
        return MARK_NONE;
}

static int classify_record(const struct suspends *s, const struct kmsg_record_view *v, int64_t *ret_duration) {
        *ret_duration = -1;
        /* The first byte first: it rules out nearly every record. */
        if (v->message_len == 0 || !s->mark_first[(unsigned char)v->message[0]])
                return MARK_NONE;
        if (!v->has_priority || v->priority >> 3 != 0)
                return MARK_NONE;
        return suspends_classify(v->message, v->message_len, ret_duration);
}

struct suspends *suspends_new(int64_t total_usec, int64_t (*total_now)(void)) {
        struct suspends *s = calloc(1, sizeof(*s));
        size_t i;

        if (!s)
                return NULL;
        s->total = total_usec;
        s->total_now = total_now;
        for (i = 0; i < sizeof(suspend_marks) / sizeof(suspend_marks[0]); i++)
                s->mark_first[(unsigned char)suspend_marks[i][0]] = true;
        for (i = 0; i < sizeof(resume_marks) / sizeof(resume_marks[0]); i++)
                s->mark_first[(unsigned char)resume_marks[i][0]] = true;
        /* Before any resume is seen, the live log's records are after every sleep. */
        s->offset = total_usec > 0 ? total_usec : 0;
        return s;
}

struct suspends *suspends_free(struct suspends *s) {
        if (s) {
                free(s->sleeps);
                free(s->offsets);
                free(s);
        }
        return NULL;
}

/*
 * The state machine both passes share.  Returns true at the first
 * resume-side record after a suspend entry; *ret_duration is set (else -1)
 * when the record logs the duration of the sleep, the first time for it.
 */
static bool step(struct suspends *s, const struct kmsg_record_view *v, int64_t *ret_duration) {
        int64_t d;
        int mark = classify_record(s, v, &d);
        bool next = false;

        *ret_duration = -1;
        if (mark == MARK_SUSPEND) {
                s->in_suspend = true;
                s->duration_known = false;
                return false;
        }
        if (mark != MARK_RESUME)
                return false;
        if (s->in_suspend) {
                s->in_suspend = false;
                next = true;
        }
        if (d >= 0 && !s->duration_known) {
                s->duration_known = true;
                *ret_duration = d;
        }
        return next;
}

/* Durations are logged by anyone who writes to the log: sums of them stop at INT64_MAX µs. */
static int64_t add_usec(int64_t a, int64_t b) {
        int64_t sum;

        return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

static void compute_offsets(struct suspends *s) {
        size_t n = s->n, i, j, unknown = 0, u = 0;
        int64_t known_sum = 0;

        for (i = 0; i < n; i++) {
                if (s->sleeps[i].duration < 0) {
                        unknown++;
                        u = i;
                } else
                        known_sum = add_usec(known_sum, s->sleeps[i].duration);
        }
        /* The one sleep the log does not time is what the clocks leave for it. */
        if (s->complete && unknown == 1 && s->total >= known_sum) {
                s->sleeps[u].duration = s->total - known_sum;
                unknown = 0;
        }
        for (i = 0; i <= n; i++) {
                int64_t later = 0, earlier = 0;
                bool later_known = true, earlier_known = s->complete;

                for (j = 0; j < n; j++) {
                        int64_t d = s->sleeps[j].duration;

                        if (j < i) {
                                if (d < 0)
                                        earlier_known = false;
                                else
                                        earlier = add_usec(earlier, d);
                        } else if (d < 0)
                                later_known = false;
                        else
                                later = add_usec(later, d);
                }
                if (later_known)
                        s->offsets[i] = s->total - later;
                else if (earlier_known)
                        s->offsets[i] = earlier;
                else
                        s->offsets[i] = s->total - later; /* the least upper bound */
                if (s->offsets[i] < 0)
                        s->offsets[i] = 0;
        }
}

int suspends_prescan(struct suspends *s, struct kmsg_reader *rd) {
        struct kmsg_record *r;
        bool first = true;
        int e;

        if (s->total < 0)
                return -EINVAL;
        for (;;) {
                struct kmsg_record_view v;
                int64_t d;

                e = kmsg_reader_next(rd, &r);
                if (e == 0 || e == -EAGAIN)
                        break;
                if (e == -EPIPE || e == -EBADMSG || e == -E2BIG || e == -EMSGSIZE)
                        continue;
                if (e < 0)
                        return e;
                if (!kmsg_record_has_seqnum(r))
                        continue;
                if (first)
                        s->complete = kmsg_record_get_seqnum(r) == 0;
                first = false;
                s->scanned_seq = kmsg_record_get_seqnum(r);
                kmsg_record_get_view(r, &v, sizeof(v));
                if (step(s, &v, &d) && s->n < MAX_SUSPENDS) {
                        struct sleep *ns = realloc(s->sleeps, (s->n + 1) * sizeof(*ns));

                        if (!ns)
                                return -ENOMEM;
                        s->sleeps = ns;
                        s->sleeps[s->n++] = (struct sleep){ .resume_seq = kmsg_record_get_seqnum(r), .duration = -1 };
                }
                if (d >= 0 && s->n > 0 && s->sleeps[s->n - 1].duration < 0)
                        s->sleeps[s->n - 1].duration = d;
        }
        s->offsets = calloc(s->n + 1, sizeof(*s->offsets));
        if (!s->offsets)
                return -ENOMEM;
        compute_offsets(s);
        s->prescanned = true;
        s->in_suspend = false;
        s->stretch = 0;
        s->offset = s->offsets[0];
        return 0;
}

void suspends_feed(struct suspends *s, const struct kmsg_record *r) {
        struct kmsg_record_view v;

        if (s && kmsg_record_get_view(r, &v, sizeof(v)) == 0)
                suspends_feed_view(s, &v);
}

void suspends_feed_view(struct suspends *s, const struct kmsg_record_view *v) {
        int64_t d;
        bool next;

        if (!s)
                return;
        if (s->prescanned && v->has_seqnum && v->seqnum <= s->scanned_seq) {
                uint64_t seq = v->seqnum;

                /* What the prescan saw: the stretch is found by sequence number. */
                s->stretch = 0;
                while (s->stretch < s->n && seq >= s->sleeps[s->stretch].resume_seq)
                        s->stretch++;
                s->offset = s->offsets[s->stretch];
                return;
        }
        next = step(s, v, &d);
        if (next && s->total_now) {
                /* A sleep while following the live log: the clocks tell it. */
                s->offset = s->total_now();
                return;
        }
        if (d >= 0 && !s->total_now)
                s->offset = add_usec(s->offset, d);
}

void suspends_new_boot(struct suspends *s) {
        if (!s || s->prescanned)
                return;
        s->offset = 0;
        s->in_suspend = s->duration_known = false;
}

int64_t suspends_offset(const struct suspends *s) {
        return s ? s->offset : 0;
}
