// Whether a compiled solution defines the function the runner calls, read from the
// library's dynamic symbol table (nothing of the library runs in the judge), and, when it
// does not, a sentence in the solution's terms: the file is empty, solve() lacks extern "C"
// (its name is mangled), or the nearest name it defines instead ("solv").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gemm {

constexpr const char *solve_declaration =
    "extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)";

// The names an ELF shared library defines for others to call or read (its .dynsym, less
// what it only uses); none when the file is not a well-formed 64-bit ELF.
std::optional<std::vector<std::string>> exported_symbols(const std::string &library);

// "solve" for "_Z5solvePKfS0_Pfiii": the name of a free function in its C++ (Itanium
// ABI) mangled form; the name itself when it is not mangled, or not a free function's.
std::string unmangled_base_name(const std::string &symbol);

// Why `library`, compiled from `source_path`, has no solve() the runner can find, as the
// CE's message; none when it exports solve, or cannot be read (the runner then decides).
// `entry` is the problem's entry point, `declaration` how it is declared (solve_declaration
// where empty).
std::optional<std::string> missing_solve(const std::string &source_path, const std::string &library,
                                         const std::string &entry = "solve", const std::string &declaration = "");

} // namespace gemm
