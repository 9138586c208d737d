#!/usr/bin/env bash
# Checks harness/command_line/reporters/plot.py and scripts/ladder-table on the fixtures in plot-fixtures/:
#   check_plot_scripts.sh draw KIND      plot.py draws KIND.json as a PNG and an SVG that
#                                        are non-empty and start as their format does
#                                        (exit 77, skipped, without matplotlib)
#   check_plot_scripts.sh bad-input      a bad file: exit status 2 and a message saying where
#   check_plot_scripts.sh ladder-table   rank.json prints as rank.expected.md
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scripts="$here/../../scripts"
plot="$here/../command_line/reporters/plot.py"
fixtures="$here/plot-fixtures"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

case "$1" in
draw)
    kind="$2"
    for extension in png svg; do
        picture="$out/$kind.$extension"
        status=0
        "$plot" "$fixtures/$kind.json" "$picture" || status=$?
        # No matplotlib (the GPU machine's python3 may lack it): CTest counts the test as
        # skipped. CI installs python3-matplotlib, so there it always runs.
        [ "$status" != 3 ] || exit 77
        [ "$status" = 0 ] || fail "plot.py exited $status"
        [ -s "$picture" ] || fail "$picture is missing or empty"
        if [ "$extension" = png ]; then
            [ "$(head -c 8 "$picture" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
                fail "$picture does not start with the PNG signature"
        else
            head -c 200 "$picture" | grep -qE '^(<\?xml|<svg)' || fail "$picture does not start with <?xml or <svg"
        fi
        echo "$kind.$extension: $(wc -c <"$picture") bytes"
    done
    ;;
bad-input)
    status=0
    "$plot" "$fixtures/bad-rank.json" "$out/bad.png" 2>"$out/message" || status=$?
    [ "$status" = 2 ] || fail "plot.py exited $status on a bad file, not 2"
    grep -q "solutions\[0\].gflops: no shape named 'perf/99-unknown'" "$out/message" ||
        fail "plot.py did not say where the file is wrong: $(cat "$out/message")"
    [ ! -e "$out/bad.png" ] || fail "plot.py drew a picture of a bad file"
    status=0
    "$scripts/ladder-table" "$fixtures/compare.json" >/dev/null 2>"$out/message" || status=$?
    [ "$status" = 2 ] || fail "ladder-table exited $status on a compare file, not 2"
    status=0
    "$plot" "$fixtures/rank.json" "$out/rank.jpg" 2>"$out/message" || status=$?
    [ "$status" = 2 ] || fail "plot.py exited $status for a .jpg output, not 2"
    cat "$out/message"
    ;;
ladder-table)
    "$scripts/ladder-table" "$fixtures/rank.json" >"$out/table.md"
    diff -u "$fixtures/rank.expected.md" "$out/table.md" || fail "ladder-table's output differs from rank.expected.md"
    ;;
*)
    fail "unknown check $1"
    ;;
esac
