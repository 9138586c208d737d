#include "compile/cache_command.hpp"
#include "common/terminal_text.hpp"
#include "compile/compile_cache.hpp"

#include <cstdio>
#include <iostream>

namespace gemm {

namespace {

std::string mebibytes(std::uintmax_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return text;
}

} // namespace

int run_cache_command(const std::string &action, const std::string &cache_dir) {
    CompileCache cache(cache_dir);
    if (action == "clean") {
        const CacheUsage removed = cache.clean();
        std::cout << escape_for_terminal(cache.folder()) << ": removed " << removed.libraries
                  << " compiled solution(s), " << mebibytes(removed.bytes) << "\n";
        return 0;
    }
    const CacheUsage usage = cache.usage();
    std::cout << escape_for_terminal(cache.folder()) << ": " << usage.libraries << " compiled solution(s), "
              << mebibytes(usage.bytes) << "\n  at most " << mebibytes(CompileCache::max_bytes)
              << " are kept; the least recently used go first\n";
    return 0;
}

} // namespace gemm
