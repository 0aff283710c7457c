#!/bin/bash
# The packages as an admin installs them (make deb; scripts/pkg-root.sh):
# a Debian 12 root with lnet-dkms and lnet-utils installed by dpkg -i, the
# modules built by DKMS against the stock kernel's headers, boots under
# systemd on guest 0, and lnet.service brings LNet up at boot from an
# /etc/lnet.conf that Lustre's "lnetctl export" wrote on guest 1, a
# Lustre 2.17.0 node (the reference node), which it then LNet-pings.
#
# Guest 1 (Lustre): tcp0 on eth0 and a route (so a peer) with Lustre's
# lnetctl, "lnetctl export" into flag lnet-conf, "export --backup" into
# flag lustre-backup; once guest 0 says "installed-done", Lustre's peer
# table holds guest 0's NID (the pings arrived), and Lustre's lnetctl
# imports guest 0's "export --backup" into a fresh LNet: its own export
# --backup is then what it was, byte for byte.
# Guest 0, before the switch (busybox root, as every guest): fetches the
# exported file as /etc/lnet.conf of the installed root, adds the test's
# unit (lnt-test.service, after lnet.service) and hands the guest over to
# that root (scripts/guest/init.sh, handover). Under systemd, the unit runs
# this script with "installed":
# - lnet.service is enabled (the package did it) and active (the boot did
#   it), lnet and ksocklnd are DKMS' builds (updates/dkms);
# - net show: tcp on eth0 with this guest's NID, and the route, from the
#   Lustre export; its peer section's gateway is a configured peer;
# - lnetctl ping and lctl ping of the Lustre node;
# - export --backup: Lustre's bytes for the same configuration (but for
#   the NID), the peer section compared on its own;
# - systemctl stop lnet: LNet unconfigured and its modules unloaded;
#   systemctl start lnet: up again, the ping answers again.
#
# Run (make interop does): lnet-vmtest --suite packages --kernel stock
#	--guests 2 --timeout 900 --kernel-arg net.ifnames=0
#	--env LUSTRE_DIR=<scripts/build-lustre.sh> --env PKG_ROOT=<pkg-root.sh DIR>
#	--script $LNET_TOP/tests/scenarios/packages.sh
# shellcheck source=scripts/guest/lib.sh
. "$LNET_TOP/scripts/guest/lib.sh"

WAIT=900

# --- guest 1: the Lustre node --------------------------------------------------
lustre_node() {
	t_flag_serve
	t_lustre_load tcp || t_abort
	# a route, and so its gateway's peer: the export's route and peer
	# sections (192.0.2.99 answers nothing)
	t_check "lustre: route add o2ib9 via 192.0.2.99@tcp" lustre_lnetctl route add \
		--net o2ib9 --gateway 192.0.2.99@tcp --hop 2 --priority 1
	lustre_lnetctl export >/tmp/lnet-conf 2>/tmp/export.err
	cat /tmp/lnet-conf
	cp /tmp/lnet-conf /mnt/lustre-export.yaml
	t_check "lustre: lnetctl export wrote net, route and peer sections" sh -c \
		"grep -q '^net:' /tmp/lnet-conf && grep -q '^route:' /tmp/lnet-conf &&
			grep -q '^peer:' /tmp/lnet-conf"
	lustre_lnetctl export --backup >/tmp/lustre-backup
	cp /tmp/lustre-backup /mnt/lustre-export-backup.yaml
	mv /tmp/lustre-backup "$T_FLAG_DIR/lustre-backup"
	mv /tmp/lnet-conf "$T_FLAG_DIR/lnet-conf"
	t_log "flags lnet-conf and lustre-backup raised"

	# guest 0 stops answering while it boots its installed root
	T_FLAG_SILENCE=600 t_flag_wait installed-done "$WAIT" || t_abort
	lustre_lnetctl peer show
	t_check "lustre: guest 0's NID ($PEER_NID) is a peer (its pings came)" \
		sh -c "LD_LIBRARY_PATH=$LUSTRE_DIR/lib $LUSTRE_DIR/bin/lnetctl peer show |
			grep -q 'nid: $PEER_NID'"

	# The way back: our export --backup, imported by Lustre's lnetctl into
	# a fresh LNet, gives Lustre the configuration it had, byte for byte.
	t_flag_fetch ours-backup >/tmp/ours-backup.yaml
	cat /tmp/ours-backup.yaml
	t_check "lustre: lnet unconfigure, configure" sh -c \
		"LD_LIBRARY_PATH=$LUSTRE_DIR/lib $LUSTRE_DIR/bin/lnetctl lnet unconfigure &&
			LD_LIBRARY_PATH=$LUSTRE_DIR/lib $LUSTRE_DIR/bin/lnetctl lnet configure"
	t_check "lustre: lnetctl import of our export --backup" \
		lustre_lnetctl import /tmp/ours-backup.yaml
	lustre_lnetctl export --backup >/tmp/lustre-after.yaml
	diff -u /mnt/lustre-export-backup.yaml /tmp/lustre-after.yaml
	t_check "lustre: its export --backup after the round trip is what it was" \
		cmp /mnt/lustre-export-backup.yaml /tmp/lustre-after.yaml
	t_flag_bye 120
	t_lustre_unload
}

# --- guest 0, busybox root: prepare the installed root and hand over ------------
prepare_installed() {
	local over=/mnt/handover/root units
	if [ -z "${PKG_ROOT:-}" ] || [ ! -x "$PKG_ROOT/usr/sbin/lnetctl" ]; then
		t_fail "installed root present" "PKG_ROOT='${PKG_ROOT:-}' has no usr/sbin/lnetctl" \
			"(scripts/pkg-root.sh DIR build/deb/*.deb; lnet-vmtest --env PKG_ROOT=DIR)"
		t_abort
	fi
	t_flag_serve
	t_flag_wait lnet-conf "$WAIT" || t_abort
	mkdir -p "$over/etc/systemd/system/multi-user.target.wants"
	t_flag_fetch lnet-conf >"$over/etc/lnet.conf"
	t_check "fetched Lustre's export as /etc/lnet.conf" grep -q '^net:' "$over/etc/lnet.conf"
	cat "$over/etc/lnet.conf"
	units=$over/etc/systemd/system
	# $$: systemd's own expansion would take $VAR
	cat >"$units/lnt-test.service" <<-EOF
		[Unit]
		Description=LNet package test: checks on the installed node
		After=lnet.service

		[Service]
		Type=oneshot
		StandardOutput=journal+console
		ExecStart=/bin/bash -c 'set -a; . /mnt/env; set +a; cd /tmp; \
			bash "\$\$LNET_TOP/tests/scenarios/packages.sh" installed >>/mnt/script.log 2>&1; \
			echo \$\$? >/mnt/status; sync; systemctl poweroff --no-block'

		[Install]
		WantedBy=multi-user.target
	EOF
	ln -s ../lnt-test.service "$units/multi-user.target.wants/lnt-test.service"
	echo "$PKG_ROOT" >/mnt/handover/lower
	t_ok "handover to the installed root prepared"
	# this root's flag server goes; the installed root starts its own
	kill "$(cat /run/lnt-flags.pid)"
}

# --- guest 0, under systemd in the installed root ---------------------------------
installed_node() {
	local me lustre_nid
	me=$(t_my_addr)
	lustre_nid=$(t_peer_addrs | head -n1)@tcp
	t_flag_serve
	t_check "PID 1 is systemd" test "$(cat /proc/1/comm)" = systemd
	t_check "lnet.service enabled by the package" systemctl is-enabled --quiet lnet
	systemctl status --no-pager lnet
	t_check "lnet.service active after boot" systemctl is-active --quiet lnet
	t_check "lnet.ko is DKMS' build" sh -c 'modinfo -n lnet | grep -q /updates/dkms/'
	t_check "ksocklnd loaded, DKMS' build" sh -c \
		'grep -q "^ksocklnd " /proc/modules && modinfo -n ksocklnd | grep -q /updates/dkms/'
	lnetctl net show
	t_check "net show: $me@tcp on eth0, from Lustre's export" sh -c \
		"lnetctl net show --net tcp | grep -q 'nid: $me@tcp' &&
			lnetctl net show --net tcp | grep -q '0: eth0'"
	t_retry "lnetctl ping $lustre_nid (Lustre)" 30 lnetctl ping --timeout 5 "$lustre_nid"
	t_check "lctl ping $lustre_nid" lctl ping "$lustre_nid" 5

	t_check "route show: o2ib9 via 192.0.2.99@tcp, from Lustre's export" sh -c \
		"lnetctl route show -v | grep -q 'gateway: 192.0.2.99@tcp'"
	t_check "peer show: the gateway 192.0.2.99@tcp, a peer of Lustre's export" sh -c \
		"lnetctl peer show | grep -q 'primary nid: 192.0.2.99@tcp'"

	# export --backup: the same bytes as Lustre's of the same configuration
	# (its NID for ours), the peer section (the route's gateway) on its
	# own; and the file Lustre imports on the way back
	lnetctl export --backup >/tmp/ours-backup.yaml
	cp /tmp/ours-backup.yaml /mnt/ours-export-backup.yaml
	t_flag_fetch lustre-backup | sed "s/${lustre_nid%@*}@/$me@/g" >/tmp/lustre-backup.yaml
	diff -u /tmp/lustre-backup.yaml /tmp/ours-backup.yaml
	t_check "export --backup: Lustre's bytes for the same configuration (but peer)" \
		cmp <(t_yaml_section -peer /tmp/lustre-backup.yaml) <(t_yaml_section -peer /tmp/ours-backup.yaml)
	t_check "export --backup: Lustre's bytes for its peer section (the gateway)" \
		cmp <(t_yaml_section peer /tmp/lustre-backup.yaml) <(t_yaml_section peer /tmp/ours-backup.yaml)
	cp /tmp/ours-backup.yaml "$T_FLAG_DIR/ours-backup"

	t_check "systemctl stop lnet" systemctl stop lnet
	t_check "stopped: lnet.service inactive" sh -c '! systemctl is-active --quiet lnet'
	t_check "stopped: lnet, ksocklnd unloaded" sh -c '! grep -qE "^(lnet|ksocklnd) " /proc/modules'
	t_check "systemctl start lnet" systemctl start lnet
	t_check "started again: $me@tcp up" sh -c "lnetctl net show --net tcp | grep -q 'nid: $me@tcp'"
	t_retry "lnetctl ping $lustre_nid after the restart" 30 \
		lnetctl ping --timeout 5 "$lustre_nid"
	journalctl --no-pager -u lnet

	t_flag_set installed-done
	t_flag_bye 120
}

case "${1:-}" in
installed) installed_node ;;
*)
	PEER_NID=$(t_peer_addrs | head -n1)@tcp
	case $GUEST_INDEX in
	0) prepare_installed ;;
	1) lustre_node ;;
	esac
	;;
esac
