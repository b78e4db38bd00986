/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The problem rules: their grammar, and reading them from files.  The
 * classifier that uses them is select/problems.c.  One rule a line:
 *
 *     KIND [report] [level=LIST] [subsystem=GLOB] [device=GLOB]
 *          [subject=TEMPLATE] [devname=TEMPLATE] /REGEX/[i]
 *     KIND part [end] /REGEX/       a line of an open report of KIND
 *     any part [end] /REGEX/        a line of any open report
 *     ignore [conditions] /REGEX/   not a problem (checked in order too)
 *     KIND|any frame name=TEMPLATE /REGEX/   a line of an open report naming a function of its stack
 *     KIND|any skip /REGEX/         a function of the machinery (the regex is on the name)
 *
 * The regex is a POSIX extended regular expression on the message (each
 * line of a multi-line message is a line for ^ and $); it runs from the
 * first word that starts with '/' to the last '/' of the line.  Templates
 * copy their text with \1 to \9 replaced by the regex's groups; a value
 * may be quoted ("...", with \" for a quote) to hold spaces.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "select/regex-cost.h"
#include "select/rules.h"

struct problems *problems_new(void) {
        struct problems *p = calloc(1, sizeof(*p));

        if (p) {
                p->open = PROBLEM_NONE;
                p->cloc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        }
        return p;
}

static void rule_free_strings(struct rule *r) {
        free(r->text);
        free(r->subsystem);
        free(r->device);
        free(r->subject);
        free(r->devname);
        free(r->name);
        free(r->access);
        for (size_t i = 0; i < r->n_literals; i++)
                free(r->literals[i]);
}

static void rule_done(struct rule *r) {
        rule_free_strings(r);
        regfree(&r->re);
}

struct problems *problems_free(struct problems *p) {
        size_t i;

        if (!p)
                return NULL;
        for (i = 0; i < p->n; i++)
                rule_done(&p->rules[i]);
        free(p->rules);
        for (i = 0; i < p->n_sources; i++)
                free(p->sources[i]);
        free(p->sources);
        rule_index_free(p);
        if (p->cloc)
                freelocale(p->cloc);
        free(p);
        return NULL;
}

const char *problems_error(const struct problems *p) {
        return p->error;
}

size_t problems_count(const struct problems *p) {
        return p->n;
}

int problems_rule_info(const struct problems *p, size_t i, struct problem_rule_info *ret) {
        if (i >= p->n)
                return -ENOENT;
        ret->source = p->rules[i].source;
        ret->line = p->rules[i].line;
        ret->text = p->rules[i].text;
        return 0;
}

/* The source name as kept for the rules (one copy per name); NULL when out of memory. */
static const char *intern_source(struct problems *p, const char *name) {
        char **n;

        if (p->n_sources > 0 && strcmp(p->sources[p->n_sources - 1], name) == 0)
                return p->sources[p->n_sources - 1];
        n = realloc(p->sources, (p->n_sources + 1) * sizeof(*n));
        if (!n)
                return NULL;
        p->sources = n;
        if (!(n[p->n_sources] = strdup(name)))
                return NULL;
        return n[p->n_sources++];
}

static int __attribute__((format(printf, 4, 5)))
bad(struct problems *p, const char *name, unsigned line, const char *fmt, ...) {
        char what[400];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(what, sizeof(what), fmt, ap);
        va_end(ap);
        snprintf(p->error, sizeof(p->error), "%s:%u: %s", name, line, what);
        return -EINVAL;
}

/*
 * A level list as --level takes it: "err,warn", "3", "err+" (err and more
 * severe), "+warn" (warn and less severe).  Sets *mask (bit per level);
 * returns NULL, or the item that is no level (in item, the caller's).
 */
static const char *parse_levels(const char *list, uint8_t *mask, char item[64]) {
        const char *p = list;

        *mask = 0;
        if (!*list)
                return "";
        while (*p) {
                size_t n = strcspn(p, ",");
                bool up = false, down = false;
                char *s = item;
                int lvl, i;

                if (n >= 64)
                        n = 63;
                memcpy(item, p, n);
                item[n] = '\0';
                p += strcspn(p, ",");
                if (*p)
                        p++;
                if (n > 1 && item[n - 1] == '+') {
                        item[n - 1] = '\0';
                        up = true;
                } else if (n > 1 && item[0] == '+') {
                        s++;
                        down = true;
                }
                if (s[0] >= '0' && s[0] <= '7' && !s[1])
                        lvl = s[0] - '0';
                else
                        lvl = kmsg_level_from_name(s);
                if (lvl < 0)
                        return s;
                for (i = 0; i < 8; i++)
                        if (i == lvl || (up && i < lvl) || (down && i > lvl))
                                *mask |= (uint8_t)(1u << i);
        }
        return NULL;
}

/* The next word of *s: a bare word, or KEY="quoted value"; NULL at the end of the line. */
static char *next_word(char **s, bool *ret_unterminated) {
        char *p = *s, *w, *d;

        *ret_unterminated = false;
        while (*p == ' ' || *p == '\t')
                p++;
        if (!*p)
                return NULL;
        w = d = p;
        while (*p && *p != ' ' && *p != '\t') {
                if (*p == '"') {
                        p++;
                        while (*p && *p != '"') {
                                if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
                                        p++;
                                *d++ = *p++;
                        }
                        if (*p != '"') {
                                *ret_unterminated = true;
                                return NULL;
                        }
                        p++;
                        continue;
                }
                *d++ = *p++;
        }
        if (*p)
                p++;
        *d = '\0';
        *s = p;
        return w;
}

/* The \N references of a template name groups the regex has; 0 or -EINVAL. */
static int check_template(struct problems *p, const char *name, unsigned line, const char *key, const char *t,
                          size_t n_groups, bool part, bool report) {
        for (; *t; t++) {
                if (*t != '\\')
                        continue;
                if (t[1] >= '1' && t[1] <= '9' && (size_t)(t[1] - '0') > n_groups)
                        return bad(p, name, line, _("%s=: \\%c, but the regex has %zu groups"), key, t[1],
                                   n_groups);
                if (t[1] == 's' && !part)
                        return bad(p, name, line, _("%s=: \\s (the report's subject) is for 'part' rules"), key);
                if ((t[1] == 'f' || t[1] == 'F' || t[1] == 'a') && !report)
                        return bad(p, name, line, _("%s=: \\%c is for the subject of a report"), key, t[1]);
                if (t[1])
                        t++;
        }
        return 0;
}

static int parse_rule(struct problems *p, const char *name, unsigned line, char *s) {
        struct rule r = { .kind = PROBLEM_NONE, .line = line };
        char *w, *re = NULL, *end;
        bool unterminated, icase = false;
        uint64_t pieces = 0;
        const char *why;
        int e;

        r.source = intern_source(p, name);
        r.text = strdup(s);
        if (!r.source || !r.text) {
                free(r.text);
                snprintf(p->error, sizeof(p->error), "%s", strerror(ENOMEM));
                return -ENOMEM;
        }

        w = next_word(&s, &unterminated);
        if (!w) {
                rule_free_strings(&r);
                return bad(p, name, line, _("a quoted value has no closing '\"'"));
        }
        if (strcmp(w, "ignore") == 0)
                r.type = RULE_IGNORE;
        else if (strcmp(w, "any") == 0)
                r.kind = KIND_ANY;
        else if ((r.kind = problem_kind_from_name(w)) < 0) {
                char list[300] = "";
                int i;

                for (i = 0; i < _PROBLEM_MAX; i++) {
                        strcat(list, problem_kind_name(i));
                        strcat(list, ", ");
                }
                e = bad(p, name, line, _("unknown kind '%s' (expected %sany or ignore)"), w, list);
                rule_free_strings(&r);
                return e;
        }
        for (;;) {
                while (*s == ' ' || *s == '\t')
                        s++;
                if (*s == '/') {
                        re = s + 1;
                        end = strrchr(re, '/');
                        if (!end) {
                                rule_free_strings(&r);
                                return bad(p, name, line, _("the regex has no closing '/'"));
                        }
                        if (strcmp(end + 1, "i") == 0)
                                icase = true;
                        else if (end[1]) {
                                rule_free_strings(&r);
                                return bad(p, name, line, _("'%s' after the regex"), end + 1);
                        }
                        *end = '\0';
                        break;
                }
                w = next_word(&s, &unterminated);
                if (unterminated) {
                        rule_free_strings(&r);
                        return bad(p, name, line, _("a quoted value has no closing '\"'"));
                }
                if (!w)
                        break;
                if (strcmp(w, "report") == 0 && r.type == RULE_PROBLEM)
                        r.report = true;
                else if (strcmp(w, "retitle") == 0 && r.type == RULE_PROBLEM && r.report)
                        r.retitle = true;
                else if (strcmp(w, "part") == 0 && r.type == RULE_PROBLEM && !r.report)
                        r.type = RULE_PART;
                else if (strcmp(w, "stop") == 0 && r.type == RULE_PROBLEM && !r.report)
                        r.type = RULE_STOP;
                else if (strcmp(w, "frame") == 0 && r.type == RULE_PROBLEM && !r.report)
                        r.type = RULE_FRAME;
                else if (strcmp(w, "skip") == 0 && r.type == RULE_PROBLEM && !r.report)
                        r.type = RULE_SKIP;
                else if (strcmp(w, "anchor") == 0 && r.type == RULE_PROBLEM && !r.report)
                        r.type = RULE_ANCHOR;
                else if (strncmp(w, "name=", 5) == 0 && (r.type == RULE_FRAME || r.type == RULE_ANCHOR) && !r.name)
                        r.name = strdup(w + 5);
                else if (strncmp(w, "access=", 7) == 0 && r.type == RULE_PART && !r.access)
                        r.access = strdup(w + 7);
                else if (strcmp(w, "end") == 0 && r.type == RULE_PART)
                        r.end = true;
                else if (strcmp(w, "hidenext") == 0 && r.type == RULE_PART)
                        r.hidenext = true;
                else if (strncmp(w, "level=", 6) == 0) {
                        char item[64];
                        const char *badlvl = parse_levels(w + 6, &r.levels, item);

                        if (badlvl) {
                                rule_free_strings(&r);
                                return bad(p, name, line, _("unknown level '%s'"), badlvl);
                        }
                        r.have_levels = true;
                } else if (strncmp(w, "subsystem=", 10) == 0 && !r.subsystem)
                        r.subsystem = strdup(w + 10);
                else if (strncmp(w, "device=", 7) == 0 && !r.device)
                        r.device = strdup(w + 7);
                else if (strncmp(w, "subject=", 8) == 0 && !r.subject)
                        r.subject = strdup(w + 8);
                else if (strncmp(w, "devname=", 8) == 0 && !r.devname)
                        r.devname = strdup(w + 8);
                else {
                        rule_free_strings(&r);
                        return bad(p, name, line, _("unknown word '%s'"), w);
                }
        }
        e = 0;
        if (!re)
                e = bad(p, name, line, _("no /regex/"));
        else if (!*re)
                e = bad(p, name, line, _("an empty regex"));
        else if (r.kind == KIND_ANY && (r.type == RULE_PROBLEM || r.type == RULE_IGNORE))
                e = bad(p, name, line, _("'any' is only for 'part', 'stop', 'frame', 'skip' and 'anchor' rules"));
        else if (r.type == RULE_FRAME && !r.name)
                e = bad(p, name, line, _("a 'frame' rule needs name="));
        else if ((r.type == RULE_FRAME || r.type == RULE_SKIP || r.type == RULE_ANCHOR) &&
                 (r.have_levels || r.subsystem || r.device || r.subject || r.devname))
                e = bad(p, name, line, _("a 'frame', 'skip' or 'anchor' rule takes no conditions and no subject"));
        else if (r.type == RULE_PART && (r.have_levels || r.subsystem || r.device || r.devname))
                e = bad(p, name, line, _("a 'part' rule takes no conditions and no devname"));
        else if (r.type == RULE_STOP && (r.have_levels || r.subsystem || r.device || r.subject || r.devname))
                e = bad(p, name, line, _("a 'stop' rule takes no conditions and no subject"));
        if (e < 0) {
                /* Nothing compiled yet: free the strings only. */
                rule_free_strings(&r);
                return e;
        }
        /*
         * A skip rule's regex is matched on a function's name, at most
         * MAX_FRAME bytes, never on a record: the bound on what a match may
         * skip is for the 8 MiB a record's text may be, not for it.
         */
        why = r.type == RULE_SKIP || r.type == RULE_ANCHOR ? regex_cost_measure(re, &pieces) : regex_cost_rule(re, &pieces);
        if (why) {
                rule_free_strings(&r);
                return bad(p, name, line, _("regex too costly: %s"), why);
        }
        if (p->pieces + pieces > MAX_TOTAL_PIECES) {
                rule_free_strings(&r);
                return bad(p, name, line, _("rules too costly: all rules together over %d pieces"), MAX_TOTAL_PIECES);
        }
        {
                locale_t was = p->cloc ? uselocale(p->cloc) : (locale_t)0;

                e = regcomp(&r.re, re, REG_EXTENDED | REG_NEWLINE | (icase ? REG_ICASE : 0));
                if (was)
                        uselocale(was);
        }
        if (e != 0) {
                char msg[200];

                regerror(e, &r.re, msg, sizeof(msg));
                rule_free_strings(&r);
                return bad(p, name, line, _("bad regex: %s"), msg);
        }
        if ((r.subject && check_template(p, name, line, "subject", r.subject, r.re.re_nsub, r.type == RULE_PART,
                                         r.report || r.type == RULE_PART) < 0) ||
            (r.devname && check_template(p, name, line, "devname", r.devname, r.re.re_nsub, false, false) < 0) ||
            (r.name && check_template(p, name, line, "name", r.name, r.re.re_nsub, false, false) < 0) ||
            (r.access && check_template(p, name, line, "access", r.access, r.re.re_nsub, false, false) < 0)) {
                rule_done(&r);
                return -EINVAL;
        }
        /* A skip or anchor rule's regex is on a function's name: not in the index of the records' text. */
        if (!icase && r.type != RULE_SKIP && r.type != RULE_ANCHOR) {
                struct lit lits[MAX_LITERALS];
                size_t n = rule_find_literals(re, lits, MAX_LITERALS), i;

                for (i = 0; i < n; i++) {
                        r.literals[i] = strndup(lits[i].s, lits[i].n);
                        r.literal_lens[i] = lits[i].n;
                        r.literal_anchored[i] = lits[i].anchored;
                        if (!r.literals[i]) {
                                rule_done(&r);
                                snprintf(p->error, sizeof(p->error), "%s", strerror(ENOMEM));
                                return -ENOMEM;
                        }
                        r.n_literals = i + 1;
                }
        }
        if (p->n == p->cap) {
                size_t cap = p->cap ? p->cap * 2 : 64;
                struct rule *n = realloc(p->rules, cap * sizeof(*n));

                if (!n) {
                        rule_done(&r);
                        snprintf(p->error, sizeof(p->error), "%s", strerror(ENOMEM));
                        return -ENOMEM;
                }
                p->rules = n;
                p->cap = cap;
        }
        p->rules[p->n++] = r;
        p->pieces += pieces;
        return 0;
}

int problems_load_buffer(struct problems *p, const char *name, const char *text, size_t len) {
        const char *end = text + len;
        unsigned line = 0;
        char buf[4096];

        while (text < end) {
                const char *nl = memchr(text, '\n', (size_t)(end - text));
                size_t n = (nl ? nl : end) - text;
                char *s = buf;
                int e;

                line++;
                if (n >= sizeof(buf))
                        return bad(p, name, line, _("a line longer than %zu bytes"), sizeof(buf) - 1);
                memcpy(buf, text, n);
                buf[n] = '\0';
                text += n + (nl ? 1 : 0);
                if (memchr(buf, '\0', n))
                        return bad(p, name, line, _("a NUL byte"));
                while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\r'))
                        buf[--n] = '\0';
                while (*s == ' ' || *s == '\t')
                        s++;
                if (!*s || *s == '#')
                        continue;
                e = parse_rule(p, name, line, s);
                if (e < 0)
                        return e;
        }
        return 0;
}
