// A shared library opened on first use and its entry points looked up by name (dlopen,
// dlsym), for cuBLAS and cuBLASLt alike: a missing file or symbol is a std::runtime_error
// that names the library, the file and what the loader said.
#pragma once

#include <dlfcn.h>
#include <stdexcept>
#include <string>

namespace gemm {

class LibrarySymbols {
  public:
    // `name` for messages ("cuBLAS"), `file` an absolute path or a soname.
    LibrarySymbols(const char *name, const char *file) : name_(name), file_(file) {
        library_ = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (!library_) {
            const char *why = dlerror();
            throw std::runtime_error(std::string("cannot open ") + name + ": " + (why ? why : file));
        }
    }
    template <typename Function> void look_up(const char *symbol, Function &into) const {
        into = reinterpret_cast<Function>(dlsym(library_, symbol));
        if (!into) throw std::runtime_error(std::string(name_) + " (" + file_ + ") has no " + symbol);
    }

  private:
    const char *name_, *file_;
    void *library_ = nullptr; // never closed: the entry points live as long as the process
};

} // namespace gemm
