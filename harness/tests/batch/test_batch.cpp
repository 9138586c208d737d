// ./judge batch on the CPU (harness/batch/): the lanes and their queue, the compiling
// ahead, which GPUs, the rows a judge's ending makes, the leaderboard, and the whole
// command with a fake judge (batch/fake_judge.sh) on two fake GPUs: lanes run at
// once and one GPU never judges two submissions at once, a judge that crashes or hangs
// costs only its row, a batch started again judges nothing again, and --merge gives the
// same table.
#include <doctest/doctest.h>

#include "batch/batch_table.hpp"
#include "batch/gpu_lanes.hpp"
#include "batch/lanes.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "test_support.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

using namespace gemm;
using namespace gemm::batch;
using namespace gemm::test;

namespace {

const std::string batch_tests = std::string(GEMM_SOURCE_DIR) + "/harness/tests/batch";

std::vector<ListedDevice> two_gpus() {
    return parse_device_listing("0, GPU-aaaa-1111, NVIDIA H200, 9.0\n1, GPU-bbbb-2222, NVIDIA H200, 9.0\n");
}

} // namespace

TEST_CASE("lanes judge every submission once, at once on every lane, and a lane whose judge throws goes on") {
    std::mutex mutex;
    std::map<std::size_t, int> judged;
    std::set<std::size_t> lanes_used, failed;
    std::atomic<int> running{0}, most_at_once{0};
    LaneWork work;
    work.judge = [&](std::size_t job, std::size_t lane) {
        const int now = ++running;
        for (int seen = most_at_once; now > seen && !most_at_once.compare_exchange_weak(seen, now);) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        --running;
        {
            std::lock_guard<std::mutex> lock(mutex);
            ++judged[job];
            lanes_used.insert(lane);
        }
        if (job == 3) throw std::runtime_error("lane lost");
    };
    work.failed = [&](std::size_t job, std::size_t, const std::string &why) {
        std::lock_guard<std::mutex> lock(mutex);
        failed.insert(job);
        CHECK(why == "lane lost");
    };
    run_lanes(8, 2, 0, work);
    CHECK(judged.size() == 8);
    for (const auto &[job, times] : judged) CHECK(times == 1);
    CHECK(lanes_used.size() == 2);
    CHECK(most_at_once == 2);
    CHECK(failed == std::set<std::size_t>{3});
}

TEST_CASE("compiling ahead takes the submissions next in the queue, never one a lane has taken, "
          "and a lane takes its submission once a compile of it has ended") {
    std::mutex mutex;
    std::set<std::size_t> taken, compiled;
    bool compiled_after_taken = false;
    LaneWork work;
    work.judge = [&](std::size_t job, std::size_t) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            taken.insert(job);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    };
    work.compile_ahead = [&](std::size_t job) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (taken.count(job)) compiled_after_taken = true;
        }
        // A compile's length: a lane that took this submission meanwhile would show above.
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::lock_guard<std::mutex> lock(mutex);
        if (taken.count(job)) compiled_after_taken = true;
        compiled.insert(job);
    };
    run_lanes(10, 1, 2, work);
    CHECK(taken.size() == 10);
    CHECK_FALSE(compiled_after_taken);
    CHECK(compiled.size() >= 5); // the compilers run ahead of the one slow lane
}

TEST_CASE("the lanes' GPUs: every GPU listed, the ones named, those CUDA_VISIBLE_DEVICES gives, or none") {
    auto lanes = choose_lanes("all", nullptr, two_gpus());
    REQUIRE(lanes.size() == 2);
    CHECK(lanes[1].label == "1");
    CHECK(lanes[1].visible_devices == std::optional<std::string>("GPU-bbbb-2222"));
    CHECK(lanes[1].target == std::optional<std::string>("sm_90a"));
    lanes = choose_lanes("1", nullptr, two_gpus());
    REQUIRE(lanes.size() == 1);
    CHECK(lanes[0].visible_devices == std::optional<std::string>("GPU-bbbb-2222"));
    // A Slurm task given one GPU: its own, whatever the node holds.
    lanes = choose_lanes("all", "1", two_gpus());
    REQUIRE(lanes.size() == 1);
    CHECK(lanes[0].label == "0");
    CHECK(lanes[0].visible_devices == std::optional<std::string>("1"));
    lanes = choose_lanes("all", nullptr, {});
    REQUIRE(lanes.size() == 1);
    CHECK(lanes[0].label == "none");
    CHECK_FALSE(lanes[0].visible_devices);
    CHECK(lanes[0].target == std::optional<std::string>(""));
    CHECK(choose_lanes("all", "", two_gpus())[0].label == "none");
    CHECK_THROWS_AS(choose_lanes("2", nullptr, two_gpus()), UsageError);
    CHECK_THROWS_AS(choose_lanes("0,0", nullptr, two_gpus()), UsageError);
    CHECK_THROWS_AS(choose_lanes("x", nullptr, two_gpus()), UsageError);
}

TEST_CASE("a judge's ending makes its row: its report's counts, its exit status, or why it made none") {
    judge_child::JudgeEnding ended;
    ended.exit_status = 1;
    auto row = row_from_judge(ended, R"({"summary":{"counts":{"AC":45,"WA":2},"worst":"WA","exit_status":1}})");
    CHECK(row.worst == Verdict::WA);
    CHECK(row.counts == std::map<std::string, int>{{"AC", 45}, {"WA", 2}});
    CHECK(row.settled());

    ended.exit_status = 0;
    row = row_from_judge(ended, R"({"summary":{"counts":{"AC":5}},"score":{"geomean_ms":2.5,)"
                                R"("geomean_ratio_to_cublas":0.8,"percent_of_peak":40}})");
    CHECK(row.score == std::optional<double>(0.8));
    CHECK(row.geomean_ms == std::optional<double>(2.5));

    ended.exit_status = 6;
    row = row_from_judge(ended, R"({"summary":{"counts":{},"worst":null,"no_gpu":"no NVIDIA driver"}})");
    CHECK(row.no_gpu());
    CHECK(row.worst_text() == "no GPU");
    CHECK(row.note == "no NVIDIA driver");
    CHECK_FALSE(row.settled());

    ended.exit_status = 7;
    ended.output = "compiling\njudge: setup: nvcc cannot run\n";
    row = row_from_judge(ended, "");
    CHECK(row.worst == Verdict::JE);
    CHECK(contains(row.note, "status 7: judge: setup: nvcc cannot run"));

    judge_child::JudgeEnding killed;
    killed.signal = 9;
    CHECK(contains(row_from_judge(killed, "").note, "killed by signal 9"));
    judge_child::JudgeEnding late;
    late.timed_out = true;
    late.limit_s = 60;
    row = row_from_judge(late, "");
    CHECK(row.worst == Verdict::JE);
    CHECK(contains(row.note, "past the batch's limit of 60 s"));
    CHECK_FALSE(row.settled());
}

TEST_CASE("the batch table is a leaderboard: AC first, by score, then by cases accepted, and the JSON holds the same") {
    BatchResult result;
    const auto row = [](std::string name, std::optional<Verdict> worst, std::map<std::string, int> counts,
                        std::optional<double> score = std::nullopt) {
        BatchRow r;
        r.submission = std::move(name);
        r.worst = worst;
        r.counts = std::move(counts);
        r.score = score;
        r.gpu = "0";
        return r;
    };
    result.rows = {row("c.cu", Verdict::CE, {{"CE", 3}}), row("slow.cu", Verdict::AC, {{"AC", 3}}, 0.5),
                   row("wa.cu", Verdict::WA, {{"AC", 2}, {"WA", 1}}), row("fast.cu", Verdict::AC, {{"AC", 3}}, 0.9),
                   row("nogpu.cu", std::nullopt, {})};
    result.rows.back().note = "no NVIDIA driver";
    result.gpus = {"0", "1"};
    result.results_folder = "batch-results";
    result.wall_s = 75;
    sort_as_leaderboard(result);
    std::vector<std::string> order;
    for (const auto &r : result.rows) order.push_back(r.submission);
    CHECK(order == std::vector<std::string>{"fast.cu", "slow.cu", "wa.cu", "c.cu", "nogpu.cu"});
    std::ostringstream table;
    print_batch_table(table, result);
    INFO(table.str());
    const auto lines = lines_of(table.str());
    REQUIRE(lines.size() == 9);
    CHECK(lines[0] == "#  submission  worst   cases      score   judged in   GPU");
    CHECK(lines[1] == "1  fast.cu     AC      3 AC       0.900   0.0 s       0");
    CHECK(contains(lines[3], "2 AC 1 WA"));
    CHECK(contains(lines[5], "nogpu.cu    no GPU  —"));
    CHECK(lines[6] == "no GPU for 1 submission: compiled, not run: no NVIDIA driver");
    CHECK(lines[7] == "5 submissions (worst verdict: 2 AC, 1 WA, 1 CE) · 2 lanes · 1 min 15 s");
    for (const auto &line : lines) CHECK(display_width(line) <= 100);
    const auto json = nlohmann::json::parse(batch_json(result));
    CHECK(json["rows"][0]["submission"] == "fast.cu");
    CHECK(json["rows"][0]["place"] == 1);
    CHECK(json["rows"][4]["worst"].is_null());
    CHECK(json["rows"][4]["no_gpu"] == true);
    CHECK(json["batch"]["gpus"].size() == 2);
}

namespace {

struct BatchRun {
    CapturedRun run;
    std::string log;
};

// ./judge batch ARGS with the fake judge, run from the folder `cwd`, its GPUs those
// CUDA_VISIBLE_DEVICES=`visible` names; bounded in time, so a batch that hangs fails.
BatchRun run_batch_from(const TempFolder &folder, const std::string &cwd, const std::vector<std::string> &args,
                        const std::string &visible) {
    std::vector<std::string> argv{"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd, judge_program, "batch"};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildSetup setup;
    setup.wall_seconds = 60;
    const char *path = std::getenv("PATH");
    setup.environment = {
        "GEMM_JUDGE_BATCH_JUDGE=" + batch_tests + "/fake_judge.sh", "BATCH_FAKE_JUDGE_LOG=" + folder.at("log"),
        "PATH=" + folder.at("bin") + ":" + (path ? path : ""), "GEMM_JUDGE_HISTORY=" + folder.at("history.db")};
    setup.environment.push_back("CUDA_VISIBLE_DEVICES=" + visible);
    BatchRun result{run_captured(argv, setup), bytes_of(folder.at("log"))};
    return result;
}

// … on two fake GPUs, as a container or a Slurm task names them, whatever this machine
// holds; the fake nvidia-smi gives their compute capability (the target compiled ahead for).
BatchRun run_batch(const TempFolder &folder, const std::vector<std::string> &args) {
    return run_batch_from(folder, folder.at(""), args, "GPU-aaaa-1111,GPU-bbbb-2222");
}

struct Interval {
    double start = 0, end = 0;
};

// The log's "start NAME GPU TIME" and "end NAME GPU TIME" lines, per GPU; a judge that
// never ended (killed) holds its GPU until the end of time.
std::map<std::string, std::vector<Interval>> intervals_per_gpu(const std::string &log) {
    std::map<std::string, std::pair<std::string, Interval>> judged; // name → GPU, interval
    for (const auto &line : lines_of(log)) {
        std::istringstream words(line);
        std::string what, name, gpu;
        double at = 0;
        if (!(words >> what >> name >> gpu >> at)) continue;
        if (what == "start") judged[name] = {gpu, {at, 1e18}};
        if (what == "end") judged[name].second.end = at;
    }
    std::map<std::string, std::vector<Interval>> per_gpu;
    for (const auto &[name, run] : judged) per_gpu[run.first].push_back(run.second);
    return per_gpu;
}

} // namespace

TEST_CASE(
    "./judge batch runs a lane per GPU, one submission at a time on each, and a crash or a hang is its row alone") {
    TempFolder folder("gemm-batch");
    std::filesystem::create_directories(folder.at("bin"));
    std::filesystem::create_symlink(batch_tests + "/fake-nvidia-smi", folder.at("bin/nvidia-smi"));
    folder.write("subs/a-hang.cu", "// BATCH: hang\n");
    for (const char *name : {"b", "c", "d", "e"})
        folder.write(std::string("subs/") + name + "-sleep.cu", "// BATCH: sleep 0.3\n");
    folder.write("subs/f-wa.cu", "// BATCH: wa\n");
    folder.write("subs/g-ce.cu", "#error no\n");
    folder.write("subs/h-crash.cu", "// BATCH: crash\n");
    folder.write("subs/notes.txt", "not a submission\n");
    // The hang's limit outlasts the other seven on the other lane (1.2 s of sleeps and seven
    // starts of the fake judge), even on a loaded machine, with 4× to spare: a limit the test
    // waits out in full, so no longer (it was 20 s for sleeps of 1 s).
    const auto first = run_batch(folder, {folder.at("subs"), "--gpus", "all", "--results", folder.at("results"),
                                          "--submission-timeout", "6", "--json", folder.at("batch.json")});
    INFO(first.run.output);
    INFO(first.log);
    CHECK(first.run.exit_code == 5); // a judge crashed and one hung: JE rows
    const auto per_gpu = intervals_per_gpu(first.log);
    REQUIRE(per_gpu.size() == 2);
    CHECK(per_gpu.count("GPU-aaaa-1111") == 1);
    CHECK(per_gpu.count("GPU-bbbb-2222") == 1);
    // One GPU judges one submission at a time, and the other lane goes on meanwhile: while
    // the hang holds its lane, every other submission is judged on the other.
    for (auto [gpu, intervals] : per_gpu) {
        std::sort(intervals.begin(), intervals.end(), [](auto &a, auto &b) { return a.start < b.start; });
        for (std::size_t i = 1; i < intervals.size(); ++i) CHECK(intervals[i].start >= intervals[i - 1].end);
    }
    const auto hang_lane = contains(first.log, "start a-hang.cu GPU-aaaa-1111") ? "GPU-aaaa-1111" : "GPU-bbbb-2222";
    CHECK(per_gpu.at(hang_lane).size() == 1);
    CHECK(contains(first.log, "compile ")); // compiled ahead with no GPU visible

    const auto json = nlohmann::json::parse(bytes_of(folder.at("batch.json")));
    REQUIRE(json["rows"].size() == 8);
    std::map<std::string, std::string> worst;
    for (const auto &row : json["rows"])
        worst[std::filesystem::path(row["submission"].get<std::string>()).filename().string()] = row["worst"];
    CHECK(worst["b-sleep.cu"] == "AC");
    CHECK(worst["e-sleep.cu"] == "AC");
    CHECK(worst["f-wa.cu"] == "WA");
    CHECK(worst["g-ce.cu"] == "CE");
    CHECK(worst["h-crash.cu"] == "JE");
    CHECK(worst["a-hang.cu"] == "JE");
    CHECK(contains(first.run.output, "killed by signal 11"));
    CHECK(contains(first.run.output, "past the batch's limit of 6 s"));
    CHECK(json["rows"][0]["worst"] == "AC");
    CHECK(std::filesystem::exists(folder.at("results") + "/" + json["rows"][0]["report"].get<std::string>()));
    CHECK(contains(bytes_of(folder.at("results") + "/" + json["rows"][0]["output"].get<std::string>()), ": AC"));
    CHECK(std::filesystem::exists(folder.at("results/batch.json")));

    // Started again: the settled rows are kept, only the JE ones are judged again.
    const auto again = run_batch(folder, {folder.at("subs"), "--results", folder.at("results"), "--submission-timeout",
                                          "1", "--json", folder.at("again.json")});
    INFO(again.run.output);
    const std::string new_log = again.log.substr(first.log.size());
    CHECK_FALSE(contains(new_log, "start b-sleep.cu"));
    CHECK_FALSE(contains(new_log, "start g-ce.cu"));
    CHECK(contains(new_log, "start h-crash.cu"));
    CHECK(contains(new_log, "start a-hang.cu"));
    CHECK(contains(again.run.output, "6 judged before (kept)"));

    // --merge folds the rows left in the folder into the same table.
    const auto merged = run_batch(folder, {"--merge", folder.at("results"), "--json", folder.at("merged.json")});
    INFO(merged.run.output);
    CHECK(merged.run.exit_code == 5);
    const auto merged_json = nlohmann::json::parse(bytes_of(folder.at("merged.json")));
    REQUIRE(merged_json["rows"].size() == 8);
    const auto again_json = nlohmann::json::parse(bytes_of(folder.at("again.json")));
    for (std::size_t i = 0; i < 8; ++i) {
        CHECK(merged_json["rows"][i]["submission"] == again_json["rows"][i]["submission"]);
        CHECK(merged_json["rows"][i]["worst"] == again_json["rows"][i]["worst"]);
    }
}

TEST_CASE(
    "./judge batch refuses a GPU that is not there, a folder without solutions and --json among the judge's options") {
    TempFolder folder("gemm-batch");
    std::filesystem::create_directories(folder.at("bin"));
    std::filesystem::create_symlink(batch_tests + "/fake-nvidia-smi", folder.at("bin/nvidia-smi"));
    folder.write("subs/a.cu", "// BATCH: sleep 0\n");
    folder.write("empty/readme.txt", "nothing\n");
    auto run = run_batch(folder, {folder.at("subs"), "--gpus", "0,2", "--results", folder.at("results")});
    CHECK(run.run.exit_code == 64);
    CHECK(contains(run.run.output, "--gpus 0,2: there is no GPU 2 here (the GPUs: 0, 1)"));
    run = run_batch(folder, {folder.at("empty"), "--results", folder.at("results")});
    CHECK(run.run.exit_code == 64);
    CHECK(contains(run.run.output, "no .cu file in this folder"));
    run = run_batch(folder, {folder.at("subs"), "--results", folder.at("results"), "--", "--json", "x.json"});
    CHECK(run.run.exit_code == 64);
    run = run_batch(folder, {folder.at("subs"), "--results", folder.at("results"), "--", "--no-such-option"});
    CHECK(run.run.exit_code == 64);
    CHECK(run.log.empty()); // nothing was judged
}

TEST_CASE("./judge batch --problem tells every judge the problem, and the table is under the problem's name") {
    TempFolder folder("gemm-batch");
    std::filesystem::create_directories(folder.at("bin"));
    std::filesystem::create_symlink(batch_tests + "/fake-nvidia-smi", folder.at("bin/nvidia-smi"));
    folder.write("subs/a.cu", "// BATCH: sleep 0\n");
    folder.write("subs/b.cu", "// BATCH: wa\n");
    const auto run = run_batch(folder, {folder.at("subs"), "--problem", "tensara/matmul-3d", "--results",
                                        folder.at("results"), "--json", folder.at("batch.json")});
    INFO(run.run.output);
    INFO(run.log);
    CHECK(contains(run.log, "problem a.cu tensara/matmul-3d"));
    CHECK(contains(run.log, "problem b.cu tensara/matmul-3d"));
    CHECK_FALSE(contains(run.log, "leetgpu/2-matrix-multiplication"));
    CHECK(contains(run.run.output, "problem tensara/matmul-3d\n"));
    const auto json = nlohmann::json::parse(bytes_of(folder.at("batch.json")));
    CHECK(json["batch"]["problem"] == "tensara/matmul-3d");
    REQUIRE(json["rows"].size() == 2);
    CHECK(json["rows"][0]["problem"] == "tensara/matmul-3d");

    // Without --problem the rows are another batch's: judged anew, not taken from the folder.
    const auto plain = run_batch(folder, {folder.at("subs"), "--results", folder.at("results")});
    CHECK(contains(plain.log.substr(run.log.size()), "start a.cu"));

    const auto mistyped =
        run_batch(folder, {folder.at("subs"), "--problem", "tensara/matmul-3", "--results", folder.at("results")});
    CHECK(mistyped.run.exit_code == 64);
    CHECK(contains(unwrapped(mistyped.run.output), "did you mean tensara/matmul-3d"));
    const auto twice = run_batch(folder, {folder.at("subs"), "--problem", "tensara/matmul-3d", "--results",
                                          folder.at("results"), "--", "--problem", "tensara/matmul-4d"});
    CHECK(twice.run.exit_code == 64);
    CHECK(contains(unwrapped(twice.run.output), "name the problem once"));
}

TEST_CASE("a batch whose solutions answer two problems has a board for each, placed apart") {
    BatchResult result;
    const auto row = [](std::string name, std::string problem, double score) {
        BatchRow r;
        r.submission = std::move(name);
        r.worst = Verdict::AC;
        r.counts = {{"AC", 3}};
        r.score = score;
        r.gpu = "0";
        r.problem = std::move(problem);
        return r;
    };
    result.rows = {row("x.cu", "tensara/matmul-3d", 0.2), row("y.cu", "leetgpu/2-matrix-multiplication", 0.5),
                   row("z.cu", "tensara/matmul-3d", 0.9)};
    result.gpus = {"0"};
    result.results_folder = "r";
    sort_as_leaderboard(result);
    std::ostringstream table;
    print_batch_table(table, result);
    INFO(table.str());
    const auto lines = lines_of(table.str());
    REQUIRE(lines.size() >= 6);
    CHECK(lines[1] == "problem leetgpu/2-matrix-multiplication");
    CHECK(lines[2].rfind("1  y.cu", 0) == 0);
    CHECK(lines[3] == "problem tensara/matmul-3d");
    CHECK(lines[4].rfind("1  z.cu", 0) == 0); // the best of its own problem, not second overall
    CHECK(lines[5].rfind("2  x.cu", 0) == 0);
    const auto json = nlohmann::json::parse(batch_json(result));
    CHECK(json["rows"][1]["place"] == 1);
    CHECK(json["rows"][2]["place"] == 2);
}

TEST_CASE("./judge batch finishes on any mix of paths: relative, absolute, with .. and through a symlink") {
    TempFolder folder("gemm-batch");
    std::filesystem::create_directories(folder.at("bin"));
    std::filesystem::create_symlink(batch_tests + "/fake-nvidia-smi", folder.at("bin/nvidia-smi"));
    folder.write("work/solutions/01-naive.cu", "// BATCH: sleep 0\n");
    folder.write("work/solutions/02-tiled.cu", "// BATCH: wa\n");
    folder.write("elsewhere/mine.cu", "// BATCH: sleep 0\n");
    folder.write("other/up.cu", "// BATCH: sleep 0\n");
    std::filesystem::create_directory_symlink(folder.at("other"), folder.at("work/linked"));
    // An absolute path first, as the leaderboard may order them, then a relative one.
    const std::vector<std::vector<std::string>> mixes{
        {"solutions/01-naive.cu", "solutions/02-tiled.cu", folder.at("elsewhere/mine.cu")},
        {folder.at("elsewhere/mine.cu"), "solutions/01-naive.cu"},
        {"../other/up.cu", "solutions/01-naive.cu", "linked/up.cu", folder.at("work/solutions/02-tiled.cu")},
        {"./solutions/01-naive.cu", "../work/solutions/02-tiled.cu"},
        {"linked/up.cu", "linked/../work/solutions/01-naive.cu"},
    };
    int round = 0;
    for (const auto &mix : mixes) {
        std::vector<std::string> args = mix;
        const std::string results = folder.at("results-" + std::to_string(++round));
        args.insert(args.end(), {"--results", results});
        const auto batch = run_batch_from(folder, folder.at("work"), args, "GPU-aaaa-1111");
        INFO(batch.run.output);
        CHECK_FALSE(batch.run.timed_out);
        CHECK(batch.run.exit_code == 0);
        CHECK(contains(batch.run.output, std::to_string(mix.size()) + " submissions ("));
        for (const auto &line : lines_of(batch.run.output)) CHECK(display_width(line) <= 100);
    }
}

TEST_CASE("./judge batch without a GPU says so once, in lines of at most 100 columns, and names no GPU 'none'") {
    TempFolder folder("gemm-batch");
    std::filesystem::create_directories(folder.at("bin"));
    for (const char *name : {"a", "b", "c"}) folder.write(std::string("subs/") + name + ".cu", "// BATCH: sleep 0\n");
    folder.write("subs/d-ce.cu", "#error no\n");
    const auto batch =
        run_batch_from(folder, folder.at(""), {folder.at("subs"), "--results", folder.at("results")}, "");
    INFO(batch.run.output);
    CHECK(batch.run.exit_code == 0); // the CE is a verdict; the rest were not run
    const std::string reason = "hides every GPU";
    std::size_t said = 0;
    for (std::size_t at = 0; (at = batch.run.output.find(reason, at)) != std::string::npos; at += reason.size()) ++said;
    CHECK(said == 1);
    CHECK(contains(batch.run.output, "no GPU for 3 submissions: compiled, not run: no GPU is visible"));
    CHECK(contains(batch.run.output, "without a GPU (compiled only)"));
    CHECK_FALSE(contains(batch.run.output, "none"));
    CHECK(contains(batch.run.output, "4 submissions (worst verdict: 1 CE)"));
    for (const auto &line : lines_of(batch.run.output)) CHECK(display_width(line) <= 100);
    const auto table = lines_of(bytes_of(folder.at("results/batch.txt")));
    REQUIRE(table.size() >= 2);
    CHECK(table[1] == "#  submission  worst   cases  judged in");
}
