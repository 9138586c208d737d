# Shared by ./judge, scripts/test and scripts/gpu-check: make sure the header-only
# dependencies are there, then configure and build the harness in $build.
# Expects $root (the repository) and $build (the build folder) to be set.

debian_packages="libcli11-dev doctest-dev nlohmann-json3-dev libsqlite3-dev python3-matplotlib"

# Staged copies of the packages (scripts/stage-deps) for machines without a registry.
prefix_args=()
if [ -d "$root/.deps/usr" ]; then prefix_args=(-DCMAKE_PREFIX_PATH="$root/.deps/usr"); fi

have_dependencies() {
    [ -d "$root/.deps/usr" ] && return 0
    [ -f /usr/include/CLI/CLI.hpp ] && [ -f /usr/include/doctest/doctest.h ] && [ -f /usr/include/nlohmann/json.hpp ] &&
        [ -f /usr/include/sqlite3.h ] && [ -d /usr/lib/python3/dist-packages/matplotlib ]
}

ensure_dependencies() {
    have_dependencies && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "judge: installing $debian_packages (first use)" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debian_packages; } >&2 || {
            echo "judge: JE: could not install $debian_packages" >&2
            exit 5
        }
        return 0
    fi
    echo "judge: JE: missing build dependencies. Install them with:" >&2
    echo "    sudo apt-get install $debian_packages" >&2
    exit 5
}

# Configures once, then lets the build tool decide what is out of date (a no-op
# build takes a fraction of a second). Quiet unless something fails.
build_harness() {
    ensure_dependencies
    local log="$build/build.log"
    mkdir -p "$build"
    if [ ! -f "$build/CMakeCache.txt" ]; then
        local generator=()
        command -v ninja >/dev/null && generator=(-G Ninja)
        if ! cmake -S "$root" -B "$build" "${generator[@]}" "${prefix_args[@]}" >"$log" 2>&1; then
            cat "$log" >&2
            echo "judge: JE: configuring the harness failed (log: $log)" >&2
            exit 5
        fi
    fi
    if ! cmake --build "$build" "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "judge: JE: building the harness failed (log: $log)" >&2
        exit 5
    fi
}
