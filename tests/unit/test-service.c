/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The systemd unit kdmesg runs in, from /proc/self/cgroup's text: the name its configuration errors point at. */
#include <string.h>

#include "tests.h"
#include "ship/service.h"

static const char *unit(const char *text) {
        static char buf[64];

        memset(buf, 'x', sizeof(buf));
        return service_of_cgroup(text, buf, sizeof(buf)) ? buf : buf[0] == '\0' ? "(none)" : "(not cleared)";
}

TEST(the_unified_hierarchy_names_the_service) {
        CHECK(strcmp(unit("0::/system.slice/kdmesg-upload.service\n"), "kdmesg-upload.service") == 0);
        /* Without the last newline, a template's instance, a trailing slash. */
        CHECK(strcmp(unit("0::/system.slice/system-kdmesg\\x2dupload.slice/kdmesg-upload@eu.service"),
                     "kdmesg-upload@eu.service") == 0);
        CHECK(strcmp(unit("0::/system.slice/kdmesg-upload.service/\n"), "kdmesg-upload.service") == 0);
}

TEST(a_hybrid_setup_names_it_in_the_name_systemd_hierarchy) {
        CHECK(strcmp(unit("12:pids:/system.slice/kdmesg-upload.service\n"
                          "1:name=systemd:/system.slice/kdmesg-upload.service\n"
                          "0::/\n"),
                     "kdmesg-upload.service") == 0);
        /* The unified line wins where both name one. */
        CHECK(strcmp(unit("1:name=systemd:/system.slice/a.service\n0::/system.slice/b.service\n"), "b.service") == 0);
}

TEST(no_service_no_name) {
        CHECK(strcmp(unit("0::/\n"), "(none)") == 0);
        CHECK(strcmp(unit("0::/user.slice/user-1000.slice/session-2.scope\n"), "(none)") == 0);
        /* A controller's line is not systemd's, ".service" alone is no name, nor is a name that does not fit. */
        CHECK(strcmp(unit("4:memory:/system.slice/x.service\n"), "(none)") == 0);
        CHECK(strcmp(unit("0::/system.slice/.service\n"), "(none)") == 0);
        CHECK(strcmp(unit("0::/system.slice/a-name-far-too-long-for-the-buffer-of-sixty-four-bytes-given.service\n"),
                     "(none)") == 0);
        CHECK(strcmp(unit(""), "(none)") == 0);
        CHECK(strcmp(unit("garbage without colons\n::\n0:"), "(none)") == 0);
}
