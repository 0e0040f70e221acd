#!/usr/bin/env bash
# Record bodies are built and read by field name only in daemon/journal (typed records,
# daemon/journal/records/typed_record.h): the table, SAS, Modbus, control, engine and app fill and
# read structs. Fails, with file:line, on
#   - a JSON literal in daemon/table (json{...}, json::object(), json::array(), a body["key"]);
#   - a record added with a kind name and a JSON body (.add(kind::..., .add(journal::kind::...)
#     outside daemon/journal;
#   - a body read by field name (body.value(, body[, body.at(, body.contains(, or a fact's body
#     other than through journal::readBody<Record>(fact.body)) in daemon/table, sas, modbus,
#     control, engine or app.
# Replies and status built at the control and I/O edges are not record bodies and are not checked
# (they are not called `body`).
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || exit 1

status=0
report() {  # $1: what is wrong, $2: grep's hits
  if [ -n "$2" ]; then
    while IFS= read -r hit; do
      echo "$hit: $1"
    done <<<"$2"
    status=1
  fi
}

edges=(daemon/table daemon/sas daemon/modbus daemon/control daemon/engine daemon/app)

report "a JSON literal in daemon/table (a record body is a typed record of daemon/journal/records)" \
  "$(grep -rnE --include='*.cpp' --include='*.h' 'json\{|json::object\(|json::array\(|\["[a-z_]+"\] *=' daemon/table)"
report "a record added by kind name with a JSON body (add a typed record)" \
  "$(grep -rnE --include='*.cpp' --include='*.h' '\.add\((journal::)?kind::' "${edges[@]}")"
report "a record body read by field name outside daemon/journal (read it with journal::recordOf / readBody)" \
  "$(grep -rnE --include='*.cpp' --include='*.h' '\bbody\.(value|at|contains)\(|\bbody\[|\b(fact|f|record|stored)\.body\b' \
     "${edges[@]}" | grep -vE 'readBody<[A-Za-z:]+>\((fact|f|record|stored)\.body\)|\.body\.is_object\(\)')"

[ $status -eq 0 ] && echo "record bodies: built and read by field name only in daemon/journal"
exit $status
