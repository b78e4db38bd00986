/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KDMESG_SERVICE_H
#define KDMESG_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The systemd service kdmesg runs in, from the text of /proc/self/cgroup:
 * the last part of its cgroup's path where that ends in ".service"
 * ("0::/system.slice/kdmesg-upload.service" gives kdmesg-upload.service).
 * The unified hierarchy's line ("0::") first, else systemd's own
 * ("name=systemd").  Returns false (and ret empty) when there is none.
 */
bool service_of_cgroup(const char *text, char *ret, size_t size);

/*
 * After a configuration error of --upload (exit status EXIT_CONFIG): when
 * systemd started kdmesg as a service, one line more on standard error
 * that says what to edit in which unit and how to start it again; with
 * url_missing, the collector's URL (KDMESG_UPLOAD_URL).  Nothing when kdmesg
 * runs from a terminal or a script, whose error line says it all.
 */
void service_config_hint(bool url_missing);

#endif
