// The user's history of judge and rank runs, kept in one SQLite file so that "is my new
// kernel faster than my best?" and "who leads on this GPU?" are answered from the
// samples themselves, runs or days later. SQLite because several judges may finish at
// once (WAL and a busy timeout let them queue) and a judge killed mid-write must leave
// every earlier attempt readable (each attempt is one transaction).
//
// Where: $XDG_DATA_HOME/gemm-judge/history.sqlite, else
// $HOME/.local/share/gemm-judge/history.sqlite, or any file named by the caller; missing
// folders are created with mode 0700 (the reports name the user's files and paths).
//
// Schema (PRAGMA user_version = 1):
//   attempts  one row per judge or rank run
//     id INTEGER PRIMARY KEY, time_utc TEXT ("2025-06-01T12:34:56Z"), mode TEXT ("judge",
//     "rank"), solution_name TEXT (file name), solution_path TEXT (absolute path: one
//     solution across its edits), solution_hash TEXT (of the source, hex, from the caller),
//     gpu_name TEXT (as the device names itself: the unit of comparison), driver_version
//     TEXT, sm_clock_mhz INTEGER (read during the run), judge_version TEXT, worst_verdict
//     TEXT ("AC" … "JE"), geomean_ms REAL, geomean_ratio_to_cublas REAL, percent_of_peak
//     REAL, noise_floor REAL (the four NULL when the run has no score), report_json TEXT
//     (the run's whole --json report)
//   cases     one row per case of an attempt
//     attempt_id INTEGER REFERENCES attempts(id), position INTEGER (order in the run),
//     name TEXT, verdict TEXT, median_ms REAL, relative_spread REAL, cublas_median_ms REAL
//     (the three NULL when not timed), samples_ms TEXT (JSON array of every kept timed
//     call in ms, for significance tests against later runs);
//     PRIMARY KEY (attempt_id, position)
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace gemm {

// Every failure names the history file and says what went wrong there.
class HistoryError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct CaseRecord {
    std::string name;
    std::string verdict;
    std::optional<double> median_ms, relative_spread, cublas_median_ms;
    std::vector<double> samples_ms;
};

struct Attempt {
    long long id = 0;     // given by History::record
    std::string time_utc; // ISO 8601 in UTC; record() uses the current time when empty
    std::string mode;
    std::string solution_name, solution_path, solution_hash;
    std::string gpu_name, driver_version;
    int sm_clock_mhz = 0;
    std::string judge_version;
    std::string worst_verdict;
    std::optional<double> geomean_ms, geomean_ratio_to_cublas, percent_of_peak, noise_floor;
    std::string report_json;
    std::vector<CaseRecord> cases;
};

// Which attempts to list; an empty field matches every attempt.
struct AttemptFilter {
    std::optional<std::string> solution; // its file name, absolute path or content hash
    std::optional<std::string> gpu;      // the GPU's name exactly
    std::optional<std::string> mode;
};

// $XDG_DATA_HOME/gemm-judge/history.sqlite when XDG_DATA_HOME is an absolute path (the
// XDG spec ignores a relative one), else under $HOME/.local/share. Throws HistoryError
// when neither is set.
std::string default_history_path();

// "2025-06-01T12:34:56Z"
std::string utc_now_iso8601();

class History {
  public:
    // Opens or creates the file (and its missing folders). Throws HistoryError naming the
    // file when it cannot be created, is not an SQLite database, or was written by a
    // newer judge.
    static History open(const std::string &path);

    History(History &&other) noexcept;
    History &operator=(History &&other) noexcept;
    History(const History &) = delete;
    History &operator=(const History &) = delete;
    ~History();

    const std::string &path() const { return path_; }

    // One transaction: the attempt and all its cases, or nothing. Returns the attempt's id.
    long long record(const Attempt &attempt);

    // Oldest first, without cases or report (summaries, for listing and plotting).
    std::vector<Attempt> attempts(const AttemptFilter &filter = {}) const;
    // One attempt whole, with its cases and report.
    std::optional<Attempt> attempt(long long id) const;

    // Only attempts that have a score and every case AC, of one mode (a rank run times a
    // fixed set of shapes; a judge run's score is over whichever cases it was given) and
    // one GPU model. Best is the highest geometric-mean ratio to cuBLAS (steady under a
    // changing clock), then the shortest geometric-mean time; attempts without a ratio
    // rank after those with one.
    //
    // The best attempt of one solution (file name, path or hash), whole.
    std::optional<Attempt> best(const std::string &solution, const std::string &gpu,
                                const std::string &mode = "rank") const;
    // The best attempt of every solution (by path) on that GPU model, best first, as
    // summaries. Never mixes GPU models: the same kernel on another GPU is another board.
    std::vector<Attempt> leaderboard(const std::string &gpu, const std::string &mode = "rank") const;

  private:
    History(std::string path, sqlite3 *db) : path_(std::move(path)), db_(db) {}
    std::string path_;
    sqlite3 *db_ = nullptr;
};

} // namespace gemm
