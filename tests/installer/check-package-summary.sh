#!/bin/sh
# installer/check-package.sh's verdict in words: "all checks passed", "1 check failed", "2 checks
# failed", with its exit code. The script runs for real, against cpack and cmake --install doubled
# by package-tools-double.sh (a package whose flaws the test chooses), so a row needs no full build.
#
# usage: check-package-summary.sh --source-dir DIR --cli PATH --work-dir DIR
set -eu

source_dir=
cli=
work_dir=
while [ $# -gt 0 ]; do
    case "$1" in
        --source-dir) source_dir=$2; shift 2 ;;
        --cli) cli=$2; shift 2 ;;
        --work-dir) work_dir=$2; shift 2 ;;
        *) echo "check-package-summary.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
[ -n "$source_dir" ] && [ -n "$cli" ] && [ -n "$work_dir" ] || {
    echo "usage: $0 --source-dir DIR --cli PATH --work-dir DIR" >&2
    exit 2
}
rm -rf "$work_dir"
mkdir -p "$work_dir/bin" "$work_dir/build"
ln -s "$source_dir/tests/installer/package-tools-double.sh" "$work_dir/bin/cpack"
ln -s "$source_dir/tests/installer/package-tools-double.sh" "$work_dir/bin/cmake"

failed=0
# row NAME FLAWS EXIT VERDICT: check-package.sh on a package with FLAWS exits EXIT, and its last
# line (stderr when it fails, stdout when it passes) is VERDICT.
row() {
    set +e
    PACKAGE_DOUBLE_SOURCE=$source_dir PACKAGE_DOUBLE_CLI=$cli PACKAGE_DOUBLE_FLAWS=$2 \
        sh "$source_dir/installer/check-package.sh" --build-dir "$work_dir/build" --work-dir "$work_dir/$1" \
        --expect-gui 0 --cmake "$work_dir/bin/cmake" --cpack "$work_dir/bin/cpack" \
        >"$work_dir/$1.out" 2>"$work_dir/$1.err"
    code=$?
    set -e
    if [ "$code" -eq 0 ]; then last=$(tail -n 1 "$work_dir/$1.out"); else last=$(tail -n 1 "$work_dir/$1.err"); fi
    if [ "$code" -eq "$3" ] && [ "$last" = "$4" ]; then
        echo "ok:   $1: exit $code, \"$last\""
        rm -rf "$work_dir/$1" # four copies of semscope-cli
    else
        echo "FAIL: $1: expected exit $3 and \"$4\", got exit $code and \"$last\"" >&2
        sed 's/^/    /' "$work_dir/$1.out" "$work_dir/$1.err" >&2
        failed=$((failed + 1))
    fi
}

row no-flaw "" 0 "check-package.sh: all checks passed"
row one-flaw "section" 1 "check-package.sh: 1 check failed"
row two-flaws "section copyright" 1 "check-package.sh: 2 checks failed"

[ "$failed" -eq 0 ] || exit 1
