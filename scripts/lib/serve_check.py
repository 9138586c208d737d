#!/usr/bin/env python3
"""./judge serve against the judge's own command line, over the page's HTTP API (curl).

Starts `JUDGE serve`, submits SOLUTION as the page's Submit does, reads its event stream to
the end, then judges the same file with `JUDGE SOLUTION --json`; compares the verdicts (must
be equal) and the median times (their ratio, against the run-to-run noise); measures the
time from the submission to the first and to the last row; submits two at once and checks
that the second was judged only after the first had ended. Prints the report; exit 1 when a
check fails.

Usage: serve_check.py JUDGE SOLUTION FOLDER
  JUDGE: ./judge (or, to test this script without a GPU, the fake judge as
  GEMM_JUDGE_SERVE_JUDGE with the judge program itself as JUDGE)
"""
import json
import os
import re
import subprocess
import sys
import time

JUDGE, SOLUTION, FOLDER = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def say(text):
    print(text, flush=True)


def expect(condition, what):
    say(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        failures.append(what)


def submit(base, token, kind, name, source):
    body = json.dumps({"kind": kind, "file_name": name, "source": source})
    answer = subprocess.run(["curl", "-sS", "-X", "POST", "-H", "X-Judge-Token: " + token, "-H",
                             "Content-Type: application/json", "--data-binary", "@-", base + "/api/submit"],
                            input=body, capture_output=True, text=True, check=True).stdout
    return json.loads(answer)


def stream(base, token, submission, started):
    """[(seconds since `started`, event)] of a submission, read with curl to the end."""
    curl = subprocess.Popen(["curl", "-sSN", f"{base}/api/submissions/{submission}/events?token={token}"],
                            stdout=subprocess.PIPE, text=True)
    read = []
    for line in curl.stdout:
        if line.startswith("data: "):
            read.append((time.monotonic() - started, json.loads(line[6:])))
    curl.wait()
    return read


def medians(cases):
    return {c["name"]: (c["verdict"], c["timing"]["median_ms"] if c.get("timing") else None,
                        c.get("time_resolution_ms")) for c in cases}


def main():
    os.makedirs(FOLDER, exist_ok=True)
    history = os.path.join(FOLDER, "serve-history.sqlite")
    server = subprocess.Popen([JUDGE, "serve", "--port", "0", "--history", history], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        for line in server.stdout:
            found = re.search(r"(http://[^/]+)/\?token=([0-9a-f]{64})", line)
            if found:
                break
        else:
            raise SystemExit("the server printed no URL")
        base, token = found.group(1), found.group(2)
        source = open(SOLUTION).read()
        name = os.path.basename(SOLUTION)

        started = time.monotonic()
        answer = submit(base, token, "submit", name, source)
        events = stream(base, token, answer["id"], started)
        rows = [(t, e["case"]) for t, e in events if e["event"] == "case_finished"]
        expect(bool(rows), f"{name} streamed {len(rows)} rows")
        if rows:
            say(f"submit → first row {rows[0][0]:.2f} s, → last row {rows[-1][0]:.2f} s, "
                f"→ end of stream {events[-1][0]:.2f} s")
        with open(os.path.join(FOLDER, "serve-stream.jsonl"), "w") as f:
            for t, e in events:
                f.write(json.dumps({"t": round(t, 3), **e}) + "\n")

        cli_json = os.path.join(FOLDER, "cli.json")
        cli_start = time.monotonic()
        console = subprocess.run([JUDGE, SOLUTION, "--json", cli_json, "--no-history"], capture_output=True,
                                 text=True).stdout
        say(f"the CLI's run took {time.monotonic() - cli_start:.2f} s")
        # One decision for the printed time: the console's row prints its report's time_text,
        # and the page shows the streamed report's time_text as it is.
        cli_cases = json.load(open(cli_json))["cases"]
        def row_of(name):  # the console's row of a case (a long name is cut there, so its start)
            return next((line for line in console.splitlines() if line.startswith(name[:20])), "")
        printed = [c for c in cli_cases if c.get("time_text") and c["time_text"] in row_of(c["name"])]
        expect(len(printed) == sum(1 for c in cli_cases if c.get("time_text")),
               f"the console prints its report's time_text on {len(printed)} of "
               f"{sum(1 for c in cli_cases if c.get('time_text'))} timed rows")
        texts = {c["name"]: c.get("time_text") for _, c in rows}
        same = [n for n, c in ((c["name"], c) for c in cli_cases) if texts.get(n) == c.get("time_text")]
        say(f"served and CLI time_text equal on {len(same)} of {len(cli_cases)} cases (two runs: a "
            "difference is the run-to-run noise, never a second format)")
        served, cli = medians([c for _, c in rows]), medians(json.load(open(cli_json))["cases"])
        expect(list(served) == list(cli), "the same cases, in the same order")
        expect(all(served[n][0] == cli[n][0] for n in served if n in cli), "every verdict equal to the CLI's")
        cli_texts = {c["name"]: c.get("time_text") or "" for c in cli_cases}
        say(f"{'case':28} {'verdict':7} {'serve ms':>9} {'CLI ms':>9} {'ratio':>6} {'served':>14} {'CLI':>14}")
        for n, (verdict, ms, resolution) in served.items():
            other = cli.get(n, (None, None, None))[1]
            ratio = f"{ms / other:.3f}" if ms and other else ""
            say(f"{n[:28]:28} {verdict:7} {ms or 0:9.4f} {other or 0:9.4f} {ratio:>6} {texts.get(n) or '':>14} "
                f"{cli_texts.get(n, ''):>14}")

        started = time.monotonic()
        first = submit(base, token, "run", name, source)
        second = submit(base, token, "run", "second-" + name, source)
        expect(second["position"] == 1, "the second submission waits one place behind")
        first_events = stream(base, token, first["id"], started)
        second_events = stream(base, token, second["id"], started)
        first_end = first_events[-1][0]
        second_start = next(t for t, e in second_events if e["event"] == "stage")
        expect(second_start >= first_end - 0.05,
               f"judged one after the other: the first ended at {first_end:.2f} s, the second began at "
               f"{second_start:.2f} s")
    finally:
        server.terminate()
        server.wait(timeout=30)
    say("serve check: " + ("all passed" if not failures else f"{len(failures)} failed"))
    sys.exit(1 if failures else 0)


main()
