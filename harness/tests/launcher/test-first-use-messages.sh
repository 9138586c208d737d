#!/usr/bin/env bash
# What a newcomer sees before the first verdict: one line saying the harness is being built
# (and how long that takes) from ./judge and from scripts/test, nothing from a built judge,
# and an automatic install of the build dependencies that takes no recommended packages
# and prints one line (apt's and dpkg's output only when it fails). matplotlib is not one of
# them: the first --plot installs it (scripts/lib/ensure-matplotlib.sh), and so does
# scripts/test, for the plot tests.
repo="$1"
. "$(dirname "$0")/lib.sh"
# What is asserted here does not depend on how long a build takes: the stub builds at once.
export STUB_BUILD_SECONDS=0

lines() { grep -c '' "$1" || true; }

make_checkout "$work/p"
"$work/p/judge" --list >"$work/first.out" 2>"$work/first.err" || fail "the first build failed: $(cat "$work/first.err")"
expect_output "$work/first.err" "judge: building the harness (first use, about 1–2 minutes on 2 cores)…"
[ "$(lines "$work/first.err")" = 1 ] || fail "the first build printed more than one line: $(cat "$work/first.err")"
"$work/p/judge" --list >/dev/null 2>"$work/built.err" || fail "the built judge failed: $(cat "$work/built.err")"
[ ! -s "$work/built.err" ] || fail "a built judge printed: $(cat "$work/built.err")"
sleep 1 && touch "$work/p/make-stub.sh" # a changed source: built again, and said so
"$work/p/judge" --list >/dev/null 2>"$work/rebuilt.err" || fail "the rebuild failed: $(cat "$work/rebuilt.err")"
expect_output "$work/rebuilt.err" "judge: building the harness…"

make_checkout "$work/q"
"$work/q/scripts/test" >"$work/test.out" 2>"$work/test.err" || fail "scripts/test failed: $(cat "$work/test.err")"
expect_output "$work/test.err" "judge: building the harness (first use, about 2–3 minutes on 2 cores)…"

# The installer, with apt-get, dpkg-query and id stood in for: root, nothing installed.
fake="$work/fake-bin"
mkdir -p "$fake"
cat >"$fake/apt-get" <<FAKE
#!/bin/sh
echo "\$*" >>"$work/apt.log"
for i in \$(seq 250); do echo "Unpacking fake-package-\$i ..."; done
exit \${FAKE_APT_STATUS:-0}
FAKE
printf '#!/bin/sh\nexit 1\n' >"$fake/dpkg-query"
printf '#!/bin/sh\n[ "$1" = -u ] && { echo "${FAKE_UID:-0}"; exit 0; }\nexec /usr/bin/id "$@"\n' >"$fake/id"
chmod +x "$fake"/*
install_dependencies() { # the arguments: what scripts/test adds
    (
        PATH="$fake:$PATH" root="$work/p" build="$work/p/build"
        . "$work/p/scripts/lib/build.sh"
        have_dependencies() { return 1; }
        ensure_dependencies "$@"
    )
}
all_packages="libcli11-dev doctest-dev nlohmann-json3-dev libxxhash-dev libsqlite3-dev libfmt-dev libutf8proc-dev"
all_packages+=" libpugixml-dev libseccomp-dev libffi-dev libcpp-httplib-dev libjs-codemirror"
install_dependencies 2>"$work/install.err" || fail "the install failed: $(cat "$work/install.err")"
[ "$(lines "$work/install.err")" = 1 ] || fail "the install printed more than one line: $(cat "$work/install.err")"
expect_output "$work/install.err" "judge: installing $all_packages (first use; apt-get --no-install-recommends)"
expect_output "$work/apt.log" "install -y -qq --no-install-recommends $all_packages"
install_dependencies python3-matplotlib 2>"$work/test-install.err" || fail "the install failed: $(cat "$work/test-install.err")"
expect_output "$work/test-install.err" \
    "judge: installing $all_packages python3-matplotlib (first use; apt-get --no-install-recommends)"

status=0
FAKE_APT_STATUS=100 install_dependencies 2>"$work/failed.err" || status=$?
[ "$status" = 5 ] || fail "a failed install ended with status $status, not 5"
grep -q 'Unpacking fake-package-250' "$work/failed.err" || fail "a failed install hid apt's output"
expect_output "$work/failed.err" "judge: JE: could not install $all_packages"

# --plot's check (scripts/lib/ensure-matplotlib.sh), with a python3 that finds matplotlib
# once apt-get installed it.
printf '#!/bin/sh\necho "$*" >>"%s/apt.log"\n[ \"$*\" = \"update -qq\" ] || touch "%s/matplotlib"\nexit ${FAKE_APT_STATUS:-0}\n' \
    "$work" "$work" >"$fake/apt-get"
printf '#!/bin/sh\n[ "$2" = --check ] && [ -e "%s/matplotlib" ]\n' "$work" >"$fake/python3"
chmod +x "$fake"/*
ensure_matplotlib() { PATH="$fake:$PATH" "$work/p/scripts/lib/ensure-matplotlib.sh" "$work/p/plot.py"; }
status=0
FAKE_UID=1000 ensure_matplotlib 2>"$work/plot-user.err" || status=$?
[ "$status" = 7 ] || fail "a user who cannot install matplotlib got status $status, not 7"
expect_output "$work/plot-user.err" "    sudo apt-get install --no-install-recommends python3-matplotlib"
status=0
FAKE_APT_STATUS=100 ensure_matplotlib 2>"$work/plot-failed.err" || status=$?
[ "$status" = 5 ] || fail "a failed install of matplotlib got status $status, not 5"
expect_output "$work/plot-failed.err" "judge: JE: could not install python3-matplotlib"
ensure_matplotlib 2>"$work/plot.err" || fail "installing matplotlib failed: $(cat "$work/plot.err")"
[ "$(lines "$work/plot.err")" = 1 ] || fail "installing matplotlib printed more than one line: $(cat "$work/plot.err")"
expect_output "$work/plot.err" \
    "judge: installing python3-matplotlib (first use of --plot; apt-get --no-install-recommends)"
ensure_matplotlib 2>"$work/plot-again.err" || fail "the check failed once matplotlib was there"
[ ! -s "$work/plot-again.err" ] || fail "the check said something once matplotlib was there: $(cat "$work/plot-again.err")"
echo "ok: one line for a first build, nothing for a built judge, one line for a quiet install, matplotlib on --plot"
