# Shared by the launcher's tests: a checkout made of the real ./judge, scripts/test and
# scripts/lib/build.sh around the stub project beside this file, in a folder of its own.
# Expects $repo (the real repository) to be set.
set -euo pipefail
unset GEMM_JUDGE_BUILD_DIR GEMM_JUDGE_ROOT # the outer scripts/test's build is not ours

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
chmod 755 "$work" # readable by the other user of the read-only test
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# make_checkout DIR: a fresh checkout at DIR.
make_checkout() {
    mkdir -p "$1/scripts/lib" "$1/testcases"
    cp "$repo/judge" "$1/"
    cp "$repo/scripts/test" "$1/scripts/"
    cp "$repo/scripts/lib/build.sh" "$repo/scripts/lib/ensure-matplotlib.sh" "$repo/scripts/lib/short_ctest_lines.py" \
        "$1/scripts/lib/"
    cp "$here/stub-project/CMakeLists.txt" "$here/stub-project/make-stub.sh" "$1/"
    # A machine without a package registry (the GPU machine) has the dependencies only as
    # the repository's staged copies (scripts/stage-deps): the stub checkout gets them too.
    if [ -d "$repo/.deps" ]; then cp -r "$repo/.deps" "$1/"; fi
}

# expect_output FILE TEXT: FILE holds the line TEXT.
expect_output() {
    grep -qxF "$2" "$1" || fail "expected the line '$2' in $1, which holds: $(cat "$1")"
}
