/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulated /dev/kmsg: a ring of fixed-size record slots in a shared,
 * memory-mapped file.  kmsg-emu (the writer the tests drive) appends
 * records; kmsg-emu-shim.so, preloaded into kdmesg, serves open(), read(),
 * lseek(), poll() and fstat() of /dev/kmsg from it with the kernel's
 * semantics (KMSG.md): one record per read(), EPIPE with no data when the
 * reader was overrun, EINVAL (record consumed) for a short buffer,
 * SEEK_SET/SEEK_DATA/SEEK_END only, POLLIN and POLLERR|POLLPRI.
 *
 * Readers are woken through inotify: the writer pwrite()s the tick field
 * after adding records, which queues IN_MODIFY on the ring file.
 */
#ifndef KMSG_EMU_RING_H
#define KMSG_EMU_RING_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define EMU_MAGIC 0x6b6d7367u /* "kmsg" */
#define EMU_TEXT_MAX 1000     /* what a write() to /dev/kmsg may carry */

struct emu_slot {
        uint64_t seq;
        uint64_t usec;
        uint32_t prio;
        uint32_t len;
        char text[EMU_TEXT_MAX];
};

struct emu_ring {
        uint32_t magic;
        uint32_t capacity; /* slots */
        pthread_mutex_t lock; /* process-shared, robust */
        uint64_t first_seq; /* oldest record still in the ring */
        uint64_t next_seq;  /* the next record written gets this */
        uint64_t clear_seq; /* SEEK_DATA position ("dmesg -C") */
        char boot_id[40];   /* 36 characters + NUL */
        uint64_t tick;      /* written with pwrite() to wake readers */
        /* Statistics, updated by the shim (atomically). */
        uint64_t n_open;
        uint64_t n_read;
        uint64_t n_poll;  /* poll() calls that involved the device */
        uint64_t n_block; /* of them, those that had to wait */
        uint64_t n_epipe;
        uint64_t n_timed; /* poll() calls on the device with a time-out (not infinite) */
        uint64_t n_rename; /* rename() calls (the cursor file's updates) */
        uint64_t n_out_write; /* write() calls to standard output */
        /* Set by "kmsg-emu write" at a fixed rate: its worst lag behind the schedule, microseconds. */
        uint64_t writer_late_us;
        /* One past the highest seq a read() of any reader was handed (0: none yet); a reboot sets it to 0. */
        uint64_t read_next;
        struct emu_slot slots[];
};

static inline size_t emu_ring_size(uint32_t capacity) {
        return sizeof(struct emu_ring) + (size_t)capacity * sizeof(struct emu_slot);
}

#endif
