#!/usr/bin/env bash
# Resolves, with Maven, the jars of every Kafka release in versions.txt into the
# assignor differential test's cache (outside the repository):
#   ${CONNECTSCOPE_ASSIGNORDIFF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/connectscope/assignordiff}/<version>/
# (its own root: the real-cluster harness keeps fuller jar sets under
# connectscope/kafka). A version whose directory holds a .complete marker is
# skipped; Maven's own repository stays ~/.m2. Usage:
#   e2e/assignordiff/warm-cache.sh [VERSION ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${CONNECTSCOPE_ASSIGNORDIFF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/connectscope/assignordiff}"
command -v mvn >/dev/null 2>&1 || { echo "warm-cache: mvn not found (apt-get install maven)" >&2; exit 1; }

if [ "$#" -gt 0 ]; then versions=("$@")
else mapfile -t versions < <(grep -v '^#' "$here/versions.txt" | grep .)
fi
for v in "${versions[@]}"; do
    dir="$cache/$v"
    [ -f "$dir/.complete" ] && continue
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    echo "warm-cache: resolving Kafka $v" >&2
    mvn -q -B -Dstyle.color=never -f "$here/driver/pom.xml" -Dkafka.version="$v" \
        dependency:copy-dependencies -DoutputDirectory="$dir.tmp" </dev/null
    touch "$dir.tmp/.complete"
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
done
