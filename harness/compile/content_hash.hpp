// Fingerprints for the compile cache: XXH3-128 (xxHash, Debian's libxxhash-dev, used
// header-only) as 32 hex digits. A fingerprint tells an edited header from the one a library
// was built from; it is no defence against a forger, which the cache folder being the
// user's own is (compile_cache.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// The hash of a list of fields; each is length-prefixed, so {"ab", "c"} and {"a", "bc"} differ.
std::string hash_of_fields(const std::vector<std::string> &fields);

// The hash of a file's bytes, read in blocks; nullopt when it cannot be read.
std::optional<std::string> hash_of_file(const std::string &path);

} // namespace gemm
