#!/usr/bin/env bash
# clang-tidy with the committed checks (.clang-tidy); any finding fails. A whole-tree run takes
# about 20 minutes on 2 cores, too long for every ./run-tests, so by default only the C++ files
# changed since the last whole-tree run that passed are checked (tests/lint/tidy-baseline names
# its commit), with every .cpp that includes a changed header:
#   tests/lint/check_tidy.sh BUILD_DIR          changed files (./run-tests, CI)
#   tests/lint/check_tidy.sh BUILD_DIR --all    every file; when it passes, write HEAD's commit
#                                               into tests/lint/tidy-baseline and commit it
# BUILD_DIR holds compile_commands.json (cmake --preset default or ci).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: check_tidy.sh BUILD_DIR [--all]}
all=0
[ "${2:-}" = "--all" ] && all=1
cd "$root" || exit 1
tidy=$(command -v clang-tidy-14 || command -v clang-tidy) || { echo "clang-tidy is not installed"; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "no $build/compile_commands.json"; exit 1; }

sources() { git ls-files -- 'daemon/*.cpp' 'protocols/*.cpp' 'tests/*.cpp'; }

baseline=$(cat tests/lint/tidy-baseline 2>/dev/null || true)
# The project's checks changed since the baseline: the whole tree again.
if [ -n "$baseline" ] && git cat-file -e "$baseline^{commit}" 2>/dev/null && ! git diff --quiet "$baseline" -- .clang-tidy; then
  all=1
fi
if [ $all -eq 0 ] && [ -n "$baseline" ] && git cat-file -e "$baseline^{commit}" 2>/dev/null; then
  mapfile -t changed < <({ git diff --name-only "$baseline" HEAD; git diff --name-only HEAD; git ls-files --others --exclude-standard; } |
                         grep -E '^(daemon|protocols|tests)/.*\.(cpp|h)$' | sort -u)
  files=()
  for f in "${changed[@]}"; do
    [ -f "$f" ] || continue
    case "$f" in
      *.cpp) files+=("$f") ;;
      *.h) mapfile -t users < <(grep -rlF "#include \"$f\"" daemon protocols tests --include='*.cpp' || true)
           files+=("${users[@]}") ;;
    esac
  done
  mapfile -t files < <(printf '%s\n' "${files[@]}" | grep . | sort -u)
  scope="changed since ${baseline:0:12}"
else
  mapfile -t files < <(sources)
  scope="the whole tree"
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "clang-tidy: ok (no C++ file changed since ${baseline:0:12})"
  exit 0
fi

log=$(mktemp)
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet --warnings-as-errors='*' >"$log" 2>&1
status=$?
if [ $status -ne 0 ]; then
  grep -E '(warning|error): ' "$log" | sort -u
  echo "clang-tidy: findings in ${scope} (${#files[@]} files); fix them or, for a check that does not fit, say why in .clang-tidy"
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "clang-tidy: ok (${#files[@]} files, ${scope})"
