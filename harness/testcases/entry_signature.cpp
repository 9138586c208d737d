#include "testcases/entry_signature.hpp"

#include <algorithm>
#include <regex>

namespace gemm {

namespace {

// Comments become spaces; string and character literals are kept as they are (a `//` in
// `extern "C"` cannot occur, and a literal holding a signature is not a definition).
std::string without_comments(const std::string &source) {
    std::string out;
    out.reserve(source.size());
    for (std::size_t i = 0; i < source.size(); ++i) {
        if (source.compare(i, 2, "//") == 0) {
            while (i < source.size() && source[i] != '\n') ++i;
            out += '\n';
        } else if (source.compare(i, 2, "/*") == 0) {
            const auto end = source.find("*/", i + 2);
            i = end == std::string::npos ? source.size() : end + 1;
            out += ' ';
        } else {
            out += source[i];
        }
    }
    return out;
}

std::vector<std::string> split_parameters(const std::string &list) {
    std::vector<std::string> parts;
    std::string current;
    for (char c : list) {
        if (c == ',') {
            parts.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (current.find_first_not_of(" \t\r\n") != std::string::npos || !parts.empty()) parts.push_back(current);
    return parts;
}

} // namespace

std::string normalised_type(const std::string &parameter) {
    // Words and stars, in order; the last word is the parameter's name when more than the
    // type is written ("const float *A", "size_t n"), and `__restrict__` says nothing of it.
    static const std::regex token(R"([A-Za-z_][A-Za-z_0-9:]*|\*)");
    std::vector<std::string> tokens;
    for (auto it = std::sregex_iterator(parameter.begin(), parameter.end(), token); it != std::sregex_iterator(); ++it)
        if (it->str() != "__restrict__" && it->str() != "__restrict" && it->str() != "restrict")
            tokens.push_back(it->str());
    const auto words = std::count_if(tokens.begin(), tokens.end(), [](const std::string &t) { return t != "*"; });
    const bool has_const = std::find(tokens.begin(), tokens.end(), "const") != tokens.end();
    if (!tokens.empty() && tokens.back() != "*" && words > (has_const ? 2 : 1)) tokens.pop_back();
    std::string type;
    for (auto t : tokens) {
        if (t == "std::size_t") t = "size_t";
        if (t == "__half") t = "half";
        if (t == "nv_bfloat16") t = "__nv_bfloat16"; // cuda_bf16.h's two names of one type
        if (t == "*")
            type += " *";
        else
            type += (type.empty() ? "" : " ") + t;
    }
    // A scalar's const says nothing of the call ("const float scale" is a float).
    if (type.find('*') == std::string::npos && type.rfind("const ", 0) == 0) type.erase(0, 6);
    // "const float * const" keeps its first const only: what the callee may not write.
    if (type.size() > 8 && type.compare(type.size() - 8, 8, " * const") == 0) type.erase(type.size() - 6);
    return type;
}

std::vector<EntrySignature> extern_c_functions(const std::string &source) {
    static const std::regex definition(
        R"re(extern\s*"C"\s*(?:__host__\s+)?void\s+([A-Za-z_][A-Za-z_0-9]*)\s*\(([^()]*)\)\s*\{)re");
    const std::string text = without_comments(source);
    std::vector<EntrySignature> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), definition); it != std::sregex_iterator(); ++it) {
        EntrySignature signature{(*it)[1].str(), {}};
        for (const auto &parameter : split_parameters((*it)[2].str())) {
            const std::string type = normalised_type(parameter);
            if (type != "void") signature.types.push_back(type);
        }
        found.push_back(signature);
    }
    return found;
}

bool answers(const std::vector<EntrySignature> &functions, const ProblemDescriptor &problem) {
    std::vector<std::string> types;
    for (const auto &parameter : problem.parameters) types.push_back(parameter.type);
    return std::any_of(functions.begin(), functions.end(),
                       [&](const EntrySignature &f) { return f.name == problem.entry && f.types == types; });
}

} // namespace gemm
