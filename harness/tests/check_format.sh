#!/usr/bin/env bash
# Every C++ and CUDA file of the project is laid out as .clang-format says: run by CTest, so
# scripts/test (and CI) fails on a file that is not. `clang-format -i FILE` fixes one.
# Without clang-format (scripts/test installs it where apt can) the check says "skipped" (77).
#   check_format.sh ROOT [RECORD]
# RECORD (a file in the build folder) keeps the content hashes of the files found clean,
# under the clang-format version and the .clang-format they were checked with: a later run
# checks only what changed since, since checking every file costs half a minute on 2 cores.
set -uo pipefail
root="$1"
record="${2:-}"
command -v clang-format >/dev/null || { echo "skipped: clang-format is not installed"; exit 77; }
cd "$root"
mapfile -t files < <(find harness scripts solutions -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \) | sort)
[ "${#files[@]}" -gt 100 ] || { echo "FAIL: only ${#files[@]} source files found under $root"; exit 1; }

# What the record is valid for: another clang-format or another .clang-format checks all again.
rules="$({ clang-format --version; cat .clang-format; } | sha256sum | cut -d' ' -f1)"
declare -A clean=()
if [ -n "$record" ] && [ -f "$record" ] && [ "$(head -n1 "$record")" = "rules $rules" ]; then
    while read -r hash; do clean[$hash]=1; done < <(tail -n +2 "$record")
fi

declare -A hash_of=()
while read -r hash file; do hash_of[$file]=$hash; done < <(sha256sum "${files[@]}")
unchecked=()
for f in "${files[@]}"; do [ -n "${clean[${hash_of[$f]}]:-}" ] || unchecked+=("$f"); done

# One clang-format for every file still to check; it names each file it would change.
declare -A unformatted=()
if [ "${#unchecked[@]}" -gt 0 ]; then
    report="$(clang-format --dry-run --Werror "${unchecked[@]}" 2>&1)"
    status=$?
    while IFS= read -r f; do [ -z "$f" ] || unformatted[$f]=1; done < <(
        sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$report" | sort -u)
    # It failed without naming a file (one it could not read): each file is asked alone.
    if [ "$status" != 0 ] && [ "${#unformatted[@]}" = 0 ]; then
        for f in "${unchecked[@]}"; do clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted[$f]=1; done
    fi
fi

if [ -n "$record" ]; then
    {
        echo "rules $rules"
        for f in "${files[@]}"; do [ -n "${unformatted[$f]:-}" ] || echo "${hash_of[$f]}"; done | sort -u
    } >"$record.tmp.$$" && mv "$record.tmp.$$" "$record"
fi

if [ "${#unformatted[@]}" -gt 0 ]; then
    echo "FAIL: ${#unformatted[@]} of ${#files[@]} files are not clang-format clean (clang-format -i FILE):"
    printf '  %s\n' "${!unformatted[@]}" | sort
    exit 1
fi
echo "${#files[@]} files clang-format clean (${#unchecked[@]} checked now, $((${#files[@]} - ${#unchecked[@]})) unchanged since)"
