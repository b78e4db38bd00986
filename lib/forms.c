/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The table of input forms (one stream-*.c each) and the detection of a
 * stream's form from its first lines, which asks each row.  Apart from
 * stream.c, whose fill and consume loop the forms use, so that no object
 * file of the library needs one that needs it back.
 */
#include <errno.h>
#include <string.h>

#include "reader-private.h"

/*
 * The input forms, in the order libkmsg names them (kmsg_format_nth(),
 * kdmesg's --help and --input-format).  A new form is its file
 * (stream-NAME.c, defining its stream_ops) and a row here, with its
 * KMSG_FORMAT_ value in libkmsg.h.
 */
static const struct stream_ops *const stream_forms[] = {
        &stream_kmsg_ops,
        &stream_syslog_ops,
        &stream_export_ops,
        &stream_json_ops,
};

#define N_FORMS (sizeof(stream_forms) / sizeof(stream_forms[0]))

const struct stream_ops *stream_form(enum kmsg_format format) {
        size_t i;

        for (i = 0; i < N_FORMS; i++)
                if (stream_forms[i]->format == format)
                        return stream_forms[i];
        return NULL;
}

_public_ enum kmsg_format kmsg_format_nth(unsigned n) {
        return n < N_FORMS ? stream_forms[n]->format : KMSG_FORMAT_AUTO;
}

_public_ const char *kmsg_format_to_name(enum kmsg_format format) {
        const struct stream_ops *f = stream_form(format);

        return format == KMSG_FORMAT_AUTO ? "auto" : f ? f->name : NULL;
}

_public_ int kmsg_format_from_name(const char *name) {
        size_t i;

        if (!name)
                return -EINVAL;
        if (strcmp(name, "auto") == 0)
                return KMSG_FORMAT_AUTO;
        for (i = 0; i < N_FORMS; i++)
                if (strcmp(name, stream_forms[i]->name) == 0)
                        return (int)stream_forms[i]->format;
        return -EINVAL;
}

/* The form whose record a line starts, or KMSG_FORMAT_AUTO for none (blank, dictionary, junk). */
static enum kmsg_format line_format(const char *p, size_t len) {
        const char *h = p, *end = p + len;
        size_t i;

        if (len > 0 && p[len - 1] == '\r')
                end--;
        while (h < end && (*h == ' ' || *h == '\t'))
                h++;
        if (h == end)
                return KMSG_FORMAT_AUTO;
        for (i = 0; i < N_FORMS; i++)
                if (stream_forms[i]->detect(p, end))
                        return stream_forms[i]->format;
        return KMSG_FORMAT_AUTO;
}

/* Lines that start records of one format before detection decides; more input is read until then. */
#define DETECT_LINES 2
#define DETECT_WINDOW 65536u

/*
 * Count the lines of the unread bytes (NUL ends a line too) that start a
 * record of each format.  The first format with DETECT_LINES such lines
 * wins; when the input ends, pauses or passes the window first, the one
 * with the most (the first seen on a tie), and kmsg when none has any:
 * a file cut in a record (on dictionary lines, in the middle of a line)
 * or with junk before its records gets the format of the records after.
 */
static enum kmsg_format detect(const char *p, size_t len, bool complete) {
        const char *end = p + len;
        unsigned count[KMSG_FORMAT_JSON + 1] = { 0 }, order[KMSG_FORMAT_JSON + 1] = { 0 }, seen = 0;
        enum kmsg_format f, best = KMSG_FORMAT_AUTO;

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                const char *nul = memchr(p, '\0', (size_t)((nl ? nl : end) - p));
                const char *eol = nul ? nul : nl;

                if (!eol && !complete)
                        break; /* an unfinished line says nothing yet */
                if (!eol)
                        eol = end;
                f = line_format(p, (size_t)(eol - p));
                if (f != KMSG_FORMAT_AUTO) {
                        if (count[f]++ == 0)
                                order[f] = ++seen;
                        if (count[f] >= DETECT_LINES)
                                return f;
                }
                p = eol + (eol < end ? 1 : 0);
        }
        if (!complete)
                return KMSG_FORMAT_AUTO;
        for (f = KMSG_FORMAT_KMSG; f <= KMSG_FORMAT_JSON; f++)
                if (count[f] > 0 &&
                    (best == KMSG_FORMAT_AUTO || count[f] > count[best] || (count[f] == count[best] && order[f] < order[best])))
                        best = f;
        return best == KMSG_FORMAT_AUTO ? KMSG_FORMAT_KMSG : best;
}

int stream_detect(struct kmsg_reader *rd) {
        for (;;) {
                bool complete = rd->eof || rd->end - rd->start >= DETECT_WINDOW;
                enum kmsg_format f = detect(rd->buf + rd->start, rd->end - rd->start, complete);
                int n;

                if (f != KMSG_FORMAT_AUTO) {
                        rd->format = f;
                        return 0;
                }
                n = stream_fill(rd);
                if ((n == -EAGAIN || n == -EINTR) && rd->start < rd->end) {
                        /* Following and the data paused, or interrupted: decide on what is there. */
                        rd->format = detect(rd->buf + rd->start, rd->end - rd->start, true);
                        return 0;
                }
                if (n < 0)
                        return n;
        }
}
