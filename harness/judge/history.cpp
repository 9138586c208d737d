#include "judge/history.hpp"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sys/stat.h>
#include <thread>

namespace gemm {

namespace fs = std::filesystem;

namespace {

constexpr int schema_version = 1;

// How long a judge waits for another to finish writing before it gives up.
constexpr int busy_timeout_ms = 10'000;

constexpr const char *schema = R"(
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    time_utc TEXT NOT NULL,
    mode TEXT NOT NULL,
    solution_name TEXT NOT NULL,
    solution_path TEXT NOT NULL,
    solution_hash TEXT NOT NULL,
    gpu_name TEXT NOT NULL,
    driver_version TEXT NOT NULL,
    sm_clock_mhz INTEGER NOT NULL,
    judge_version TEXT NOT NULL,
    worst_verdict TEXT NOT NULL,
    geomean_ms REAL,
    geomean_ratio_to_cublas REAL,
    percent_of_peak REAL,
    noise_floor REAL,
    report_json TEXT NOT NULL
);
CREATE TABLE cases (
    attempt_id INTEGER NOT NULL REFERENCES attempts(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    verdict TEXT NOT NULL,
    median_ms REAL,
    relative_spread REAL,
    cublas_median_ms REAL,
    samples_ms TEXT NOT NULL,
    PRIMARY KEY (attempt_id, position)
);
CREATE INDEX attempts_by_gpu ON attempts (gpu_name, mode, solution_path);
PRAGMA user_version = 1;
)";

// The columns of a summary, in the order read_summary reads them.
constexpr const char *summary_columns =
    "id, time_utc, mode, solution_name, solution_path, solution_hash, gpu_name, driver_version, sm_clock_mhz, "
    "judge_version, worst_verdict, geomean_ms, geomean_ratio_to_cublas, percent_of_peak, noise_floor";

// Attempts that take part in best() and leaderboard(), given ?2 the GPU and ?3 the mode
// (SQLite allows the gap where leaderboard() has no ?1).
constexpr const char *ranked_attempts =
    "gpu_name = ?2 AND mode = ?3 AND worst_verdict = 'AC' AND geomean_ms IS NOT NULL";
constexpr const char *best_first = "geomean_ratio_to_cublas IS NULL, geomean_ratio_to_cublas DESC, geomean_ms, id";

[[noreturn]] void fail(const std::string &path, const std::string &what, sqlite3 *db) {
    throw HistoryError("history " + path + ": " + what + (db ? std::string(": ") + sqlite3_errmsg(db) : ""));
}

// A prepared statement, finalized on every path out.
class Statement {
  public:
    Statement(sqlite3 *db, const std::string &path, const std::string &sql) : db_(db), path_(path) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK)
            fail(path, "cannot read or write it", db);
    }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    ~Statement() { sqlite3_finalize(statement_); }

    Statement &bind(int index, const std::string &text) {
        return check_bind(sqlite3_bind_text(statement_, index, text.c_str(), -1, SQLITE_TRANSIENT));
    }
    Statement &bind(int index, long long value) { return check_bind(sqlite3_bind_int64(statement_, index, value)); }
    Statement &bind(int index, const std::optional<double> &value) {
        return check_bind(value ? sqlite3_bind_double(statement_, index, *value)
                                : sqlite3_bind_null(statement_, index));
    }
    Statement &bind(int index, const std::optional<std::string> &text) {
        return text ? bind(index, *text) : check_bind(sqlite3_bind_null(statement_, index));
    }

    // For the next row of an insert: the same statement, new values.
    void reset() {
        sqlite3_reset(statement_);
        sqlite3_clear_bindings(statement_);
    }

    // True while there is a row to read.
    bool step() {
        const int rc = sqlite3_step(statement_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail(path_, "cannot read or write it", db_);
    }

    std::string text(int column) const {
        const auto *text = sqlite3_column_text(statement_, column);
        return text ? reinterpret_cast<const char *>(text) : "";
    }
    long long integer(int column) const { return sqlite3_column_int64(statement_, column); }
    std::optional<double> real(int column) const {
        if (sqlite3_column_type(statement_, column) == SQLITE_NULL) return std::nullopt;
        return sqlite3_column_double(statement_, column);
    }

  private:
    Statement &check_bind(int rc) {
        if (rc != SQLITE_OK) fail(path_, "cannot write it", db_);
        return *this;
    }
    sqlite3 *db_;
    const std::string &path_;
    sqlite3_stmt *statement_ = nullptr;
};

void execute(sqlite3 *db, const std::string &path, const char *sql, const char *what) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(path, what, db);
}

// BEGIN IMMEDIATE takes the write lock at once, so two judges queue on the busy timeout
// instead of one failing when it upgrades a read to a write. Rolled back unless committed.
class WriteTransaction {
  public:
    WriteTransaction(sqlite3 *db, const std::string &path) : db_(db), path_(path) {
        execute(db, path, "BEGIN IMMEDIATE", "cannot lock it for writing");
    }
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;
    ~WriteTransaction() {
        if (!committed_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit() {
        execute(db_, path_, "COMMIT", "cannot commit to it");
        committed_ = true;
    }

  private:
    sqlite3 *db_;
    const std::string &path_;
    bool committed_ = false;
};

// WAL: readers never wait for a writer, and a writer killed mid-transaction leaves only
// uncommitted frames that the next reader ignores. Switching a file to WAL needs it alone
// for a moment, and SQLite answers "busy" there without waiting on the busy timeout, so
// a second judge creating the same new file waits here instead.
void use_write_ahead_log(sqlite3 *db, const std::string &path) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
    while (true) {
        const int rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK) return;
        if (rc != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline)
            fail(path, "cannot read it as an SQLite database", db);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// Missing folders are created 0700, existing ones left as they are.
void create_folders(const fs::path &folder, const std::string &path) {
    if (folder.empty() || fs::is_directory(folder)) return;
    create_folders(folder.parent_path(), path);
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        throw HistoryError("history " + path + ": cannot create the folder " + folder.string() + ": " +
                           std::strerror(errno));
    if (!fs::is_directory(folder)) throw HistoryError("history " + path + ": " + folder.string() + " is not a folder");
}

// 0 for a new file.
long long stored_schema_version(sqlite3 *db, const std::string &path) {
    Statement version(db, path, "PRAGMA user_version");
    version.step();
    return version.integer(0);
}

Attempt read_summary(const Statement &row) {
    Attempt a;
    a.id = row.integer(0);
    a.time_utc = row.text(1);
    a.mode = row.text(2);
    a.solution_name = row.text(3);
    a.solution_path = row.text(4);
    a.solution_hash = row.text(5);
    a.gpu_name = row.text(6);
    a.driver_version = row.text(7);
    a.sm_clock_mhz = static_cast<int>(row.integer(8));
    a.judge_version = row.text(9);
    a.worst_verdict = row.text(10);
    a.geomean_ms = row.real(11);
    a.geomean_ratio_to_cublas = row.real(12);
    a.percent_of_peak = row.real(13);
    a.noise_floor = row.real(14);
    return a;
}

std::vector<double> parse_samples(const std::string &text, const std::string &path) {
    try {
        return nlohmann::json::parse(text).get<std::vector<double>>();
    } catch (const nlohmann::json::exception &e) {
        throw HistoryError("history " + path + ": a case's samples are not a JSON array of numbers: " + e.what());
    }
}

} // namespace

std::string default_history_path() {
    if (const char *xdg = std::getenv("XDG_DATA_HOME"); xdg && xdg[0] == '/')
        return std::string(xdg) + "/gemm-judge/history.sqlite";
    if (const char *home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.local/share/gemm-judge/history.sqlite";
    throw HistoryError("history: neither XDG_DATA_HOME nor HOME is set, so there is no default file: name one");
}

std::string utc_now_iso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

History History::open(const std::string &path) {
    if (path.empty()) throw HistoryError("history: no file named");
    create_folders(fs::path(path).parent_path(), path);
    sqlite3 *db = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    History history(path, db); // owns the handle, which SQLite gives even when opening fails
    if (rc != SQLITE_OK) fail(path, "cannot open it", db);
    sqlite3_busy_timeout(db, busy_timeout_ms);
    use_write_ahead_log(db, path);
    // A commit is on disk when record() returns, so not even a power cut loses an attempt
    // the judge reported.
    execute(db, path, "PRAGMA synchronous = FULL", "cannot read it as an SQLite database");

    WriteTransaction transaction(db, path);
    const long long found = stored_schema_version(db, path);
    if (found > schema_version)
        throw HistoryError("history " + path + ": written by a newer judge (schema " + std::to_string(found) +
                           ", this judge knows " + std::to_string(schema_version) + ")");
    if (found == 0) execute(db, path, schema, "cannot create its tables");
    transaction.commit();
    return history;
}

History::History(History &&other) noexcept : path_(std::move(other.path_)), db_(other.db_) { other.db_ = nullptr; }

History &History::operator=(History &&other) noexcept {
    if (this != &other) {
        sqlite3_close_v2(db_);
        path_ = std::move(other.path_);
        db_ = other.db_;
        other.db_ = nullptr;
    }
    return *this;
}

History::~History() { sqlite3_close_v2(db_); }

long long History::record(const Attempt &a) {
    WriteTransaction transaction(db_, path_);
    Statement attempt(db_, path_,
                      "INSERT INTO attempts (time_utc, mode, solution_name, solution_path, solution_hash, gpu_name, "
                      "driver_version, sm_clock_mhz, judge_version, worst_verdict, geomean_ms, "
                      "geomean_ratio_to_cublas, percent_of_peak, noise_floor, report_json) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    attempt.bind(1, a.time_utc.empty() ? utc_now_iso8601() : a.time_utc)
        .bind(2, a.mode)
        .bind(3, a.solution_name)
        .bind(4, a.solution_path)
        .bind(5, a.solution_hash)
        .bind(6, a.gpu_name)
        .bind(7, a.driver_version)
        .bind(8, static_cast<long long>(a.sm_clock_mhz))
        .bind(9, a.judge_version)
        .bind(10, a.worst_verdict)
        .bind(11, a.geomean_ms)
        .bind(12, a.geomean_ratio_to_cublas)
        .bind(13, a.percent_of_peak)
        .bind(14, a.noise_floor)
        .bind(15, a.report_json);
    attempt.step();
    const long long id = sqlite3_last_insert_rowid(db_);

    Statement case_row(db_, path_,
                       "INSERT INTO cases (attempt_id, position, name, verdict, median_ms, relative_spread, "
                       "cublas_median_ms, samples_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    for (std::size_t i = 0; i < a.cases.size(); ++i) {
        const auto &c = a.cases[i];
        case_row.reset();
        case_row.bind(1, id)
            .bind(2, static_cast<long long>(i))
            .bind(3, c.name)
            .bind(4, c.verdict)
            .bind(5, c.median_ms)
            .bind(6, c.relative_spread)
            .bind(7, c.cublas_median_ms)
            .bind(8, nlohmann::json(c.samples_ms).dump());
        case_row.step();
    }
    transaction.commit();
    return id;
}

std::vector<Attempt> History::attempts(const AttemptFilter &filter) const {
    Statement query(db_, path_,
                    std::string("SELECT ") + summary_columns +
                        " FROM attempts WHERE (?1 IS NULL OR solution_name = ?1 OR solution_path = ?1 OR "
                        "solution_hash = ?1) AND (?2 IS NULL OR gpu_name = ?2) AND (?3 IS NULL OR mode = ?3) "
                        "ORDER BY time_utc, id");
    query.bind(1, filter.solution).bind(2, filter.gpu).bind(3, filter.mode);
    std::vector<Attempt> found;
    while (query.step()) found.push_back(read_summary(query));
    return found;
}

std::optional<Attempt> History::attempt(long long id) const {
    Statement query(db_, path_, std::string("SELECT ") + summary_columns + ", report_json FROM attempts WHERE id = ?1");
    query.bind(1, id);
    if (!query.step()) return std::nullopt;
    Attempt a = read_summary(query);
    a.report_json = query.text(15);

    Statement cases(db_, path_,
                    "SELECT name, verdict, median_ms, relative_spread, cublas_median_ms, samples_ms FROM cases "
                    "WHERE attempt_id = ?1 ORDER BY position");
    cases.bind(1, id);
    while (cases.step())
        a.cases.push_back({cases.text(0), cases.text(1), cases.real(2), cases.real(3), cases.real(4),
                           parse_samples(cases.text(5), path_)});
    return a;
}

std::optional<Attempt> History::best(const std::string &solution, const std::string &gpu,
                                     const std::string &mode) const {
    Statement query(db_, path_,
                    std::string("SELECT id FROM attempts WHERE (solution_name = ?1 OR solution_path = ?1 OR "
                                "solution_hash = ?1) AND ") +
                        ranked_attempts + " ORDER BY " + best_first + " LIMIT 1");
    query.bind(1, solution).bind(2, gpu).bind(3, mode);
    if (!query.step()) return std::nullopt;
    return attempt(query.integer(0));
}

std::vector<Attempt> History::leaderboard(const std::string &gpu, const std::string &mode) const {
    Statement query(db_, path_,
                    std::string("SELECT ") + summary_columns + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY " +
                        "solution_path ORDER BY " + best_first + ") AS place FROM attempts WHERE " + ranked_attempts +
                        ") WHERE place = 1 ORDER BY " + best_first);
    query.bind(2, gpu).bind(3, mode);
    std::vector<Attempt> board;
    while (query.step()) board.push_back(read_summary(query));
    return board;
}

} // namespace gemm
