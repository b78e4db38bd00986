/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The literals of all rules in one index, each by two of its bytes (the
 * rarest in text: punctuation and capitals rather than small letters and
 * blanks), so that one pass over a record's text tells which rules can
 * match it: a byte per two bytes rejects most positions at once (a load
 * and a test: a bit would take a shift and a mask more), and the
 * literals indexed by the two bytes of a position are compared there.  A
 * rule is then tried (its conditions, its regex) only when one of its
 * literals is in the text; every record costs one pass, not one search
 * per rule.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "select/rules.h"

#define KEYS 65536

static unsigned key_of(const char *s) {
        return (unsigned)(unsigned char)s[0] | (unsigned)(unsigned char)s[1] << 8;
}

/*
 * How rare a byte is in a kernel message: blanks and small letters are
 * everywhere (the letters in about the order of their frequency in
 * English), digits less so, capitals and punctuation least.
 */
static unsigned rarity(unsigned char c) {
        static const char letters[] = "etaoinsrhldcumfpgwybvkxjqz";
        const char *l;

        if (c == ' ')
                return 0;
        if (c >= 'a' && c <= 'z') {
                l = strchr(letters, c);
                return l ? (unsigned)(l - letters) : 0;
        }
        if (c >= '0' && c <= '9')
                return 30;
        if (c >= 'A' && c <= 'Z')
                return 40;
        return 50;
}

/* Where in lit (n >= 2 bytes) the two bytes to index it by start. */
static size_t rarest_pair(const char *lit, size_t n) {
        size_t k, best = 0;
        unsigned score = 0;

        for (k = 0; k + 1 < n && k < 0xffff; k++) {
                unsigned sc = rarity((unsigned char)lit[k]) + rarity((unsigned char)lit[k + 1]);

                if (sc > score || k == 0) {
                        score = sc;
                        best = k;
                }
        }
        return best;
}

void rule_index_free(struct problems *p) {
        free(p->bigrams);
        free(p->heads);
        free(p->entries);
        free(p->stamps);
        free(p->always);
        free(p->cand);
        free(p->hits);
        p->always = p->cand = p->hits = NULL;
        p->n_always = p->n_cand = 0;
        p->bigrams = NULL;
        p->heads = NULL;
        p->entries = NULL;
        p->stamps = NULL;
        p->indexed = 0;
}

int rule_index_build(struct problems *p) {
        size_t i, n = 0, k;

        rule_index_free(p);
        for (i = 0; i < p->n; i++)
                n += p->rules[i].n_literals;
        p->bigrams = calloc(KEYS, 1);
        p->heads = malloc(KEYS * sizeof(*p->heads));
        p->entries = malloc((n ? n : 1) * sizeof(*p->entries));
        p->stamps = calloc(p->n ? p->n : 1, sizeof(*p->stamps));
        p->always = malloc((p->n ? p->n : 1) * sizeof(*p->always));
        p->cand = malloc((p->n ? p->n : 1) * sizeof(*p->cand));
        p->hits = malloc((p->n ? p->n : 1) * sizeof(*p->hits));
        if (!p->bigrams || !p->heads || !p->entries || !p->stamps || !p->always || !p->cand || !p->hits) {
                rule_index_free(p);
                return -ENOMEM;
        }
        memset(p->heads, 0xff, KEYS * sizeof(*p->heads));
        n = 0;
        for (i = 0; i < p->n; i++) {
                struct rule *r = &p->rules[i];

                /* A skip or anchor rule is tried on function names, never on a record's text. */
                if (r->type == RULE_SKIP || r->type == RULE_ANCHOR)
                        continue;
                r->indexed = r->n_literals > 0;
                for (k = 0; k < r->n_literals; k++)
                        if (r->literal_lens[k] < 2)
                                r->indexed = false;
                if (!r->indexed)
                        p->always[p->n_always++] = (uint32_t)i;
                for (k = 0; r->indexed && k < r->n_literals; k++) {
                        size_t at = rarest_pair(r->literals[k], r->literal_lens[k]);
                        unsigned key = key_of(r->literals[k] + at);

                        p->entries[n] = (struct lit_entry){
                                .rule = (uint32_t)i, .lit = (uint16_t)k, .at = (uint16_t)at, .next = p->heads[key]
                        };
                        p->heads[key] = (int32_t)n++;
                        p->bigrams[key] = 1;
                }
        }
        p->gen = 0;
        p->indexed = p->n;
        return 0;
}

void rule_index_scan(struct problems *p, const char *text, size_t len) {
        size_t i, hits = 0, a = 0, h = 0;
        uint32_t *hit = p->hits;

        if (++p->gen == 0) {
                /* After 2^32 records: no stamp may look current. */
                memset(p->stamps, 0, p->n * sizeof(*p->stamps));
                p->gen = 1;
        }
        /* The rules with a literal here, then merged with always into cand. */
        for (i = 0; i + 1 < len; i++) {
                unsigned key;
                int32_t e;

                /* Two positions a turn while neither is indexed: nearly every position of a text. */
                while (i + 3 < len && !p->bigrams[key_of(text + i)] && !p->bigrams[key_of(text + i + 1)])
                        i += 2;
                key = key_of(text + i);
                if (!p->bigrams[key])
                        continue;
                for (e = p->heads[key]; e >= 0; e = p->entries[e].next) {
                        const struct lit_entry *le = &p->entries[e];
                        const struct rule *r = &p->rules[le->rule];
                        size_t n = r->literal_lens[le->lit], at = le->at;

                        /* The literal would start at i - at. */
                        if (p->stamps[le->rule] == p->gen || at > i || n > len - (i - at))
                                continue;
                        if (r->literal_anchored[le->lit] && i > at && text[i - at - 1] != '\n')
                                continue;
                        if (memcmp(text + i - at, r->literals[le->lit], n) == 0) {
                                p->stamps[le->rule] = p->gen;
                                hit[hits++] = le->rule;
                        }
                }
        }
        /* Few hits: sorted by insertion. */
        for (i = 1; i < hits; i++) {
                uint32_t v = hit[i];
                size_t j = i;

                for (; j > 0 && hit[j - 1] > v; j--)
                        hit[j] = hit[j - 1];
                hit[j] = v;
        }
        p->n_cand = 0;
        while (a < p->n_always || h < hits) {
                if (h == hits || (a < p->n_always && p->always[a] < hit[h]))
                        p->cand[p->n_cand++] = p->always[a++];
                else
                        p->cand[p->n_cand++] = hit[h++];
        }
}
