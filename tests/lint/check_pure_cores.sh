#!/usr/bin/env bash
# docs/design.md rule 3: daemon/game includes nothing but the standard library (and its own headers);
# protocol cores include no Asio, termios, SQLite, libmodbus or spdlog outside their adapter files.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
status=0

# Standard library headers have no extension and no slash; project headers are "daemon/game/...".
while IFS= read -r line; do
  file=${line%%:*}
  include=$(sed -E 's/^[^#]*#\s*include\s*([<"])([^>"]+)[>"].*/\2/' <<<"${line#*:}")
  case "$include" in
    daemon/game/*) ;;
    */*|*.h|*.hpp)
      echo "daemon/game must use the standard library only: $file includes <$include>"
      status=1 ;;
  esac
done < <(grep -rnE '^\s*#\s*include' "$root/daemon/game" | sed -E 's/^([^:]+):[0-9]+:/\1:/')

if [ -d "$root/protocols" ]; then
  while IFS= read -r hit; do
    case "$hit" in
      *serial_port.cpp:*|*modbus_backend.cpp:*|*_transport.cpp:*) ;;
      *) echo "protocol core reaches the world: $hit"; status=1 ;;
    esac
  done < <(grep -rnE '#\s*include\s*[<"](boost/asio|termios|sqlite3|modbus|spdlog)' "$root/protocols" || true)
fi

[ $status -eq 0 ] && echo "pure cores: ok"
exit $status
