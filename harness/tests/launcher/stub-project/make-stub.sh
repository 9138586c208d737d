#!/bin/sh
# make-stub.sh SOURCE BIN: writes BIN/gemm-judge, BIN/gemm-referee and BIN/gemm-runner, programs that say
# which checkout they were built from and which suite ./judge pointed them at. With
# STUB_BUILD_FAILS set it fails instead, as a compile error would.
set -eu
source="$1" bin="$2" build="$(dirname "$2")"
mkdir -p "$bin"
mkdir "$build/building" 2>/dev/null || echo "overlap" >>"$build/overlaps.log"
echo "build" >>"$build/builds.log"
sleep "${STUB_BUILD_SECONDS:-2}"
if [ -n "${STUB_BUILD_FAILS:-}" ]; then
    echo "stub.cpp:1: error: the stub fails as asked"
    rmdir "$build/building"
    exit 1
fi
cat >"$bin/gemm-judge" <<PROGRAM
#!/bin/sh
echo "built from $source"
echo "suite \${GEMM_JUDGE_ROOT:-unset}/testcases"
PROGRAM
chmod +x "$bin/gemm-judge"
cp "$bin/gemm-judge" "$bin/gemm-referee"
cp "$bin/gemm-judge" "$bin/gemm-runner"
rmdir "$build/building"
