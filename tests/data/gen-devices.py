#!/usr/bin/env python3
"""Generate a /dev/kmsg dump of one machine's devices logging, with the
dictionaries the kernel writes (SUBSYSTEM=, DEVICE=) and records without
them that name a device in their text.

  gen-devices.py                 the committed tests/data/devices.kmsg: every
                                 template once, in order
  gen-devices.py -n N -s SEED    N records drawn at random (seeded), for
                                 counting selections independently

The machine (mirrored by make_sysfs in tests/cli/devices.bash):
  sda b8:0 (sda1 b8:1, sda2 b8:2) on scsi 0:0:0:0 on ahci +pci:0000:00:1f.2
  sdb b8:16 (sdb1 b8:17) on scsi 1:0:0:0
  eth0 n2 on e1000e +pci:0000:00:19.0
  usb 2-1.4 c189:130 (also logged as +usb:2-1.4), interface 2-1.4:1.0,
  serial ttyUSB0 c188:0 below it
  nvme0n1 b259:0 (nvme0n1p1 b259:1) on nvme +pci:0000:00:1d.0
"""
import argparse
import random
import sys

# (level, message, dictionary)
T = [
    (5, "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)", None),
    (6, "Command line: BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=/dev/sda2 ro quiet", None),
    (6, "pci 0000:00:1f.2: [8086:a102] type 00 class 0x010601", ("pci", "+pci:0000:00:1f.2")),
    (6, "pci 0000:00:19.0: [8086:15b8] type 00 class 0x020000", ("pci", "+pci:0000:00:19.0")),
    (6, "pci 0000:00:14.0: [8086:a12f] type 00 class 0x0c0330", ("pci", "+pci:0000:00:14.0")),
    (6, "ahci 0000:00:1f.2: AHCI 0001.0301 32 slots 6 ports 6 Gbps 0x3 impl SATA mode", ("pci", "+pci:0000:00:1f.2")),
    (6, "ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)", None),
    (5, "scsi 0:0:0:0: Direct-Access     ATA      Samsung SSD 860  4B6Q PQ: 0 ANSI: 5", ("scsi", "+scsi:0:0:0:0")),
    (5, "scsi 1:0:0:0: Direct-Access     ATA      WDC WD10EZEX-08W 1A01 PQ: 0 ANSI: 5", ("scsi", "+scsi:1:0:0:0")),
    (5, "sd 0:0:0:0: [sda] 1953525168 512-byte logical blocks: (1.00 TB/932 GiB)", ("scsi", "+scsi:0:0:0:0")),
    (5, "sd 0:0:0:0: [sda] Write Protect is off", ("scsi", "+scsi:0:0:0:0")),
    (5, "sd 1:0:0:0: [sdb] 1953525168 512-byte logical blocks: (1.00 TB/932 GiB)", ("scsi", "+scsi:1:0:0:0")),
    (6, " sda: sda1 sda2", None),
    (6, " sdb: sdb1", None),
    (5, "sd 0:0:0:0: [sda] Attached SCSI disk", ("scsi", "+scsi:0:0:0:0")),
    (5, "sd 1:0:0:0: [sdb] Attached SCSI disk", ("scsi", "+scsi:1:0:0:0")),
    (6, "sda: detected capacity change from 0 to 1953525168", ("block", "b8:0")),
    (6, "sdb: detected capacity change from 0 to 1953525168", ("block", "b8:16")),
    (6, "EXT4-fs (sda2): mounted filesystem with ordered data mode. Quota mode: none.", None),
    (6, "EXT4-fs (sda1): mounted filesystem with ordered data mode. Quota mode: none.", None),
    (6, "EXT4-fs (sdb1): mounted filesystem with ordered data mode. Quota mode: none.", None),
    (6, "e1000e: Intel(R) PRO/1000 Network Driver", None),
    (6, "e1000e 0000:00:19.0 0000:00:19.0 (uninitialized): registered PHC clock", ("pci", "+pci:0000:00:19.0")),
    (6, "e1000e 0000:00:19.0 eth0: (PCI Express:2.5GT/s:Width x1) 00:1b:21:aa:bb:cc", ("net", "n2")),
    (6, "e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: Rx/Tx", ("net", "n2")),
    (6, "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready", None),
    (6, "xhci_hcd 0000:00:14.0: xHCI Host Controller", ("pci", "+pci:0000:00:14.0")),
    (6, "usb 2-1.4: new high-speed USB device number 3 using xhci_hcd", ("usb", "c189:130")),
    (6, "usb 2-1.4: New USB device found, idVendor=0403, idProduct=6001, bcdDevice= 6.00", ("usb", "c189:130")),
    (6, "usb 2-1.4: reset high-speed USB device number 3 using xhci_hcd", ("usb", "+usb:2-1.4")),
    (6, "ftdi_sio 2-1.4:1.0: FTDI USB Serial Device converter detected", ("usb", "+usb:2-1.4:1.0")),
    (6, "usb 2-1.4: FTDI USB Serial Device converter now attached to ttyUSB0", ("usb", "c189:130")),
    (3, "ftdi_sio ttyUSB0: failed to get modem status: -32", ("usb-serial", "+usb-serial:ttyUSB0")),
    (3, "ftdi_sio ttyUSB0: error from flowcontrol urb", ("tty", "c188:0")),
    (6, "00:05: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A", ("pnp", "+pnp:00:05")),
    (4, "acpi PNP0A08:00: _OSC: platform does not support [PCIeHotplug LTR]", ("acpi", "+acpi:PNP0A08:00")),
    (6, "random: crng init done", None),
    (3, "ata1.00: exception Emask 0x0 SAct 0x10000 SErr 0x0 action 0x0", None),
    (3, "ata1.00: failed command: READ FPDMA QUEUED", None),
    (3, "sd 0:0:0:0: [sda] tag#16 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s", ("scsi", "+scsi:0:0:0:0")),
    (3, "blk_update_request: I/O error, dev sda, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0", None),
    (3, "Buffer I/O error on dev sda1, logical block 0, async page read", None),
    (2, "sda1: write access to a read-only block device", ("block", "b8:1")),
    (4, "EXT4-fs warning (device sda1): ext4_dx_add_entry:2461: Directory (ino: 1234) index full", None),
    (3, "EXT4-fs error (device sdb1): ext4_find_entry:1623: inode #2: comm ls: reading directory lblock 0", None),
    (4, "e1000e 0000:00:19.0 eth0: Detected Hardware Unit Hang", ("net", "n2")),
    (6, "e1000e 0000:00:19.0 eth0: NIC Link is Down", ("net", "n2")),
    (6, "e1000e: eth0 NIC Link is Up 100 Mbps Full Duplex, Flow Control: None", None),
    (4, "ttyUSB ttyUSB0: 1 input overrun(s)", None),
    (6, "usb 2-1.4: USB disconnect, device number 3", ("usb", "c189:130")),
    (6, "ftdi_sio ttyUSB0: FTDI USB Serial Device converter now disconnected from ttyUSB0", ("usb-serial", "+usb-serial:ttyUSB0")),
    (6, "ahci 0000:00:1f.2: port 1 link reset", ("pci", "+pci:0000:00:1f.2", ("DRIVER", "ahci"))),
    (3, "nvme0n1: I/O 42 QID 3 timeout, aborting", None),
    (7, "PM: suspend entry (deep)", None),
]


def record(seq, usec, level, msg, d):
    out = "%d,%d,%d,-;%s\n" % (level, seq, usec, msg)
    if d:
        out += " SUBSYSTEM=%s\n DEVICE=%s\n" % (d[0], d[1])
        for k, v in d[2:]:
            out += " %s=%s\n" % (k, v)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=0, help="records drawn at random (0: each template once)")
    ap.add_argument("-s", type=int, default=1, help="random seed")
    a = ap.parse_args()
    rng = random.Random(a.s)
    usec = 0
    w = sys.stdout.write
    if a.n == 0:
        for i, (lvl, msg, d) in enumerate(T):
            usec += 12345 + 1000 * i
            w(record(i, usec, lvl, msg, d))
        return
    for i in range(a.n):
        lvl, msg, d = T[rng.randrange(len(T))]
        usec += rng.randrange(1, 50000)
        w(record(i, usec, lvl, msg, d))


if __name__ == "__main__":
    main()
