#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   scripts/bootstrap.sh demo   install what is missing, build, start the GUI demo sandbox
#   scripts/bootstrap.sh test   install what is missing, build, run every test
#   scripts/bootstrap.sh build  install what is missing and build everything, tests included
# The demo builds only the two programs it runs (semscope, semscope-cli); test and build build all.
# Environment: SEMSCOPE_PRESET (default: default; asan builds into build-asan).
set -euo pipefail

cd "$(dirname "$0")/.."
mode=${1:-demo}
preset=${SEMSCOPE_PRESET:-default}
case "$preset" in
default) build_dir=build ;;
*) build_dir=build-$preset ;;
esac

packages=(
    build-essential cmake ninja-build pkg-config ccache libhiredis-dev
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-charts-dev qt6-svg-dev
    qt6-httpserver-dev qt6-websockets-dev qt6-l10n-tools libqt6opengl6-dev libgl-dev qtkeychain-qt6-dev
    redis-server redis-sentinel redis-tools openssl xvfb xauth libqt6sql6-sqlite
    gnome-keyring dbus-daemon dbus-bin libsecret-tools
    prometheus
    dpkg-dev file desktop-file-utils appstream
)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return
    fi
    echo "bootstrap: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$(nproc)" "$@"
}

install_missing
if [ "$mode" = demo ]; then
    build --target semscope semscope-cli
else
    build
fi

case "$mode" in
demo)
    if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}${QT_QPA_PLATFORM:-}" ]; then
        echo "bootstrap: no display found; starting the demo inside a virtual X server (xvfb-run)." >&2
        echo "bootstrap: on a desktop session the window opens normally." >&2
        exec xvfb-run -a -s "-screen 0 1600x1000x24" "$build_dir/app/semscope" --demo
    fi
    exec "$build_dir/app/semscope" --demo
    ;;
test)
    ctest --preset "$preset" -j 2
    ;;
build)
    ;;
*)
    echo "usage: $0 demo|test|build" >&2
    exit 2
    ;;
esac
