# Shared by ./judge, scripts/test and scripts/gpu-check: make sure the header-only
# dependencies are there, then configure and build the harness in $build: once, however
# many of them start at the same moment, and always from the checkout in $root.
# Expects $root (the repository) and $build (the build folder) to be set.

debian_packages="libcli11-dev doctest-dev nlohmann-json3-dev libxxhash-dev libsqlite3-dev libfmt-dev libutf8proc-dev libpugixml-dev libseccomp-dev"
# What --plot needs, installed the first time it is used (scripts/lib/ensure-matplotlib.sh)
# and by scripts/test for the plot tests: not by the first build.
plot_packages="python3-matplotlib"

# Staged copies of the packages (scripts/stage-deps) for machines without a registry.
prefix_args=()
if [ -d "$root/.deps/usr" ]; then prefix_args=(-DCMAKE_PREFIX_PATH="$root/.deps/usr"); fi

# One file each package installs, as the build looks for it.
dependency_files="/usr/include/CLI/CLI.hpp /usr/include/doctest/doctest.h /usr/include/nlohmann/json.hpp
    /usr/include/xxhash.h /usr/include/sqlite3.h /usr/include/fmt/core.h /usr/include/utf8proc.h
    /usr/include/pugixml.hpp /usr/include/seccomp.h"

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
        cat "$log" >&2
        cp "$log" "$build/build.log" 2>/dev/null || true
        rm -f "$log"
        echo "judge: JE: $what failed (log: $build/build.log)" >&2
        exit 5
    fi
    rm -f "$log"
}

# How long a first build takes, measured on a 2-core machine: the judge and its worker
# (./judge), or everything with the tests (scripts/test).
first_build_minutes() {
    case " $* " in *" --target "*) echo "about 2–3 minutes" ;; *) echo "about 4–5 minutes" ;; esac
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

# Configures once, then lets the build tool decide what is out of date (a no-op build
# takes a fraction of a second). An exclusive lock on the build folder serialises
# concurrent runs: the first builds, the others wait and find nothing to do.
build_harness() {
    ensure_dependencies
    mkdir -p "$build" 2>/dev/null ||
        setup_error "cannot create the build folder $build; set GEMM_JUDGE_BUILD_DIR to a folder you can write"
    [ -w "$build" ] ||
        setup_error "the build folder $build is not writable and holds no complete build; set GEMM_JUDGE_BUILD_DIR to a folder you can write"
    local lock
    exec {lock}>>"$build/.build-lock"
    if command -v flock >/dev/null; then flock "$lock"; fi
    forget_other_checkout
    local first_use=0
    if [ ! -x "$build/bin/gemm-judge" ]; then
        first_use=1
        echo "judge: building the harness (first use, $(first_build_minutes "$@") on 2 cores)…" >&2
    fi
    if [ ! -f "$build/CMakeCache.txt" ] || { [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; }; then
        local generator=()
        command -v ninja >/dev/null && generator=(-G Ninja)
        quietly "configuring the harness" cmake -S "$root" -B "$build" "${generator[@]}" "${prefix_args[@]}"
    fi
    if [ "$first_use" = 0 ] && needs_building "$@"; then echo "judge: building the harness…" >&2; fi
    quietly "building the harness" cmake --build "$build" "$@"
    exec {lock}>&-
}
