#include "batch/result_store.hpp"
#include "common/errors.hpp"
#include "compile/content_hash.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace gemm::batch {

namespace fs = std::filesystem;

namespace {

constexpr const char *row_extension = ".row.json";

std::optional<BatchRow> read_row(const fs::path &path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    try {
        return nlohmann::json::parse(in).get<BatchRow>();
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

} // namespace

std::optional<std::string> submission_key(const std::string &submission,
                                          const std::vector<std::string> &judge_arguments) {
    const auto source = hash_of_file(submission);
    if (!source) return std::nullopt;
    // The folder's settings change how it compiles (its include folders).
    const auto settings = fs::path(submission).parent_path() / "gemm-judge.conf";
    std::vector<std::string> fields{"gemm-judge batch row 1", *source, hash_of_file(settings.string()).value_or("")};
    fields.insert(fields.end(), judge_arguments.begin(), judge_arguments.end());
    return hash_of_fields(fields);
}

ResultStore::ResultStore(std::string folder) : folder_(std::move(folder)) {
    std::error_code ec;
    fs::create_directories(folder_, ec);
    if (!fs::is_directory(folder_) || access(folder_.c_str(), W_OK | X_OK) != 0)
        throw SetupError("the results folder " + folder_ + " cannot be made or written: " +
                         (ec ? ec.message() : std::string(std::strerror(errno))) + " (--results names another)");
}

std::string ResultStore::path_for(const std::string &submission, const std::string &key,
                                  const std::string &extension) const {
    return (fs::path(folder_) / (fs::path(submission).stem().string() + "-" + key.substr(0, 16) + extension)).string();
}

std::optional<BatchRow> ResultStore::settled_row(const std::string &submission, const std::string &key) const {
    auto row = read_row(path_for(submission, key, row_extension));
    if (!row || row->key != key || !row->settled()) return std::nullopt;
    return row;
}

void ResultStore::save(const BatchRow &row) const {
    const std::string path = path_for(row.submission, row.key, row_extension), part = path + ".part";
    {
        std::ofstream out(part, std::ios::trunc);
        out << nlohmann::json(row).dump(2) << "\n";
        if (!out) throw SetupError("cannot write " + part + ": " + std::strerror(errno));
    }
    std::error_code ec;
    fs::rename(part, path, ec);
    if (ec) throw SetupError("cannot write " + path + ": " + ec.message());
}

std::vector<BatchRow> rows_in(const std::string &folder, std::vector<std::string> &problems) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > std::strlen(row_extension) &&
            name.compare(name.size() - std::strlen(row_extension), std::string::npos, row_extension) == 0)
            files.push_back(entry.path());
    }
    if (ec) problems.push_back(folder + ": " + ec.message());
    std::sort(files.begin(), files.end());
    std::vector<BatchRow> rows;
    for (const auto &file : files) {
        if (auto row = read_row(file))
            rows.push_back(*row);
        else
            problems.push_back(file.string() + ": not a batch row");
    }
    return rows;
}

} // namespace gemm::batch
