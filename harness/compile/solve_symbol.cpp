#include "compile/solve_symbol.hpp"
#include "common/nearest_name.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cstring>
#include <elf.h>

namespace gemm {

namespace {

// A copy of a T at `offset` of `bytes`, when the whole of it lies inside.
template <typename T> std::optional<T> read_at(const std::string &bytes, std::uint64_t offset) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

// The section header `index`, when the file holds it.
std::optional<Elf64_Shdr> section(const std::string &bytes, const Elf64_Ehdr &header, std::uint64_t index) {
    if (index >= header.e_shnum || header.e_shentsize != sizeof(Elf64_Shdr)) return std::nullopt;
    return read_at<Elf64_Shdr>(bytes, header.e_shoff + index * sizeof(Elf64_Shdr));
}

bool only_blank(const std::string &text) { return text.find_first_not_of(" \t\r\n\f\v") == std::string::npos; }

} // namespace

std::optional<std::vector<std::string>> exported_symbols(const std::string &library) {
    const auto bytes = read_text_file(library);
    if (!bytes) return std::nullopt;
    const auto header = read_at<Elf64_Ehdr>(*bytes, 0);
    if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64)
        return std::nullopt;
    for (std::uint64_t i = 0; i < header->e_shnum; ++i) {
        const auto symbols = section(*bytes, *header, i);
        if (!symbols) return std::nullopt;
        if (symbols->sh_type != SHT_DYNSYM) continue;
        const auto names = section(*bytes, *header, symbols->sh_link);
        if (!names || names->sh_offset > bytes->size() || bytes->size() - names->sh_offset < names->sh_size)
            return std::nullopt;
        const std::string_view table(bytes->data() + names->sh_offset, names->sh_size);
        std::vector<std::string> exported;
        for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= symbols->sh_size; at += sizeof(Elf64_Sym)) {
            const auto symbol = read_at<Elf64_Sym>(*bytes, symbols->sh_offset + at);
            if (!symbol) return std::nullopt;
            const int binding = ELF64_ST_BIND(symbol->st_info);
            if (symbol->st_shndx == SHN_UNDEF || (binding != STB_GLOBAL && binding != STB_WEAK)) continue;
            if (symbol->st_name >= table.size()) return std::nullopt;
            const std::string_view rest = table.substr(symbol->st_name);
            exported.emplace_back(rest.substr(0, rest.find('\0')));
        }
        return exported;
    }
    return std::vector<std::string>{};
}

std::string unmangled_base_name(const std::string &symbol) {
    // _Z <length> <name> <parameters>: a function at namespace scope, outside any namespace.
    if (symbol.rfind("_Z", 0) != 0) return symbol;
    std::size_t digits = 2;
    while (digits < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[digits]))) ++digits;
    if (digits == 2 || digits - 2 > 4) return symbol;
    const std::size_t length = std::stoul(symbol.substr(2, digits - 2));
    if (length == 0 || symbol.size() - digits < length) return symbol;
    return symbol.substr(digits, length);
}

std::optional<std::string> missing_solve(const std::string &source_path, const std::string &library,
                                         const std::string &entry, const std::string &declaration) {
    const auto symbols = exported_symbols(library);
    if (!symbols || std::find(symbols->begin(), symbols->end(), entry) != symbols->end()) return std::nullopt;
    const std::string declared = declaration.empty() ? solve_declaration : declaration;
    const std::string declare = "; declare it as\n" + declared;
    if (only_blank(read_text_file(source_path).value_or("x")))
        return source_path + " is empty: a solution defines\n" + declared;
    std::vector<std::string> names;
    for (const auto &symbol : *symbols) {
        const std::string name = unmangled_base_name(symbol);
        if (name == entry)
            return source_path + " defines " + entry + "() without extern \"C\" (so it is named " + symbol + ")" +
                   declare;
        names.push_back(name);
    }
    if (const auto near = nearest_name(entry, names))
        return source_path + " defines no " + entry + "(); did you mean " + *near + " → " + entry +
               "? A solution defines\n" + declared;
    return source_path + " defines no function named " + entry + declare;
}

} // namespace gemm
