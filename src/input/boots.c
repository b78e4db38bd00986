/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boots of an input: one read of every source, summed up per boot (boots.h); --list-boots. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "input/boots.h"
#include "output/place.h"
#include "output/report.h"
#include "text/json.h"
#include "text/diag.h"
#include "text/util.h"
#include "text/writer.h"

struct scan {
        struct boots *out;
        const struct output_settings *set;
        uint64_t boots; /* as run->boots: 0 until the first record with a number */
        bool started;
        int err;
};

static struct boot_summary *boot_at(struct scan *sc, uint64_t n) {
        struct boots *b = sc->out;

        while (b->n < n) {
                struct boot_summary *a = realloc(b->b, (b->n + 1) * sizeof(*a));

                if (!a) {
                        sc->err = -ENOMEM;
                        return NULL;
                }
                b->b = a;
                memset(&b->b[b->n++], 0, sizeof(*a));
        }
        return &b->b[n - 1];
}

/* A record the tracker let through, with its flags: into its boot's summary. */
static void count(struct scan *sc, const struct kmsg_record *r, int fl) {
        struct boot_summary *s;
        struct place pl;
        const char *id;

        if (fl & KMSG_SEQ_DUPLICATE)
                return;
        if (fl & KMSG_SEQ_NEW_BOOT)
                sc->boots++;
        s = boot_at(sc, sc->boots ? sc->boots : 1);
        if (!s)
                return;
        s->records++;
        if (kmsg_record_has_timestamp(r)) {
                if (!s->have_time)
                        s->first_usec = kmsg_record_get_timestamp(r);
                s->last_usec = kmsg_record_get_timestamp(r);
                s->have_time = true;
        }
        if (kmsg_record_has_seqnum(r)) {
                if (!s->have_seq)
                        s->first_seq = kmsg_record_get_seqnum(r);
                s->last_seq = kmsg_record_get_seqnum(r);
                s->have_seq = true;
        }
        place_of(sc->set, r, &pl);
        id = pl.boot_id;
        if (!s->boot_id[0] && id)
                snprintf(s->boot_id, sizeof(s->boot_id), "%s", id);
        if (pl.have_wall) {
                if (!s->have_wall)
                        s->first_wall = pl.wall_usec;
                s->last_wall = pl.wall_usec;
                s->have_wall = true;
        }
}

static void released(struct scan *sc, struct kmsg_seqtrack *t) {
        struct kmsg_record *r;
        int fl;

        while ((fl = kmsg_seqtrack_pop(t, &r, NULL)) >= 0) {
                count(sc, r, fl);
                kmsg_record_unref(r);
        }
}

/* Feed one reader to its end (-EAGAIN: the device's end). */
static int scan_reader(struct scan *sc, struct kmsg_seqtrack *t, struct kmsg_reader *rd) {
        struct kmsg_record *r;
        int e, fl;

        while ((e = kmsg_reader_next(rd, &r)) != 0 && e != -EAGAIN) {
                /* As the run: bad records are skipped (and said there), an overrun moves on. */
                if (e == -EBADMSG || e == -E2BIG || e == -EMSGSIZE || e == -EPIPE)
                        continue;
                if (e < 0)
                        return e;
                if (!sc->started && kmsg_record_has_seqnum(r)) {
                        sc->started = true;
                        sc->boots = 1;
                }
                fl = kmsg_seqtrack_feed(t, r, NULL);
                if (fl < 0)
                        return fl;
                if (fl & KMSG_SEQ_HELD)
                        released(sc, t);
                else
                        count(sc, r, fl);
                if (sc->err)
                        return sc->err;
        }
        e = kmsg_seqtrack_settle(t);
        if (e >= 0)
                released(sc, t);
        return e < 0 ? e : sc->err;
}

static int scan_source(struct scan *sc, struct kmsg_seqtrack *t, const char *path, enum kmsg_format format,
                       bool device) {
        struct kmsg_reader *rd;
        int fd = -1, e;

        if (device)
                e = kmsg_reader_new_device(path, KMSG_SEEK_START, &rd);
        else if (strcmp(path, "-") == 0)
                e = kmsg_reader_new_fd(STDIN_FILENO, "<stdin>", format, &rd);
        else {
                fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                e = fd < 0 ? -errno : kmsg_reader_new_fd(fd, path, format, &rd);
        }
        if (e == 0) {
                e = scan_reader(sc, t, rd);
                kmsg_reader_unref(rd);
        }
        if (fd >= 0)
                close(fd);
        if (e < 0)
                warnx_(_("cannot read %s: %s"), path ? path : "/dev/kmsg", strerror(-e));
        return e;
}

int boots_scan(const struct input *in, const struct output_settings *set, struct boots *ret) {
        struct output_settings s = *set;
        struct scan sc = { .out = ret, .set = &s };
        struct kmsg_seqtrack *t;
        size_t i;
        int e;

        *ret = (struct boots){ 0 };
        /* The wall clock of a stamp without the suspends, which only the run follows. */
        s.time.susp = NULL;
        e = kmsg_seqtrack_new(&t);
        if (e < 0 || (e = kmsg_seqtrack_set_reorder_window(t, REORDER_WINDOW)) < 0) {
                kmsg_seqtrack_unref(t);
                warnx_("%s", strerror(-e));
                return e;
        }
        if (in->n_sources == 0)
                e = scan_source(&sc, t, in->device_path, KMSG_FORMAT_AUTO, true);
        for (i = 0; i < in->n_sources && e >= 0; i++)
                e = scan_source(&sc, t, in->sources[i].path, in->sources[i].format, in->sources[i].device);
        if (e >= 0 && (e = kmsg_seqtrack_finish(t)) >= 0)
                released(&sc, t);
        kmsg_seqtrack_unref(t);
        if (e >= 0 && sc.err < 0) {
                e = sc.err;
                warnx_("%s", strerror(-e));
        }
        if (e < 0)
                boots_free(ret);
        return e;
}

void boots_free(struct boots *b) {
        free(b->b);
        *b = (struct boots){ 0 };
}

static void cell(const char *s, int width) {
        int n = (int)strlen(s);

        out_puts(s);
        while (n++ < width)
                out_putc(' ');
}

/* The wall clock usec as ISO 8601 and as microseconds, under the keys iso and usec_key. */
static int add_wall(struct json_object *o, const char *iso_key, const char *usec_key, int64_t usec) {
        char iso[PLACE_ISO_LEN], text[20];
        int64_t cache = -1;

        place_iso(usec, &cache, text, iso);
        if (json_add(o, iso_key, json_object_new_string_len(iso, PLACE_ISO_LEN)) < 0)
                return -ENOMEM;
        return json_add(o, usec_key, json_object_new_int64(usec));
}

/* One boot as a JSON object (data/kdmesg-boots.schema.json): what is not known is absent. */
static struct json_object *boot_json(const struct boots *b, size_t i) {
        const struct boot_summary *s = &b->b[i];
        struct json_object *o = json_object_new_object();
        int e;

        if (!o)
                return NULL;
        e = json_add(o, "boot", json_object_new_uint64(i + 1));
        if (e >= 0)
                e = json_add(o, "index", json_object_new_int64(-(int64_t)(b->n - 1 - i)));
        if (e >= 0 && s->boot_id[0])
                e = json_add(o, "boot_id", json_bytes_new(s->boot_id, strlen(s->boot_id)));
        if (e >= 0)
                e = json_add(o, "records", json_object_new_uint64(s->records));
        if (e >= 0 && s->have_seq)
                e = json_add(o, "first_seq", json_object_new_uint64(s->first_seq));
        if (e >= 0 && s->have_seq)
                e = json_add(o, "last_seq", json_object_new_uint64(s->last_seq));
        if (e >= 0 && s->have_time)
                e = json_add(o, "first_time", json_usec_new(s->first_usec));
        if (e >= 0 && s->have_time)
                e = json_add(o, "last_time", json_usec_new(s->last_usec));
        if (e >= 0 && s->have_wall)
                e = add_wall(o, "first_realtime", "first_realtime_usec", s->first_wall);
        if (e >= 0 && s->have_wall)
                e = add_wall(o, "last_realtime", "last_realtime_usec", s->last_wall);
        if (e < 0) {
                json_object_put(o);
                return NULL;
        }
        return o;
}

static int boots_list_json(const struct boots *b) {
        size_t i;

        for (i = 0; i < b->n; i++)
                if (report_json_line(boot_json(b, i)) < 0) {
                        warnx_("%s", strerror(ENOMEM));
                        return EXIT_BAD_INPUT;
                }
        return out_close() < 0 ? EXIT_BAD_INPUT : 0;
}

int boots_list(const struct boots *b, bool json) {
        bool wall = false;
        char buf[64];
        size_t i;

        if (json)
                return boots_list_json(b);
        for (i = 0; i < b->n; i++)
                wall |= b->b[i].have_wall;
        out_puts(_("BOOT   IDX BOOT ID                          RECORDS        FIRST         LAST"));
        if (wall)
                out_puts(_(" FIRST REALTIME              LAST REALTIME"));
        out_putc('\n');
        for (i = 0; i < b->n; i++) {
                const struct boot_summary *s = &b->b[i];
                char iso[PLACE_ISO_LEN + 1] = "-", text[20];
                int64_t cache = -1;

                snprintf(buf, sizeof(buf), "%4zu %5lld ", i + 1, -(long long)(b->n - 1 - i));
                out_puts(buf);
                cell(s->boot_id[0] ? s->boot_id : "-", 32);
                snprintf(buf, sizeof(buf), " %7llu ", (unsigned long long)s->records);
                out_puts(buf);
                if (s->have_time) {
                        char a[32], z[32];

                        timefmt_mono(s->first_usec, a, sizeof(a));
                        timefmt_mono(s->last_usec, z, sizeof(z));
                        snprintf(buf, sizeof(buf), "%12s %12s", a, z);
                } else
                        snprintf(buf, sizeof(buf), "%12s %12s", "-", "-");
                out_puts(buf);
                if (wall) {
                        out_putc(' ');
                        if (s->have_wall)
                                place_iso(s->first_wall, &cache, text, iso);
                        iso[s->have_wall ? PLACE_ISO_LEN : 1] = '\0';
                        cell(iso, PLACE_ISO_LEN);
                        out_putc(' ');
                        if (s->have_wall)
                                place_iso(s->last_wall, &cache, text, iso);
                        out_puts(iso);
                }
                out_putc('\n');
        }
        return out_close() < 0 ? EXIT_BAD_INPUT : 0;
}
