#!/bin/sh
# product-libraries.sh NM PRODUCT_LIBRARY LIBRARY...
# Fails when the product library defines or uses a symbol that one of the other libraries defines.
# semscope_redis and semscope_consul: the fake Consul, the redis-server launchers and the training
# stores are libraries of their own, linked by the demo, the CLI's sandbox and loadtest commands and
# the tests, and never shipped inside the client an operator's own code would link (issue 32 item 9).
# semscope_ui: the widgets start no redis-server themselves; the training page's private server is
# launched by the app (app/privateredis) through ui::PrivateRedisLauncher.
# Only strong definitions count (code, data, read-only data): inline functions and template
# instances are weak and may be defined in both. "Uses" means an undefined symbol of the product
# that the other library defines: a static library's link to it shows there.
set -eu
nm_tool=$1
product=$2
shift 2
strong() { "$nm_tool" --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sort -u; }
undefined() { "$nm_tool" --undefined-only "$1" | awk '$1 == "U" { print $2 }' | sort -u; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strong "$product" >"$tmp/product"
if [ ! -s "$tmp/product" ]; then
    echo "no symbols read from $product" >&2
    exit 1
fi
undefined "$product" >"$tmp/uses"
status=0
for lib in "$@"; do
    strong "$lib" >"$tmp/other"
    comm -12 "$tmp/product" "$tmp/other" >"$tmp/both"
    if [ -s "$tmp/both" ]; then
        echo "$(basename "$product") defines $(wc -l <"$tmp/both") symbols of $(basename "$lib"), e.g.:" >&2
        head -5 "$tmp/both" | c++filt >&2 2>/dev/null || head -5 "$tmp/both" >&2
        status=1
    fi
    comm -12 "$tmp/uses" "$tmp/other" >"$tmp/used"
    if [ -s "$tmp/used" ]; then
        echo "$(basename "$product") uses $(wc -l <"$tmp/used") symbols of $(basename "$lib"), e.g.:" >&2
        head -5 "$tmp/used" | c++filt >&2 2>/dev/null || head -5 "$tmp/used" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "$(basename "$product"): none of the symbols of $*"
exit "$status"
