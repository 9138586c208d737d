#include "channel/doorbell.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace gemm {

namespace {
constexpr std::size_t page_bytes = 4096;
} // namespace

Doorbell::~Doorbell() {
    if (page_) munmap(page_, page_bytes);
    if (fd_ >= 0) close(fd_);
}

// Sealed at one page: a runner that truncated it would take the page from under the
// referee (SIGBUS at its next look at "done").
bool Doorbell::create() {
    const int fd = memfd_create("gemm-doorbell", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return false;
    if (ftruncate(fd, page_bytes) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
        !map(fd)) {
        close(fd);
        return false;
    }
    fd_ = fd;
    return true;
}

int Doorbell::share() const { return fd_ >= 0 ? dup(fd_) : -1; }

bool Doorbell::attach(int fd) {
    const bool mapped = map(fd);
    close(fd);
    return mapped;
}

bool Doorbell::map(int fd) {
    void *page = mmap(nullptr, page_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (page == MAP_FAILED) return false;
    if (page_) munmap(page_, page_bytes);
    page_ = static_cast<Page *>(page); // zero-filled by the kernel: both counters 0, no call
    return true;
}

} // namespace gemm
