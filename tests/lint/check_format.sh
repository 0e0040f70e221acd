#!/usr/bin/env bash
# The committed .clang-format holds for every C++ file of the project: a difference fails this
# test (and so ./run-tests). Fix with: tests/lint/check_format.sh --fix
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
fix=0
if [ "${1:-}" = "--fix" ]; then
  fix=1
elif [ -n "${1:-}" ]; then
  root=$1
fi
cd "$root" || exit 1
format=$(command -v clang-format-14 || command -v clang-format) || { echo "clang-format is not installed"; exit 1; }

mapfile -t files < <(git ls-files -- 'daemon/*.cpp' 'daemon/*.h' 'protocols/*.cpp' 'protocols/*.h' 'tests/*.cpp' 'tests/*.h' 2>/dev/null ||
                     find daemon protocols tests -name '*.cpp' -o -name '*.h')
if [ $fix -eq 1 ]; then
  "$format" -i "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi
if ! "$format" --dry-run --Werror "${files[@]}" 2>/tmp/pitlink-format.$$; then
  grep -E '^[^ ].*: error:' /tmp/pitlink-format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
  echo "run tests/lint/check_format.sh --fix (clang-format $("$format" --version | grep -oE '[0-9]+\.[0-9.]+'))"
  rm -f /tmp/pitlink-format.$$
  exit 1
fi
rm -f /tmp/pitlink-format.$$
echo "format: ok (${#files[@]} files)"
