#include "judging/os/lock_file.hpp"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <vector>

namespace gemm {

int open_shared_lock_file(const std::string &path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT) fd = open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    return fd;
}

std::optional<pid_t> flock_holder(int fd) {
    struct stat st {};
    if (fstat(fd, &st) != 0) return std::nullopt;
    // /proc/locks names a file as MAJOR:MINOR:INODE, the device numbers in hex:
    //   "3: FLOCK  ADVISORY  WRITE 4242 00:2e:1310723 0 EOF"; a waiter's line has "->" after the number.
    char file[64];
    std::snprintf(file, sizeof file, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                  static_cast<unsigned long long>(st.st_ino));
    std::ifstream locks("/proc/locks");
    std::string line;
    while (std::getline(locks, line)) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string word; words >> word;) w.push_back(word);
        if (w.size() < 6 || w[1] != "FLOCK" || w[5] != file) continue; // a waiter's w[1] is "->"
        try {
            const long pid = std::stol(w[4]);
            if (pid > 0) return static_cast<pid_t>(pid);
        } catch (const std::exception &) {
        }
    }
    return std::nullopt;
}

} // namespace gemm
