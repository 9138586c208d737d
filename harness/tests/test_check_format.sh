#!/usr/bin/env bash
# check_format.sh on a small tree of its own: a run that recorded every file clean still
# fails on a file changed since into a bad layout, and names it; a run checks only the files
# changed since the last, and all of them again under another .clang-format.
#   test_check_format.sh SOURCE_DIR   (exit 77: skipped without clang-format)
set -uo pipefail
source_dir="$1"
check="$(dirname "${BASH_SOURCE[0]}")/check_format.sh"
command -v clang-format >/dev/null || { echo "skipped: clang-format is not installed"; exit 77; }
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/harness" "$tree/scripts" "$tree/solutions"
cp "$source_dir/.clang-format" "$tree/"
for i in $(seq 101); do echo "int f$i();" >"$tree/harness/f$i.cpp"; done
record="$tree/format-record"
failed=0

# expect STATUS TEXT: check_format.sh exits with STATUS and prints TEXT.
expect() {
    local output status
    output="$(bash "$check" "$tree" "$record" 2>&1)"
    status=$?
    if [ "$status" != "$1" ] || [[ "$output" != *"$2"* ]]; then
        echo "FAIL: expected exit $1 and \"$2\", got exit $status:"
        echo "$output" | sed 's/^/    /'
        failed=1
    fi
}

expect 0 "101 files clang-format clean (101 checked now"
expect 0 "101 files clang-format clean (0 checked now, 101 unchanged since)"
echo "int   f7( );" >"$tree/harness/f7.cpp"
expect 1 "harness/f7.cpp"
expect 1 "1 of 101 files are not clang-format clean"
echo "int f7();" >"$tree/harness/f7.cpp"
expect 0 "(1 checked now"
echo "# another rule set" >>"$tree/.clang-format"
expect 0 "(101 checked now"
[ "$failed" = 0 ] && echo "check_format.sh finds a badly laid out file however its last run ended"
exit "$failed"
