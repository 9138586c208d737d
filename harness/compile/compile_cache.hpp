// The compile cache: compiled solutions kept between runs in a folder only their user can
// write, since the judge runs whatever library it finds there. An entry is found by the
// nvcc command, nvcc's version and the content of every file nvcc read (the .cu and each
// header it includes, from nvcc's -MD output), and is used only while its library's bytes
// are the ones stored.
//
// Layout: <stem>-<command hash>.json, the manifest (each input with its hash, the library
// and its hash), and <stem>-<inputs hash>.so. At most max_bytes of libraries are kept; the
// least recently used go first.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// $XDG_CACHE_HOME/gemm-judge, else $HOME/.cache/gemm-judge, else /tmp/gemm-judge-<uid>
// (private to the user: a folder shared by all users would let one plant code another runs).
std::string default_cache_dir();

struct CacheUsage {
    int libraries = 0;
    std::uintmax_t bytes = 0; // every file of the cache's, manifests included
};

class CompileCache {
  public:
    static constexpr std::uintmax_t max_bytes = 512ull << 20;

    // Creates the folder (mode 0700) when missing. SetupError when it cannot be created or
    // written, belongs to someone else or others may write it.
    explicit CompileCache(std::string folder);

    const std::string &folder() const { return folder_; }

    // The library of the entry when every input is unchanged and its bytes are the stored
    // ones; nullopt otherwise. `damaged` is set when a library was there but changed
    // (truncated, overwritten): it is removed, to be rebuilt.
    std::optional<std::string> find(const std::string &entry, bool &damaged) const;

    // A path for a file written while building the entry, unique to this process.
    std::string scratch_path(const std::string &entry, const std::string &suffix) const;

    // Moves a freshly built library in and records its inputs; returns its path. An input
    // modified after `compile_started` may not be what nvcc read: then nothing is recorded
    // and the next run compiles again.
    std::string store(const std::string &entry, const std::string &built_library,
                      const std::vector<std::string> &inputs, std::filesystem::file_time_type compile_started);

    CacheUsage usage() const;
    // Removes every file of the cache's (and only those); returns what was there.
    CacheUsage clean();

  private:
    void evict_least_recently_used();
    std::string folder_;
};

// The entry of a compile: the source's file stem and a hash of the command and nvcc's version.
std::string cache_entry_name(const std::string &source_path, const std::vector<std::string> &nvcc_arguments,
                             const std::string &nvcc_version);

} // namespace gemm
