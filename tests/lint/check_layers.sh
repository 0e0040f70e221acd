#!/usr/bin/env bash
# The layers of README.md's architecture picture, enforced: each folder may include only the
# folders listed for it below (the arrows of the picture), and the arrows have no cycle. A new
# include across folders fails this test until the picture (and this table) say it may.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}

declare -A allowed=(
  [daemon/game]=""
  [protocols/sas]=""
  [protocols/modbus]=""
  [protocols/engine]="daemon/game"
  [protocols/control]="daemon/game"
  [daemon/platform]="daemon/game"
  [daemon/config]="daemon/platform daemon/game protocols/sas protocols/modbus"
  [daemon/journal]="daemon/game daemon/platform"
  [daemon/table]="daemon/game daemon/platform daemon/journal"
  [daemon/io]="daemon/game daemon/platform daemon/journal daemon/table protocols/engine"
  [daemon/sas]="daemon/game daemon/platform daemon/config daemon/journal daemon/table protocols/sas"
  [daemon/modbus]="daemon/platform daemon/config daemon/journal daemon/table protocols/modbus"
  [daemon/engine]="daemon/game daemon/io daemon/journal daemon/table protocols/engine"
  [daemon/control]="daemon/game daemon/io daemon/journal daemon/table protocols/control"
  [daemon/app]="daemon/game daemon/platform daemon/config daemon/journal daemon/table daemon/io daemon/sas daemon/modbus daemon/engine daemon/control protocols/sas protocols/modbus protocols/engine"
  [daemon/ctl]="daemon/game daemon/platform daemon/config daemon/journal protocols/control protocols/engine"
  [daemon/ship]="daemon/game daemon/platform daemon/config daemon/journal"
)
status=0

for dir in "$root"/daemon/*/ "$root"/protocols/*/; do
  folder=${dir#"$root"/}
  folder=${folder%/}
  if [ -z "${allowed[$folder]+set}" ]; then
    echo "$folder is not in the layer table of tests/lint/check_layers.sh (and README.md's picture)"
    status=1
    continue
  fi
  while IFS= read -r hit; do
    file=${hit%%:*}
    target=$(sed -E 's/.*#\s*include\s*"((daemon|protocols)\/[a-z_]+)\/.*/\1/' <<<"$hit")
    [ "$target" = "$folder" ] && continue
    case " ${allowed[$folder]} " in
      *" $target "*) ;;
      *) echo "$folder may not include $target: ${file#"$root"/}"; status=1 ;;
    esac
  done < <(grep -rnE '^\s*#\s*include\s*"(daemon|protocols)/' "$dir" || true)
done

# The journal owns its SQL: no statement, SQLite call or connection outside daemon/journal, and the
# table sees the journal without SQLite (journal.h, journal_sink.h). daemon/ship speaks the floor
# server's SQL (PostgreSQL, libpq) and never SQLite's: it reads the journal through JournalTail.
while IFS= read -r hit; do
  echo "SQL outside daemon/journal: ${hit#"$root"/}"; status=1
done < <(grep -rnE '\b(SELECT|INSERT INTO|UPDATE [a-z_]+ SET|DELETE FROM)\b|\.prepare\(|queryInt\(|connection\(\)|sqlite3' \
           "$root"/daemon "$root"/protocols --include='*.cpp' --include='*.h' | grep -v "^$root/daemon/journal/" \
           | grep -v "^$root/daemon/ship/" || true)
while IFS= read -r hit; do
  echo "SQLite in daemon/ship (it reads the journal through daemon/journal's JournalTail): ${hit#"$root"/}"; status=1
done < <(grep -rnE 'sqlite3|\.prepare\(|queryInt\(|connection\(\)' "$root"/daemon/ship --include='*.cpp' --include='*.h' || true)
while IFS= read -r hit; do
  echo "daemon/table reaches SQLite: ${hit#"$root"/}"; status=1
done < <(grep -rnE '#\s*include\s*"daemon/journal/(store/journal_store|store/sqlite_connection|store_sink)\.h"' "$root"/daemon/table || true)

# The table itself has no cycle: peel off folders whose allowed folders are all peeled already.
declare -A done_=()
progress=1
while [ $progress -eq 1 ]; do
  progress=0
  for folder in "${!allowed[@]}"; do
    [ -n "${done_[$folder]+set}" ] && continue
    ready=1
    for dep in ${allowed[$folder]}; do
      [ -z "${done_[$dep]+set}" ] && ready=0
    done
    if [ $ready -eq 1 ]; then done_[$folder]=1; progress=1; fi
  done
done
for folder in "${!allowed[@]}"; do
  if [ -z "${done_[$folder]+set}" ]; then echo "layer table has a cycle through $folder"; status=1; fi
done

[ $status -eq 0 ] && echo "layers: ok (${#allowed[@]} folders, no cycle)"
exit $status
