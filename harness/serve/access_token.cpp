#include "serve/access_token.hpp"

#include <cerrno>
#include <stdexcept>
#include <sys/random.h>

namespace gemm::serve {

std::string new_access_token() {
    unsigned char bytes[32];
    std::size_t filled = 0;
    while (filled < sizeof bytes) {
        const ssize_t n = getrandom(bytes + filled, sizeof bytes - filled, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("the kernel gave no random bytes for the access token (getrandom)");
        filled += static_cast<std::size_t>(n);
    }
    static const char digits[] = "0123456789abcdef";
    std::string token;
    for (unsigned char byte : bytes) {
        token += digits[byte >> 4];
        token += digits[byte & 15];
    }
    return token;
}

bool is_token(const std::string &offered, const std::string &token) {
    unsigned char difference = offered.size() == token.size() ? 0 : 1;
    for (std::size_t i = 0; i < token.size(); ++i)
        difference |= static_cast<unsigned char>(token[i] ^ (i < offered.size() ? offered[i] : 0));
    return difference == 0;
}

} // namespace gemm::serve
