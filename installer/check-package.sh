#!/bin/sh
# Builds the packages from an already built tree and checks what an operator would get:
# the .deb's control fields and file list, the TGZ, and the installed desktop files validated with
# the freedesktop/AppStream tools. Run by ctest (tests/installer); usable by hand too.
#
# usage: check-package.sh --build-dir DIR --work-dir DIR [--expect-gui 0|1] [--cmake PATH] [--cpack PATH]
set -eu

APP_ID=io.github.semscope.Semscope
ICON_SIZES="16 22 24 32 48 64 128 256"

build_dir=
work_dir=
expect_gui=1
cmake=cmake
cpack=cpack
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir) build_dir=$2; shift 2 ;;
        --work-dir) work_dir=$2; shift 2 ;;
        --expect-gui) expect_gui=$2; shift 2 ;;
        --cmake) cmake=$2; shift 2 ;;
        --cpack) cpack=$2; shift 2 ;;
        *) echo "check-package.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[ -n "$build_dir" ] && [ -n "$work_dir" ] || { echo "usage: $0 --build-dir DIR --work-dir DIR [--expect-gui 0|1]" >&2; exit 2; }

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
need_tool() {
    command -v "$1" >/dev/null 2>&1 || { echo "check-package.sh: '$1' is missing (install package $2)" >&2; exit 2; }
}
need_tool "$cmake" cmake
need_tool "$cpack" cmake
need_tool dpkg-deb dpkg
need_tool dpkg-shlibdeps dpkg-dev
need_tool file file
need_tool desktop-file-validate desktop-file-utils
need_tool appstreamcli appstream

build_dir=$(cd "$build_dir" && pwd)
rm -rf "$work_dir"
mkdir -p "$work_dir"
work_dir=$(cd "$work_dir" && pwd)

if [ "$expect_gui" != 1 ]; then
    echo "note: this build has no 'semscope' GUI target; GUI checks skipped"
fi

# --- 1. Build the packages (into the work dir, so the build tree's own packages stay untouched) --
if ! "$cpack" --config "$build_dir/CPackConfig.cmake" -G "DEB;TGZ" -B "$work_dir/packages" >"$work_dir/cpack.log" 2>&1; then
    cat "$work_dir/cpack.log" >&2
    echo "FAIL: cpack could not build the packages" >&2
    exit 1
fi
deb=$(ls "$work_dir"/packages/semscope_*.deb 2>/dev/null | head -n 1)
tgz=$(ls "$work_dir"/packages/semscope-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "FAIL: cpack made no semscope_*.deb" >&2; exit 1; }
[ -n "$tgz" ] || { echo "FAIL: cpack made no semscope-*.tar.gz" >&2; exit 1; }
pass "packages built: $(basename "$deb"), $(basename "$tgz")"

# --- 2. Control fields ------------------------------------------------------------------------
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = semscope ] && pass "Package: semscope" || fail "Package is '$(field Package)'"
[ "$(field Section)" = admin ] && pass "Section: admin" || fail "Section is '$(field Section)'"
for f in Maintainer Homepage Description Version; do
    [ -n "$(field "$f")" ] && pass "$f is set" || fail "$f is empty"
done
case "$(field Recommends)" in
    *redis-server*) pass "Recommends redis-server" ;;
    *) fail "Recommends lacks redis-server: '$(field Recommends)'" ;;
esac
depends=$(field Depends)
case "$depends" in
    *libqt6core6*) pass "Depends (from dpkg-shlibdeps) has libqt6core6" ;;
    *) fail "Depends lacks libqt6core6: '$depends'" ;;
esac

# --- 3. File list -----------------------------------------------------------------------------
dpkg-deb --contents "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work_dir/contents.txt"
expect_path() {
    if grep -qx "$1" "$work_dir/contents.txt"; then pass "deb has $1"; else fail "deb lacks $1"; fi
}
expect_path /usr/bin/semscope-cli
[ "$expect_gui" = 1 ] && expect_path /usr/bin/semscope
expect_path /usr/share/applications/$APP_ID.desktop
expect_path /usr/share/metainfo/$APP_ID.metainfo.xml
for size in $ICON_SIZES; do
    expect_path /usr/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png
done
expect_path /usr/share/icons/hicolor/scalable/apps/$APP_ID.svg
expect_path /usr/share/man/man1/semscope-cli.1.gz
expect_path /usr/share/man/man1/semscope.1.gz
expect_path /usr/share/doc/semscope/copyright

# dpkg-shlibdeps must have covered every library the executables link.
mkdir -p "$work_dir/deb-root"
dpkg-deb --extract "$deb" "$work_dir/deb-root"
# hiredis reads every Redis reply: both programs link it, and Depends names Debian's libhiredis.
if objdump -p "$work_dir/deb-root/usr/bin/semscope-cli" 2>/dev/null | grep -q 'NEEDED.*libhiredis'; then
    pass "semscope-cli links hiredis"
else
    fail "semscope-cli does not link hiredis"
fi
for exe in semscope-cli semscope; do
    bin="$work_dir/deb-root/usr/bin/$exe"
    [ -f "$bin" ] || continue
    if objdump -p "$bin" 2>/dev/null | grep -q 'NEEDED.*libhiredis'; then
        case "$depends" in
            *libhiredis*) pass "$exe links hiredis and Depends has it" ;;
            *) fail "$exe links hiredis but Depends lacks it: '$depends'" ;;
        esac
    fi
    if objdump -p "$bin" 2>/dev/null | grep -q 'NEEDED.*libQt6Widgets'; then
        case "$depends" in
            *libqt6widgets6*) pass "$exe links QtWidgets and Depends has it" ;;
            *) fail "$exe links QtWidgets but Depends lacks it: '$depends'" ;;
        esac
    fi
done
if objdump -p "$work_dir/deb-root/usr/bin/semscope-cli" | grep -q 'NEEDED.*libQt6Widgets'; then
    fail "semscope-cli links QtWidgets (it must stay headless)"
fi

# Icons are real PNGs of the size their folder promises.
for size in $ICON_SIZES; do
    png="$work_dir/deb-root/usr/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png"
    [ -f "$png" ] || continue
    if file "$png" | grep -q "PNG image data, $size x $size,"; then
        pass "icon ${size}x${size} is a ${size}x${size} PNG"
    else
        fail "icon ${size}x${size} is: $(file -b "$png")"
    fi
done
for page in semscope-cli semscope; do
    gz="$work_dir/deb-root/usr/share/man/man1/$page.1.gz"
    [ -f "$gz" ] || continue
    if gzip -dc "$gz" | grep -q '^\.TH '; then pass "man page $page(1) is compressed roff"; else fail "man page $page(1) is not roff"; fi
done

# --- 4. TGZ holds the same tree -----------------------------------------------------------------
tar -tzf "$tgz" >"$work_dir/tgz.txt"
for p in bin/semscope-cli share/applications/$APP_ID.desktop share/metainfo/$APP_ID.metainfo.xml; do
    if grep -q "/$p\$" "$work_dir/tgz.txt"; then pass "tgz has $p"; else fail "tgz lacks $p"; fi
done

# --- 5. Installed layout validates with the desktop tools ----------------------------------------
stage="$work_dir/stage"
if ! DESTDIR="$stage" "$cmake" --install "$build_dir" --prefix /usr >"$work_dir/install.log" 2>&1; then
    cat "$work_dir/install.log" >&2
    fail "cmake --install into a staging root failed"
else
    desktop="$stage/usr/share/applications/$APP_ID.desktop"
    metainfo="$stage/usr/share/metainfo/$APP_ID.metainfo.xml"
    if out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ]; then
        pass "desktop-file-validate: clean"
    else
        fail "desktop-file-validate: $out"
    fi
    if out=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
        pass "appstreamcli validate --no-net: passed"
    else
        fail "appstreamcli validate --no-net: $out"
    fi
    # One id everywhere: desktop file name, Icon=, metainfo <id> and <launchable>.
    grep -qx "Icon=$APP_ID" "$desktop" && pass "desktop Icon= is the app id" || fail "desktop Icon= is not $APP_ID"
    grep -q "<id>$APP_ID</id>" "$metainfo" && pass "metainfo <id> is the app id" || fail "metainfo <id> is not $APP_ID"
    grep -q "<launchable type=\"desktop-id\">$APP_ID.desktop</launchable>" "$metainfo" \
        && pass "metainfo launchable names the installed desktop file" || fail "metainfo launchable does not name $APP_ID.desktop"
    exec_bin=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop" | head -n 1)
    if [ "$expect_gui" = 1 ]; then
        [ -x "$stage/usr/bin/$exec_bin" ] && pass "desktop Exec=$exec_bin is installed" || fail "desktop Exec=$exec_bin is not installed in /usr/bin"
    fi
fi

if [ "$failures" -gt 0 ]; then
    if [ "$failures" -eq 1 ]; then checks=check; else checks=checks; fi
    echo "check-package.sh: $failures $checks failed" >&2
    exit 1
fi
# The packages, their extracted tree and the staging root hold four copies of each program; in a
# sanitizer tree that is over a gigabyte. Kept when a check fails, so the failure can be looked at.
rm -rf "$work_dir/packages" "$work_dir/deb-root" "$stage"
echo "check-package.sh: all checks passed"
