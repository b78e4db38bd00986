#!/usr/bin/env python3
"""Write the hand-made dumps used by tests/cli/cli-basic.bats, byte for byte
(they hold NUL bytes, CRLF, bytes >= 0x80 and binary export fields):

  basic.kmsg      /dev/kmsg text form: dictionaries, escapes of control
                  characters, invalid UTF-8, NUL, ESC, odd headers
  malformed.kmsg  good records with bad ones at known lines
  basic.syslog    the syslog form, as "dmesg -r" prints it
  basic.export    the journal export form, with binary fields

usage: gen-basic.py [DIR]   (default: the directory of this script)
"""
import os
import struct
import sys

KMSG = (
    b"5,0,0,-;Linux version 6.1.0 (hand-made dump for the kdmesg tests)\n"
    b"6,1,1500,-,caller=T0;Command line: console=ttyS0 quiet\n"
    b"4,2,2000,-,caller=C1;ACPI: \\x5cx2d decoded once; commas, semicolons; and=equals\n"
    b"3,3,2500,-;usb 1-1: device descriptor read/64, error -71\n"
    b" SUBSYSTEM=usb\n"
    b" DEVICE=c189:1\n"
    b"6,4,3000,-;tab\\x09inside, CR\\x0d, ESC\\x1b[31mred\\x1b[0m, BEL\\x07, DEL\\x7f\n"
    b"6,5,3500,-;two lines\\x0asecond line\n"
    b"6,6,4000,-;NUL\\x00inside the text\n"
    b"6,7,4500,-;UTF-8: \\xc2\\xb0C \\xe2\\x82\\xac; invalid: \\xff\\xfe \\xc3( \\xed\\xa0\\x80; C1: \\xc2\\x85\n"
    b"6,8,5000,c;a KERN_CONT fragment\n"
    b"14,9,5500,-;userspace write, facility 1\n"
    b"191,10,6000,-;facility 23 (local7)\n"
    b"1020,11,6500,-;facility 127\n"
    b"2047,12,7000,-;facility 255, level 7\n"
    b"6,13,7500;three-field header of 3.5-rc\n"
    b"6,14,8000,-,caller=T123,vendor=x;unknown header field kept\n"
    b"6,15,8500,-;malformed escapes \\x4 \\xZZ lone\\ end\\x\n"
    b"6,16,9000,-;CRLF line\r\n"
    b" SUBSYSTEM=net\r\n"
    b" DEVICE=n2\r\n"
    b"\0\0"
    b"  6,17,9500,-;indented header\n"
    b"6,18,10000,-;upper-case hex \\x4A\\x4b\n"
    b" SUBSYSTEM=scsi\n"
    b" DEVICE=+scsi:0:0:0:0\n"
    b" EXTRA=with=equals\\x0aand a newline\n"
    b"6,19,1234567890,-;long uptime\n"
    b"\n"
    b"6,20,1234567891,-;last record without a final newline"
)

MALFORMED = (
    b"6,0,0,-;good one\n"                   # 1
    b"this is not a record\n"               # 2
    b"6,1,100,-;good two\n"                 # 3
    b"6,x,200,-;bad sequence number\n"      # 4
    b" SUBSYSTEM=usb\n"                     # 5
    b"6,2,300,-;good three\n"               # 6
    b"6,3,400,-\n"                          # 7
    b"6,4,500,-;good four\n"                # 8
)

SYSLOG = (
    b"<5>[    0.000000] Linux version 6.1.0 (syslog form)\n"
    b"<4>[    1.234567] ESC\\x1b[1m in the text\n"
    b"[    2.500000] no priority\n"
    b"<6>no time stamp\n"
    b"<30>[   12.000001] facility 3\r\n"
    b"\n"
    b"<6>[ 3.5] short time stamp\n"
)


def binfield(key, value):
    return key + b"\n" + struct.pack("<Q", len(value)) + value + b"\n"


EXPORT = (
    b"__CURSOR=s=0;i=1\n"
    b"__REALTIME_TIMESTAMP=1700000000000000\n"
    b"__MONOTONIC_TIMESTAMP=1000\n"
    b"PRIORITY=6\n"
    b"SYSLOG_FACILITY=0\n"
    b"SEQNUM=0\n"
    b"MESSAGE=export form, text field\n"
    b"_KERNEL_SUBSYSTEM=pci\n"
    b"_KERNEL_DEVICE=+pci:0000:00:1f.2\n"
    b"\n"
    + binfield(b"MESSAGE", b"binary field: NUL\0 newline\n ESC\x1b end")
    + b"PRIORITY=3\n"
    b"SEQNUM=1\n"
    b"_SOURCE_MONOTONIC_TIMESTAMP=2500000\n"
    b"__MONOTONIC_TIMESTAMP=2600000\n"
    b"\n"
    b"PRIORITY=4\n"
    b"SEQNUM=2\n"
    b"__MONOTONIC_TIMESTAMP=3000001\n"
    b"MESSAGE=third\n"
    b"\n"
)

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
for name, data in (("basic.kmsg", KMSG), ("malformed.kmsg", MALFORMED), ("basic.syslog", SYSLOG),
                   ("basic.export", EXPORT)):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
