# SPDX-License-Identifier: GPL-2.0-or-later
# A fake sysfs tree, shaped like the kernel's, for the machine of
# tests/data/gen-devices.py.  make_sysfs ROOT creates ROOT/sys/...; use it
# with --sysroot ROOT.

# dev_dir PATH SUBSYSTEM-LINK-TARGET [dev] [uevent lines...]
_dev() {
        local d="$1" subsys="$2" dev="$3"
        shift 3
        mkdir -p "$d"
        printf '%s\n' "$@" > "$d/uevent"
        [ -z "$dev" ] || echo "$dev" > "$d/dev"
        ln -s "$(realpath -m --relative-to="$d" "$S/$subsys")" "$d/subsystem"
}

# link LINK TARGET (both below $S), made relative as sysfs does
_link() {
        mkdir -p "$(dirname "$S/$1")"
        ln -s "$(realpath -m --relative-to="$(dirname "$S/$1")" "$S/$2")" "$S/$1"
}

make_sysfs() {
        local root="$1"
        S="$root/sys"
        mkdir -p "$S"/class/{block,net,tty} "$S"/bus/{pci,scsi,usb,usb-serial}/devices "$S"/dev/{block,char}

        local pci=devices/pci0000:00
        _dev "$S/$pci/0000:00:1f.2" bus/pci "" DRIVER=ahci PCI_SLOT_NAME=0000:00:1f.2
        _link bus/pci/devices/0000:00:1f.2 "$pci/0000:00:1f.2"

        local host0="$pci/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"
        _dev "$S/$host0" bus/scsi "" DEVTYPE=scsi_device DRIVER=sd
        _link bus/scsi/devices/0:0:0:0 "$host0"
        _dev "$S/$host0/block/sda" class/block 8:0 MAJOR=8 MINOR=0 DEVNAME=sda DEVTYPE=disk
        _dev "$S/$host0/block/sda/sda1" class/block 8:1 MAJOR=8 MINOR=1 DEVNAME=sda1 DEVTYPE=partition
        _dev "$S/$host0/block/sda/sda2" class/block 8:2 MAJOR=8 MINOR=2 DEVNAME=sda2 DEVTYPE=partition
        echo 1 > "$S/$host0/block/sda/sda1/partition"
        echo 2 > "$S/$host0/block/sda/sda2/partition"
        mkdir -p "$S/$host0/block/sda/queue" "$S/$host0/block/sda/power"
        echo 256 > "$S/$host0/block/sda/queue/nr_requests"

        local host1="$pci/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0"
        _dev "$S/$host1" bus/scsi "" DEVTYPE=scsi_device DRIVER=sd
        _link bus/scsi/devices/1:0:0:0 "$host1"
        _dev "$S/$host1/block/sdb" class/block 8:16 MAJOR=8 MINOR=16 DEVNAME=sdb DEVTYPE=disk
        _dev "$S/$host1/block/sdb/sdb1" class/block 8:17 MAJOR=8 MINOR=17 DEVNAME=sdb1 DEVTYPE=partition
        echo 1 > "$S/$host1/block/sdb/sdb1/partition"

        local disk
        for disk in "$host0/block/sda" "$host0/block/sda/sda1" "$host0/block/sda/sda2" \
                    "$host1/block/sdb" "$host1/block/sdb/sdb1"; do
                _link "class/block/$(basename "$disk")" "$disk"
                _link "dev/block/$(cat "$S/$disk/dev")" "$disk"
        done

        _dev "$S/$pci/0000:00:19.0" bus/pci "" DRIVER=e1000e PCI_SLOT_NAME=0000:00:19.0
        _link bus/pci/devices/0000:00:19.0 "$pci/0000:00:19.0"
        _dev "$S/$pci/0000:00:19.0/net/eth0" class/net "" INTERFACE=eth0 IFINDEX=2
        echo 2 > "$S/$pci/0000:00:19.0/net/eth0/ifindex"
        _link class/net/eth0 "$pci/0000:00:19.0/net/eth0"
        _dev "$S/devices/virtual/net/lo" class/net "" INTERFACE=lo IFINDEX=1
        echo 1 > "$S/devices/virtual/net/lo/ifindex"
        _link class/net/lo devices/virtual/net/lo

        _dev "$S/$pci/0000:00:1d.0" bus/pci "" DRIVER=nvme PCI_SLOT_NAME=0000:00:1d.0
        _link bus/pci/devices/0000:00:1d.0 "$pci/0000:00:1d.0"
        local nvme="$pci/0000:00:1d.0/nvme/nvme0"
        _dev "$S/$nvme/nvme0n1" class/block 259:0 MAJOR=259 MINOR=0 DEVNAME=nvme0n1 DEVTYPE=disk
        _dev "$S/$nvme/nvme0n1/nvme0n1p1" class/block 259:1 MAJOR=259 MINOR=1 DEVNAME=nvme0n1p1 DEVTYPE=partition
        echo 1 > "$S/$nvme/nvme0n1/nvme0n1p1/partition"
        for disk in "$nvme/nvme0n1" "$nvme/nvme0n1/nvme0n1p1"; do
                _link "class/block/$(basename "$disk")" "$disk"
                _link "dev/block/$(cat "$S/$disk/dev")" "$disk"
        done

        _dev "$S/$pci/0000:00:14.0" bus/pci "" DRIVER=xhci_hcd
        _link bus/pci/devices/0000:00:14.0 "$pci/0000:00:14.0"
        local usb="$pci/0000:00:14.0/usb2/2-1/2-1.4"
        _dev "$S/$usb" bus/usb 189:130 MAJOR=189 MINOR=130 DEVNAME=bus/usb/002/003 DEVTYPE=usb_device
        _link bus/usb/devices/2-1.4 "$usb"
        _link dev/char/189:130 "$usb"
        _dev "$S/$usb/2-1.4:1.0" bus/usb "" DEVTYPE=usb_interface DRIVER=ftdi_sio
        _link bus/usb/devices/2-1.4:1.0 "$usb/2-1.4:1.0"
        _dev "$S/$usb/2-1.4:1.0/ttyUSB0" bus/usb-serial "" DRIVER=ftdi_sio
        _link bus/usb-serial/devices/ttyUSB0 "$usb/2-1.4:1.0/ttyUSB0"
        _dev "$S/$usb/2-1.4:1.0/ttyUSB0/tty/ttyUSB0" class/tty 188:0 MAJOR=188 MINOR=0 DEVNAME=ttyUSB0
        _link class/tty/ttyUSB0 "$usb/2-1.4:1.0/ttyUSB0/tty/ttyUSB0"
        _link dev/char/188:0 "$usb/2-1.4:1.0/ttyUSB0/tty/ttyUSB0"

        # A virtio disk, as on a cloud machine: vda below virtio1 below its PCI device.
        mkdir -p "$S/bus/virtio/devices"
        _dev "$S/$pci/0000:00:04.0" bus/pci "" DRIVER=virtio-pci PCI_SLOT_NAME=0000:00:04.0
        _link bus/pci/devices/0000:00:04.0 "$pci/0000:00:04.0"
        _dev "$S/$pci/0000:00:04.0/virtio1" bus/virtio "" DRIVER=virtio_blk
        _link bus/virtio/devices/virtio1 "$pci/0000:00:04.0/virtio1"
        local vda="$pci/0000:00:04.0/virtio1/block/vda"
        _dev "$S/$vda" class/block 254:0 MAJOR=254 MINOR=0 DEVNAME=vda DEVTYPE=disk
        _dev "$S/$vda/vda1" class/block 254:1 MAJOR=254 MINOR=1 DEVNAME=vda1 DEVTYPE=partition
        echo 1 > "$S/$vda/vda1/partition"
        for disk in "$vda" "$vda/vda1"; do
                _link "class/block/$(basename "$disk")" "$disk"
                _link "dev/block/$(cat "$S/$disk/dev")" "$disk"
        done
}
