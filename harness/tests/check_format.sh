#!/usr/bin/env bash
# Every C++ and CUDA file of the project is laid out as .clang-format says: run by CTest, so
# scripts/test (and CI) fails on a file that is not. `clang-format -i FILE` fixes one.
# Without clang-format (scripts/test installs it where apt can) the check says "skipped" (77).
set -uo pipefail
root="$1"
command -v clang-format >/dev/null || { echo "skipped: clang-format is not installed"; exit 77; }
cd "$root"
mapfile -t files < <(find harness scripts solutions -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \) | sort)
[ "${#files[@]}" -gt 100 ] || { echo "FAIL: only ${#files[@]} source files found under $root"; exit 1; }
unformatted=()
for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ "${#unformatted[@]}" -gt 0 ]; then
    echo "FAIL: ${#unformatted[@]} of ${#files[@]} files are not clang-format clean (clang-format -i FILE):"
    printf '  %s\n' "${unformatted[@]}"
    exit 1
fi
echo "${#files[@]} files clang-format clean"
