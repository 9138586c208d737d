#!/usr/bin/env bash
# `cp -a p pm; mv p p.bak`: pm/judge builds pm's sources and reads pm/testcases; with both
# checkouts present, each judge keeps to its own.
repo="$1"
. "$(dirname "$0")/lib.sh"
# What is asserted here does not depend on how long a build takes: the stub builds at once.
export STUB_BUILD_SECONDS=0

make_checkout "$work/p"
"$work/p/judge" >"$work/first.out" 2>&1 || fail "the first build failed: $(cat "$work/first.out")"
cp -a "$work/p" "$work/pm"
mv "$work/p" "$work/p.bak"
"$work/pm/judge" >"$work/moved.out" 2>&1 || fail "the copy failed once the original moved: $(cat "$work/moved.out")"
expect_output "$work/moved.out" "built from $work/pm"
expect_output "$work/moved.out" "suite $work/pm/testcases"

mv "$work/p.bak" "$work/p"
"$work/pm/judge" >"$work/copy.out" 2>&1 || fail "the copy failed beside its original: $(cat "$work/copy.out")"
expect_output "$work/copy.out" "built from $work/pm"
expect_output "$work/copy.out" "suite $work/pm/testcases"
"$work/p/judge" >"$work/original.out" 2>&1 || fail "the original failed: $(cat "$work/original.out")"
expect_output "$work/original.out" "built from $work/p"
expect_output "$work/original.out" "suite $work/p/testcases"
echo "ok: each checkout judged with its own build and suite"
