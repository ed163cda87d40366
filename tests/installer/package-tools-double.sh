#!/bin/sh
# A double of cpack and cmake --install for installer/check-package.sh, called through a link named
# `cpack` or `cmake` (tests/installer/check-package-summary.sh makes them). It packages a small tree
# that passes every check of the script: the semscope-cli given (a real one: the script reads its
# linked libraries), the installer's own desktop file, metainfo and man pages, icons that are PNG
# headers of the promised sizes. PACKAGE_DOUBLE_FLAWS breaks checks on purpose, each one exactly one
# check: "section" (Section: misc), "copyright" (no copyright file in the .deb).
#
# Environment: PACKAGE_DOUBLE_SOURCE (the source tree), PACKAGE_DOUBLE_CLI (a built semscope-cli),
# PACKAGE_DOUBLE_FLAWS (space-separated, may be empty).
set -eu

APP_ID=io.github.semscope.Semscope
source_dir=${PACKAGE_DOUBLE_SOURCE:?}
cli=${PACKAGE_DOUBLE_CLI:?}
flaws=" ${PACKAGE_DOUBLE_FLAWS:-} "
has_flaw() { case "$flaws" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# A PNG header (signature and IHDR) of N x N pixels: all that `file` reads.
png() {
    hi=$(printf '%03o' $(($1 / 256)))
    lo=$(printf '%03o' $(($1 % 256)))
    printf "\211PNG\r\n\032\n\000\000\000\015IHDR\000\000\\$hi\\$lo\000\000\\$hi\\$lo\010\006\000\000\000\000\000\000\000" >"$2"
}

# The installed tree under $1 (a prefix such as ROOT/usr).
stage() {
    mkdir -p "$1/bin" "$1/share/applications" "$1/share/metainfo" "$1/share/man/man1" "$1/share/doc/semscope"
    cp "$cli" "$1/bin/semscope-cli"
    cp "$source_dir/installer/$APP_ID.desktop" "$1/share/applications/"
    cp "$source_dir/installer/$APP_ID.metainfo.xml" "$1/share/metainfo/"
    for page in semscope-cli semscope; do
        gzip -9nc "$source_dir/installer/$page.1" >"$1/share/man/man1/$page.1.gz"
    done
    for size in 16 22 24 32 48 64 128 256; do
        mkdir -p "$1/share/icons/hicolor/${size}x${size}/apps"
        png "$size" "$1/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
    done
    mkdir -p "$1/share/icons/hicolor/scalable/apps"
    printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>\n' \
        >"$1/share/icons/hicolor/scalable/apps/$APP_ID.svg"
    has_flaw copyright || printf 'semscope test double\n' >"$1/share/doc/semscope/copyright"
}

case "$(basename "$0")" in
cpack)
    out=
    while [ $# -gt 0 ]; do
        case "$1" in
            -B) out=$2; shift 2 ;;
            *) shift ;;
        esac
    done
    [ -n "$out" ] || { echo "package-tools-double: cpack without -B" >&2; exit 2; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    stage "$tmp/deb/usr"
    section=admin
    has_flaw section && section=misc
    mkdir -p "$tmp/deb/DEBIAN" "$out"
    cat >"$tmp/deb/DEBIAN/control" <<CONTROL
Package: semscope
Version: 0.1.0
Section: $section
Priority: optional
Architecture: $(dpkg --print-architecture)
Maintainer: semscope test double <double@example.org>
Homepage: https://example.org/semscope
Depends: libc6, libhiredis0.14, libqt6core6
Recommends: redis-server
Description: semscope, as packaged by the package-tools double
 Only for tests/installer/check-package-summary.sh.
CONTROL
    dpkg-deb --root-owner-group -Zgzip -z1 --build "$tmp/deb" "$out/semscope_0.1.0_test.deb" >/dev/null
    stage "$tmp/tgz/semscope-0.1.0-Linux"
    tar -czf "$out/semscope-0.1.0-Linux.tar.gz" -C "$tmp/tgz" semscope-0.1.0-Linux
    ;;
cmake)
    # cmake --install BUILD_DIR --prefix /usr, into $DESTDIR.
    [ "${1:-}" = --install ] || { echo "package-tools-double: cmake $* is not doubled" >&2; exit 2; }
    stage "${DESTDIR:?}/usr"
    ;;
*)
    echo "package-tools-double: call me through a link named cpack or cmake" >&2
    exit 2
    ;;
esac
