// The history file: a round trip of every field, the queries (by solution, best,
// leaderboard per GPU model), where the file lives, clear errors, and the two ways real
// use goes wrong: a judge killed while it writes, and two judges writing at once. The
// crash and concurrency tests fork writer processes and look at the file with SQLite
// itself (integrity_check, rows no attempt owns), not only through History.
#include <doctest/doctest.h>

#include "command_line/history/history.hpp"
#include "common/terminal_text.hpp"
#include "test_support.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace gemm;
using gemm::test::bytes_of;
using gemm::test::contains;
using gemm::test::TempFolder;
namespace fs = std::filesystem;

namespace {

// The default problem's name: every attempt of these tests but the problem tests' is its.
const std::string seed_problem = "leetgpu/2-matrix-multiplication";

// The recovery note is broken at spaces into lines of 100 columns: read as the one sentence it is.
std::string note_read_whole(const History &history) {
    std::string sentence = history.recovery_note();
    for (std::size_t at; (at = sentence.find("\n  ")) != std::string::npos;) sentence.replace(at, 3, " ");
    return sentence;
}

Attempt scored(const std::string &solution, const std::string &gpu, std::optional<double> ratio, double ms,
               const std::string &verdict = "AC", const std::string &mode = "rank") {
    Attempt a;
    a.mode = mode;
    a.solution_name = solution;
    a.solution_path = "/home/me/kernels/" + solution;
    a.solution_hash = "hash-of-" + solution;
    a.gpu_name = gpu;
    a.driver_version = "580.159.04";
    a.sm_clock_mhz = 1980;
    a.judge_version = "test";
    a.worst_verdict = verdict;
    a.geomean_ms = ms;
    a.geomean_ratio_to_cublas = ratio;
    a.report_json = "{}";
    return a;
}

// An attempt of many cases with many samples: recording it takes long enough for a
// kill to land in the middle.
Attempt large_attempt(int index, int cases) {
    Attempt a = scored("writer.cu", "GPU", 0.5, 1.0);
    a.solution_hash = "attempt-" + std::to_string(index);
    for (int c = 0; c < cases; ++c) {
        CaseRecord r{"perf/" + std::to_string(c), "AC", 1.0 + c, 0.01, 0.5, {}};
        for (int s = 0; s < 100; ++s) r.samples_ms.push_back(1.0 + c + s * 1e-4);
        a.cases.push_back(std::move(r));
    }
    return a;
}

// Runs body in a forked child that exits 0 when body returns, 1 (and says why) when it throws.
pid_t spawn(const std::function<void()> &body) {
    const pid_t pid = fork();
    if (pid == 0) {
        try {
            body();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "writer process: %s\n", e.what());
            _exit(1);
        }
        _exit(0);
    }
    return pid;
}

int exit_status_of(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The file as SQLite itself sees it: no History in between.
struct RawDatabase {
    sqlite3 *db = nullptr;
    explicit RawDatabase(const std::string &path) { sqlite3_open(path.c_str(), &db); }
    ~RawDatabase() { sqlite3_close(db); }
    std::string text(const std::string &sql) const {
        sqlite3_stmt *statement = nullptr;
        std::string result = "(no row)";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) return sqlite3_errmsg(db);
        if (sqlite3_step(statement) == SQLITE_ROW)
            result = reinterpret_cast<const char *>(sqlite3_column_text(statement, 0));
        sqlite3_finalize(statement);
        return result;
    }
    long long number(const std::string &sql) const { return std::stoll(text(sql)); }
    // The trace a partial attempt would leave.
    long long case_rows_without_attempt() const {
        return number("SELECT count(*) FROM cases WHERE attempt_id NOT IN (SELECT id FROM attempts)");
    }
};

// Files of the folder whose name starts with `prefix`.
std::vector<std::string> files_starting(const TempFolder &dir, const std::string &prefix) {
    std::vector<std::string> found;
    for (const auto &entry : fs::directory_iterator(dir.path))
        if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path().string());
    std::sort(found.begin(), found.end());
    return found;
}

// What a solution that scribbles over the history does: garbage over the SQLite header.
void overwrite_first_bytes(const std::string &path, std::size_t count) {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(0);
    file << std::string(count, '\x5a');
}

} // namespace

TEST_CASE("an attempt comes back whole: every field, NULL scores, cases in order with their samples") {
    TempFolder dir;
    auto history = History::open(dir.at("history.sqlite"));
    Attempt a = scored("tiled.cu", "NVIDIA H200", 0.16, 20.5);
    a.time_utc = "2025-06-01T12:34:56Z";
    a.percent_of_peak = 12.1;
    a.noise_floor = 0.004;
    a.report_json = R"({"solution":"tiled.cu","cases":[]})";
    a.cases = {{"perf/01-cube-4096", "AC", 17.0, 0.01, 2.7, {17.1, 16.9, 17.0}},
               {"secret/04-primes", "AC", 0.017, 0.05, std::nullopt, {0.017}},
               {"sample/01-one-by-one", "WA", std::nullopt, std::nullopt, std::nullopt, {}}};
    const long long id = history.record(a);
    CHECK(id > 0);

    const auto back = history.attempt(id);
    REQUIRE(back);
    CHECK(back->id == id);
    CHECK(back->time_utc == a.time_utc);
    CHECK(back->mode == "rank");
    CHECK(back->solution_name == "tiled.cu");
    CHECK(back->solution_path == "/home/me/kernels/tiled.cu");
    CHECK(back->solution_hash == "hash-of-tiled.cu");
    CHECK(back->gpu_name == "NVIDIA H200");
    CHECK(back->driver_version == "580.159.04");
    CHECK(back->sm_clock_mhz == 1980);
    CHECK(back->judge_version == "test");
    CHECK(back->worst_verdict == "AC");
    CHECK(back->geomean_ms == 20.5);
    CHECK(back->geomean_ratio_to_cublas == 0.16);
    CHECK(back->percent_of_peak == 12.1);
    CHECK(back->noise_floor == 0.004);
    CHECK(back->report_json == a.report_json);
    REQUIRE(back->cases.size() == 3);
    CHECK(back->cases[0].name == "perf/01-cube-4096");
    CHECK(back->cases[0].samples_ms == std::vector<double>{17.1, 16.9, 17.0});
    CHECK(back->cases[0].cublas_median_ms == 2.7);
    CHECK(back->cases[1].median_ms == 0.017);
    CHECK_FALSE(back->cases[1].cublas_median_ms);
    CHECK(back->cases[2].verdict == "WA");
    CHECK_FALSE(back->cases[2].median_ms);
    CHECK_FALSE(back->cases[2].relative_spread);
    CHECK(back->cases[2].samples_ms.empty());

    Attempt unscored = scored("tiled.cu", "NVIDIA H200", std::nullopt, 0, "WA");
    unscored.geomean_ms.reset();
    const auto none = history.attempt(history.record(unscored));
    REQUIRE(none);
    CHECK_FALSE(none->geomean_ms);
    CHECK_FALSE(none->geomean_ratio_to_cublas);
    CHECK_FALSE(none->percent_of_peak);
    CHECK_FALSE(none->noise_floor);
    CHECK_FALSE(history.attempt(id + 100));
}

TEST_CASE("record stamps the current UTC time when the attempt has none") {
    TempFolder dir;
    auto history = History::open(dir.at("h.sqlite"));
    const auto stamped = history.attempt(history.record(scored("a.cu", "G", 1, 1)));
    REQUIRE(stamped);
    CHECK(stamped->time_utc.size() == 20);
    CHECK(stamped->time_utc.back() == 'Z');
    CHECK(stamped->time_utc.substr(0, 4) == utc_now_iso8601().substr(0, 4));
}

TEST_CASE("the history survives closing and reopening the file") {
    TempFolder dir;
    const auto path = dir.at("h.sqlite");
    History::open(path).record(scored("a.cu", "G", 1, 1));
    auto reopened = History::open(path);
    CHECK(reopened.attempts().size() == 1);
    reopened.record(scored("b.cu", "G", 1, 1));
    CHECK(History::open(path).attempts().size() == 2);
}

TEST_CASE("attempts, oldest first, filtered by solution name, path or hash, GPU and mode") {
    TempFolder dir;
    auto history = History::open(dir.at("h.sqlite"));
    auto at = [](Attempt a, const char *time) {
        a.time_utc = time;
        return a;
    };
    history.record(at(scored("tiled.cu", "NVIDIA H200", 0.16, 20), "2025-06-02T00:00:00Z"));
    history.record(at(scored("naive.cu", "NVIDIA H200", 0.10, 30), "2025-06-01T00:00:00Z"));
    history.record(at(scored("tiled.cu", "NVIDIA A100", 0.20, 40), "2025-06-03T00:00:00Z"));
    history.record(at(scored("tiled.cu", "NVIDIA H200", 0.17, 19, "AC", "judge"), "2025-06-04T00:00:00Z"));

    const auto all = history.attempts();
    REQUIRE(all.size() == 4);
    CHECK(all[0].solution_name == "naive.cu"); // by time, not by insertion
    CHECK(all[0].report_json.empty());         // summaries
    CHECK(all[0].cases.empty());

    CHECK(history.attempts({"tiled.cu", {}, {}, {}}).size() == 3);
    CHECK(history.attempts({"/home/me/kernels/tiled.cu", {}, {}, {}}).size() == 3);
    CHECK(history.attempts({"hash-of-naive.cu", {}, {}, {}}).size() == 1);
    CHECK(history.attempts({"tiled.cu", "NVIDIA H200", {}, {}}).size() == 2);
    CHECK(history.attempts({"tiled.cu", "NVIDIA H200", "rank", {}}).size() == 1);
    CHECK(history.attempts({{}, "NVIDIA A100", {}, {}}).size() == 1);
    CHECK(history.attempts({"missing.cu", {}, {}, {}}).empty());
}

TEST_CASE("best: the highest ratio to cuBLAS among scored all-AC attempts of that solution, mode and GPU") {
    TempFolder dir;
    auto history = History::open(dir.at("h.sqlite"));
    auto good = scored("tiled.cu", "NVIDIA H200", 0.30, 10);
    good.cases = {{"perf/01", "AC", 10.0, 0.01, 3.0, {10.0, 10.1}}};
    history.record(scored("tiled.cu", "NVIDIA H200", 0.20, 12));
    const long long good_id = history.record(good);
    history.record(scored("tiled.cu", "NVIDIA H200", 0.25, 9)); // faster, but a lower ratio: a faster clock
    history.record(scored("tiled.cu", "NVIDIA H200", 0.90, 5, "WA"));
    history.record(scored("tiled.cu", "NVIDIA H200", 0.95, 4, "AC", "judge"));
    history.record(scored("tiled.cu", "NVIDIA A100", 0.99, 3));
    history.record(scored("other.cu", "NVIDIA H200", 0.98, 3));

    const auto best = history.best("tiled.cu", "NVIDIA H200", "rank", seed_problem);
    REQUIRE(best);
    CHECK(best->id == good_id);
    REQUIRE(best->cases.size() == 1); // whole, for a significance test against it
    CHECK(best->cases[0].samples_ms == std::vector<double>{10.0, 10.1});
    CHECK(history.best("hash-of-tiled.cu", "NVIDIA H200", "rank", seed_problem)->id == good_id);
    CHECK(history.best("tiled.cu", "NVIDIA H200", "judge", seed_problem)->geomean_ratio_to_cublas == 0.95);
    CHECK_FALSE(history.best("tiled.cu", "NVIDIA H100", "rank", seed_problem));
    CHECK_FALSE(history.best("missing.cu", "NVIDIA H200", "rank", seed_problem));
}

TEST_CASE("best without cuBLAS ratios is the shortest time, and attempts with a ratio rank first") {
    TempFolder dir;
    auto history = History::open(dir.at("h.sqlite"));
    history.record(scored("a.cu", "G", std::nullopt, 5));
    history.record(scored("a.cu", "G", std::nullopt, 4));
    CHECK(history.best("a.cu", "G", "rank", seed_problem)->geomean_ms == 4);
    history.record(scored("a.cu", "G", 0.1, 50));
    CHECK(history.best("a.cu", "G", "rank", seed_problem)->geomean_ratio_to_cublas == 0.1);
    Attempt unscored = scored("b.cu", "G", std::nullopt, 0);
    unscored.geomean_ms.reset();
    history.record(unscored);
    CHECK_FALSE(history.best("b.cu", "G", "rank", seed_problem));
}

TEST_CASE("leaderboard: each solution's best on one GPU model, best first, never another model's attempts") {
    TempFolder dir;
    auto history = History::open(dir.at("h.sqlite"));
    history.record(scored("naive.cu", "NVIDIA H200", 0.10, 30));
    history.record(scored("naive.cu", "NVIDIA H200", 0.11, 29));
    history.record(scored("tiled.cu", "NVIDIA H200", 0.16, 20));
    history.record(scored("tiled.cu", "NVIDIA H200", 0.15, 21));
    history.record(scored("tiled.cu", "NVIDIA A100", 0.90, 2));       // a better figure on another model
    history.record(scored("wmma.cu", "NVIDIA A100", 0.95, 1));        // only on another model
    history.record(scored("broken.cu", "NVIDIA H200", 2.0, 1, "WA")); // never on a board
    history.record(scored("judged.cu", "NVIDIA H200", 0.5, 9, "AC", "judge"));

    const auto board = history.leaderboard("NVIDIA H200", seed_problem);
    REQUIRE(board.size() == 2);
    CHECK(board[0].solution_name == "tiled.cu");
    CHECK(board[0].geomean_ratio_to_cublas == 0.16);
    CHECK(board[1].solution_name == "naive.cu");
    CHECK(board[1].geomean_ratio_to_cublas == 0.11);
    for (const auto &a : board) CHECK(a.gpu_name == "NVIDIA H200");

    const auto other = history.leaderboard("NVIDIA A100", seed_problem);
    REQUIRE(other.size() == 2);
    CHECK(other[0].solution_name == "wmma.cu");
    CHECK(other[1].solution_name == "tiled.cu");
    CHECK(history.leaderboard("NVIDIA H200", seed_problem, "judge").size() == 1);
    CHECK(history.leaderboard("NVIDIA H100", seed_problem).empty());
}

TEST_CASE("attempts of two problems never share a board or a best: each problem has its own") {
    TempFolder dir;
    auto history = History::open(dir.at("h.sqlite"));
    history.record(scored("tiled.cu", "NVIDIA H200", 0.16, 20)); // no problem given: the default one
    Attempt other = scored("tiled.cu", "NVIDIA H200", 0.90, 2);
    other.problem = "tensara/matmul-3d";
    history.record(other);
    Attempt third = scored("mine.cu", "NVIDIA H200", 0.50, 5);
    third.problem = "tensara/matmul-3d";
    history.record(third);

    const auto boards = history.boards();
    REQUIRE(boards.size() == 2);
    CHECK(boards[0].problem == seed_problem);
    CHECK(boards[1].problem == "tensara/matmul-3d");
    const auto seed_board = history.leaderboard("NVIDIA H200", seed_problem);
    REQUIRE(seed_board.size() == 1);
    CHECK(seed_board[0].geomean_ratio_to_cublas == 0.16);
    CHECK(seed_board[0].problem == seed_problem);
    const auto board = history.leaderboard("NVIDIA H200", "tensara/matmul-3d");
    REQUIRE(board.size() == 2);
    CHECK(board[0].solution_name == "tiled.cu");
    CHECK(board[1].solution_name == "mine.cu");
    CHECK(history.best("tiled.cu", "NVIDIA H200", "rank", seed_problem)->geomean_ratio_to_cublas == 0.16);
    CHECK(history.best("tiled.cu", "NVIDIA H200", "rank", "tensara/matmul-3d")->geomean_ratio_to_cublas == 0.90);
    CHECK(history.attempts({{}, {}, {}, "tensara/matmul-3d"}).size() == 2);
    CHECK(history.attempts({"tiled.cu", {}, {}, seed_problem}).size() == 1);
}

TEST_CASE("a history of schema 1 (before problems) is upgraded when opened: its attempts are the default "
          "problem's") {
    TempFolder dir;
    const auto path = dir.at("v1.sqlite");
    {
        RawDatabase raw(path);
        raw.text("PRAGMA application_id = 1195724109");
        raw.text("CREATE TABLE attempts (id INTEGER PRIMARY KEY, time_utc TEXT NOT NULL, mode TEXT NOT NULL, "
                 "solution_name TEXT NOT NULL, solution_path TEXT NOT NULL, solution_hash TEXT NOT NULL, gpu_name "
                 "TEXT NOT NULL, driver_version TEXT NOT NULL, sm_clock_mhz INTEGER NOT NULL, judge_version TEXT NOT "
                 "NULL, worst_verdict TEXT NOT NULL, geomean_ms REAL, geomean_ratio_to_cublas REAL, percent_of_peak "
                 "REAL, noise_floor REAL, report_json TEXT NOT NULL)");
        raw.text("CREATE TABLE cases (attempt_id INTEGER NOT NULL REFERENCES attempts(id), position INTEGER NOT "
                 "NULL, name TEXT NOT NULL, verdict TEXT NOT NULL, median_ms REAL, relative_spread REAL, "
                 "cublas_median_ms REAL, samples_ms TEXT NOT NULL, PRIMARY KEY (attempt_id, position))");
        raw.text("INSERT INTO attempts (time_utc, mode, solution_name, solution_path, solution_hash, gpu_name, "
                 "driver_version, sm_clock_mhz, judge_version, worst_verdict, geomean_ms, geomean_ratio_to_cublas, "
                 "report_json) VALUES ('2026-01-01T00:00:00Z', 'rank', 'old.cu', '/old.cu', 'h', 'G', 'd', 1980, "
                 "'v', 'AC', 2, 0.5, '{}')");
        raw.text("PRAGMA user_version = 1");
    }
    auto history = History::open(path);
    CHECK(history.recovery_note().empty()); // an older judge's history is not damage
    CHECK(RawDatabase(path).number("PRAGMA user_version") == 2);
    const auto all = history.attempts();
    REQUIRE(all.size() == 1);
    CHECK(all[0].problem == seed_problem);
    CHECK(history.leaderboard("G", seed_problem).size() == 1);
    Attempt other = scored("new.cu", "G", 0.7, 1);
    other.problem = "kernelbench/1-square-matmul";
    history.record(other);
    CHECK(History::open(path).attempts({{}, {}, {}, "kernelbench/1-square-matmul"}).size() == 1);
    // A judge of schema 1 would now refuse the file as a newer judge's; opened again, nothing changes.
    CHECK(History::open(path).attempts().size() == 2);
}

TEST_CASE("the default file: XDG_DATA_HOME when absolute, else under HOME") {
    const auto saved = [](const char *name) -> std::optional<std::string> {
        const char *value = std::getenv(name);
        return value ? std::optional<std::string>(value) : std::nullopt;
    };
    const auto xdg = saved("XDG_DATA_HOME"), home = saved("HOME");
    setenv("HOME", "/home/me", 1);
    setenv("XDG_DATA_HOME", "/data", 1);
    CHECK(default_history_path() == "/data/gemm-judge/history.sqlite");
    setenv("XDG_DATA_HOME", "relative/data", 1);
    CHECK(default_history_path() == "/home/me/.local/share/gemm-judge/history.sqlite");
    unsetenv("XDG_DATA_HOME");
    CHECK(default_history_path() == "/home/me/.local/share/gemm-judge/history.sqlite");
    unsetenv("HOME");
    CHECK_THROWS_AS(default_history_path(), HistoryError);
    const auto restore = [](const char *name, const std::optional<std::string> &value) {
        if (value)
            setenv(name, value->c_str(), 1);
        else
            unsetenv(name);
    };
    restore("XDG_DATA_HOME", xdg);
    restore("HOME", home);
}

TEST_CASE("missing folders are created private (0700)") {
    TempFolder dir;
    const auto path = dir.at("share/gemm-judge/history.sqlite");
    History::open(path);
    CHECK(fs::exists(path));
    struct stat info {};
    REQUIRE(stat(dir.at("share/gemm-judge").c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
    REQUIRE(stat(dir.at("share").c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
}

TEST_CASE("errors name the file: a folder that cannot be made, a newer schema") {
    TempFolder dir;
    std::ofstream(dir.at("plain-file")) << "a file, not a folder\n";
    SUBCASE("the folder cannot be created") {
        const auto path = dir.at("plain-file/history.sqlite");
        try {
            History::open(path);
            FAIL("opened a history below a file");
        } catch (const HistoryError &e) {
            CHECK(contains(e.what(), path));
            CHECK(contains(e.what(), "plain-file"));
        }
    }
    SUBCASE("a newer judge wrote it") {
        const auto path = dir.at("newer.sqlite");
        History::open(path);
        RawDatabase(path).text("PRAGMA user_version = 99");
        try {
            History::open(path);
            FAIL("opened a newer history");
        } catch (const HistoryError &e) {
            CHECK(contains(e.what(), path));
            CHECK(contains(e.what(), "newer judge"));
        }
    }
    CHECK_THROWS_AS(History::open(""), HistoryError);
}

TEST_CASE("a writer killed while its uncommitted rows are already in the file leaves no partial attempt") {
    TempFolder dir;
    const auto path = dir.at("h.sqlite");
    {
        auto history = History::open(path);
        history.record(scored("a.cu", "G", 0.5, 1));
        history.record(scored("b.cu", "G", 0.5, 1));
    }
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t writer = spawn([&] {
        // Half an attempt by hand, and a cache of one page so that SQLite spills the
        // uncommitted pages into the WAL file before the kill.
        close(ready[0]);
        sqlite3 *db = nullptr;
        sqlite3_open(path.c_str(), &db);
        sqlite3_exec(db,
                     "PRAGMA cache_size = 1; BEGIN IMMEDIATE; "
                     "INSERT INTO attempts (time_utc, mode, solution_name, solution_path, solution_hash, gpu_name, "
                     "driver_version, sm_clock_mhz, judge_version, worst_verdict, geomean_ms, report_json) VALUES "
                     "('2025-01-01T00:00:00Z', 'rank', 'half.cu', '/half.cu', 'h', 'G', 'd', 1980, 'v', 'AC', 1, '{}');"
                     "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999) "
                     "INSERT INTO cases SELECT (SELECT max(id) FROM attempts), i, 'case ' || i, 'AC', 1, 0, NULL, "
                     "'[' || replace(hex(zeroblob(500)), '00', '1.5,') || '1.5]' FROM n;",
                     nullptr, nullptr, nullptr);
        if (write(ready[1], "r", 1) != 1) _exit(1);
        pause();
    });
    close(ready[1]);
    char mark = 0;
    REQUIRE(read(ready[0], &mark, 1) == 1);
    close(ready[0]);
    CHECK(fs::file_size(path + "-wal") > 1'000'000); // 2000 rows of 2 kB, not committed
    kill(writer, SIGKILL);
    CHECK(exit_status_of(writer) == 128 + SIGKILL);

    RawDatabase raw(path);
    CHECK(raw.text("PRAGMA integrity_check") == "ok");
    CHECK(raw.number("SELECT count(*) FROM attempts") == 2);
    CHECK(raw.case_rows_without_attempt() == 0);
    auto history = History::open(path);
    CHECK(history.attempts().size() == 2);
    history.record(scored("c.cu", "G", 0.5, 1));
    CHECK(history.attempts().size() == 3);
    CHECK(raw.number("SELECT count(*) FROM cases") == 0);
}

TEST_CASE("a judge killed in the middle of record() loses no earlier attempt and leaves no partial one") {
    TempFolder dir;
    const auto path = dir.at("h.sqlite");
    constexpr int cases_per_attempt = 300;
    int marks[2];
    REQUIRE(pipe(marks) == 0);
    // 'b' before each record(), 'd' after it returns.
    const pid_t writer = spawn([&] {
        close(marks[0]);
        auto history = History::open(path);
        for (int i = 0;; ++i) {
            const Attempt attempt = large_attempt(i, cases_per_attempt);
            if (write(marks[1], "b", 1) != 1) return;
            history.record(attempt);
            if (write(marks[1], "d", 1) != 1) return;
        }
    });
    close(marks[1]);
    // Three whole records to learn how long one takes, then a kill halfway into the fourth.
    using clock = std::chrono::steady_clock;
    clock::time_point began;
    clock::duration longest{};
    int done = 0;
    for (char mark; done < 3 && read(marks[0], &mark, 1) == 1;) {
        if (mark == 'b') began = clock::now();
        if (mark == 'd') longest = std::max(longest, clock::now() - began), ++done;
    }
    REQUIRE(done == 3);
    char mark = 0;
    REQUIRE(read(marks[0], &mark, 1) == 1);
    REQUIRE(mark == 'b');
    std::this_thread::sleep_for(longest / 2);
    kill(writer, SIGKILL);
    CHECK(exit_status_of(writer) == 128 + SIGKILL);
    int finished_after = 0;
    while (read(marks[0], &mark, 1) == 1) finished_after += mark == 'd';
    close(marks[0]);
    INFO("records that finished after the kill was decided: ", finished_after);

    RawDatabase raw(path);
    CHECK(raw.text("PRAGMA integrity_check") == "ok");
    const long long attempts = raw.number("SELECT count(*) FROM attempts");
    CHECK(attempts >= 3 + finished_after);
    CHECK(attempts <= 4 + finished_after); // the fourth may have committed before its 'd'
    CHECK(raw.case_rows_without_attempt() == 0);
    CHECK(raw.number("SELECT count(*) FROM attempts WHERE (SELECT count(*) FROM cases WHERE attempt_id = "
                     "attempts.id) != " +
                     std::to_string(cases_per_attempt)) == 0);
    auto history = History::open(path);
    for (const auto &summary : history.attempts()) {
        const auto whole = history.attempt(summary.id);
        REQUIRE(whole);
        REQUIRE(whole->cases.size() == cases_per_attempt);
        CHECK(whole->cases.back().samples_ms.size() == 100);
    }
}

TEST_CASE("two judges recording at once into a new file: 100 attempts, every one whole") {
    TempFolder dir;
    const auto path = dir.at("new/h.sqlite");
    int start[2];
    REQUIRE(pipe(start) == 0);
    auto writer = [&](const std::string &solution) {
        return spawn([&, solution] {
            close(start[1]);
            char go;
            if (read(start[0], &go, 1) != 0) return; // both start when the parent closes the pipe
            auto history = History::open(path);
            for (int i = 0; i < 50; ++i) {
                Attempt a = scored(solution, "G", 0.5, 1.0 + i);
                a.cases = {{"a", "AC", 1.0, 0.0, 1.0, {1.0}}, {"b", "AC", 2.0, 0.0, 1.0, {2.0}}};
                history.record(a);
            }
        });
    };
    const pid_t first = writer("first.cu"), second = writer("second.cu");
    close(start[0]);
    close(start[1]);
    CHECK(exit_status_of(first) == 0);
    CHECK(exit_status_of(second) == 0);

    RawDatabase raw(path);
    CHECK(raw.text("PRAGMA integrity_check") == "ok");
    CHECK(raw.number("SELECT count(*) FROM attempts") == 100);
    CHECK(raw.number("SELECT count(*) FROM cases") == 200);
    CHECK(raw.case_rows_without_attempt() == 0);
    auto history = History::open(path);
    CHECK(history.attempts({"first.cu", {}, {}, {}}).size() == 50);
    CHECK(history.attempts({"second.cu", {}, {}, {}}).size() == 50);
}

TEST_CASE("a history whose first 100 bytes were overwritten is kept byte for byte and a new one records the run") {
    TempFolder dir;
    const auto path = dir.at("history.sqlite");
    {
        auto history = History::open(path);
        history.record(scored("a.cu", "G", 0.5, 1));
        history.record(scored("b.cu", "G", 0.6, 1));
    }
    overwrite_first_bytes(path, 100);
    const std::string damaged_bytes = bytes_of(path);

    auto history = History::open(path);
    const long long id = history.record(scored("c.cu", "G", 0.7, 1));
    const auto kept = files_starting(dir, "history.sqlite.damaged-");
    REQUIRE(kept.size() == 1);
    CHECK(bytes_of(kept[0]) == damaged_bytes);
    // history.sqlite.damaged-20250601T123456Z
    CHECK(fs::path(kept[0]).filename().string().size() == std::string("history.sqlite.damaged-").size() + 16);
    CHECK(kept[0].back() == 'Z');
    const std::string note = history.recovery_note();
    for (const std::string &line : gemm::test::lines_of(note)) CHECK(display_width(line) <= console_width);
    const std::string sentence = note_read_whole(history);
    CHECK(contains(sentence, path));
    CHECK(contains(sentence, kept[0]));
    CHECK(contains(sentence, "not a database"));
    const auto attempts = history.attempts();
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0].id == id);
    CHECK(attempts[0].solution_name == "c.cu");
    CHECK(RawDatabase(path).text("PRAGMA integrity_check") == "ok");

    // The next judge finds a healthy history: nothing more is set aside.
    auto again = History::open(path);
    CHECK(again.recovery_note().empty());
    CHECK(again.attempts().size() == 1);
    CHECK(files_starting(dir, "history.sqlite.damaged-").size() == 1);
}

TEST_CASE("a damaged history is set aside with its WAL, and a second damage gets a second name") {
    TempFolder dir;
    const auto path = dir.at("h.sqlite");
    for (int round = 1; round <= 2; ++round) {
        {
            auto history = History::open(path);
            history.record(scored("a.cu", "G", 0.5, 1));
        }
        std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(8192, 'x'); // not SQLite at all
        std::ofstream(path + "-wal", std::ios::binary) << "a WAL of the damaged file";
        auto history = History::open(path);
        CHECK(contains(note_read_whole(history), "could not be read"));
        CHECK(history.attempts().empty());
        std::size_t files = 0, wals = 0;
        for (const auto &kept : files_starting(dir, "h.sqlite.damaged-")) {
            wals += contains(kept, "-wal");
            files += !contains(kept, "-wal") && !contains(kept, "-shm");
        }
        CHECK(files == std::size_t(round));
        CHECK(wals == std::size_t(round)); // moved beside its file, never replayed into the new one
    }
}

TEST_CASE("a history corrupt past its header is set aside when a query or a record finds it") {
    TempFolder dir;
    const auto path = dir.at("h.sqlite");
    {
        auto history = History::open(path);
        history.record(large_attempt(0, 200));
    }
    // Garbage over every page but the first (the schema): the header still reads.
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(4096);
        file << std::string(fs::file_size(path) - 4096, '\x33');
    }
    auto history = History::open(path);
    long long id = 0;
    try {
        history.attempt(1);
        FAIL("read a corrupt page");
    } catch (const DamagedHistory &e) {
        CHECK(contains(e.what(), path));
        id = history.record(scored("after.cu", "G", 0.5, 1)); // the record sets it aside itself
    }
    CHECK(contains(note_read_whole(history), path + ".damaged-"));
    CHECK(history.attempts().size() == 1);
    CHECK(history.attempt(id)->solution_name == "after.cu");
}

TEST_CASE("another program's SQLite database named as the history is refused, named with its tables, unchanged") {
    TempFolder dir;
    const auto path = dir.at("notes.db");
    {
        RawDatabase raw(path);
        raw.text("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
        raw.text("CREATE TABLE tags (name TEXT)");
        raw.text("INSERT INTO notes (body) VALUES ('mine')");
    }
    const std::string before = bytes_of(path);
    try {
        History::open(path);
        FAIL("opened another program's database as a history");
    } catch (const ForeignDatabase &e) {
        CHECK(contains(e.what(), path));
        CHECK(contains(e.what(), "notes, tags"));
        CHECK(contains(e.what(), "not a gemm-judge history"));
    }
    CHECK(bytes_of(path) == before); // no tables added, not even switched to WAL
    CHECK(RawDatabase(path).text("PRAGMA journal_mode") == "delete");
    CHECK(files_starting(dir, "notes.db.damaged-").empty());

    SUBCASE("with another program's application_id and no tables it is refused too") {
        const auto marked = dir.at("other-app.db");
        RawDatabase(marked).text("PRAGMA application_id = 42");
        CHECK_THROWS_AS(History::open(marked), ForeignDatabase);
    }
    SUBCASE("in the judge's own default place, the same file is damage: set aside, a history started") {
        auto history = History::open(path, HistoryPlace::default_place);
        CHECK(contains(note_read_whole(history), "not a gemm-judge history"));
        const auto kept = files_starting(dir, "notes.db.damaged-");
        REQUIRE(kept.size() == 1);
        CHECK(RawDatabase(kept[0]).text("SELECT body FROM notes") == "mine");
        CHECK(history.attempts().empty());
    }
}

TEST_CASE("a new or empty file becomes a history marked with the application_id, and an unmarked old history is kept") {
    TempFolder dir;
    SUBCASE("new") {
        const auto path = dir.at("new.sqlite");
        History::open(path);
        CHECK(RawDatabase(path).number("PRAGMA application_id") == 0x47454D4D);
        CHECK(RawDatabase(path).number("PRAGMA user_version") == 2);
    }
    SUBCASE("an empty file") {
        const auto path = dir.at("empty.sqlite");
        std::ofstream(path).close();
        History::open(path).record(scored("a.cu", "G", 0.5, 1));
        CHECK(RawDatabase(path).number("PRAGMA application_id") == 0x47454D4D);
    }
    SUBCASE("a history of a judge before the marker: read as it is, marked by the next record") {
        const auto path = dir.at("old.sqlite");
        History::open(path).record(scored("a.cu", "G", 0.5, 1));
        RawDatabase(path).text("PRAGMA application_id = 0");
        auto history = History::open(path);
        CHECK(history.recovery_note().empty());
        CHECK(history.attempts().size() == 1);
        CHECK(RawDatabase(path).number("PRAGMA application_id") == 0); // reading writes nothing
        history.record(scored("b.cu", "G", 0.5, 1));
        CHECK(RawDatabase(path).number("PRAGMA application_id") == 0x47454D4D);
    }
    SUBCASE("the marker over tables that are not a history's is damage") {
        const auto path = dir.at("marked.sqlite");
        RawDatabase raw(path);
        raw.text("PRAGMA application_id = 1195724109");
        raw.text("CREATE TABLE attempts (id INTEGER)");
        auto history = History::open(path);
        CHECK(contains(note_read_whole(history), "its tables are not a history's"));
    }
}

TEST_CASE("readers do not wait for a writer: a history is opened and read while another judge holds the write lock") {
    TempFolder dir;
    const auto path = dir.at("h.sqlite");
    {
        auto history = History::open(path);
        history.record(scored("a.cu", "G", 0.5, 1));
    }
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t writer = spawn([&] {
        close(ready[0]);
        sqlite3 *db = nullptr;
        sqlite3_open(path.c_str(), &db);
        sqlite3_exec(db,
                     "BEGIN IMMEDIATE; INSERT INTO attempts (time_utc, mode, solution_name, solution_path, "
                     "solution_hash, gpu_name, driver_version, sm_clock_mhz, judge_version, worst_verdict, "
                     "report_json) VALUES ('2025-01-01T00:00:00Z', 'rank', 'w.cu', '/w.cu', 'h', 'G', 'd', 1, 'v', "
                     "'AC', '{}');",
                     nullptr, nullptr, nullptr);
        if (write(ready[1], "r", 1) != 1) _exit(1);
        pause();
    });
    close(ready[1]);
    char mark = 0;
    REQUIRE(read(ready[0], &mark, 1) == 1);
    close(ready[0]);

    const auto began = std::chrono::steady_clock::now();
    {
        auto history = History::open(path);
        CHECK(history.attempts().size() == 1); // the last commit, not the writer's open transaction
        CHECK(history.best("a.cu", "G", "rank", seed_problem));
        CHECK(history.leaderboard("G", seed_problem).size() == 1);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    CHECK(seconds < 2.0); // the busy timeout is 10 s: a reader that asked for the write lock would wait it out
    kill(writer, SIGKILL);
    exit_status_of(writer);
}

TEST_CASE("a solution judged through a link is recorded under the file it links to") {
    TempFolder folder;
    const fs::path rung = folder.path / "02-tiled.cu";
    std::ofstream(rung) << "// rung 2\n";
    fs::create_symlink("02-tiled.cu", folder.path / "tiled.cu");
    CHECK(recorded_solution_path((folder.path / "tiled.cu").string()) == fs::canonical(rung).string());
    CHECK(recorded_solution_path((folder.path / "sub" / ".." / "02-tiled.cu").string()) ==
          fs::canonical(rung).string());
    // A file that does not exist (a name given to `history`) keeps its absolute, normal form.
    CHECK(recorded_solution_path((folder.path / "gone.cu").string()) ==
          (fs::canonical(folder.path) / "gone.cu").string());
}
