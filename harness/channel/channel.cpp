#include "channel/channel.hpp"

#include <cerrno>
#include <unistd.h>

namespace gemm {

std::optional<nlohmann::json> RefereeChannel::receive() {
    for (;;) {
        if (auto newline = pending_.find('\n'); newline != std::string::npos) {
            auto line = pending_.substr(0, newline);
            pending_.erase(0, newline + 1);
            return nlohmann::json::parse(line);
        }
        char buffer[65536];
        const ssize_t n = read(in_fd_, buffer, sizeof buffer);
        if (n > 0)
            pending_.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            return std::nullopt;
    }
}

void RefereeChannel::send(nlohmann::json message) {
    message["nonce"] = nonce_;
    const std::string line = message.dump() + "\n";
    std::size_t written = 0;
    while (written < line.size()) {
        const ssize_t n = write(out_fd_, line.data() + written, line.size() - written);
        if (n > 0)
            written += static_cast<std::size_t>(n);
        else if (errno != EINTR)
            return; // the supervisor is gone; it will not read anything anyway
    }
}

} // namespace gemm
