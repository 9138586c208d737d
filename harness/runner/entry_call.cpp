#include "runner/entry_call.hpp"

#include <cstdint>
#include <stdexcept>

namespace gemm {

EntryCall::EntryCall(void *function, EntryPlan plan) : function_(function), plan_(std::move(plan)) {
    for (const auto &argument : plan_.arguments)
        types_.push_back(argument.source != EntryArgument::Source::Dim ? &ffi_type_pointer
                         : argument.type == ParameterType::SizeT       ? &ffi_type_uint64
                                                                       : &ffi_type_sint32);
    if (ffi_prep_cif(&cif_, FFI_DEFAULT_ABI, static_cast<unsigned>(types_.size()), &ffi_type_void, types_.data()) !=
        FFI_OK)
        throw std::invalid_argument("libffi cannot describe the call of " + plan_.symbol);
}

std::string EntryCall::operator()(const float *A, const float *B, float *C, const std::vector<long long> &dims) {
    // Each argument's value lives in its own slot for the call's duration, as libffi needs.
    std::vector<const void *> pointers(plan_.arguments.size());
    std::vector<std::int32_t> ints(plan_.arguments.size());
    std::vector<std::uint64_t> sizes(plan_.arguments.size());
    std::vector<void *> values(plan_.arguments.size());
    for (std::size_t i = 0; i < plan_.arguments.size(); ++i) {
        const auto &argument = plan_.arguments[i];
        switch (argument.source) {
        case EntryArgument::Source::A: pointers[i] = A; break;
        case EntryArgument::Source::B: pointers[i] = B; break;
        case EntryArgument::Source::C: pointers[i] = C; break;
        case EntryArgument::Source::Dim:
            if (static_cast<std::size_t>(argument.dim) >= dims.size())
                return "the call has no dim " + std::to_string(argument.dim);
            ints[i] = static_cast<std::int32_t>(dims[argument.dim]);
            sizes[i] = static_cast<std::uint64_t>(dims[argument.dim]);
            values[i] = argument.type == ParameterType::SizeT ? static_cast<void *>(&sizes[i]) : &ints[i];
            continue;
        }
        values[i] = &pointers[i];
    }
    ffi_call(&cif_, reinterpret_cast<void (*)()>(function_), nullptr, values.data());
    return "";
}

} // namespace gemm
