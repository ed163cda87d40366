#!/bin/sh
# CI check of the built .deb as an operator would use it: install it with apt-get (resolving its
# dependencies from the archive), run the installed semscope-cli against a private redis-server,
# and start the installed GUI on the offscreen platform.
#
# usage: ci-install-check.sh [BUILD_DIR] [--deb PATH] [--gui-seconds N] [--remove-after]
#   BUILD_DIR        a built tree: the .deb is made there first with cpack (so it matches the build)
#   --deb PATH       the package (default: the one semscope_*.deb in BUILD_DIR or the current directory)
#   --gui-seconds N  how long the GUI must stay up to count as started (default 10)
#   --remove-after   uninstall the package at the end
# Needs root (or password-less sudo) for apt-get, and redis-server on PATH.
set -eu

build_dir=
deb=
gui_seconds=10
remove_after=0
while [ $# -gt 0 ]; do
    case "$1" in
        --deb) deb=$2; shift 2 ;;
        --gui-seconds) gui_seconds=$2; shift 2 ;;
        --remove-after) remove_after=1; shift ;;
        -*) echo "ci-install-check.sh: unknown option '$1'" >&2; exit 2 ;;
        *) [ -z "$build_dir" ] || { echo "ci-install-check.sh: more than one build dir" >&2; exit 2; }
           build_dir=$1; shift ;;
    esac
done
if [ -n "$build_dir" ]; then
    [ -f "$build_dir/CPackConfig.cmake" ] || { echo "ci-install-check.sh: $build_dir is not a configured build tree" >&2; exit 2; }
    if [ -z "$deb" ]; then
        echo "== cpack -G DEB in $build_dir"
        rm -f "$build_dir"/semscope_*.deb
        (cd "$build_dir" && cpack -G DEB) || { echo "FAIL: cpack could not build the package" >&2; exit 1; }
    fi
fi
if [ -z "$deb" ]; then
    set -- "${build_dir:-.}"/semscope_*.deb
    [ $# -eq 1 ] && [ -f "$1" ] || { echo "ci-install-check.sh: need exactly one semscope_*.deb in ${build_dir:-.} (or --deb PATH)" >&2; exit 2; }
    deb=$1
fi
[ -f "$deb" ] || { echo "ci-install-check.sh: $deb: no such file" >&2; exit 2; }
# apt-get treats an argument as a file only when it contains a slash.
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/semscope-ci-install.XXXXXX")
redis_pid=
gui_pid=
cleanup() {
    [ -n "$gui_pid" ] && kill "$gui_pid" 2>/dev/null || true
    [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

step() { echo "== $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }

# --- 1. Install ---------------------------------------------------------------------------------
step "apt-get install $deb"
# --reinstall: a CI machine may still have this version from an earlier run, and apt would then
# keep the old files instead of the ones just built.
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --reinstall "$deb" || die "apt-get could not install $deb"
dpkg -s semscope >/dev/null 2>&1 || die "dpkg does not list semscope as installed"
cli=/usr/bin/semscope-cli
gui=/usr/bin/semscope
[ -x "$cli" ] || die "$cli is not installed"

# --- 2. semscope-cli --version ------------------------------------------------------------------
step "semscope-cli --version"
version_out=$("$cli" --version) || die "semscope-cli --version exited $?"
echo "$version_out"
expected_version=$(dpkg-query -W -f '${Version}' semscope)
case "$version_out" in
    "semscope-cli $expected_version"*) ;;
    *) die "semscope-cli --version printed '$version_out', package version is $expected_version" ;;
esac

# --- 3. semscope-cli ping against a private redis-server ------------------------------------------
command -v redis-server >/dev/null 2>&1 || die "redis-server is not on PATH"
# Ports are probed by starting the server: a port taken by someone else makes redis-server exit
# with a bind error, and the next candidate is tried (bounded).
port=$(( 20000 + $$ % 20000 ))
attempt=0
while :; do
    attempt=$((attempt + 1))
    [ $attempt -le 20 ] || die "could not start redis-server on a free port"
    log="$work/redis-$port.log"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
        --logfile "$log" --daemonize no &
    redis_pid=$!
    ready=0
    i=0
    while [ $i -lt 100 ]; do # up to 10 s
        if grep -q "Ready to accept connections" "$log" 2>/dev/null; then ready=1; break; fi
        kill -0 "$redis_pid" 2>/dev/null || break
        sleep 0.1
        i=$((i + 1))
    done
    [ $ready = 1 ] && break
    kill "$redis_pid" 2>/dev/null || true
    wait "$redis_pid" 2>/dev/null || true
    redis_pid=
    port=$((port + 1))
done
step "semscope-cli --redis redis://127.0.0.1:$port ping"
"$cli" --redis "redis://127.0.0.1:$port" ping || die "semscope-cli ping exited $?"
kill "$redis_pid" 2>/dev/null || true
wait "$redis_pid" 2>/dev/null || true
redis_pid=

# --- 4. The GUI starts and stays up on the offscreen platform --------------------------------------
if [ -x "$gui" ]; then
    step "semscope on QT_QPA_PLATFORM=offscreen for ${gui_seconds}s"
    # A private HOME and runtime dir: nothing of the CI user's settings is read or written.
    mkdir -p "$work/home" "$work/runtime"
    chmod 700 "$work/runtime"
    HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
        XDG_RUNTIME_DIR="$work/runtime" QT_QPA_PLATFORM=offscreen \
        "$gui" >"$work/gui.log" 2>&1 &
    gui_pid=$!
    i=0
    while [ $i -lt "$gui_seconds" ]; do
        if ! kill -0 "$gui_pid" 2>/dev/null; then
            rc=0
            wait "$gui_pid" || rc=$?
            gui_pid=
            cat "$work/gui.log" >&2
            die "semscope exited with status $rc after about ${i}s"
        fi
        sleep 1
        i=$((i + 1))
    done
    kill "$gui_pid" 2>/dev/null || true
    wait "$gui_pid" 2>/dev/null || true
    gui_pid=
    echo "semscope ran for ${gui_seconds}s"
else
    die "$gui is not installed"
fi

if [ $remove_after = 1 ]; then
    step "apt-get remove semscope"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y semscope
fi
echo "ci-install-check.sh: installed package works"
