# Shared by ./judge, scripts/test and scripts/gpu-check: make sure the header-only
# dependencies are there, then configure and build the harness in $build: once, however
# many of them start at the same moment, and always from the checkout in $root.
# Expects $root (the repository) and $build (the build folder) to be set.

debian_packages="libcli11-dev doctest-dev nlohmann-json3-dev libxxhash-dev libsqlite3-dev libfmt-dev libutf8proc-dev libpugixml-dev libseccomp-dev libffi-dev libcpp-httplib-dev libjs-codemirror"
# What --plot needs, installed the first time it is used (scripts/lib/ensure-matplotlib.sh)
# and by scripts/test for the plot tests: not by the first build.
plot_packages="python3-matplotlib"
# What only the tests need, installed by scripts/test: the report schema's validator
# (scripts/check-report) and clang-format (every source file's layout is checked).
test_packages="python3-jsonschema clang-format"
# What the browser test of ./judge serve drives (harness/tests/serve/test_serve_browser.py),
# installed by scripts/test alone.
browser_packages="chromium chromium-driver python3-selenium"
# What the test of scripts/slurm/ starts a one-node cluster from, installed by scripts/test
# as the plot packages are: never by ./judge.
slurm_packages="slurm-wlm munge"

# Staged copies of the packages (scripts/stage-deps) for machines without a registry.
prefix_args=()
if [ -d "$root/.deps/usr" ]; then prefix_args=(-DCMAKE_PREFIX_PATH="$root/.deps/usr"); fi

# One file each package installs, as the build looks for it.
dependency_files="/usr/include/CLI/CLI.hpp /usr/include/doctest/doctest.h /usr/include/nlohmann/json.hpp
    /usr/include/xxhash.h /usr/include/sqlite3.h /usr/include/fmt/core.h /usr/include/utf8proc.h
    /usr/include/pugixml.hpp /usr/include/seccomp.h /usr/include/httplib.h
    /usr/share/javascript/codemirror/lib/codemirror.js"

have_dependencies() {
    [ -d "$root/.deps/usr" ] && return 0
    local file
    for file in $dependency_files; do [ -e "$file" ] || return 1; done
}

# The packages named ($debian_packages unless others are) that dpkg does not list as installed.
missing_packages() {
    local package
    for package in ${@:-$debian_packages}; do
        dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q '^install ok installed$' || echo "$package"
    done
}

# Whether this run may install packages: root, with apt.
can_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
}

# install_packages WHY PACKAGE…: as root with apt, the packages without their
# recommendations, in one line of output (apt's and dpkg's are kept in a log, shown only
# when the install fails, which stops with JE).
install_packages() {
    local why="$1" log
    shift
    log="$(mktemp)"
    echo "judge: installing $* ($why; apt-get --no-install-recommends)" >&2
    if ! { apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "judge: JE: could not install $*" >&2
        exit 5
    fi
    rm -f "$log"
}

# The build's packages that are missing: installed (with the extra packages named, which
# scripts/test adds for its own tests) as root with apt, otherwise the command to install
# them and exit 7. Extra packages alone are installed only where that can be done.
ensure_dependencies() {
    local missing extra=""
    [ "$#" = 0 ] || extra="$(missing_packages "$@" | tr '\n' ' ')"
    if have_dependencies; then
        missing=""
    else
        missing="$(missing_packages | tr '\n' ' ')"
        [ -n "${missing// /}" ] || missing="$debian_packages"
    fi
    if [ -z "${missing// /}" ] && { [ -z "${extra// /}" ] || [ -d "$root/.deps/usr" ] || ! can_install; }; then
        return 0
    fi
    if can_install; then
        # shellcheck disable=SC2086 # one package a word
        install_packages "first use" $missing $extra
        return 0
    fi
    echo "judge: setup: missing build dependencies. Install them with:" >&2
    echo "    sudo apt-get install --no-install-recommends ${missing% }" >&2
    exit 7
}

setup_error() {
    echo "judge: setup: $*" >&2
    exit 7
}

# A complete build in a folder this user may not write (another user's checkout, a
# read-only mount) is used as it is: judging then writes nothing to the tree.
built_and_read_only() {
    [ -x "$build/bin/gemm-judge" ] && [ -x "$build/bin/gemm-referee" ] && [ -x "$build/bin/gemm-runner" ] && [ ! -w "$build" ]
}

# A build folder configured for another checkout (this one is a copy, or was moved) is
# configured again for this one: CMake would otherwise build the other checkout's
# sources, or stop because they are gone.
forget_other_checkout() {
    local cache="$build/CMakeCache.txt" source cache_dir
    [ -f "$cache" ] || return 0
    source="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
    cache_dir="$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")"
    if [ "$(readlink -m "$source")" != "$(readlink -m "$root")" ] ||
        [ "$(readlink -m "$cache_dir")" != "$(readlink -m "$build")" ]; then
        echo "judge: $build was configured for $source; configuring it for $root" >&2
        rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
    fi
}

# Runs one step quietly; on failure shows its output, keeps it as $build/build.log and
# stops with JE. A step that succeeds writes no log: a no-op build leaves the tree as it is.
quietly() {
    local what="$1" log
    shift
    log="$(mktemp)"
    if ! "$@" >"$log" 2>&1; then
        failed "$what" "$log"
    fi
    rm -f "$log"
}

# Shows the output of a step that failed, keeps it as $build/build.log and stops with JE.
failed() {
    local what="$1" log="$2"
    cat "$log" >&2
    cp "$log" "$build/build.log" 2>/dev/null || true
    rm -f "$log"
    echo "judge: JE: $what failed (log: $build/build.log)" >&2
    exit 5
}

# What a line of the build tool says was done, in a few words: ninja's and make's
# "Building CXX object harness/common/CMakeFiles/gemm_common.dir/rng.cpp.o" is harness/common/rng.cpp,
# ".../gemm_common.dir/Unity/unity_0_cxx.cxx.o" is gemm_common's sources, unity file 1, and
# "Linking CXX executable bin/gemm-judge" is linking bin/gemm-judge.
step_done() {
    local what="$1"
    case "$what" in
    "Building "*" object "*/cmake_pch.hxx.gch | "Building "*" object "*/cmake_pch.hxx.pch)
        what="${what%%.dir/*}"
        echo "the precompiled headers of ${what##*/}"
        ;;
    "Building "*" object "*/Unity/unity_*)
        local batch="${what##*/unity_}"
        what="${what%%.dir/*}"
        echo "${what##*/}'s sources, unity file $((${batch%%_*} + 1))"
        ;;
    "Building "*" object "*)
        what="${what#Building * object }"
        what="${what%.o}"
        what="${what%.obj}"
        echo "${what%%/CMakeFiles/*}/${what#*.dir/}"
        ;;
    "Linking "*" "*) echo "linking ${what##* }" ;;
    *) echo "$what" ;;
    esac
}

# Reads the build tool's output (every line kept in the file $1) and says how far the build
# is on stderr: on a terminal one line rewritten in place, elsewhere one line at most every
# $GEMM_JUDGE_PROGRESS_SECONDS (10) seconds, the first after as many. Steps are counted as
# ninja counts them ("[done/total] what", NINJA_STATUS below) or as make's percentage.
show_progress() {
    local log="$1" interval="${GEMM_JUDGE_PROGRESS_SECONDS:-10}" line="" chunk status
    local start=$SECONDS shown=$SECONDS done_steps="" total_steps="" percent="" last="" terminal=0 said=""
    [ -t 2 ] && terminal=1
    while :; do
        status=0
        IFS= read -r -t 1 chunk || status=$?
        if [ "$status" -gt 128 ]; then
            line+="$chunk" # a timeout keeps the part of a line read so far
        else
            line+="$chunk"
            if [ -n "$line" ] || [ "$status" = 0 ]; then
                printf '%s\n' "$line" >>"$log"
                if [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\]\ (.*)$ ]]; then
                    done_steps="${BASH_REMATCH[1]}" total_steps="${BASH_REMATCH[2]}"
                    percent=$((100 * done_steps / total_steps))
                    last="$(step_done "${BASH_REMATCH[3]}")"
                elif [[ "$line" =~ ^\[\ *([0-9]+)%\]\ (.*)$ ]]; then
                    percent="${BASH_REMATCH[1]}"
                    last="$(step_done "${BASH_REMATCH[2]}")"
                fi
            fi
            line=""
            [ "$status" = 0 ] || break
        fi
        local report="judge: building the harness: "
        if [ -n "$total_steps" ]; then
            report+="$done_steps of $total_steps steps ($percent%) after $((SECONDS - start)) s; done last: $last"
        elif [ -n "$percent" ]; then
            report+="$percent% after $((SECONDS - start)) s; done last: $last"
        else
            report+="no step done yet after $((SECONDS - start)) s"
        fi
        if [ "$terminal" = 1 ]; then
            [ "$report" = "$said" ] || printf '\r\033[K%s' "${report:0:$((${COLUMNS:-100} - 1))}" >&2
            said="$report"
        elif ((SECONDS - shown >= interval)); then
            echo "${report:0:100}" >&2 # a log's line, as a terminal's, fits 100 columns
            shown=$SECONDS
        fi
    done
    if [ "$terminal" = 1 ] && [ -n "$said" ]; then printf '\r\033[K' >&2; fi
}

# Runs the build (`cmake --build` and its arguments) showing its progress (show_progress);
# on failure shows its whole output, keeps it as $build/build.log and stops with JE.
build_showing_progress() {
    local log
    log="$(mktemp)"
    if NINJA_STATUS="[%f/%t] " "$@" 2>&1 | show_progress "$log"; [ "${PIPESTATUS[0]}" != 0 ]; then
        failed "building the harness" "$log"
    fi
    rm -f "$log"
}

# How long a first build takes on 2 cores (docs/perf-notes.md, "Build time"): the judge and
# its workers (./judge: 2.2–2.5 CPU-minutes, 81 s with little else running, 1¾ minutes
# while other builds shared the cores), or everything with the tests and the fuzz target
# (scripts/test: 2 minutes).
first_build_minutes() {
    case " $* " in *" --target "*) echo "about 1–2 minutes" ;; *) echo "about 2–3 minutes" ;; esac
}

# Whether the build tool has work to do for these `cmake --build` arguments (ninja's dry
# run asks it; with another generator, whether the judge was ever built).
needs_building() {
    if [ -f "$build/build.ninja" ] && command -v ninja >/dev/null; then
        local targets=() arg collect=0
        for arg in "$@"; do
            if [ "$arg" = --target ]; then collect=1; elif [ "$collect" = 1 ]; then targets+=("$arg"); fi
        done
        ! ninja -C "$build" -n "${targets[@]}" 2>/dev/null | grep -q '^ninja: no work to do'
        return
    fi
    [ ! -x "$build/bin/gemm-judge" ]
}

# Takes the build folder's lock (fd $build_lock), so that of the runs started together one
# configures and builds while the others wait and then find nothing to do. The holder
# writes its PID and command into the lock file while it builds; a waiting run names them.
take_build_lock() {
    exec {build_lock}>>"$build/.build-lock"
    command -v flock >/dev/null || return 0
    flock -n "$build_lock" && return 0
    local holder
    holder="$(cat "$build/.build-lock" 2>/dev/null)"
    if [ -z "$holder" ]; then # it only looks whether anything is out of date, or it just began
        flock -w 1 "$build_lock" && return 0
        holder="$(cat "$build/.build-lock" 2>/dev/null)"
    fi
    if [ -n "$holder" ] && [ -d "/proc/${holder%% *}" ]; then
        echo "judge: waiting for the build of $build by PID ${holder%% *} (${holder#* })…" >&2
    else
        echo "judge: waiting for the build of $build by another process (its PID is not known: it has not written it yet)…" >&2
    fi
    flock "$build_lock"
}

# Configures once, then lets the build tool decide what is out of date (a no-op build
# takes a fraction of a second). Concurrent runs are serialised by take_build_lock.
build_harness() {
    ensure_dependencies
    mkdir -p "$build" 2>/dev/null ||
        setup_error "cannot create the build folder $build; set GEMM_JUDGE_BUILD_DIR to a folder you can write"
    [ -w "$build" ] ||
        setup_error "the build folder $build is not writable and holds no complete build; set GEMM_JUDGE_BUILD_DIR to a folder you can write"
    local build_lock
    take_build_lock
    forget_other_checkout
    local first_use=0 configure=0 compile=0
    [ -x "$build/bin/gemm-judge" ] || first_use=1
    if [ ! -f "$build/CMakeCache.txt" ] || { [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; }; then
        configure=1
    fi
    if [ "$first_use" = 1 ] || [ "$configure" = 1 ] || needs_building "$@"; then compile=1; fi
    if [ "$compile" = 1 ]; then
        echo "$$ $0" >"$build/.build-lock"
        if [ "$first_use" = 1 ]; then
            echo "judge: building the harness (first use, $(first_build_minutes "$@") on 2 cores)…" >&2
        else
            echo "judge: building the harness…" >&2
        fi
    fi
    if [ "$configure" = 1 ]; then
        local generator=()
        command -v ninja >/dev/null && generator=(-G Ninja)
        quietly "configuring the harness" cmake -S "$root" -B "$build" "${generator[@]}" "${prefix_args[@]}"
    fi
    if [ "$compile" = 1 ]; then
        build_showing_progress cmake --build "$build" "$@"
        : >"$build/.build-lock"
    else
        quietly "building the harness" cmake --build "$build" "$@"
    fi
    exec {build_lock}>&-
}
