// The judge's end of the private channel with the referee (channel.hpp is the referee's
// end, protocol.hpp what travels on it): JSON lines over two pipes that only trusted
// processes hold. Requests go out; events and results come in on a non-blocking end that
// the supervisor polls together with the children's outputs.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gemm {

class JudgeChannel {
  public:
    JudgeChannel() = default;
    ~JudgeChannel() { close(); }
    JudgeChannel(const JudgeChannel &) = delete;
    JudgeChannel &operator=(const JudgeChannel &) = delete;

    // Makes both pipes and keeps the judge's ends; `referee_in` and `referee_out` are the
    // referee's, for the caller to hand over and close. False (errno set) when they cannot be made.
    bool open(int &referee_in, int &referee_out);
    void close();
    int fd() const { return in_fd_; } // readable when the referee has said something

    // False when the referee is gone.
    bool send(const nlohmann::json &message);
    // Appends the complete lines that have arrived; false once the referee has closed its end.
    bool read_lines(std::vector<std::string> &lines);
    // Puts lines back, in order, before anything not yet read.
    void unread(const std::vector<std::string> &lines);

    // A line as a message: a JSON object, or nullopt.
    static std::optional<nlohmann::json> parse(const std::string &line);

  private:
    int out_fd_ = -1, in_fd_ = -1;
    std::string pending_;
};

} // namespace gemm
