/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Setting up what the options ask for, once they passed their checks: the
 * boot time and the clocks (wall-clock times, --since, --until, the
 * suspends), the ids of --format=export, the configuration of --upload,
 * the run (its filters, its sink); and -C, -D, -E, -n, which change the
 * kernel's state instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bootid.h"
#include "base/i18n.h"
#include "cli/options.h"
#include "input/console.h"
#include "output/caller.h"
#include "pipeline/run.h"
#include "input/source.h"
#include "input/this-boot.h"
#include "ship/upload.h"
#include "ship/upload-relp.h"
#include "time/suspend.h"
#include "time/timefmt.h"
#include "text/util.h"

/* Whether every -K dump is of the running boot (-K /dev/kmsg is the ring itself): 1, 0 (*ret_why), -ENOMEM. */
static int dumps_of_this_boot(const struct options *o, const char **ret_why) {
        struct this_boot *tb = this_boot_new(NULL);
        int mine = tb ? 1 : -ENOMEM;
        size_t i;

        for (i = 0; i < o->in.n_sources && mine > 0; i++)
                if (!o->in.sources[i].device)
                        mine = this_boot_dump(tb, o->in.sources[i].path, o->in.sources[i].format, ret_why);
        this_boot_free(tb);
        return mine;
}

/* --json records: each carries its wall-clock time and boot id where they are known (output/place.h). */
static bool json_places(const struct options *o) {
        return o->format == FORMAT_JSON && !o->reports;
}

/* What the time options take (time_parse_point(), time_parse_absolute()), for their error lines. */
#define TIME_FORMS                                                                                              \
        N_("expected SECONDS since boot, YYYY-MM-DD [HH:MM[:SS]], HH:MM[:SS], @EPOCH-SECONDS, now, today, "     \
           "yesterday, tomorrow, or -/+ a duration such as -10min or +1h")
#define TIME_FORMS_ABSOLUTE                                                                                     \
        N_("expected YYYY-MM-DD [HH:MM[:SS]], HH:MM[:SS], @SECONDS or SECONDS since the epoch, now, today, "   \
           "yesterday, or -/+ a duration such as -2h")

enum options_result options_setup_time(struct options *o) {
        struct timefmt *t = &o->out.time;
        struct time_point since = {}, until = {};
        const char *wall = timefmt_needs_wall(t) ? o->wall_option : NULL;
        bool from_clocks = false, need_wall;
        int64_t boot, slept = -1;
        int e;

        if (o->since && time_parse_point(o->since, &since) < 0)
                return options_fail(o, OPTIONS_FAILED, _("bad time '%s' for --since (%s)"), o->since, _(TIME_FORMS));
        if (o->until && time_parse_point(o->until, &until) < 0)
                return options_fail(o, OPTIONS_FAILED, _("bad time '%s' for --until (%s)"), o->until, _(TIME_FORMS));
        if (!wall && o->since && !since.monotonic)
                wall = "--since";
        if (!wall && o->until && !until.monotonic)
                wall = "--until";

        if (o->boot_time && strcmp(o->boot_time, "this") == 0) {
                /* "this": the running boot's, for a dump the user knows to be of it. */
                e = boot_time_find(true, &t->boot_usec);
                if (e < 0)
                        return options_fail(o, OPTIONS_FAILED,
                                            _("--boot-time this: this boot's time is not known: %s"), strerror(-e));
                t->have_boot = true;
        } else if (o->boot_time) {
                if (time_parse_absolute(o->boot_time, &t->boot_usec) < 0)
                        return options_fail(o, OPTIONS_FAILED, _("bad time '%s' for --boot-time (%s)"), o->boot_time,
                                            _(TIME_FORMS_ABSOLUTE));
                t->have_boot = true;
        } else {
                char pinbuf[BOOT_TIME_PINNED_MAX];
                const char *pinned = boot_time_pinned(pinbuf);

                /* KDMESG_BOOT_TIME (or DMESG_TEST_BOOTIME) pins it for any input; the clocks know only this boot. */
                /* A pstore dump is of an earlier boot, as a -K dump may be. */
                e = boot_time_find(o->in.n_sources == 0 && !o->in.pstore, &t->boot_usec);
                if (e == -EINVAL && pinned && *pinned)
                        return options_fail(o, OPTIONS_FAILED, _("bad time '%s' in %s"), pinned,
                                            getenv("KDMESG_BOOT_TIME") && *getenv("KDMESG_BOOT_TIME")
                                                    ? "KDMESG_BOOT_TIME"
                                                    : "DMESG_TEST_BOOTIME");
                if (e == -EINVAL)
                        return options_fail(o, OPTIONS_FAILED,
                                    _("bad KDMESG_TEST_CLOCKS '%s' (expected REALTIME MONOTONIC BOOTTIME, "
                                      "in seconds)"),
                                    getenv("KDMESG_TEST_CLOCKS"));
                t->have_boot = e == 0;
                from_clocks = e == 0 && o->in.n_sources == 0 && !o->in.pstore && !(pinned && *pinned);
                /* A dump of the running boot is on this boot's clock. */
                if (e < 0 && (wall || o->format == FORMAT_EXPORT || json_places(o)) && o->in.n_sources > 0 &&
                    !o->in.pstore) {
                        const char *why = NULL;
                        int mine = dumps_of_this_boot(o, &why);

                        if (mine < 0)
                                return options_fail(o, OPTIONS_FAILED, "%s", strerror(-mine));
                        if (mine > 0) {
                                /* Its times as the live log's: this boot's clocks, its suspends from the ring. */
                                e = boot_time_find(true, &t->boot_usec);
                                t->have_boot = e == 0;
                                from_clocks = e == 0 && !(pinned && *pinned);
                                o->this_boot = true;
                        }
                }
                /*
                 * A dump of another boot: a "dmesg -T" paste carries its wall
                 * clock, any other record needs the boot time.  Said at the
                 * first record that needs it (run.c), not before reading.
                 */
                if (e < 0 && wall && (o->in.n_sources > 0 || o->in.pstore))
                        o->boot_missing = wall;
                else if (e < 0 && wall)
                        return options_fail(o, OPTIONS_FAILED,
                                    _("%s needs the boot time, which is not known: %s"), wall, strerror(-e));
        }

        /*
         * The time slept before each record: for the live log from the
         * clocks and one read of the ring, else from what the log says.
         */
        need_wall = wall || timefmt_needs_wall(t) || o->format == FORMAT_EXPORT || (json_places(o) && t->have_boot) ||
                    o->metrics.path;
        if (need_wall && from_clocks && clocks_read(&boot, &slept) < 0)
                slept = -1;
        /* Only where wall-clock times are shown or compared: no cost per record elsewhere. */
        if (need_wall) {
                o->suspends = suspends_new(from_clocks ? slept : -1, from_clocks ? clocks_slept_now : NULL);
                if (!o->suspends)
                        return options_fail(o, OPTIONS_FAILED, "%s", strerror(ENOMEM));
        }
        t->susp = o->suspends;
        /* Without the device the offsets stay the total slept, as util-linux has them. */
        if (need_wall && from_clocks && slept >= 0 && !o->in.use_syslog)
                prescan_suspends(o->suspends);

        if (o->since && since.monotonic)
                filter_set_since(&o->filter, since.usec);
        else if (o->since)
                filter_set_since_wall(&o->filter, since.usec, t);
        if (o->until && until.monotonic)
                filter_set_until(&o->filter, until.usec);
        else if (o->until)
                filter_set_until_wall(&o->filter, until.usec, t);
        if (o->since && o->until) {
                /* Compared on one clock: the wall clock of the first stretch for a mixed pair. */
                int64_t a = since.monotonic && !until.monotonic ? timefmt_wall(t, (uint64_t)since.usec) : since.usec;
                int64_t b = until.monotonic && !since.monotonic ? timefmt_wall(t, (uint64_t)until.usec) : until.usec;

                if (a > b)
                        return options_fail(o, OPTIONS_FAILED,
                                    _("--since %s is after --until %s: no record can match"), o->since, o->until);
        }
        return OPTIONS_RUN;
}

/*
 * Whether the output marks records that --device-text selected by their
 * message: the classic view (<name?>), JSON ("match":"text"), the table
 * with its MATCH column and the --devices report (INFERRED).  The others
 * are record formats read back by programs (syslog, kmsg, export,
 * json-dmesg) or the bare message (cat), which a mark would change.  The
 * other reports show no records one by one: there is nothing to mark.
 */
bool options_marks_inferred(const struct options *o) {
        const struct sink_info *si = o->sink;

        return si->kind == SINK_REPORT || (si->flags & SINK_MARKS_INFERRED) ||
               ((si->flags & SINK_MATCH_COLUMN) && columns_have(&o->columns, COL_MATCH));
}

enum options_result options_setup_export(struct options *o, bool live) {
        const char *max = getenv("KDMESG_JOURNAL_FIELDS_MAX");
        uint64_t v;

        /* --json: the running boot's id for the live log and a dump of that boot, else the records' own. */
        if ((json_places(o) || o->list_boots) && (live || o->this_boot) && !o->boot_id[0] &&
            boot_id_read(o->boot_id) == 0)
                o->out.boot_id = o->boot_id;
        if (!(sink_of_format(o->format)->flags & SINK_BOOT_TIME))
                return OPTIONS_RUN;
        /* A collector that takes fewer (or more) fields per entry than journald's 1024. */
        if (max && (parse_u64(max, &v) < 0 || v < 16 || v > 65536))
                return options_fail(o, OPTIONS_FAILED,
                                    _("bad number '%s' in KDMESG_JOURNAL_FIELDS_MAX (fields per entry, 16 to 65536)"),
                                    max);
        if (max)
                o->out.journal_fields_max = (unsigned)v;
        /*
         * __REALTIME_TIMESTAMP needs the boot time options_setup_time() found;
         * a dump whose records carry their wall clock (a dmesg -T paste,
         * export and JSON input) does not: said at its first record that
         * needs it (run.c).
         */
        if (!o->out.time.have_boot && (o->in.n_sources > 0 || o->in.pstore) && !o->boot_missing)
                o->boot_missing = o->upload ? "--upload" : "--format=export";
        else if (!o->out.time.have_boot && !o->boot_missing)
                return options_fail(o, OPTIONS_FAILED,
                                    _("%s needs the boot time of the machine the dump comes from, e.g. "
                                      "--boot-time '2024-05-01 08:00'"),
                                    o->upload ? "--upload" : "--format=export");
        /* The live log and a dump of the running boot are this machine's; a dump's only as the options say. */
        live = live || o->this_boot;
        if (live && !o->boot_id[0])
                (void)boot_id_read(o->boot_id);
        if (live && !o->machine_id[0])
                (void)machine_id_read(o->machine_id);
        if (live && !o->hostname && gethostname(o->host, sizeof(o->host) - 1) == 0 && o->host[0])
                o->hostname = o->host;
        o->out.boot_id = o->boot_id[0] ? o->boot_id : NULL;
        o->out.machine_id = o->machine_id[0] ? o->machine_id : NULL;
        o->out.hostname = o->hostname;
        /* As journald 252 marks every entry: in the initrd, or the system. */
        if (live)
                o->out.runtime_scope = access("/etc/initrd-release", F_OK) == 0 ? "initrd" : "system";
        return OPTIONS_RUN;
}

/*
 * The certificate files of --upload (--trust, --cert, --key), said here,
 * at the start: librelp reads them at each handshake and says only that
 * it failed, and a FIFO or a device would hold either transport without a
 * word.  relp_tls: relp+tls://, whose default CAs are the system's file.
 */
static enum options_result tls_files(struct options *o, bool relp_tls) {
        const struct {
                const char *option, *file;
        } f[] = {
                {"--trust", o->trust ? o->trust : relp_tls ? UPLOAD_RELP_SYSTEM_CAS : NULL},
                {"--cert", o->cert},
                {"--key", o->key},
        };
        size_t i;

        for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
                struct stat st;
                int fd;

                if (!f[i].file || (i == 0 && strcmp(f[i].file, "all") == 0 && !relp_tls))
                        continue;
                fd = open(f[i].file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
                if (fd >= 0) {
                        bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);

                        close(fd);
                        if (regular)
                                continue;
                        return options_fail(o, OPTIONS_FAILED, _("the %s file %s is not a regular file"), f[i].option,
                                            f[i].file);
                }
                if (i == 0 && !o->trust)
                        return options_fail(o, OPTIONS_FAILED,
                                            _("cannot read the system's CA certificates %s for relp+tls://: %s "
                                              "(give --trust FILE)"),
                                            f[i].file, strerror(errno));
                return options_fail(o, OPTIONS_FAILED, _("cannot read the %s file %s: %s"), f[i].option, f[i].file,
                                    strerror(errno));
        }
        return OPTIONS_RUN;
}

/*
 * KDMESG_UPLOAD_AUTH_FILE: the user:password for http:// and https:// from
 * a file (a systemd credential), never on the command line, where every
 * local user reads it in /proc/PID/cmdline.  Its first line, into ret
 * (size bytes); what is wrong with it is said without its content.
 */
static enum options_result auth_file(struct options *o, const char *path, char *ret, size_t size) {
        struct stat st;
        ssize_t n;
        int fd;

        if (upload_url_is_relp(o->upload))
                return options_fail(o, OPTIONS_FAILED,
                                    _("KDMESG_UPLOAD_AUTH_FILE is for http:// and https://, not relp://"));
        if (strstr(o->upload, "://") && strchr(o->upload, '@') &&
            strchr(o->upload, '@') < strstr(o->upload, "://") + 3 + strcspn(strstr(o->upload, "://") + 3, "/?#"))
                return options_fail(o, OPTIONS_FAILED,
                                    _("the --upload URL holds a user:password, and KDMESG_UPLOAD_AUTH_FILE gives one "
                                      "too: give it once"));
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0)
                return options_fail(o, OPTIONS_FAILED, _("cannot read KDMESG_UPLOAD_AUTH_FILE %s: %s"), path,
                                    strerror(errno));
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                return options_fail(o, OPTIONS_FAILED, _("KDMESG_UPLOAD_AUTH_FILE %s is not a regular file"), path);
        }
        n = read(fd, ret, size - 1);
        close(fd);
        if (n < 0)
                return options_fail(o, OPTIONS_FAILED, _("cannot read KDMESG_UPLOAD_AUTH_FILE %s: %s"), path,
                                    strerror(errno));
        ret[n] = '\0';
        ret[strcspn(ret, "\r\n")] = '\0';
        if ((size_t)n == size - 1 && (size_t)n == strlen(ret)) {
                explicit_bzero(ret, size);
                return options_fail(o, OPTIONS_FAILED,
                                    _("KDMESG_UPLOAD_AUTH_FILE %s: its first line is over %zu bytes"), path, size - 2);
        }
        if (!strchr(ret, ':')) {
                explicit_bzero(ret, size);
                return options_fail(o, OPTIONS_FAILED,
                                    _("KDMESG_UPLOAD_AUTH_FILE %s: its first line is no user:password"), path);
        }
        return OPTIONS_RUN;
}

enum options_result options_upload_config(struct options *o, struct upload_config *ret) {
        const char *mem = getenv("KDMESG_UPLOAD_MEMORY"), *stop = getenv("KDMESG_UPLOAD_STOP_MS");
        const char *req = getenv("KDMESG_UPLOAD_TIMEOUT_MS"), *linger = getenv("KDMESG_UPLOAD_LINGER_MS");
        const char *spool = getenv("KDMESG_UPLOAD_SPOOL_MAX"), *auth = getenv("KDMESG_UPLOAD_AUTH_FILE");
        uint64_t v;

        *ret = (struct upload_config){
                .url = o->upload, .trust = o->trust, .key = o->key, .cert = o->cert,
                .retry_forever = o->in.follow, .batch_max = UPLOAD_BATCH_MAX, .mem_max = UPLOAD_MEM_MAX,
                .spool_max = UPLOAD_SPOOL_MAX,
                .stop_ms = UPLOAD_STOP_MS, .request_ms = UPLOAD_REQUEST_MS, .linger_ms = UPLOAD_LINGER_MS,
                .machine = { .boot_id = o->out.boot_id, .hostname = o->out.hostname,
                             .machine_id = o->out.machine_id,
                             .boot_usec = o->out.time.have_boot ? o->out.time.boot_usec : 0 },
        };
        if (req && (parse_u64(req, &v) < 0 || v < 1 || v > 3600000))
                return options_fail(o, OPTIONS_FAILED,
                                    _("bad time '%s' in KDMESG_UPLOAD_TIMEOUT_MS (milliseconds, 1 to 3600000)"), req);
        if (req)
                ret->request_ms = (unsigned)v;
        if (stop && (parse_u64(stop, &v) < 0 || v < 1 || v > 3600000))
                return options_fail(o, OPTIONS_FAILED,
                                    _("bad time '%s' in KDMESG_UPLOAD_STOP_MS (milliseconds, 1 to 3600000)"), stop);
        if (stop)
                ret->stop_ms = (unsigned)v;
        if (linger && (parse_u64(linger, &v) < 0 || v > UPLOAD_LINGER_MAX_MS))
                return options_fail(o, OPTIONS_FAILED,
                                    _("bad time '%s' in KDMESG_UPLOAD_LINGER_MS (milliseconds, 0 to %u)"), linger,
                                    UPLOAD_LINGER_MAX_MS);
        if (linger)
                ret->linger_ms = (unsigned)v;
        if (mem && (parse_u64(mem, &v) < 0 || v < 4096 || v > SIZE_MAX / 2))
                return options_fail(o, OPTIONS_FAILED, _("bad size '%s' in KDMESG_UPLOAD_MEMORY (bytes, at least 4096)"),
                                    mem);
        if (mem) {
                ret->mem_max = (size_t)v;
                if (ret->batch_max > ret->mem_max / 4)
                        ret->batch_max = ret->mem_max / 4;
        }
        if (spool && (parse_u64(spool, &v) < 0 || (v != 0 && v < UPLOAD_SPOOL_MIN) || v > SIZE_MAX / 2))
                return options_fail(o, OPTIONS_FAILED,
                                    _("bad size '%s' in KDMESG_UPLOAD_SPOOL_MAX (bytes, 0 or at least %u)"), spool,
                                    UPLOAD_SPOOL_MIN);
        if (spool)
                ret->spool_max = (size_t)v;
        /* The spool's bound is memory's too: a batch is a quarter of it at most. */
        if (ret->spool_max > 0 && o->cursor_file && ret->batch_max > ret->spool_max / 4)
                ret->batch_max = ret->spool_max / 4;
        if (auth && auth_file(o, auth, ret->auth, sizeof(ret->auth)) != OPTIONS_RUN)
                return OPTIONS_FAILED;
        return tls_files(o, upload_url_is_relp_tls(o->upload));
}

int options_console_action(const struct options *o) {
        int e = 0;

        switch (o->action) {
        case ACTION_CLEAR:
                e = console_clear();
                if (e < 0)
                        warnx_(_("cannot clear the kernel ring buffer: %s"), strerror(-e));
                break;
        case ACTION_CONSOLE_OFF:
        case ACTION_CONSOLE_ON:
                e = console_enable(o->action == ACTION_CONSOLE_ON);
                if (e < 0 && o->action == ACTION_CONSOLE_ON)
                        warnx_(_("cannot enable printing messages to the console: %s"), strerror(-e));
                else if (e < 0)
                        warnx_(_("cannot disable printing messages to the console: %s"), strerror(-e));
                break;
        case ACTION_CONSOLE_LEVEL:
                e = console_set_level(o->console_level);
                if (e < 0)
                        warnx_(_("cannot set the console level: %s"), strerror(-e));
                break;
        default:
                break;
        }
        return e < 0 ? EXIT_BAD_INPUT : EXIT_SUCCESS;
}

int options_setup_run(struct options *o, struct run *run, bool live) {
        const struct sink_info *si = sink_of_format(o->format);

        o->out.devices = &o->dev.namer;
        o->out.unread = &run->unread;
        if (devfilter_active(&o->dev.filter))
                run->devfilter = &o->dev.filter;
        /* --timeline and --problems get each record's problem in its struct match, and what was classified. */
        o->out.problems = &o->problems.sel.tally;
        o->out.by_problem = o->problems.report;
        /* export and json name each record's problem when records are classified. */
        o->out.problem_fields = problem_options_active(&o->problems);
        if (problem_options_active(&o->problems))
                run->problems = &o->problems.sel;
        run->filter = &o->filter;
        run->suspends = o->suspends;
        run->device_path = o->in.device_path;
        run->counts_losses = o->sink->flags & SINK_LOSSES ? o->sink->option : o->fail_on_loss ? "--fail-on-loss" : NULL;
        run->writes_seq = si->flags & SINK_WRITES_SEQ;
        run->following = o->in.follow;
        run->boot_missing = o->boot_missing;
        run->quiet_clashes = o->as_dmesg;
        /* util-linux pads caller ids to pid_max's width for the live log only. */
        o->out.caller_width = live && !o->in.use_syslog ? caller_width_from_pid_max("/proc/sys/kernel/pid_max")
                                                        : CALLER_WIDTH_DEFAULT;
        /* The reports print JSON Lines with --json; --lost reports the live ring's coverage. */
        o->out.json = o->format == FORMAT_JSON;
        o->out.live = live;
        run->sink = sink_new(o->sink, &o->out);
        if (o->sink->flags & SINK_LOSSES)
                run->lost = run->sink;
        if (!run->sink || kmsg_seqtrack_new(&run->track) < 0 ||
            kmsg_seqtrack_set_reorder_window(run->track, REORDER_WINDOW) < 0)
                return -ENOMEM;
        /*
         * Following or uploading, records go out as they come, never through
         * a pager.  Following, the output is flushed before each wait and
         * within FOLLOW_FLUSH_USEC while records keep coming; an upload
         * without --follow may block in a read: its output goes per record.
         */
        o->out.stream = o->in.follow || o->upload;
        o->out.flush_usec = o->in.follow ? FOLLOW_FLUSH_USEC : 0;
        run->stream_out = o->in.follow || o->cursor_file || o->upload;
        return 0;
}
