/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_BOOTS_H
#define KDMESG_BOOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/source.h"
#include "output/sink.h"

/*
 * The boots of an input, for --list-boots and for --boot counted from the
 * last (0, -1): the sources read once through a sequence tracker as the
 * run reads them (pipeline/run.c), so that each record falls in the boot
 * the run gives it: the first from the first record with a sequence
 * number (records without one before it: the first too), a new one at
 * each KMSG_SEQ_NEW_BOOT.
 */
struct boot_summary {
        uint64_t records;
        bool have_time;
        uint64_t first_usec, last_usec; /* time stamps of the first and last records that have one */
        bool have_seq;
        uint64_t first_seq, last_seq;
        char boot_id[33];               /* the boot's id, as its first record that names one does; "" */
        bool have_wall;                 /* their wall-clock times, where known (output/place.h) */
        int64_t first_wall, last_wall;
};

struct boots {
        struct boot_summary *b;
        size_t n;
};

/*
 * Read every source of in (the live log: the ring, to its end) and sum up
 * its boots into *ret (boots_free() it); set: the output settings, for the
 * wall clock.  Returns 0, or -errno after saying on stderr what could not
 * be read.
 */
int boots_scan(const struct input *in, const struct output_settings *set, struct boots *ret);
void boots_free(struct boots *b);
/*
 * --list-boots: the table of the boots, one line each, or with json one
 * JSON object a line (data/kdmesg-boots.schema.json); an exit status.
 */
int boots_list(const struct boots *b, bool json);

#endif
