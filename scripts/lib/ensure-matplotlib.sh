#!/usr/bin/env bash
# scripts/lib/ensure-matplotlib.sh PLOT_PY — run by the judge before a run with --plot
# (command_line/reporters/plot_call.cpp): matplotlib is not part of the first build, so the first
# --plot finds it missing. As root with apt it installs python3-matplotlib in one line
# (apt's output only if that fails: exit 5); otherwise it names the command (exit 7).
# Exit 0 when plot.py (PLOT_PY --check) finds matplotlib.
set -euo pipefail
plot="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/scripts/lib/build.sh"

finds_matplotlib() { command -v python3 >/dev/null && python3 "$plot" --check 2>/dev/null; }

finds_matplotlib && exit 0
if ! can_install; then
    echo "judge: setup: --plot needs matplotlib, which python3 does not find. Install it with:" >&2
    echo "    sudo apt-get install --no-install-recommends $plot_packages" >&2
    exit 7
fi
# shellcheck disable=SC2086 # one package a word
install_packages "first use of --plot" $plot_packages
finds_matplotlib && exit 0
echo "judge: JE: $plot_packages is installed, but $plot --check still does not find matplotlib" >&2
exit 5
