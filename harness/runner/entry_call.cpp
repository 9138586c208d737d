#include "runner/entry_call.hpp"

#include <cstdint>
#include <stdexcept>

namespace gemm {

EntryCall::EntryCall(void *function, EntryPlan plan)
    : function_(function), plan_(std::move(plan)), pointers_(plan_.arguments.size()), ints_(plan_.arguments.size()),
      sizes_(plan_.arguments.size()), values_(plan_.arguments.size()) {
    for (std::size_t i = 0; i < plan_.arguments.size(); ++i) {
        const auto &argument = plan_.arguments[i];
        const bool dim = argument.source == EntryArgument::Source::Dim;
        const bool size_t_dim = dim && argument.type == ParameterType::SizeT;
        types_.push_back(!dim ? &ffi_type_pointer : size_t_dim ? &ffi_type_uint64 : &ffi_type_sint32);
        values_[i] = !dim         ? static_cast<void *>(&pointers_[i])
                     : size_t_dim ? static_cast<void *>(&sizes_[i])
                                  : &ints_[i];
    }
    if (ffi_prep_cif(&cif_, FFI_DEFAULT_ABI, static_cast<unsigned>(types_.size()), &ffi_type_void, types_.data()) !=
        FFI_OK)
        throw std::invalid_argument("libffi cannot describe the call of " + plan_.symbol);
}

std::string EntryCall::operator()(const float *A, const float *B, float *C, const std::vector<long long> &dims) {
    for (std::size_t i = 0; i < plan_.arguments.size(); ++i) {
        const auto &argument = plan_.arguments[i];
        switch (argument.source) {
        case EntryArgument::Source::A: pointers_[i] = A; break;
        case EntryArgument::Source::B: pointers_[i] = B; break;
        case EntryArgument::Source::C: pointers_[i] = C; break;
        case EntryArgument::Source::Dim:
            if (static_cast<std::size_t>(argument.dim) >= dims.size())
                return "the call has no dim " + std::to_string(argument.dim);
            ints_[i] = static_cast<std::int32_t>(dims[argument.dim]);
            sizes_[i] = static_cast<std::uint64_t>(dims[argument.dim]);
            break;
        }
    }
    ffi_call(&cif_, reinterpret_cast<void (*)()>(function_), nullptr, values_.data());
    return "";
}

} // namespace gemm
