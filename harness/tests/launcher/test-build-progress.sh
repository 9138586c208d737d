#!/usr/bin/env bash
# What a build shows while it runs: on a pipe, one progress line (steps done of all, the
# percentage, the last step) at most every $GEMM_JUDGE_PROGRESS_SECONDS; a failed build's
# whole output, kept in build/build.log; and a judge started while another builds names
# the build folder, the builder's PID and its command, then judges with that build.
repo="$1"
. "$(dirname "$0")/lib.sh"

make_checkout "$work/p"
start=$SECONDS
GEMM_JUDGE_PROGRESS_SECONDS=1 "$work/p/judge" --list >/dev/null 2>"$work/progress.err" ||
    fail "the build failed: $(cat "$work/progress.err")"
elapsed=$((SECONDS - start))
progress="^judge: building the harness: [0-9]+ of 2 steps \([0-9]+%\) after [0-9]+ s; done last: "
grep -qE "${progress}Generating first-step$" "$work/progress.err" ||
    fail "no progress line after the first step: $(cat "$work/progress.err")"
shown=$(grep -c "^judge: building the harness: " "$work/progress.err")
[ "$shown" -le $((elapsed + 1)) ] || fail "$shown progress lines in $elapsed s, more than one a second"
[ "$(grep -c 'after 1 s' "$work/progress.err")" -le 1 ] || fail "two progress lines within a second: $(cat "$work/progress.err")"
if grep -vE "^judge: building the harness(: | \(first use)" "$work/progress.err"; then
    fail "the build showed more than its progress (above)"
fi

make_checkout "$work/f"
status=0
STUB_BUILD_FAILS=1 STUB_BUILD_SECONDS=0 "$work/f/judge" --list >/dev/null 2>"$work/failed.err" || status=$?
[ "$status" = 5 ] || fail "a failed build ended with status $status, not 5"
expect_output "$work/failed.err" "stub.cpp:1: error: the stub fails as asked"
expect_output "$work/failed.err" "judge: JE: building the harness failed (log: $work/f/build/build.log)"
grep -qxF "stub.cpp:1: error: the stub fails as asked" "$work/f/build/build.log" || fail "build.log lacks the error"

make_checkout "$work/w"
"$work/w/judge" --list >"$work/builder.out" 2>&1 &
builder=$!
for _ in $(seq 100); do
    [ -s "$work/w/build/.build-lock" ] && break
    sleep 0.1
done
[ -s "$work/w/build/.build-lock" ] || fail "the building judge did not write its PID into build/.build-lock"
"$work/w/judge" --list >"$work/waiter.out" 2>"$work/waiter.err" || fail "the waiting judge failed: $(cat "$work/waiter.err")"
wait "$builder" || fail "the building judge failed: $(cat "$work/builder.out")"
expect_output "$work/waiter.err" "judge: waiting for the build of $work/w/build by PID $builder ($work/w/judge)…"
[ "$(grep -c '' "$work/waiter.err")" = 1 ] || fail "the waiting judge said more: $(cat "$work/waiter.err")"
expect_output "$work/waiter.out" "built from $work/w"
[ "$(wc -l <"$work/w/build/builds.log")" = 1 ] || fail "the waiting judge built again"
[ ! -s "$work/w/build/.build-lock" ] || fail "build/.build-lock still names a builder: $(cat "$work/w/build/.build-lock")"
echo "ok: progress at most once a second, a failed build's log, a waiting judge names the builder"
