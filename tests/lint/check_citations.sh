#!/usr/bin/env bash
# The project carries its own design: code, tests, tools and READMEs cite docs/design.md,
# docs/rules.md and docs/sas.md, never the seed documents outside the repository. Fails, with
# file:line, on any git-tracked file that names the seed design, rules or SAS notes by their
# file names, or a path into the shared folder beside the repository. The three docs may name
# them, as their sources.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || exit 1

# Built from parts so that this file does not cite them itself.
names=("DESIGN" "SPEC" "SAS-NOTES")
pattern="($(IFS='|'; echo "${names[*]}"))\\.md|\\.\\./shared"
exclude=(':!docs/design.md' ':!docs/rules.md' ':!docs/sas.md')

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  hits=$(git grep -n -I -E "$pattern" -- . "${exclude[@]}")
  status=$?
  if [ $status -gt 1 ]; then
    echo "git grep failed (exit $status)"
    exit 1
  fi
else
  # A source tree without git (an unpacked release): every file but the docs and build trees.
  hits=$(grep -rnI -E "$pattern" . --exclude-dir=.git --exclude-dir='build*' |
         sed 's|^\./||' | grep -vE '^docs/(design|rules|sas)\.md:')
fi

if [ -n "$hits" ]; then
  while IFS= read -r hit; do
    echo "cites a document outside the project (use docs/): $hit"
  done <<<"$hits"
  exit 1
fi
echo "citations: ok (docs/design.md, docs/rules.md, docs/sas.md only)"
exit 0
