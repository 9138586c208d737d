#include "judging/os/runner_scratch.hpp"
#include "judging/os/interrupt.hpp"
#include "runner/confinement.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <vector>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// The tmpfs holds the library's copy and this much beside the limit, so that a solution
// that fills it has provably written more than the limit, and one that stays within it
// never meets ENOSPC.
constexpr std::uint64_t margin_bytes = std::uint64_t(1) << 20;
// Files (inodes) the folder may hold: each costs the kernel memory, even when empty.
constexpr std::uint64_t file_limit = 65536;

std::uint64_t allocated_bytes(const std::string &path) {
    struct stat st {};
    return lstat(path.c_str(), &st) == 0 ? std::uint64_t(st.st_blocks) * 512 : 0;
}

std::uint64_t round_up_to_page(std::uint64_t bytes) {
    const std::uint64_t page = 4096;
    return (bytes + page - 1) / page * page;
}

// A tmpfs's source is free text: each runner folder's names the judge that mounted it, by
// PID and start time (a PID alone could be another process's by now).
constexpr const char *mount_source_prefix = "gemm-judge-runner:";

// Field 22 of /proc/PID/stat, the process's start in clock ticks after boot; "" when gone.
std::string start_time_of(const std::string &pid) {
    std::ifstream stat("/proc/" + pid + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return "";
    const auto name_end = text.rfind(')'); // the command's name may hold spaces
    if (name_end == std::string::npos) return "";
    std::istringstream fields(text.substr(name_end + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i)
        if (i == 22) return field;
    return "";
}

std::string own_mount_source() {
    const std::string pid = std::to_string(getpid());
    return mount_source_prefix + pid + ":" + start_time_of(pid);
}

// /proc/self/mountinfo writes a space, a tab, a newline and a backslash as \ooo.
std::string unescaped_mount_path(const std::string &text) {
    std::string path;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\\' && i + 3 < text.size() &&
            std::all_of(text.begin() + i + 1, text.begin() + i + 4, [](char c) { return c >= '0' && c <= '7'; })) {
            path += static_cast<char>(std::stoi(text.substr(i + 1, 3), nullptr, 8));
            i += 3;
        } else {
            path += text[i];
        }
    return path;
}

} // namespace

int unmount_abandoned_runner_folders() {
    std::ifstream table("/proc/self/mountinfo");
    int unmounted = 0;
    for (std::string line; std::getline(table, line);) {
        // "ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS [TAGS…] - FSTYPE SOURCE SUPER-OPTIONS"
        std::istringstream words(line);
        std::vector<std::string> fields;
        for (std::string word; words >> word;) fields.push_back(word);
        const auto dash = std::find(fields.begin(), fields.end(), "-");
        if (fields.size() < 5 || dash == fields.end() || fields.end() - dash < 3) continue;
        const std::string &type = dash[1], &source = dash[2];
        if (type != "tmpfs" || source.rfind(mount_source_prefix, 0) != 0) continue;
        const std::string owner = source.substr(std::strlen(mount_source_prefix));
        const auto colon = owner.find(':');
        if (colon == std::string::npos) continue;
        if (start_time_of(owner.substr(0, colon)) == owner.substr(colon + 1)) continue; // its judge lives
        const std::string mount_point = unescaped_mount_path(fields[4]);
        if (fs::path(mount_point).filename().string().rfind("gemm-judge-runner-", 0) != 0) continue;
        if (umount2(mount_point.c_str(), MNT_DETACH) != 0) continue;
        std::error_code ec;
        fs::remove_all(mount_point, ec);
        ++unmounted;
    }
    return unmounted;
}

std::string describe_bytes(std::uint64_t bytes) {
    for (const auto &[unit, name] : {std::pair{std::uint64_t(1) << 40, "TiB"},
                                     {std::uint64_t(1) << 30, "GiB"},
                                     {std::uint64_t(1) << 20, "MiB"},
                                     {std::uint64_t(1) << 10, "KiB"}}) {
        if (bytes < unit) continue;
        if (bytes % unit == 0) return std::to_string(bytes / unit) + " " + name;
        char text[32];
        std::snprintf(text, sizeof text, "%.3g %s", double(bytes) / double(unit), name);
        return text;
    }
    return std::to_string(bytes) + " bytes";
}

RunnerScratch::RunnerScratch(const std::string &library, std::uint64_t limit_bytes, bool may_mount)
    : limit_bytes_(limit_bytes) {
    std::string pattern = (fs::temp_directory_path() / "gemm-judge-runner-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a folder for the solution's process in " +
                                 fs::temp_directory_path().string());
    dir_ = pattern;
    remove_on_interrupt_ = std::make_unique<PartialFileGuard>(dir_, PartialFileGuard::Kind::folder);
    library_ = dir_ + "/solution.so";
    std::error_code ec;
    const std::uint64_t library_size = fs::file_size(library, ec);
    if (ec) throw std::runtime_error("cannot read the compiled solution " + library + ": " + ec.message());
    const bool root = geteuid() == 0;
    if (!may_mount) {
        uncapped_because_ = "not mounted";
    } else if (!root) {
        uncapped_because_ = "the judge is not root";
    } else {
        const std::string data =
            "size=" + std::to_string(limit_bytes_ + round_up_to_page(library_size) + margin_bytes) +
            ",nr_inodes=" + std::to_string(file_limit) + ",mode=0700,uid=" + std::to_string(sandbox::nobody_uid) +
            ",gid=" + std::to_string(sandbox::nogroup_gid);
        // A judge killed by SIGKILL cannot unmount its folder: the next one that mounts
        // unmounts every folder whose judge is gone (once per process).
        static const bool swept = (unmount_abandoned_runner_folders(), true);
        (void)swept;
        mounted_ = mount(own_mount_source().c_str(), dir_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, data.c_str()) == 0;
        if (!mounted_) uncapped_because_ = std::string("mounting a tmpfs failed: ") + std::strerror(errno);
    }
    fs::copy_file(library, library_, ec);
    if (ec) throw std::runtime_error("cannot copy the compiled solution to " + library_ + ": " + ec.message());
    fs::permissions(library_, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, ec);
    library_bytes_ = allocated_bytes(library_);
    if (root && (chown(dir_.c_str(), sandbox::nobody_uid, sandbox::nogroup_gid) != 0 ||
                 chown(library_.c_str(), sandbox::nobody_uid, sandbox::nogroup_gid) != 0))
        throw std::runtime_error("cannot give " + dir_ + " to the unprivileged user");
}

RunnerScratch::~RunnerScratch() {
    // Detached: the runner is gone, and the tmpfs's pages go with its last reference.
    if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

std::uint64_t RunnerScratch::solution_bytes() const {
    std::uint64_t used = 0;
    if (mounted_) {
        struct statfs fs_info {};
        if (statfs(dir_.c_str(), &fs_info) != 0) return 0;
        used = std::uint64_t(fs_info.f_blocks - fs_info.f_bfree) * std::uint64_t(fs_info.f_bsize);
    } else {
        std::error_code ec;
        for (fs::recursive_directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
            used += allocated_bytes(it->path().string());
            if (used > limit_bytes_ + library_bytes_) break; // past the limit: the rest changes nothing
        }
    }
    return used > library_bytes_ ? used - library_bytes_ : 0;
}

std::optional<std::string> RunnerScratch::overfilled() const {
    const std::string limit = describe_bytes(limit_bytes_) + " (--scratch-limit)";
    if (solution_bytes() > limit_bytes_)
        return "the solution's process wrote more than " + limit + " to its folder" +
               (mounted_ ? ": writes past the limit failed" : ": it was stopped");
    struct statfs fs_info {};
    if (mounted_ && statfs(dir_.c_str(), &fs_info) == 0 && fs_info.f_ffree == 0)
        return "the solution's process made more than " + std::to_string(file_limit) +
               " files in its folder (the limit of its tmpfs)";
    return std::nullopt;
}

std::optional<std::string> RunnerScratch::overfilled_every(std::chrono::milliseconds interval) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_look_ < interval) return std::nullopt;
    last_look_ = now;
    return overfilled();
}

} // namespace gemm
