/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A record's boot id and wall-clock time, from the record where the input
 * carried them, else from what the options and the machine say
 * (place.h).
 */
#include <string.h>
#include <time.h>

#include "output/place.h"
#include "text/writer.h"

void place_of(const struct output_settings *set, const struct kmsg_record *r, struct place *ret) {
        struct kmsg_record_view v;

        kmsg_record_get_view(r, &v, sizeof(v));
        place_of_view(set, r, &v, ret);
}

/* Days since 1970-01-01 to the civil date (proleptic Gregorian), for days >= 0. */
static void civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d) {
        int64_t era, yoe, doy, mp;

        z += 719468;
        era = z / 146097;
        yoe = z - era * 146097;
        yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
        doy = (z - era * 146097) - (365 * yoe + yoe / 4 - yoe / 100);
        mp = (5 * doy + 2) / 153;
        *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
        *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
        *y = (int)(yoe + era * 400 + (*m <= 2));
}

static void put2(char *o, unsigned v) {
        o[0] = (char)('0' + v / 10);
        o[1] = (char)('0' + v % 10);
}

void place_iso(int64_t usec, int64_t *cache_second, char cache_text[20], char *out) {
        int64_t second = usec / 1000000;
        unsigned us = (unsigned)(usec % 1000000), i;

        if (second != *cache_second) {
                int64_t days = second / 86400, rest = second % 86400;
                unsigned m, d;
                int y;

                civil_from_days(days, &y, &m, &d);
                put2(cache_text, (unsigned)y / 100);
                put2(cache_text + 2, (unsigned)y % 100);
                cache_text[4] = '-';
                put2(cache_text + 5, m);
                cache_text[7] = '-';
                put2(cache_text + 8, d);
                cache_text[10] = 'T';
                put2(cache_text + 11, (unsigned)(rest / 3600));
                cache_text[13] = ':';
                put2(cache_text + 14, (unsigned)(rest / 60 % 60));
                cache_text[16] = ':';
                put2(cache_text + 17, (unsigned)(rest % 60));
                cache_text[19] = '.';
                *cache_second = second;
        }
        memcpy(out, cache_text, 20);
        for (i = 0; i < 6; i++) {
                out[25 - i] = (char)('0' + us % 10);
                us /= 10;
        }
        out[26] = 'Z';
}
