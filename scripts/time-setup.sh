#!/usr/bin/env bash
# Times what a newcomer and CI wait for, from a fresh clone of this repository's HEAD with no
# compiler cache (CCACHE_DISABLE=1), phase by phase:
#
#   configure          cmake --preset default
#   demo build         semscope and semscope-cli, what `scripts/bootstrap.sh demo` builds
#   demo window        semscope --demo on the offscreen platform until its sandbox is ready
#   rest of the build  every test program and benchmark
#   tests              the README's test run (ctest --preset default -j 2)
# and with --ci, what .ci/run adds:
#   package            installer/ci-install-check.sh (needs root for apt-get)
#   sanitizer build    the asan preset (tests only, no benchmarks)
#   sanitizer tests    ctest --preset asan -j 2 at SEMSCOPE_TEST_SCALE=0.25
#
# usage: scripts/time-setup.sh [--ci] [--keep] [--dir DIR]
# Packages must be installed already (scripts/bootstrap.sh installs them; apt adds 1.5-3 min on a
# bare machine). Prints each phase as it ends and a summary with the build trees' size.
set -euo pipefail

ci=0
keep=0
dir=
while [ $# -gt 0 ]; do
    case "$1" in
    --ci) ci=1; shift ;;
    --keep) keep=1; shift ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "usage: $0 [--ci] [--keep] [--dir DIR]" >&2; exit 2 ;;
    esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$dir" ] || dir=$(mktemp -d /tmp/semscope-timing.XXXXXX)
[ "$keep" -eq 1 ] || trap 'rm -rf "$dir"' EXIT
export CCACHE_DISABLE=1

git clone -q "$repo" "$dir/src"
cd "$dir/src"

summary=()
declare -A took_s
total_start=$SECONDS
phase() {
    local name=$1
    shift
    local start=$SECONDS
    echo "::: $name"
    "$@"
    local took=$((SECONDS - start))
    took_s[$name]=$took
    summary+=("$(printf '%-20s %4d s  (%dm%02ds)' "$name" "$took" $((took / 60)) $((took % 60)))")
    echo "::: $name took $took s"
}

# Starts the demo as `scripts/bootstrap.sh demo` would and waits for the line the sandbox logs
# when its semaphores are live; then quits it (SIGTERM stops its servers).
demo_window() {
    local log=$dir/demo.log
    QT_QPA_PLATFORM=offscreen build/app/semscope --demo >"$log" 2>&1 &
    local pid=$!
    local waited=0
    until grep -q 'Demo ready' "$log"; do
        if ! kill -0 "$pid" 2>/dev/null || [ $waited -ge 1200 ]; then
            echo "the demo did not get ready:" >&2
            cat "$log" >&2
            kill "$pid" 2>/dev/null || true
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    kill -TERM "$pid"
    wait "$pid" || true
}

phase "configure" cmake --preset default >/dev/null
phase "demo build" cmake --build --preset default -j 2 --target semscope semscope-cli
phase "demo window" demo_window
demo_total=$((SECONDS - total_start))
phase "rest of the build" cmake --build --preset default -j 2
phase "tests" ctest --preset default -j 2
test_total=$((SECONDS - total_start - took_s["demo window"]))
if [ "$ci" -eq 1 ]; then
    phase "package" bash installer/ci-install-check.sh build
    phase "sanitizer build" bash -c 'cmake --preset asan >/dev/null && cmake --build --preset asan -j 2'
    phase "sanitizer tests" env SEMSCOPE_TEST_SCALE=0.25 ctest --preset asan -j 2
fi

echo
echo "From a fresh clone of $(git rev-parse --short HEAD), CCACHE_DISABLE=1, $(nproc) cores:"
printf '  %s\n' "${summary[@]}"
printf '  %-20s %4d s  (bootstrap.sh demo without apt)\n' "demo window shown" "$demo_total"
printf '  %-20s %4d s  (bootstrap.sh test without apt)\n' "every test run" \
    "$test_total"
[ "$ci" -eq 0 ] || printf '  %-20s %4d s\n' "whole CI run" "$((SECONDS - total_start))"
for tree in build build-asan; do
    [ -d "$tree" ] && printf '  %-20s %s\n' "$tree on disk" "$(du -sh "$tree" | cut -f1)"
done
