#!/usr/bin/env bash
# Three ./judge and one scripts/test, started together on a checkout never built: all
# succeed, and the harness is configured and built once, never by two at the same time.
repo="$1"
. "$(dirname "$0")/lib.sh"

make_checkout "$work/p"
pids=()
for i in 1 2 3; do
    "$work/p/judge" --list >"$work/judge-$i.out" 2>&1 &
    pids+=($!)
done
"$work/p/scripts/test" >"$work/test.out" 2>&1 &
pids+=($!)
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "run $i failed: $(cat "$work"/*.out)"
done
for i in 1 2 3; do expect_output "$work/judge-$i.out" "built from $work/p"; done
grep -q "100% tests passed" "$work/test.out" || fail "scripts/test did not pass: $(cat "$work/test.out")"
[ ! -e "$work/p/build/overlaps.log" ] || fail "two builds ran at the same time"
builds=$(wc -l <"$work/p/build/builds.log")
[ "$builds" = 1 ] || fail "the harness was built $builds times"
echo "ok: 4 concurrent runs, 1 build"
