#include "compile/compile_cache.hpp"
#include "common/errors.hpp"
#include "common/text.hpp"
#include "compile/content_hash.hpp"
#include "judging/os/interrupt.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sys/stat.h>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// Bumped when the layout or what a key covers changes, so old entries are never taken.
constexpr const char *cache_format = "gemm-judge compile cache 2";

// Files of the cache's own: "<stem>-<32 hex>.so|.json", their ".part<pid>" scratch files, and
// the "<stem>-<16 hex>.so" of earlier versions. A --cache-dir may hold other files; clean
// and eviction touch only these.
bool is_cache_file(const std::string &name) {
    static const std::regex pattern(R"(.+-([0-9a-f]{32}(\.so|\.json|\.part[0-9]+.*)|[0-9a-f]{16}\.so))");
    return std::regex_match(name, pattern);
}

// The judge loads what it finds: only a regular file of this user's that no one else may
// write qualifies. nullopt when it does; why not otherwise.
std::optional<std::string> why_not_trusted(const fs::path &path) {
    struct stat s {};
    if (lstat(path.c_str(), &s) != 0) return std::string(std::strerror(errno));
    if (!S_ISREG(s.st_mode)) return std::string("not a regular file");
    if (s.st_uid != geteuid()) return "owned by user " + std::to_string(s.st_uid);
    if ((s.st_mode & (S_IWGRP | S_IWOTH)) != 0) return std::string("writable by other users");
    return std::nullopt;
}

std::string unusable_folder(const std::string &folder, const std::string &why) {
    return "the compile cache folder " + folder + " " + why +
           "; give another with --cache-dir DIR (or set XDG_CACHE_HOME)";
}

void make_private_folder(const std::string &folder) {
    std::error_code ec;
    fs::create_directories(fs::path(folder).parent_path(), ec); // the parents with the usual permissions
    if (mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        throw SetupError(unusable_folder(folder, std::string("cannot be created: ") + std::strerror(errno)));
    struct stat s {};
    if (stat(folder.c_str(), &s) != 0 || !S_ISDIR(s.st_mode))
        throw SetupError(unusable_folder(folder, "is not a folder"));
    if (s.st_uid != geteuid())
        throw SetupError(unusable_folder(folder, "belongs to user " + std::to_string(s.st_uid) +
                                                     "; the judge runs the libraries it finds there, so it "
                                                     "uses only a folder of your own"));
    if ((s.st_mode & (S_IWGRP | S_IWOTH)) != 0)
        throw SetupError(unusable_folder(folder, "is writable by other users, who could plant code the judge runs "
                                                 "(`chmod go-w` it)"));
    if (access(folder.c_str(), W_OK | X_OK) != 0)
        throw SetupError(unusable_folder(folder, std::string("is not writable: ") + std::strerror(errno)));
}

struct CacheFile {
    fs::path path;
    std::uintmax_t bytes;
    fs::file_time_type last_used;
};

std::vector<CacheFile> cache_files(const std::string &folder) {
    std::vector<CacheFile> files;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(folder, ec)) {
        if (!is_cache_file(entry.path().filename().string())) continue;
        std::error_code size_ec, time_ec;
        const auto bytes = entry.file_size(size_ec);
        const auto time = entry.last_write_time(time_ec);
        if (!size_ec && !time_ec) files.push_back({entry.path(), bytes, time});
    }
    return files;
}

void touch(const fs::path &path) {
    std::error_code ec;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
}

// Writes `path` whole or not at all: on failure (a full disk) nothing of it is left.
void write_private_file(const fs::path &path, const std::string &text) {
    errno = 0;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        const std::string why = errno != 0 ? std::strerror(errno) : "write failed";
        std::error_code ec;
        fs::remove(path, ec);
        throw SetupError("cannot write " + path.string() + " in the compile cache: " + why +
                         "; free some space there, or give another folder with --cache-dir");
    }
    chmod(path.c_str(), 0600);
}

} // namespace

std::string default_cache_dir() {
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/') return std::string(xdg) + "/gemm-judge";
    if (const char *home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gemm-judge";
    std::error_code ec;
    const fs::path temp = fs::temp_directory_path(ec);
    return ((ec ? fs::path("/tmp") : temp) / ("gemm-judge-" + std::to_string(geteuid()))).string();
}

std::string cache_entry_name(const std::string &source_path, const std::vector<std::string> &nvcc_arguments,
                             const std::string &nvcc_version) {
    std::vector<std::string> fields = {cache_format, nvcc_version};
    fields.insert(fields.end(), nvcc_arguments.begin(), nvcc_arguments.end());
    return fs::path(source_path).stem().string() + "-" + hash_of_fields(fields);
}

CompileCache::CompileCache(std::string folder) : folder_(std::move(folder)) { make_private_folder(folder_); }

std::optional<std::string> CompileCache::find(const std::string &entry, bool &damaged) const {
    damaged = false;
    const fs::path manifest_path = fs::path(folder_) / (entry + ".json");
    if (why_not_trusted(manifest_path)) return std::nullopt;
    nlohmann::json manifest;
    try {
        manifest = nlohmann::json::parse(read_text_file(manifest_path).value_or(""));
        for (const auto &input : manifest.at("inputs"))
            if (hash_of_file(input.at("path").get<std::string>()) != input.at("hash").get<std::string>())
                return std::nullopt;
    } catch (const nlohmann::json::exception &) {
        return std::nullopt;
    }
    const std::string name = manifest.value("library", "");
    if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
    const fs::path library = fs::path(folder_) / name;
    if (why_not_trusted(library)) return std::nullopt;
    if (hash_of_file(library) != manifest.value("library_hash", "")) {
        damaged = true;
        std::error_code ec;
        fs::remove(library, ec);
        return std::nullopt;
    }
    touch(library);
    touch(manifest_path);
    return library.string();
}

std::string CompileCache::scratch_path(const std::string &entry, const std::string &suffix) const {
    return (fs::path(folder_) / (entry + ".part" + std::to_string(getpid()) + suffix)).string();
}

std::string CompileCache::store(const std::string &entry, const std::string &built_library,
                                const std::vector<std::string> &inputs, fs::file_time_type compile_started) {
    nlohmann::json recorded = nlohmann::json::array();
    std::vector<std::string> fields = {entry};
    bool complete = !inputs.empty();
    for (const auto &input : inputs) {
        const std::string path = fs::absolute(input).lexically_normal().string();
        const auto hash = hash_of_file(path);
        std::error_code time_ec;
        const auto modified = fs::last_write_time(path, time_ec);
        if (!hash || time_ec || modified >= compile_started) complete = false;
        recorded.push_back({{"path", path}, {"hash", hash.value_or("")}});
        fields.insert(fields.end(), {path, hash.value_or("")});
    }
    chmod(built_library.c_str(), 0700);
    const auto library_hash = hash_of_file(built_library);
    // The library's name says its own bytes too: two judges that build one source at once
    // (nvcc's output need not be byte for byte the same) each store a file of their own, so
    // that one's manifest never names the other's bytes, which find() would take for damage.
    if (library_hash) fields.push_back(*library_hash);
    const std::string stem = entry.substr(0, entry.size() - 33); // "<stem>-<32 hex>"
    const fs::path library = fs::path(folder_) / (stem + "-" + hash_of_fields(fields) + ".so");
    std::error_code ec;
    fs::rename(built_library, library, ec); // atomic: a concurrent judge never loads half a library
    if (ec) throw SetupError("cannot move the compiled library into " + folder_ + ": " + ec.message());
    if (complete && library_hash) {
        const nlohmann::json manifest = {{"format", cache_format},
                                         {"library", library.filename().string()},
                                         {"library_hash", *library_hash},
                                         {"inputs", recorded}};
        const std::string part = scratch_path(entry, ".json");
        const PartialFileGuard remove_part_on_interrupt(part);
        write_private_file(part, manifest.dump(1));
        fs::rename(part, fs::path(folder_) / (entry + ".json"), ec); // atomic, as the library's
        if (ec) {
            std::error_code ignored;
            fs::remove(part, ignored);
            throw SetupError("cannot write a manifest into " + folder_ + ": " + ec.message());
        }
    }
    evict_least_recently_used();
    return library.string();
}

CacheUsage CompileCache::usage() const {
    CacheUsage u;
    for (const auto &f : cache_files(folder_)) {
        u.bytes += f.bytes;
        u.libraries += f.path.extension() == ".so";
    }
    return u;
}

CacheUsage CompileCache::clean() {
    const CacheUsage before = usage();
    std::error_code ec;
    for (const auto &f : cache_files(folder_)) fs::remove(f.path, ec);
    return before;
}

void CompileCache::evict_least_recently_used() {
    auto files = cache_files(folder_);
    std::uintmax_t total = 0;
    for (const auto &f : files) total += f.bytes;
    if (total <= max_bytes) return;
    std::sort(files.begin(), files.end(),
              [](const CacheFile &a, const CacheFile &b) { return a.last_used < b.last_used; });
    std::error_code ec;
    for (const auto &f : files) {
        if (total <= max_bytes) break;
        if (f.path.filename().string().find(".part") != std::string::npos) continue; // another judge's, in flight
        fs::remove(f.path, ec);
        total -= f.bytes;
    }
}

} // namespace gemm
