#include "command_line/history/history.hpp"
#include "common/terminal_text.hpp"
#include "testcases/problem.hpp"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

constexpr int schema_version = 2;

// The problem of every attempt recorded before the history knew problems (schema 1): the only
// one judges then judged, the default problem, LeetGPU's matrix multiplication.
const std::string &problem_before_schema_2() { return default_problem().name; }

// PRAGMA application_id of every history this judge creates: "GEMM" in ASCII. A file
// without it is a history only when it holds the history's tables (judges before the
// marker) or nothing at all.
constexpr long long history_application_id = 0x47454D4D;

// How long a judge waits for another to finish writing before it gives up.
constexpr int busy_timeout_ms = 10'000;

// The tables of a new history. An attempt written without its problem is the default
// problem's, as every attempt recorded before schema 2 is (History::upgrade).
std::string schema() {
    return R"(
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
    report_json TEXT NOT NULL,
    problem TEXT NOT NULL DEFAULT ')" +
           problem_before_schema_2() + R"('
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
PRAGMA user_version = 2;
PRAGMA application_id = 1195724109;
)";
}
static_assert(history_application_id == 1195724109, "the schema's application_id is the marker");

// The columns each table must have for the file to be a history.
const std::vector<std::pair<std::string, std::vector<std::string>>> history_tables = {
    {"attempts",
     {"id", "time_utc", "mode", "solution_name", "solution_path", "solution_hash", "gpu_name", "driver_version",
      "sm_clock_mhz", "judge_version", "worst_verdict", "geomean_ms", "geomean_ratio_to_cublas", "percent_of_peak",
      "noise_floor", "report_json"}},
    {"cases",
     {"attempt_id", "position", "name", "verdict", "median_ms", "relative_spread", "cublas_median_ms", "samples_ms"}},
};

// The columns of a summary, in the order read_summary reads them. The count's unqualified
// `id` is the attempt's: the cases table has no column of that name.
constexpr const char *summary_columns =
    "id, time_utc, mode, solution_name, solution_path, solution_hash, gpu_name, driver_version, sm_clock_mhz, "
    "judge_version, worst_verdict, geomean_ms, geomean_ratio_to_cublas, percent_of_peak, noise_floor, "
    "(SELECT count(*) FROM cases WHERE cases.attempt_id = id AND cases.cublas_median_ms IS NOT NULL), problem";

// Attempts that take part in best() and leaderboard(), given ?2 the GPU, ?3 the mode and ?4
// the problem (SQLite allows the gap where leaderboard() has no ?1).
constexpr const char *ranked_attempts =
    "gpu_name = ?2 AND mode = ?3 AND problem = ?4 AND worst_verdict = 'AC' AND geomean_ms IS NOT NULL";
constexpr const char *best_first = "geomean_ratio_to_cublas IS NULL, geomean_ratio_to_cublas DESC, geomean_ms, id";

// SQLite's verdict on a file that is not a database, or one whose pages contradict each other.
bool is_damage(int sqlite_code) {
    const int primary = sqlite_code & 0xff;
    return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT;
}

// DamagedHistory when SQLite's last error says the file is damaged, else HistoryError.
[[noreturn]] void fail(const std::string &path, const std::string &what, sqlite3 *db) {
    const std::string message = "history " + path + ": " + what + (db ? std::string(": ") + sqlite3_errmsg(db) : "");
    if (db && is_damage(sqlite3_extended_errcode(db))) throw DamagedHistory(message);
    throw HistoryError(message);
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

// BEGIN DEFERRED takes no lock until the first read, and only a read lock then: in WAL
// a reader neither waits for a writer nor makes one wait.
class ReadTransaction {
  public:
    ReadTransaction(sqlite3 *db, const std::string &path) : db_(db) {
        execute(db, path, "BEGIN DEFERRED", "cannot read it");
    }
    ReadTransaction(const ReadTransaction &) = delete;
    ReadTransaction &operator=(const ReadTransaction &) = delete;
    ~ReadTransaction() { sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr); }

  private:
    sqlite3 *db_;
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

long long pragma_number(sqlite3 *db, const std::string &path, const char *pragma) {
    Statement statement(db, path, std::string("PRAGMA ") + pragma);
    statement.step();
    return statement.integer(0);
}

// What a file holds, read without a write lock.
struct FileContents {
    long long application_id = 0, user_version = 0;
    std::vector<std::string> tables; // every table but SQLite's own, by name
    bool history_tables = false;     // attempts and cases with every column a history needs
};

FileContents read_contents(sqlite3 *db, const std::string &path) {
    FileContents found;
    found.application_id = pragma_number(db, path, "application_id");
    found.user_version = pragma_number(db, path, "user_version");
    Statement tables(db, path,
                     "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                     "ORDER BY name");
    while (tables.step()) found.tables.push_back(tables.text(0));
    found.history_tables = std::all_of(history_tables.begin(), history_tables.end(), [&](const auto &table) {
        std::set<std::string> columns;
        Statement info(db, path, "SELECT name FROM pragma_table_info(?1)");
        info.bind(1, table.first);
        while (info.step()) columns.insert(info.text(0));
        return std::all_of(table.second.begin(), table.second.end(),
                           [&](const std::string &column) { return columns.count(column) > 0; });
    });
    return found;
}

FileContents contents_of(sqlite3 *db, const std::string &path) {
    ReadTransaction transaction(db, path);
    return read_contents(db, path);
}

// A file with nothing in it yet, which this judge may make a history.
bool empty_file(const FileContents &found) {
    return found.tables.empty() && (found.application_id == 0 || found.application_id == history_application_id);
}

std::string describe(const FileContents &found) {
    std::string tables;
    for (const auto &name : found.tables) tables += (tables.empty() ? "" : ", ") + name;
    return "it holds the table(s) " + tables + " and application_id " + std::to_string(found.application_id);
}

// Whether the file starts as every SQLite database does (a missing or empty file is a new
// one). Looked at before SQLite opens it: SQLite, closing a connection to a file it could
// not read, deletes the -wal beside it, which belongs to the damaged file and is kept.
bool has_sqlite_header(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return true;
    static constexpr char magic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
    char header[sizeof magic] = {};
    in.read(header, sizeof header);
    return in.gcount() == 0 || (in.gcount() == sizeof header && std::memcmp(header, magic, sizeof magic) == 0);
}

History::Identity identity_of(const std::string &path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return {};
    return {static_cast<unsigned long long>(info.st_dev), static_cast<unsigned long long>(info.st_ino), true};
}

// "20250601T123456Z": a time that is also a file name everywhere.
std::string utc_stamp_for_file_name() {
    std::string stamp = utc_now_iso8601();
    stamp.erase(std::remove_if(stamp.begin(), stamp.end(), [](char c) { return c == '-' || c == ':'; }), stamp.end());
    return stamp;
}

// Held while a damaged history is set aside, so two judges that both found it damaged
// move it once and the second does not move the first's new history: an flock on the
// folder itself, which leaves no file behind.
class FolderLock {
  public:
    FolderLock(const fs::path &folder, const std::string &path)
        : fd_(::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
        if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0)
            throw HistoryError("history " + path +
                               ": cannot lock its folder to set the damaged file aside: " + std::strerror(errno));
    }
    FolderLock(const FolderLock &) = delete;
    FolderLock &operator=(const FolderLock &) = delete;
    ~FolderLock() {
        if (fd_ >= 0) ::close(fd_); // closing releases the flock
    }

  private:
    int fd_;
};

// Renames the file, and its -wal and -shm beside it (a WAL left behind would be replayed
// into the new history), to <path>.damaged-<UTC time>[-N]; returns the new name.
std::string set_aside(const std::string &path) {
    const std::string stem = path + ".damaged-" + utc_stamp_for_file_name();
    std::string aside = stem;
    std::error_code ec;
    for (int n = 2; fs::exists(aside, ec) || fs::exists(aside + "-wal", ec); ++n)
        aside = stem + "-" + std::to_string(n);
    if (::rename(path.c_str(), aside.c_str()) != 0)
        throw HistoryError("history " + path + ": is damaged and cannot be moved aside to " + aside + ": " +
                           std::strerror(errno));
    for (const char *suffix : {"-wal", "-shm"})
        if (fs::exists(path + suffix, ec)) ::rename((path + suffix).c_str(), (aside + suffix).c_str());
    return aside;
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
    a.cublas_cases = static_cast<int>(row.integer(15));
    a.problem = row.text(16);
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

std::string recorded_solution_path(const std::string &solution) {
    std::error_code ec;
    const std::filesystem::path file = std::filesystem::weakly_canonical(std::filesystem::absolute(solution), ec);
    return ec ? std::filesystem::absolute(solution).lexically_normal().string() : file.string();
}

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

History History::open(const std::string &path, HistoryPlace place) {
    if (path.empty()) throw HistoryError("history: no file named");
    create_folders(fs::path(path).parent_path(), path);
    History history(path, place);
    try {
        history.connect();
    } catch (const DamagedHistory &damage) {
        history.start_over(damage.what());
    }
    return history;
}

void History::connect() {
    identity_ = identity_of(path_);
    if (!has_sqlite_header(path_))
        throw DamagedHistory("history " + path_ + ": file is not a database (its first bytes are not SQLite's header)");
    const int rc = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) fail(path_, "cannot open it", db_); // SQLite gives a handle even then; ~History closes it
    sqlite3_busy_timeout(db_, busy_timeout_ms);

    // Looked at before anything is changed: another program's database is left as it is.
    FileContents found = contents_of(db_, path_);
    const bool marked = found.application_id == history_application_id;
    const bool history = found.history_tables && (marked || found.application_id == 0) && found.user_version >= 1;
    if (marked && found.user_version > schema_version)
        throw HistoryError("history " + path_ + ": written by a newer judge (schema " +
                           std::to_string(found.user_version) + ", this judge knows " + std::to_string(schema_version) +
                           ")");
    if (!history && !empty_file(found)) {
        if (marked) throw DamagedHistory("history " + path_ + ": its tables are not a history's: " + describe(found));
        if (place_ == HistoryPlace::default_place)
            throw DamagedHistory("history " + path_ + ": not a gemm-judge history: " + describe(found));
        throw ForeignDatabase("history " + path_ +
                              ": an SQLite database of something else, not a gemm-judge history (" + describe(found) +
                              "); it was left as it is: name another file with --history");
    }

    use_write_ahead_log(db_, path_);
    // A commit is on disk when record() returns, so not even a power cut loses an attempt
    // the judge reported.
    execute(db_, path_, "PRAGMA synchronous = FULL", "cannot read it as an SQLite database");
    if (history) {
        marked_ = marked;
        if (found.user_version < schema_version) upgrade();
        return;
    }
    // A new or empty file: its tables are created under the write lock, unless another
    // judge was first.
    WriteTransaction transaction(db_, path_);
    if (empty_file(read_contents(db_, path_))) execute(db_, path_, schema().c_str(), "cannot create its tables");
    transaction.commit();
    marked_ = true;
    identity_ = identity_of(path_);
}

// Schema 1 → 2: every attempt gets its problem, the seed's for those recorded before. Done
// once, by the first judge of schema 2 that opens the file, under the write lock; a judge
// of schema 1 then refuses the file as a newer judge's.
void History::upgrade() {
    WriteTransaction transaction(db_, path_);
    if (read_contents(db_, path_).user_version < 2) {
        bool has_problem = false;
        {
            Statement info(db_, path_, "SELECT 1 FROM pragma_table_info('attempts') WHERE name = 'problem'");
            has_problem = info.step();
        } // finalized before the table is altered
        const std::string add_problem =
            "ALTER TABLE attempts ADD COLUMN problem TEXT NOT NULL DEFAULT '" + problem_before_schema_2() + "'";
        if (!has_problem)
            execute(db_, path_, add_problem.c_str(), "cannot add the attempts' problem (a history of an older judge)");
        execute(db_, path_, "PRAGMA user_version = 2", "cannot mark it as schema 2");
    }
    transaction.commit();
}

void History::start_over(const std::string &why) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    const Identity damaged = identity_;
    const std::string prefix = "history " + path_ + ": ";
    const std::string found = why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why;
    {
        FolderLock lock(fs::path(path_).parent_path(), path_);
        // Another judge may have found the same damage first and already replaced the file.
        if (identity_of(path_) == damaged && damaged.exists) {
            const std::string aside = set_aside(path_);
            recovery_note_ = wrap_to_width("judge: history " + path_ + " could not be read (" + found +
                                               "); it was kept as " + aside + " and a new history was started",
                                           console_width, 2);
        }
    }
    try {
        connect();
    } catch (const DamagedHistory &again) {
        throw HistoryError(std::string(again.what()) + " (a new history was started, and is damaged too)");
    }
}

History::History(History &&other) noexcept
    : path_(std::move(other.path_)), place_(other.place_), db_(other.db_), identity_(other.identity_),
      marked_(other.marked_), recovery_note_(std::move(other.recovery_note_)) {
    other.db_ = nullptr;
}

History &History::operator=(History &&other) noexcept {
    if (this != &other) {
        sqlite3_close_v2(db_);
        path_ = std::move(other.path_);
        place_ = other.place_;
        db_ = other.db_;
        identity_ = other.identity_;
        marked_ = other.marked_;
        recovery_note_ = std::move(other.recovery_note_);
        other.db_ = nullptr;
    }
    return *this;
}

History::~History() { sqlite3_close_v2(db_); }

long long History::record(const Attempt &a) {
    try {
        return insert(a);
    } catch (const DamagedHistory &damage) {
        start_over(damage.what());
        return insert(a);
    }
}

long long History::insert(const Attempt &a) {
    WriteTransaction transaction(db_, path_);
    if (!marked_) execute(db_, path_, "PRAGMA application_id = 1195724109", "cannot mark it as a history");
    Statement attempt(db_, path_,
                      "INSERT INTO attempts (time_utc, mode, solution_name, solution_path, solution_hash, gpu_name, "
                      "driver_version, sm_clock_mhz, judge_version, worst_verdict, geomean_ms, "
                      "geomean_ratio_to_cublas, percent_of_peak, noise_floor, report_json, problem) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
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
        .bind(15, a.report_json)
        .bind(16, a.problem.empty() ? problem_before_schema_2() : a.problem);
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
    marked_ = true;
    return id;
}

std::vector<Attempt> History::attempts(const AttemptFilter &filter) const {
    Statement query(db_, path_,
                    std::string("SELECT ") + summary_columns +
                        " FROM attempts WHERE (?1 IS NULL OR solution_name = ?1 OR solution_path = ?1 OR "
                        "solution_hash = ?1) AND (?2 IS NULL OR gpu_name = ?2) AND (?3 IS NULL OR mode = ?3) "
                        "AND (?4 IS NULL OR problem = ?4) ORDER BY time_utc, id");
    query.bind(1, filter.solution).bind(2, filter.gpu).bind(3, filter.mode).bind(4, filter.problem);
    std::vector<Attempt> found;
    while (query.step()) found.push_back(read_summary(query));
    return found;
}

std::optional<Attempt> History::attempt(long long id) const {
    Statement query(db_, path_, std::string("SELECT ") + summary_columns + ", report_json FROM attempts WHERE id = ?1");
    query.bind(1, id);
    if (!query.step()) return std::nullopt;
    Attempt a = read_summary(query);
    a.report_json = query.text(17);

    Statement cases(db_, path_,
                    "SELECT name, verdict, median_ms, relative_spread, cublas_median_ms, samples_ms FROM cases "
                    "WHERE attempt_id = ?1 ORDER BY position");
    cases.bind(1, id);
    while (cases.step())
        a.cases.push_back({cases.text(0), cases.text(1), cases.real(2), cases.real(3), cases.real(4),
                           parse_samples(cases.text(5), path_)});
    return a;
}

std::optional<Attempt> History::best(const std::string &solution, const std::string &gpu, const std::string &mode,
                                     const std::string &problem) const {
    Statement query(db_, path_,
                    std::string("SELECT id FROM attempts WHERE (solution_name = ?1 OR solution_path = ?1 OR "
                                "solution_hash = ?1) AND ") +
                        ranked_attempts + " ORDER BY " + best_first + " LIMIT 1");
    query.bind(1, solution).bind(2, gpu).bind(3, mode).bind(4, problem);
    if (!query.step()) return std::nullopt;
    return attempt(query.integer(0));
}

std::vector<Attempt> History::leaderboard(const std::string &gpu, const std::string &problem,
                                          const std::string &mode) const {
    Statement query(db_, path_,
                    std::string("SELECT ") + summary_columns + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY " +
                        "solution_path ORDER BY " + best_first + ") AS place FROM attempts WHERE " + ranked_attempts +
                        ") WHERE place = 1 ORDER BY " + best_first);
    query.bind(2, gpu).bind(3, mode).bind(4, problem);
    std::vector<Attempt> board;
    while (query.step()) board.push_back(read_summary(query));
    return board;
}

std::vector<History::Board> History::boards() const {
    Statement query(db_, path_, "SELECT DISTINCT gpu_name, problem FROM attempts ORDER BY gpu_name, problem");
    std::vector<Board> found;
    while (query.step()) found.push_back({query.text(0), query.text(1)});
    return found;
}

} // namespace gemm
