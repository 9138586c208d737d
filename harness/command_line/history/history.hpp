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
// A file the judge finds it cannot read (not an SQLite database, corrupt, or in the judge's
// own default place but holding something else) is never deleted: it is renamed to
// <name>.damaged-<UTC time> (with its -wal and -shm files), a new history is started, and
// the caller prints the note recovery_note() gives. A history survives a solution that
// scribbles over it. An SQLite database of something else that the user named
// (--history, GEMM_JUDGE_HISTORY) is refused instead and left untouched.
//
// Readers never take the write lock: opening an existing history, listing and querying it
// run in deferred (read) transactions, so `./judge history` answers at once while another
// judge is writing (WAL: readers see the last commit).
//
// Schema (PRAGMA application_id = 0x47454D4D, "GEMM", on every file this judge creates;
// PRAGMA user_version = 2; files of judges before the marker are recognised by their tables;
// a file of schema 1 is upgraded when first opened: its attempts get the seed's problem):
//   attempts  one row per judge or rank run
//     id INTEGER PRIMARY KEY, time_utc TEXT ("2025-06-01T12:34:56Z"), mode TEXT ("judge",
//     "rank"), solution_name TEXT (file name), solution_path TEXT (absolute path: one
//     solution across its edits), solution_hash TEXT (of the source, hex, from the caller),
//     gpu_name TEXT (as the device names itself: the unit of comparison), driver_version
//     TEXT, sm_clock_mhz INTEGER (read during the run), judge_version TEXT, worst_verdict
//     TEXT ("AC" … "JE"), geomean_ms REAL, geomean_ratio_to_cublas REAL, percent_of_peak
//     REAL (the score: over the cases timed against cuBLAS, measurement/score.hpp
//     score_against_cublas; NULL when the run has none), noise_floor REAL (a rank run's:
//     the relative half-width of its score's interval), report_json TEXT (the run's whole
//     --json report), problem TEXT (the problem judged, testcases/problem.hpp: what a score
//     compares with only within)
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

// The file is there but holds no history this judge can read: not an SQLite database,
// corrupt, or a history's marker over tables that are not a history's. History sets it
// aside (History::open, record, start_over); the reading calls throw it to their caller.
class DamagedHistory : public HistoryError {
  public:
    using HistoryError::HistoryError;
};

// An SQLite database of something else, named by the user: refused, never written. The
// message names the file and the tables it holds.
class ForeignDatabase : public HistoryError {
  public:
    using HistoryError::HistoryError;
};

// Where the file came from: the judge's own default place, where anything that is not a
// history is damage, or a file the user named, which may be theirs.
enum class HistoryPlace { named, default_place };

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
    std::string problem; // record(): the seed's when empty
    std::vector<CaseRecord> cases;
    int cublas_cases = 0; // read back: its cases timed against cuBLAS, which the score is over
};

// Which attempts to list; an empty field matches every attempt.
struct AttemptFilter {
    std::optional<std::string> solution; // its file name, absolute path or content hash
    std::optional<std::string> gpu;      // the GPU's name exactly
    std::optional<std::string> mode;
    std::optional<std::string> problem;
};

// $XDG_DATA_HOME/gemm-judge/history.sqlite when XDG_DATA_HOME is an absolute path (the
// XDG spec ignores a relative one), else under $HOME/.local/share. Throws HistoryError
// when neither is set.
std::string default_history_path();

// "2025-06-01T12:34:56Z"
std::string utc_now_iso8601();

// The path an attempt is recorded under, and looked up by: the file a solution's path
// names, through any symbolic link (solutions/tiled.cu is rung 2's file), absolute and
// normalized, so one file has one history whatever name it was judged by.
std::string recorded_solution_path(const std::string &solution);

class History {
  public:
    // Opens or creates the file (and its missing folders). A damaged file is set aside and
    // a new history started (recovery_note() says so). Throws ForeignDatabase for another
    // program's database at a named place, HistoryError naming the file when it cannot be
    // created or read for any other reason (permissions, a full disk) or was written by a
    // newer judge.
    static History open(const std::string &path, HistoryPlace place = HistoryPlace::named);

    History(History &&other) noexcept;
    History &operator=(History &&other) noexcept;
    History(const History &) = delete;
    History &operator=(const History &) = delete;
    ~History();

    const std::string &path() const { return path_; }

    // "history F could not be read (why); it was kept as F.damaged-…, and a new history
    // was started", broken at spaces into lines of 100 columns: empty unless this History
    // set a damaged file aside.
    const std::string &recovery_note() const { return recovery_note_; }

    // Sets the file aside as damaged (why: what was found) and continues with a new one;
    // for a caller whose query threw DamagedHistory. A file another judge has already
    // replaced is left alone.
    void start_over(const std::string &why);

    // One transaction: the attempt and all its cases, or nothing. Returns the attempt's id.
    // A file found damaged while writing is set aside and the attempt recorded in a new one.
    long long record(const Attempt &attempt);

    // Oldest first, without cases or report (summaries, for listing and plotting).
    std::vector<Attempt> attempts(const AttemptFilter &filter = {}) const;
    // One attempt whole, with its cases and report.
    std::optional<Attempt> attempt(long long id) const;

    // Only attempts that have a score and every case AC, of one mode (a rank run times a
    // fixed set of shapes; a judge run's score is over whichever cases it was given) and
    // one GPU model and one problem. Best is the highest geometric-mean ratio to cuBLAS (steady under a
    // changing clock), then the shortest geometric-mean time; attempts without a ratio
    // rank after those with one.
    //
    // The best attempt of one solution (file name, path or hash), whole.
    std::optional<Attempt> best(const std::string &solution, const std::string &gpu, const std::string &mode,
                                const std::string &problem) const;
    // The best attempt of every solution (by path) on that GPU model for that problem, best
    // first, as summaries. Never mixes GPU models or problems: the same kernel on another GPU
    // is another board, and scores of two problems do not compare.
    std::vector<Attempt> leaderboard(const std::string &gpu, const std::string &problem,
                                     const std::string &mode = "rank") const;
    // Every GPU model and problem with an attempt: the boards there are, by GPU, then problem.
    struct Board {
        std::string gpu, problem;
    };
    std::vector<Board> boards() const;

    // The file's device and inode when it was opened: which file a recovery sets aside.
    struct Identity {
        unsigned long long device = 0, inode = 0;
        bool exists = false;
        bool operator==(const Identity &other) const {
            return exists == other.exists && device == other.device && inode == other.inode;
        }
    };

  private:
    History(std::string path, HistoryPlace place) : path_(std::move(path)), place_(place) {}
    void connect();
    void upgrade();
    long long insert(const Attempt &attempt);
    std::string path_;
    HistoryPlace place_;
    sqlite3 *db_ = nullptr;
    Identity identity_;
    bool marked_ = false; // the file carries this judge's application_id
    std::string recovery_note_;
};

} // namespace gemm
