#!/usr/bin/env bash
# A fake gemm-judge in the CPU tests of ./judge batch (test_batch.cpp): judges a
# submission as its first "BATCH: …" line says (sleep SECONDS, wa, crash, hang; a #error
# is CE), writes a report as the judge's --json does, and logs when it started and ended
# on which GPU (CUDA_VISIBLE_DEVICES) to $BATCH_FAKE_JUDGE_LOG. With no GPU visible it only
# "compiles", as the batch's compiling ahead runs the judge.
log="${BATCH_FAKE_JUDGE_LOG:-/dev/null}"
[ "$1" = rank ] && shift
file="$1"
shift
json=""
problem="leetgpu/2-matrix-multiplication"
while [ $# -gt 0 ]; do
    case "$1" in
    --json) json="$2"; shift 2 ;;
    --problem) problem="$2"; shift 2 ;;
    *) shift ;;
    esac
done
name="$(basename "$file")"
echo "problem $name $problem" >>"$log"
if [ "${CUDA_VISIBLE_DEVICES-unset}" = "" ]; then
    echo "compile $name" >>"$log"
    grep -q '#error' "$file" && exit 4
    # As the judge says it: two lines on stderr, and one long sentence in the report.
    why="no GPU is visible: CUDA_VISIBLE_DEVICES is set to an empty list, which hides every GPU from"
    why="$why the judge and everything it starts. Unset it, or name a GPU (CUDA_VISIBLE_DEVICES=0), and"
    why="$why run the judge again to time the solution"
    [ -z "$json" ] || printf '{"solution":"%s","summary":{"counts":{},"worst":null,"no_gpu":"%s"}}\n' \
        "$file" "$why" >"$json"
    echo "judge: no GPU: no GPU is visible: CUDA_VISIBLE_DEVICES is set to an empty list" >&2
    echo "judge: unset it, or name a GPU (CUDA_VISIBLE_DEVICES=0), and run the judge again" >&2
    exit 6
fi
gpu="${CUDA_VISIBLE_DEVICES-none}"
echo "start $name $gpu $(date +%s.%N)" >>"$log"
finish() { # WORST COUNTS EXIT
    [ -z "$json" ] || printf '{"solution":"%s","problem":"%s","summary":{"counts":%s,"worst":"%s","exit_status":%d}}\n' \
        "$file" "$problem" "$2" "$1" "$3" >"$json"
    echo "$name: $1"
    echo "end $name $gpu $(date +%s.%N)" >>"$log"
    exit "$3"
}
behaviour="$(sed -n 's/.*BATCH: //p' "$file" | head -n 1)"
case "$behaviour" in
sleep*) sleep "${behaviour#sleep }" ;;
wa) finish WA '{"AC":2,"WA":1}' 1 ;;
crash) echo "about to crash"; kill -SEGV $$ ;;
hang) exec sleep 1000 ;;
esac
grep -q '#error' "$file" && finish CE '{"CE":3}' 4
finish AC '{"AC":3}' 0
