#!/usr/bin/env bash
# A checkout built by one user judges for another who may not write it (as root: the user
# nobody; otherwise: the tree made read-only), and no run of an already built judge, the
# owner's included, writes anything to the tree.
repo="$1"
. "$(dirname "$0")/lib.sh"
# What is asserted here does not depend on how long a build takes: the stub builds at once.
export STUB_BUILD_SECONDS=0

make_checkout "$work/p"
"$work/p/judge" >"$work/build.out" 2>&1 || fail "the build failed: $(cat "$work/build.out")"
snapshot() { find "$work/p" -printf '%p %s %T@ %m\n' | sort; }
snapshot >"$work/before"

if [ "$(id -u)" = 0 ]; then
    as_other=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent)
else
    chmod -R a-w "$work/p"
    as_other=()
    snapshot >"$work/before" # the modes changed
fi
"${as_other[@]}" "$work/p/judge" >"$work/other.out" 2>&1 || fail "the other user's run failed: $(cat "$work/other.out")"
expect_output "$work/other.out" "built from $work/p"
snapshot >"$work/after-other"
diff "$work/before" "$work/after-other" || fail "the other user's run wrote to the tree"

[ "$(id -u)" = 0 ] || chmod -R u+w "$work/p"
snapshot >"$work/before-owner"
"$work/p/judge" >"$work/owner.out" 2>&1 || fail "the owner's run failed: $(cat "$work/owner.out")"
snapshot >"$work/after-owner"
diff "$work/before-owner" "$work/after-owner" || fail "the owner's run of a built judge wrote to the tree"
echo "ok: read-only use writes nothing"
