#!/usr/bin/env python3
"""./judge serve in a real browser: Debian's chromium, headless, through Selenium.

The server judges through the fake judge (fake_judge.cpp: the judge's own session
and reporters over the fake referee and runner), so rows stream in on a machine without
a GPU. Checked: every request needs the token (403 without it, a POST needs it in its
header); the verdicts' table comes from the server; without a GPU the page says so before
and after a run, never as a verdict; a CE shows the compiler's message and marks its line in the editor; a suite's rows
stream in the order of the suite; a WA's detail draws the map and the smallest failing
shape; the history, compare and leaderboard render from a fixture database; markup in a
compiler message, a case name, a solution's output and a solution's name stays text; the
queue refuses past the per-browser cap; Ctrl-C ends the server and the judge it started.
The problems: the API lists them and refuses an unknown name (404 for its page, 400 for a
submission, with the nearest name); a submission's problem reaches the judge as --problem;
the page's picker shows a problem's statement and starter, keeps a buffer per problem,
judges the starter as that problem with its rows streaming and the problem in the results'
header, and shows the judge's own refusal of a problem it does not judge yet (exit 64).
Screenshots go to docs/screenshots/ when GEMM_SERVE_SCREENSHOTS is set.

Usage: test_serve_browser.py BIN_DIR SOURCE_DIR   (exit 77: skipped)
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

BIN, SOURCE = sys.argv[1], sys.argv[2]


def skip(why):
    print(f"skipped: {why}")
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from selenium.common.exceptions import TimeoutException
except ImportError:
    # Debian's python3-selenium is the system Python's: another python3 first in PATH lacks it.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    skip("no python3-selenium")
CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not CHROMIUM or not os.path.exists(DRIVER):
    skip("no chromium or chromium-driver")

MARKUP = {"<script>alert('nvcc')</script>", "<script>alert('case')</script>", "<script>alert('output')</script>",
          "<script>alert('history')</script>"}


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"ok: {what}")


def status_of(url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


PICKED = "tensara/matrix-multiplication"  # a problem other than the default, judged
UNJUDGED = "example/fp8-gemm"  # listed, not judged yet: the fixture below adds it


def checkout_with_unjudged_problem(folder):
    """Every shipped problem is judged, so the server reads a checkout whose testcases/ is a
    copy of ours plus one problem the judge cannot judge yet (harness/tests/support/
    unjudged-problem); everything else is our checkout's, linked."""
    root = os.path.join(folder, "checkout")
    os.makedirs(root)
    for entry in os.listdir(SOURCE):
        if entry != "testcases":
            os.symlink(os.path.join(SOURCE, entry), os.path.join(root, entry))
    shutil.copytree(os.path.join(SOURCE, "testcases"), os.path.join(root, "testcases"))
    shutil.copytree(os.path.join(SOURCE, "harness", "tests", "support", "unjudged-problem"),
                    os.path.join(root, "testcases", UNJUDGED))
    return root


def submit(base, token, kind, name, source, **fields):
    body = json.dumps(dict({"kind": kind, "file_name": name, "source": source}, **fields)).encode()
    return status_of(base + "/api/submit", body, {"X-Judge-Token": token, "Content-Type": "application/json"})


def events(base, token, submission):
    """Every event of a submission, read from its stream to the end."""
    url = f"{base}/api/submissions/{submission}/events?token={token}"
    read = []
    with urllib.request.urlopen(url, timeout=60) as response:
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                read.append(json.loads(line[6:]))
    return read


def start_server(folder, history, queued):
    environment = dict(os.environ, GEMM_JUDGE_SERVE_JUDGE=os.path.join(BIN, "fake_judge"),
                       GEMM_JUDGE_ROOT=checkout_with_unjudged_problem(folder))
    server = subprocess.Popen([os.path.join(BIN, "gemm-judge"), "serve", "--port", "0", "--history", history,
                               "--queued-per-browser", str(queued)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment, text=True)
    for line in server.stdout:
        found = re.search(r"(http://[^/]+)/\?token=([0-9a-f]{64})", line)
        if found:
            return server, found.group(1), found.group(2)
    raise AssertionError("the server printed no URL")


def live_processes(started_by=None):
    """{pid: (state, parent pid, process group)} of every process; with `started_by` (clock ticks
    since boot), only those started by then: PIDs (32768 of them here) come round again within
    seconds on a busy machine, and a new process must not pass for one that was asked to end."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                if started_by is None or int(fields[19]) <= started_by:
                    found[int(entry)] = (fields[0], int(fields[1]), int(fields[2]))
            except (OSError, IndexError, ValueError):
                pass
    return found


def command_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()[:80]
    except OSError:
        return "?"


def ticks_since_boot():
    with open("/proc/uptime") as uptime:
        return int(float(uptime.read().split()[0]) * os.sysconf("SC_CLK_TCK")) + 1


def descendants(pid):
    processes = live_processes()
    family, grew = {pid}, True
    while grew:
        more = {p for p, (_, parent, _) in processes.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return family - {pid}


def process_group_members(group, started_by=None):
    # A zombie has ended; only its parent's wait is missing.
    return [p for p, (state, _, pgid) in live_processes(started_by).items() if pgid == group and state != "Z"]


def http_checks(base, token):
    check(status_of(base + "/")[0] == 403, "the page without the token: 403")
    check(status_of(base + "/static/app.js")[0] == 403, "a static file without the token: 403")
    check(status_of(base + "/api/history")[0] == 403, "the history without the token: 403")
    check(status_of(base + "/?token=" + "0" * 64)[0] == 403, "a wrong token: 403")
    body = json.dumps({"kind": "run", "file_name": "a.cu", "source": "ok\n"}).encode()
    check(status_of(base + "/api/submit", body, {"Cookie": "gemm_judge_token=" + token})[0] == 403,
          "a POST with the cookie alone (as another site's form would send it): 403")
    check(submit(base, token, "run", "../escape.cu", "ok\n")[0] == 400, "a file name that climbs out: refused")
    check(submit(base, token, "run", "big.cu", "x" * ((1 << 20) + 1))[0] == 413, "a source over 1 MiB: refused")

    status, verdicts = status_of(f"{base}/api/verdicts?token={token}")
    table = json.loads(verdicts)
    check(status == 200 and [v["name"] for v in table["verdicts"]] == ["AC", "WA", "TLE", "RE", "CE", "JE"]
          and table["verdicts"][0]["exit_status"] == 0 and table["no_gpu_exit_status"] == 6,
          "the verdicts' table comes from the server, best first, with exit statuses")
    check(status_of(f"{base}/static/favicon.svg?token={token}")[0] == 200, "the page's icon is there")

    status, answer = submit(base, token, "submit", "streamed.cu", "ok\n")
    check(status == 202, "a submission is accepted")
    read = events(base, token, json.loads(answer)["id"])
    kinds = [e["event"] for e in read]
    check(kinds[0] == "queued" and kinds[-1] == "judge_exited", "the stream runs from queued to judge_exited")
    planned = [c["name"] for c in next(e for e in read if e["event"] == "run_started")["planned"]]
    finished = [e["case"]["name"] for e in read if e["event"] == "case_finished"]
    check(finished == planned, "the rows stream in the suite's order")
    check(all(e["case"]["verdict"] == "AC" for e in read if e["event"] == "case_finished"), "every row AC")
    stages = [e["stage"] for e in read if e["event"] == "stage"]
    check(stages[0] == "compiling" and "judging" in stages, "the stages: compiling, then judging case k of n")


def problem_api_checks(base, token):
    check(status_of(base + "/api/problems")[0] == 403, "the problems without the token: 403")
    status, listed = status_of(f"{base}/api/problems?token={token}")
    problems = json.loads(listed)
    names = [p["name"] for p in problems]
    check(status == 200 and problems[0]["default"] and names[0] == "leetgpu/2-matrix-multiplication"
          and PICKED in names and len(names) == len(set(names)), "the problems are listed, the default first")
    unjudged = next(p for p in problems if p["name"] == UNJUDGED)
    check(not unjudged["judged"] and unjudged["not_yet_judged"], "… each judged, or with what the judge lacks")
    status, page = status_of(f"{base}/api/problems/{PICKED}?token={token}")
    with open(os.path.join(SOURCE, "testcases", PICKED, "starter.cu")) as starter:
        check(status == 200 and json.loads(page)["starter"] == starter.read(), "a problem's page has its starter")
    status, answer = status_of(f"{base}/api/problems/tensara/matrix-multiplicaton?token={token}")
    check(status == 404 and json.loads(answer)["error"].endswith(f"did you mean {PICKED}?"),
          "an unknown problem's page: 404 with the nearest name")
    status, listed = status_of(f"{base}/api/testcases?problem={PICKED}&token={token}")
    check(status == 200 and "secret/03-n-is-one" in listed and "sample/02-small-explicit" not in listed,
          "the testcases of a problem named in the query")
    status, answer = status_of(f"{base}/api/testcases?problem=tensara/matrix-multiplicaton&token={token}")
    check(status == 404 and f"did you mean {PICKED}?" in answer, "… an unknown one: 404 with the nearest name")
    status, answer = submit(base, token, "run", "a.cu", "ok\n", problem="tensara/matrix-multiplicaton")
    check(status == 400 and f"did you mean {PICKED}?" in json.loads(answer)["error"],
          "a submission naming an unknown problem: refused (400) with the nearest name")
    check(submit(base, token, "run", "a.cu", "ok\n", problem=7)[0] == 400, "a problem that is not a name: refused")

    status, answer = submit(base, token, "run", "picked.cu", "ok\n", problem=PICKED)
    read = events(base, token, json.loads(answer)["id"])
    console = read[-1]["console"]
    check(status == 202 and f"--problem {PICKED} " in console, "a submission's problem reaches the judge as --problem")
    started = next(e for e in read if e["event"] == "run_started")
    check(started["problem"] == PICKED and read[0]["problem"] == PICKED, "… and the judge says it judged it")
    status, answer = submit(base, token, "run", "unnamed.cu", "ok\n")
    read = events(base, token, json.loads(answer)["id"])
    check("--problem" not in read[-1]["console"] and read[0]["problem"] is None,
          "a submission naming no problem: no --problem, the judge chooses as before")


def queue_checks(base, token):
    answers = [submit(base, token, "submit", f"queued{i}.cu", "ok\n") for i in range(3)]
    check([a[0] for a in answers[:2]] == [202, 202] and json.loads(answers[1][1])["position"] == 1,
          "two submissions queue, the second one place behind")
    check(answers[2][0] == 429 and "queue already holds 2" in json.loads(answers[2][1])["error"],
          "a third from the same browser is refused with a message")
    for status, answer in answers[:2]:
        events(base, token, json.loads(answer)["id"])


def editor_source(driver, text, name):
    driver.execute_script("document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0]);"
                          "document.getElementById('file-name').value = arguments[1];", text, name)


def judge_in_page(driver, button, text, name):
    editor_source(driver, text, name)
    driver.find_element(By.ID, button).click()
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "stage").text.startswith("done"))


def editor_text(driver):
    return driver.execute_script("return document.querySelector('.CodeMirror').CodeMirror.getValue();")


def pick(driver, name):
    Select(driver.find_element(By.ID, "problem")).select_by_value(name)
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return localStorage.getItem('gemm-judge problem')") == name)


def problem_checks(driver):
    picker = Select(driver.find_element(By.ID, "problem"))
    check(picker.options[0].get_attribute("value") == "leetgpu/2-matrix-multiplication"
          and picker.first_selected_option == picker.options[0], "the picker: the default problem first, picked")
    groups = [g.get_attribute("label") for g in driver.find_elements(By.CSS_SELECTOR, "#problem optgroup")]
    check(groups == sorted(set(groups)) and "Tensara" in groups, "… then the others by site")
    default_buffer = editor_text(driver)

    pick(driver, PICKED)
    with open(os.path.join(SOURCE, "testcases", PICKED, "starter.cu")) as starter:
        check(editor_text(driver) == starter.read(), "picking a problem puts its starter in the editor")
    check(driver.find_element(By.ID, "file-name").get_attribute("value") == "tensara-matrix-multiplication.cu",
          "… under a file name of its own")
    statement = driver.find_element(By.ID, "statement").text
    check(statement.startswith("# Matrix Multiplication (Tensara)") and "`input_a` is m×k" in statement
          and "\n<https://github.com/tensara/problems/" in statement, "… and shows its statement, as text")
    driver.find_element(By.ID, "submit").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "stage").text.startswith("done"))
    shot(driver, "serve-problem.png")
    rows = driver.find_elements(By.CSS_SELECTOR, "#verdicts tbody tr")
    check(len(rows) == 4 and rows[2].find_elements(By.TAG_NAME, "td")[0].text == "secret/03-odd",
          "the starter submitted as it is: its rows stream in")
    check(driver.find_element(By.ID, "results-problem").text ==
          f"problem: {PICKED} — Matrix Multiplication (Tensara)", "the results' header says which problem was judged")
    console = driver.execute_script("return document.getElementById('console').textContent;")
    check(f"--problem {PICKED} " in console, "the judge was asked for it with --problem")

    driver.find_element(By.CSS_SELECTOR, "[data-tab=testcases]").click()
    WebDriverWait(driver, 20).until(lambda d: "secret/03-n-is-one" in d.find_element(By.ID, "testcases-table").text)
    listed = driver.find_element(By.ID, "testcases-table").text
    check("sample/02-small-explicit" not in listed and "(m×n×k)" in listed,
          "the Testcases tab lists the picked problem's cases, in its own dims")
    driver.find_element(By.CSS_SELECTOR, "[data-tab=editor]").click()

    attempt = "// my own attempt at the Tensara problem\n"
    editor_source(driver, attempt, "tensara-matrix-multiplication.cu")
    pick(driver, "leetgpu/2-matrix-multiplication")
    check(editor_text(driver) == default_buffer, "going back to the default problem brings its buffer back")
    pick(driver, PICKED)
    check(editor_text(driver) == attempt, "… and the other problem keeps its own")

    pick(driver, UNJUDGED)
    check("not yet judged" in driver.find_element(By.ID, "problem-facts").text, "a problem not judged yet says so")
    driver.find_element(By.ID, "submit").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "stage").text.startswith("done"))
    message = driver.find_element(By.ID, "message").text
    check("exit status 64" in message and f"problem {UNJUDGED} is listed but not yet judged" in message,
          "submitting it shows the judge's own refusal")
    check(not driver.find_elements(By.CSS_SELECTOR, "#verdicts tbody tr") and
          not driver.find_elements(By.CSS_SELECTOR, "#summary .verdict"), "… and no row and no verdict")
    pick(driver, "leetgpu/2-matrix-multiplication")


def shot(driver, name):
    folder = os.environ.get("GEMM_SERVE_SCREENSHOTS")
    if folder:
        driver.save_screenshot(os.path.join(folder, name))


def machine_has_gpu():
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return os.path.exists("/proc/driver/nvidia/version") and os.path.exists("/dev/nvidia0") and visible != ""


def no_gpu_checks(driver):
    banner = driver.find_element(By.ID, "gpu-state")
    if not machine_has_gpu():
        WebDriverWait(driver, 20).until(lambda d: banner.text)
        check(banner.is_displayed() and banner.text.startswith("No GPU: "),
              "on a machine without a GPU the page says so before a run")
    judge_in_page(driver, "submit", "no-gpu\n", "nogpu.cu")
    summary = driver.find_element(By.ID, "summary").text
    check("no GPU" in summary and "AC" not in summary, "after Submit without a GPU: 'no GPU', and no verdict")
    check(not driver.find_elements(By.CSS_SELECTOR, "#summary .verdict"), "… nothing in a verdict's colour")
    check(banner.is_displayed() and "No GPU: no NVIDIA driver" in banner.text, "… and the page says why, outside the console")
    check(driver.find_element(By.ID, "stage").text == "done (exit status 6)", "… the judge's exit status 6")


def browser_checks(base, token, driver):
    driver.get(f"{base}/?token={token}")
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".CodeMirror"))
    check(driver.current_url.rstrip("/") == base, "the token becomes a cookie and leaves the address bar")
    # The solution's text arrives by its own request after the editor is made: wait for it.
    try:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-keyword"))
    except TimeoutException:
        pass
    check(driver.find_elements(By.CSS_SELECTOR, ".cm-keyword"), "the editor highlights the naive solution")
    no_gpu_checks(driver)

    judge_in_page(driver, "run", "compile-error\n// the next line is not CUDA\n<script>alert('nvcc')</script>\n", "ce.cu")
    message = driver.find_element(By.ID, "compile-error").text
    check("ce.cu(3): error" in message and "<script>alert('nvcc')</script>" in message,
          "a CE shows the compiler's message, markup as text")
    marked = driver.execute_script("const cm = document.querySelector('.CodeMirror').CodeMirror;"
                                   "return [0,1,2].map(i => (cm.lineInfo(i).bgClass || '').includes('cm-error-line'));")
    check(marked == [False, False, True], "the CE's line is highlighted in the editor")
    shot(driver, "serve-compile-error.png")

    judge_in_page(driver, "submit", "print-markup\n", "markup.cu")
    rows = driver.find_elements(By.CSS_SELECTOR, "#verdicts tbody tr")
    names = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows]
    check(len(rows) == 4 and names[1] == "sample/02-<script>alert('case')</script>",
          "the rows are in the page, a case name with markup shown as text")
    rows[1].click()
    check("<script>alert('output')</script>" in driver.find_element(By.ID, "detail").text,
          "the solution's output with markup shown as text")
    verdict_cell = rows[0].find_elements(By.TAG_NAME, "td")[2]
    check(verdict_cell.value_of_css_property("color") in ("rgb(19, 115, 51)", "rgba(19, 115, 51, 1)"),
          "an AC in the colour the server's verdict table gives it")
    check(not driver.find_element(By.ID, "gpu-state").is_displayed(), "a run that found a GPU hides the no-GPU note")

    judge_in_page(driver, "submit", "wrong\n", "wrong.cu")
    driver.find_elements(By.CSS_SELECTOR, "#verdicts tbody tr")[0].click()
    detail = driver.find_element(By.ID, "detail")
    check(detail.find_elements(By.CSS_SELECTOR, ".map span.wrong"), "a WA's detail draws the map of wrong elements")
    check("smallest failing shape" in detail.text, "… and the smallest failing shape with its command")
    shot(driver, "serve-wrong-answer.png")
    problem_checks(driver)

    driver.find_element(By.CSS_SELECTOR, "[data-tab=history]").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-table tbody tr"))
    check(driver.find_element(By.ID, "compare").is_displayed(), "with attempts, History offers Compare")
    driver.find_element(By.ID, "history-solution").send_keys("never-judged.cu")
    driver.find_element(By.ID, "history-refresh").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-table .empty"))
    check(not driver.find_element(By.ID, "compare").is_displayed() and
          not driver.find_element(By.ID, "plot").is_displayed(), "with no attempts, no Compare and no Plot")
    driver.find_element(By.ID, "history-solution").clear()
    driver.find_element(By.ID, "history-refresh").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#history-table tbody tr"))
    history = driver.find_element(By.ID, "history-table").text
    check("<script>alert('history')</script>.cu" in history and "tiled.cu" in history,
          "the history renders, a solution's name with markup shown as text")
    picks = {b.get_attribute("value"): b for b in driver.find_elements(By.CSS_SELECTOR, "#history-table .pick")}
    picks["1"].click()
    picks["2"].click()
    driver.find_element(By.ID, "compare").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#compare-result pre"))
    check("new is faster" in driver.find_element(By.ID, "compare-result").text,
          "compare of two attempts says which is faster, with its significance")
    shot(driver, "serve-history.png")

    driver.find_element(By.CSS_SELECTOR, "[data-tab=leaderboard]").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#leaderboard-table tbody tr"))
    board = driver.find_element(By.ID, "leaderboard-table").text
    check("Fake GPU" in board and board.index("alert('history')") < board.index("tiled.cu"),
          "the leaderboard per GPU, best first")
    shot(driver, "serve-leaderboard.png")

    driver.find_element(By.CSS_SELECTOR, "[data-tab=testcases]").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#testcases-table tbody tr"))
    check("secret/04-primes" in driver.find_element(By.ID, "testcases-table").text, "the testcases are listed")
    name_cell = driver.find_element(By.CSS_SELECTOR, "#testcases-table tbody td")
    check(name_cell.value_of_css_property("white-space") == "nowrap", "a case's name is never broken mid-word")
    shot(driver, "serve-testcases.png")

    check(driver.execute_script("return document.querySelectorAll('script').length") == 3,
          "no script element was added by anything shown")


def interrupt_checks(server, base, token):
    status, answer = submit(base, token, "submit", "hang.cu", "hang-in-call\n")
    url = f"{base}/api/submissions/{json.loads(answer)['id']}/events?token={token}"
    judge_pid = None
    with urllib.request.urlopen(url, timeout=60) as response:
        for raw in response:
            line = raw.decode()
            if '"judge_pid"' in line:
                judge_pid = json.loads(line[6:])["judge_pid"]
            if '"stage":"judging"' in line:
                break
    check(judge_pid and process_group_members(judge_pid), "a hanging solution is being judged")
    # The stage line comes just before the case, and the judge starts its referee and runners
    # for the case: looked for until they are there (at most 10 s), not at that very moment.
    family, deadline = descendants(server.pid), time.time() + 10
    while len(family) < 3 and time.time() < deadline:
        time.sleep(0.05)
        family = descendants(server.pid)
    check(len(family) >= 3, "the judge, its referee and runners run as the server's descendants")
    interrupted = ticks_since_boot()
    server.send_signal(signal.SIGINT)
    server.wait(timeout=20)
    deadline = time.time() + 10
    while process_group_members(judge_pid, interrupted) and time.time() < deadline:
        time.sleep(0.1)
    def still():
        return [p for p, (state, _, _) in live_processes(interrupted).items() if p in family and state != "Z"]
    while still() and time.time() < deadline:
        time.sleep(0.1)
    left = sorted(set(process_group_members(judge_pid, interrupted)) | set(still()))
    check(not left, "Ctrl-C ends the server, the judge it started and every process that judge started"
          + ("" if not left else " (left: " + ", ".join(f"{p} {command_of(p)}" for p in left) + ")"))


def main():
    folder = tempfile.mkdtemp(prefix="gemm-serve-test-")
    history = os.path.join(folder, "history.sqlite")
    subprocess.run([os.path.join(BIN, "fake_judge"), "--fixture-history", history], check=True)
    server, base, token = start_server(folder, history, queued=2)
    driver = None
    try:
        http_checks(base, token)
        problem_api_checks(base, token)
        queue_checks(base, token)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        browser_checks(base, token, driver)
        interrupt_checks(server, base, token)
    finally:
        if driver:
            driver.quit()
        if server.poll() is None:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)
    print("passed")


main()
