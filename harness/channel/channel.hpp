// The referee's end of the private channel with the judge: JSON lines over two
// inherited pipes. Only trusted processes (the judge, the referee) hold these pipes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gemm {

class RefereeChannel {
  public:
    RefereeChannel(int in_fd, int out_fd) : in_fd_(in_fd), out_fd_(out_fd) {}
    // The next message, or nullopt when the supervisor closed the channel.
    std::optional<nlohmann::json> receive();
    // Every message carries the nonce of the request it answers: the supervisor drops
    // anything else, so a solution writing to descriptors it does not own cannot forge
    // a result without reading the worker's memory.
    void send(nlohmann::json message);
    void set_nonce(std::uint64_t nonce) { nonce_ = nonce; }

  private:
    int in_fd_, out_fd_;
    std::uint64_t nonce_ = 0;
    std::string pending_;
};

} // namespace gemm
