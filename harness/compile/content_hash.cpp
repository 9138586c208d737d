#include "compile/content_hash.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>

#define XXH_INLINE_ALL // header-only: the GPU machine gets the header, not the library
#include <xxhash.h>

namespace gemm {

namespace {

struct StateDeleter {
    void operator()(XXH3_state_t *state) const { XXH3_freeState(state); }
};
using State = std::unique_ptr<XXH3_state_t, StateDeleter>;

State fresh_state() {
    State state(XXH3_createState());
    if (!state || XXH3_128bits_reset(state.get()) != XXH_OK) throw std::bad_alloc();
    return state;
}

std::string hex_digest(const XXH3_state_t *state) {
    const XXH128_hash_t hash = XXH3_128bits_digest(state);
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                  static_cast<unsigned long long>(hash.low64));
    return text;
}

} // namespace

std::string hash_of_fields(const std::vector<std::string> &fields) {
    State state = fresh_state();
    for (const auto &field : fields) {
        const std::uint64_t length = field.size();
        XXH3_128bits_update(state.get(), &length, sizeof length);
        XXH3_128bits_update(state.get(), field.data(), field.size());
    }
    return hex_digest(state.get());
}

std::optional<std::string> hash_of_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    State state = fresh_state();
    char buffer[1 << 16];
    while (in) {
        in.read(buffer, sizeof buffer);
        XXH3_128bits_update(state.get(), buffer, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) return std::nullopt;
    return hex_digest(state.get());
}

} // namespace gemm
