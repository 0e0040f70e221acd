#!/usr/bin/env bash
# Builds the .deb, installs it on this machine, checks what it installed, and starts the
# installed pitlinkd with the installed configuration as the pitlink user (without systemd,
# which does not run here): its control socket must answer `pitlinkctl status` and it must
# stop cleanly on SIGTERM. Then the package is purged and the test's journal removed.
#
# It changes the system, so it runs only as root and only where pitlink is not installed and
# no /var/lib/pitlink exists (never on a real table controller: its journal is not touched).
# Usage: tests/packaging/test_deb.sh BUILD_DIR
set -euo pipefail
build=${1:-build}

if [ "$(id -u)" -ne 0 ]; then
  echo "packaging test: skipped (needs root)"; exit 0
fi
if dpkg-query -W -f='${Status}' pitlink 2>/dev/null | grep -q installed || [ -e /var/lib/pitlink ]; then
  echo "packaging test: skipped (pitlink is installed here or /var/lib/pitlink exists)"; exit 0
fi

fail() { echo "packaging test: FAILED: $*"; exit 1; }
cleanup() {
  [ -n "${daemon:-}" ] && kill "$daemon" 2>/dev/null || true
  dpkg --purge pitlink >/dev/null 2>&1 || true
  rm -rf /var/lib/pitlink /run/pitlink
}
trap cleanup EXIT

cmake --build "$build" --target package >/dev/null
deb=$(ls "$build"/pitlink_*.deb)
dpkg -i "$deb" >/dev/null || fail "dpkg -i $deb"

for f in /usr/sbin/pitlinkd /usr/bin/pitlinkctl /etc/pitlink/pitlink.yaml /etc/pitlink/paytables/standard.yaml \
         /lib/systemd/system/pitlinkd.service; do
  [ -e "$f" ] || fail "$f is not installed"
done
getent passwd pitlink >/dev/null || fail "no pitlink user"
getent group pitlink-operator >/dev/null || fail "no pitlink-operator group"
[ "$(stat -c %U /var/lib/pitlink)" = pitlink ] || fail "/var/lib/pitlink is not owned by pitlink"
systemd-analyze verify /lib/systemd/system/pitlinkd.service 2>&1 | grep -v "^$" && fail "systemd-analyze verify" || true

# What systemd's RuntimeDirectory would make.
install -d -o pitlink -g pitlink -m 0755 /run/pitlink
log=$(mktemp)
setpriv --reuid=pitlink --regid=pitlink --init-groups /usr/sbin/pitlinkd --config /etc/pitlink/pitlink.yaml >"$log" 2>&1 &
daemon=$!
for _ in $(seq 100); do
  [ -S /run/pitlink/control.sock ] && break
  sleep 0.1
done
status=$(/usr/bin/pitlinkctl status) || fail "pitlinkctl status: $(cat "$log")"
echo "$status" | grep -q "^table:   table-1 (rng shoe, paytable standard)" || fail "unexpected status: $status"
echo "$status" | grep -q "^you:     root" || fail "the role of root: $status"
# As user pitlink outside systemd (no LimitRTPRIO) the logic thread may not be real-time: it runs
# on at normal priority, and both the status and the log say so.
echo "$status" | grep -q "^logic thread: " || fail "no scheduling in the status: $status"
if echo "$status" | grep -q "^logic thread: normal priority (SCHED_FIFO 40 not allowed"; then
  grep -q "\[warning\] scheduling: the logic thread runs at normal priority" "$log" ||
    fail "no warning about the refused scheduling: $(cat "$log")"
fi
kill -TERM "$daemon"
wait "$daemon" || fail "pitlinkd did not exit 0 on SIGTERM: $(cat "$log")"
daemon=""
[ -s /var/lib/pitlink/journal.db ] || fail "no journal in /var/lib/pitlink"
grep -q "stopped after" "$log" || fail "no clean stop in the log: $(cat "$log")"
echo "packaging test: OK ($(basename "$deb") installed, pitlinkd started from it as user pitlink, status answered, stopped cleanly)"
