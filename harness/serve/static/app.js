// The page of ./judge serve. Everything that came from a solution, nvcc, a testcase or the
// history is put in as text (textContent), never as markup; the views the server renders
// (history, leaderboard, testcases, compare) arrive already escaped (harness/serve/views.cpp).
"use strict";

const token = document.querySelector('meta[name="judge-token"]').content;
const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

// ---- the editor ------------------------------------------------------------------------

const cudaWords = "__global__ __device__ __host__ __shared__ __constant__ __restrict__ __syncthreads " +
  "__launch_bounds__ __forceinline__ __noinline__ __managed__ __syncwarp __shfl_sync __ldg";
const cudaBuiltins = "threadIdx blockIdx blockDim gridDim warpSize dim3 cudaDeviceSynchronize cudaMalloc " +
  "cudaFree cudaMemcpy cudaStream_t cudaError_t float2 float4 int2 int4";

let editor = null;
function setUpEditor() {
  if (!window.CodeMirror) {
    $("editor-note").textContent = "CodeMirror is not installed (apt-get install libjs-codemirror): a plain text area, " +
      "without highlighting.";
    return;
  }
  const words = (text) => Object.fromEntries(text.split(" ").map((w) => [w, true]));
  const cpp = CodeMirror.resolveMode("text/x-c++src");
  CodeMirror.defineMIME("text/x-cuda", Object.assign({}, cpp, {
    keywords: Object.assign({}, cpp.keywords, words(cudaWords)),
    builtin: Object.assign({}, cpp.builtin || {}, words(cudaBuiltins)),
  }));
  editor = CodeMirror.fromTextArea($("source"), { mode: "text/x-cuda", lineNumbers: true, indentUnit: 4 });
  editor.on("change", saveDraftSoon);
}
const source = () => (editor ? editor.getValue() : $("source").value);
function setSource(text) {
  clearErrorLines();
  if (editor) editor.setValue(text); else $("source").value = text;
}

// Drafts stay in this browser, one per problem and file name (the default problem's keys are
// the file name alone, as before there were others).
let picked = null; // the picked problem's page (/api/problems/NAME)
const draftKey = () => "gemm-judge draft " + (picked && !picked.default ? picked.name + " " : "") +
  $("file-name").value;
const fileKey = (name) => "gemm-judge file " + name; // the file name last used for a problem
let draftTimer = null;
function saveDraftNow() {
  clearTimeout(draftTimer);
  localStorage.setItem(draftKey(), source());
  if (picked) localStorage.setItem(fileKey(picked.name), $("file-name").value);
}
function saveDraftSoon() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(saveDraftNow, 300);
}
$("source").addEventListener("input", saveDraftSoon);
$("file-name").addEventListener("input", () => {
  if (picked) localStorage.setItem(fileKey(picked.name), $("file-name").value);
});

async function get(url) {
  const response = await fetch(url, { headers: { "X-Judge-Token": token } });
  return response;
}

async function openSolution(name) {
  const response = await get("/api/solutions/" + encodeURIComponent(name));
  if (!response.ok) return false;
  $("file-name").value = name;
  setSource(await response.text());
  return true;
}

async function loadSolutionList() {
  const response = await get("/api/solutions");
  const names = response.ok ? await response.json() : [];
  for (const name of names) $("solutions").appendChild(element("option", name)).value = name;
  $("solutions").addEventListener("change", (e) => { if (e.target.value) openSolution(e.target.value); });
}

// ---- the problem ---------------------------------------------------------------------------

// The picked problem decides the statement shown, the starter and what Run, Submit and Rank
// ask the judge for (the server checks the name and passes --problem). Each problem keeps a
// buffer of its own in this browser — its file name and its drafts — so picking another
// problem never overwrites what was written for this one, and picking it again brings it
// back; a problem picked for the first time starts from its starter (the default problem,
// which has none, from solutions/naive.cu).
const problems = {}; // name → its entry of /api/problems
const pickedKey = "gemm-judge problem";
let picking = 0; // the latest pick: an earlier one whose page arrives late is dropped

const firstFileName = (page) => (page.default ? "naive.cu" : page.name.replace(/\//g, "-") + ".cu");

function problemLabel(p) {
  return `${p.name} — ${p.title}` + (p.default ? " (the default)" : "") + (p.judged ? "" : " (not yet judged)");
}

function showStatement(page) {
  const lacks = page.not_yet_judged.join(", ");
  $("problem-facts").textContent = `${page.site} · ${page.dtypes} · ` + (page.judged ? "judged" :
    `not yet judged: this judge lacks ${lacks}; submitting shows the judge's refusal`);
  $("problem-facts").className = page.judged ? "" : "note";
  $("signature").textContent = page.signature;
  $("statement").textContent = page.statement !== null ? page.statement :
    "This problem's folder has no statement.md: the entry point above is the one to write " +
    "(README.md describes it).";
}

async function bringBuffer(page) {
  $("file-name").value = localStorage.getItem(fileKey(page.name)) || firstFileName(page);
  const draft = localStorage.getItem(draftKey());
  if (draft !== null) return setSource(draft);
  if (page.starter !== null) return setSource(page.starter);
  if (!page.default || !(await openSolution("naive.cu"))) setSource(page.default ? "#include \"solve.h\"\n" : "");
}

async function pickProblem(name) {
  const serial = ++picking;
  const response = await get("/api/problems/" + name.split("/").map(encodeURIComponent).join("/"));
  const page = await response.json();
  if (serial !== picking) return;
  if (!response.ok) return showMessage(page.error);
  if (picked) saveDraftNow(); // the buffer being left, under its own problem
  picked = page;
  $("problem").value = page.name;
  showStatement(page);
  await bringBuffer(page);
  localStorage.setItem(pickedKey, page.name); // the problem a reload picks again
}

// The default problem first, then the others grouped by site, in the server's order.
async function loadProblems() {
  const response = await get("/api/problems");
  const list = response.ok ? await response.json() : [];
  if (!response.ok) showMessage("the problems could not be listed: " + (list.error || response.status));
  let group = null;
  for (const p of list) {
    problems[p.name] = p;
    if (!p.default && (!group || group.label !== p.site)) {
      group = $("problem").appendChild(element("optgroup"));
      group.label = p.site;
    }
    (p.default ? $("problem") : group).appendChild(element("option", problemLabel(p))).value = p.name;
  }
  $("problem").addEventListener("change", (e) => pickProblem(e.target.value));
  const remembered = localStorage.getItem(pickedKey);
  const first = list.find((p) => p.name === remembered) || list.find((p) => p.default);
  if (first) await pickProblem(first.name);
  else await bringBuffer({ name: "", default: true, starter: null }); // no list: the editor as before
}

// Which problem a run judged: the one asked for, then the judge's own word (run_started).
function showJudgedProblem(name) {
  const p = problems[name];
  $("results-problem").textContent = !name ? "" : `problem: ${name}` + (p ? ` — ${p.title} (${p.site})` : "");
}

$("upload").addEventListener("change", (e) => {
  const file = e.target.files[0];
  if (!file) return;
  if (!file.name.endsWith(".cu")) return showMessage("only .cu files can be judged");
  if (file.size > 1 << 20) return showMessage("the file is larger than 1 MiB, the most the judge takes");
  const reader = new FileReader();
  reader.onload = () => { $("file-name").value = file.name; setSource(reader.result); saveDraftSoon(); };
  reader.readAsText(file);
});

// ---- a run, as it streams in -------------------------------------------------------------

let run = null; // {cases: [], shrink: {}, source: EventSource}

function showMessage(text) { $("message").textContent = text; }
function setStage(text) { $("stage").textContent = text; }

function clearErrorLines() {
  if (!editor) return;
  for (let i = 0; i < editor.lineCount(); ++i) editor.removeLineClass(i, "background", "cm-error-line");
}

// nvcc's "file.cu(12): error: …" and gcc's "file.cu:12:5: error: …": the lines to mark.
function markCompileErrors(message) {
  if (!editor) return;
  const lines = new Set();
  for (const m of message.matchAll(/\.cu(?:\((\d+)\)|:(\d+):)/g)) lines.add(Number(m[1] || m[2]));
  for (const line of lines)
    if (line >= 1 && line <= editor.lineCount()) editor.addLineClass(line - 1, "background", "cm-error-line");
  if (lines.size) editor.scrollIntoView({ line: Math.min(...lines) - 1, ch: 0 });
}

const figure = (x, digits) => (x === undefined || x === null ? "" : Number(x).toPrecision(digits));

// A median as the report prints it (its case's time_text, cublas_time_text: "17.0 ms",
// "0.03 ± 0.01 ms", "< 0.05 ms"): the judge decides the digits once, the page shows them.
function timeText(text) {
  return typeof text === "string" ? text : "";
}

// The error over its bound, as the console prints it: two decimals, or two digits when huge.
function errorText(ratio) {
  if (ratio === null) return "inf";
  if (!(ratio >= 0)) return "";
  return ratio < 1000 ? ratio.toFixed(2) : ratio.toPrecision(2);
}

function addRow(c) {
  const row = $("verdicts").tBodies[0].insertRow();
  const median = c.timing ? c.timing.median_ms : null;
  const resolved = c.timing && median >= (c.time_resolution_ms || 0);
  const cells = [c.name, `${c.M}×${c.N}×${c.K}`, c.verdict, errorText(c.error_over_bound),
    timeText(c.time_text), timeText(c.cublas_time_text),
    resolved && c.gflops ? figure(c.gflops / 1000, median / c.time_resolution_ms >= 100 ? 3 : 2) : "",
    c.fraction_of_cublas ? Math.round(100 * c.fraction_of_cublas) + "%" : ""];
  cells.forEach((text, i) => row.appendChild(element("td", text, i === 2 ? "verdict " + c.verdict : "")));
  row.dataset.index = run.cases.length;
  run.cases.push(c);
  row.addEventListener("click", () => showDetail(c));
}

function drawMap(map) {
  const rows = map.split("\n").filter((r) => r.length);
  const grid = element("div", null, "map");
  grid.style.gridTemplateColumns = `repeat(${rows[0].length}, 9px)`;
  for (const r of rows)
    for (const ch of r) grid.appendChild(element("span", null, ch === "X" ? "wrong" : ch === "u" ? "unwritten" : ""));
  return grid;
}

function showDetail(c) {
  const box = $("detail");
  box.replaceChildren(element("h3", `${c.name}  ${c.M}×${c.N}×${c.K}  ${c.verdict}`));
  if (c.detail) box.appendChild(element("pre", c.detail, "error"));
  if (c.check && c.check.map) {
    const legend = element("p", "map of C:", "legend");
    for (const [cls, words] of [["wrong", "wrong"], ["unwritten", "never written"], ["", "right"]]) {
      legend.appendChild(element("span", null, "map-key " + cls)).style.background =
        cls === "wrong" ? "#d32f2f" : cls === "unwritten" ? "#9e9e9e" : "#cde8cd";
      legend.appendChild(document.createTextNode(words));
    }
    box.append(legend, drawMap(c.check.map));
  }
  const shrink = run && run.shrink[c.name];
  if (shrink) {
    box.appendChild(element("p", `smallest failing shape: ${shrink.smallest}`));
    box.appendChild(element("pre", shrink.command));
  }
  if (c.output_tail) box.append(element("p", "what the solution printed:"), element("pre", c.output_tail));
}

// ---- the verdicts and the GPU, as the server says them --------------------------------------

// The verdicts' table (name, order, exit status, colour) is the judge's own (/api/verdicts):
// the page colours each verdict as the console does and knows no verdict of its own.
let noGpuExitStatus = null;
async function loadVerdicts() {
  const response = await get("/api/verdicts");
  if (!response.ok) return;
  const table = await response.json();
  noGpuExitStatus = table.no_gpu_exit_status;
  const sheet = document.head.appendChild(document.createElement("style")).sheet;
  for (const v of table.verdicts)
    sheet.insertRule(`.verdict.${v.name}, td.${v.name} { color: ${v.colour}; font-weight: ${v.bold ? "bold" : "normal"}; }`);
}

// "No GPU" is a state of the machine, not a verdict: said before a run (the server looked for
// one), and after a run that found none, never as a coloured verdict.
function showGpuState(present, why) {
  const box = $("gpu-state");
  box.textContent = present ? "" : `No GPU: ${why || "the judge found none"}. Run and Submit still compile ` +
    "the solution (a CE is still found), but judge no case.";
  box.hidden = present;
}

async function loadMachine() {
  const response = await get("/api/machine");
  if (response.ok) {
    const machine = await response.json();
    showGpuState(machine.gpu, machine.why);
  }
}

const handlers = {
  queued: (e) => setStage(e.position > 0 ? `waiting in the queue: ${e.position} ahead` : "starting"),
  stage: (e) => setStage(e.stage === "judging" ? `judging case ${e.case}${e.of ? " of " + e.of : ""}` :
                         e.stage === "waiting for the GPU" ? "waiting for the GPU (another judge holds it)" : e.stage),
  run_started: (e) => {
    if (e.problem) showJudgedProblem(e.problem);
    $("summary").textContent = `compiled for ${e.arch || "nvcc's default"} · ${e.device.name || ""}`;
    if (e.device.present) showGpuState(true);
  },
  compile_failed: (e) => { $("compile-error").textContent = e.message; markCompileErrors(e.message); setStage("CE"); },
  start_failed: (e) => showMessage(`${e.verdict}: ${e.why}`),
  note: (e) => $("summary").appendChild(element("div", e.text)),
  case_skipped: (e) => showMessage(`${e.name} skipped: ${e.why}`),
  cases_not_run: (e) => $("summary").appendChild(element("div", `${e.cases.length} case(s) not run: ${e.why}`)),
  case_finished: (e) => addRow(e.case),
  finding: (e) => {
    if (e.key === "shrink") run.shrink[e.value.case] = e.value;
    else if (e.key === "no_gpu") { run.noGpu = true; run.noGpuWhy = e.value; showGpuState(false, e.value); }
    else $("summary").appendChild(element("div", e.text));
  },
  run_finished: (e) => {
    run.reported = true;
    const counts = Object.entries(e.summary.counts || {}).map(([v, n]) => `${n} ${v}`).join(" · ");
    const seconds = `${figure(e.judge_seconds.total, 3)} s`;
    // A worst verdict only where a case was judged: an empty run has none, whatever its summary says.
    if (!counts) {
      const why = run.noGpu || e.exit_status === noGpuExitStatus ? "no GPU: compiled, no case judged" : "no case judged";
      $("summary").appendChild(element("div", `${why} · ${seconds}`, "nothing-judged"));
      return;
    }
    $("summary").appendChild(element("div", `${counts} · worst ${e.summary.worst} · ${seconds}`,
      "verdict " + e.summary.worst));
  },
  judge_exited: (e) => {
    if (e.exit_status === noGpuExitStatus) showGpuState(false, run.noGpuWhy);
    // A judge that ended without its report (a problem it does not judge yet, a bad option:
    // exit 64) explains itself only in what it printed: shown, not left in the folded console.
    if (!run.reported) showMessage(`the judge ended with exit status ${e.exit_status} and no report:\n` + e.console);
    $("console").textContent = e.console;
    setStage(`done (exit status ${e.exit_status})`);
    run.source.close();
    for (const b of ["run", "submit", "rank"]) $(b).disabled = false;
  },
};

async function judge(kind) {
  setStage("submitting");
  showMessage("");
  clearErrorLines();
  for (const id of ["summary", "detail", "compile-error", "console", "results-problem"]) $(id).replaceChildren();
  $("verdicts").tBodies[0].replaceChildren();
  const response = await fetch("/api/submit", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Judge-Token": token },
    body: JSON.stringify({
      kind, file_name: $("file-name").value, source: source(), problem: picked ? picked.name : null,
    }),
  });
  const answer = await response.json();
  if (!response.ok) {
    setStage("");
    return showMessage(answer.error);
  }
  showJudgedProblem(picked ? picked.name : "");
  for (const b of ["run", "submit", "rank"]) $(b).disabled = true;
  run = { cases: [], shrink: {}, id: answer.id };
  run.source = new EventSource(`/api/submissions/${answer.id}/events`);
  run.source.onmessage = (m) => {
    const event = JSON.parse(m.data);
    if (handlers[event.event]) handlers[event.event](event);
  };
}
for (const kind of ["run", "submit", "rank"]) $(kind).addEventListener("click", () => judge(kind));

// ---- the views the server renders ------------------------------------------------------------

async function fill(id, url) {
  const response = await get(url);
  $(id).innerHTML = await response.text(); // escaped by the server
}

function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === name);
  if (name === "history") refreshHistory();
  if (name === "leaderboard") fill("leaderboard-table", "/api/leaderboard");
  // The picked problem's cases (the default problem's: the suite serve was started with).
  if (name === "testcases")
    fill("testcases-table", "/api/testcases" +
      (picked && !picked.default ? "?problem=" + encodeURIComponent(picked.name) : ""));
}
for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));

const historyQuery = () => "solution=" + encodeURIComponent($("history-solution").value);
// Compare and Plot only where there are attempts to compare or plot.
async function refreshHistory() {
  await fill("history-table", "/api/history?" + historyQuery());
  const attempts = document.querySelectorAll("#history-table .pick").length;
  $("compare").hidden = attempts < 2;
  $("plot").hidden = attempts === 0;
}
$("history-refresh").addEventListener("click", refreshHistory);
$("compare").addEventListener("click", () => {
  const picked = [...document.querySelectorAll("#history-table .pick:checked")].map((b) => b.value).sort((a, b) => a - b);
  if (picked.length !== 2) return ($("compare-result").textContent = "pick two attempts (old, then new)");
  $("compare-result").textContent = "comparing…";
  fill("compare-result", `/api/compare?old=${picked[0]}&new=${picked[1]}`);
});
$("plot").addEventListener("click", () => {
  const img = element("img");
  img.alt = "the history's plot";
  img.src = "/api/plot.svg?" + historyQuery();
  $("plot-box").replaceChildren(img);
});

setUpEditor();
loadVerdicts();
loadMachine();
loadSolutionList();
loadProblems();
