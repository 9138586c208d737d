#include "runner/entry_call.hpp"

#include <cstdint>
#include <stdexcept>

namespace gemm {

EntryCall::EntryCall(void *function, EntryPlan plan)
    : function_(function), plan_(std::move(plan)), pointers_(plan_.arguments.size()), ints_(plan_.arguments.size()),
      sizes_(plan_.arguments.size()), floats_(plan_.arguments.size()), values_(plan_.arguments.size()) {
    for (std::size_t i = 0; i < plan_.arguments.size(); ++i) {
        const auto &argument = plan_.arguments[i];
        const bool number =
            argument.source == EntryArgument::Source::Dim || argument.source == EntryArgument::Source::Scalar;
        if (!number) {
            types_.push_back(&ffi_type_pointer);
            values_[i] = &pointers_[i];
        } else if (argument.type == ParameterType::SizeT) {
            types_.push_back(&ffi_type_uint64);
            values_[i] = &sizes_[i];
        } else if (argument.type == ParameterType::Float) {
            types_.push_back(&ffi_type_float);
            values_[i] = &floats_[i];
        } else {
            types_.push_back(&ffi_type_sint32);
            values_[i] = &ints_[i];
        }
    }
    if (ffi_prep_cif(&cif_, FFI_DEFAULT_ABI, static_cast<unsigned>(types_.size()), &ffi_type_void, types_.data()) !=
        FFI_OK)
        throw std::invalid_argument("libffi cannot describe the call of " + plan_.symbol);
}

std::string EntryCall::operator()(const EntryOperands &operands, const std::vector<long long> &dims,
                                  const std::map<std::string, double> &scalars) {
    for (std::size_t i = 0; i < plan_.arguments.size(); ++i) {
        const auto &argument = plan_.arguments[i];
        switch (argument.source) {
        case EntryArgument::Source::A: pointers_[i] = operands.A; break;
        case EntryArgument::Source::B: pointers_[i] = operands.B; break;
        case EntryArgument::Source::C: pointers_[i] = operands.C; break;
        case EntryArgument::Source::Bias: pointers_[i] = operands.bias; break;
        case EntryArgument::Source::Factor: pointers_[i] = operands.factor; break;
        case EntryArgument::Source::Dim:
            if (static_cast<std::size_t>(argument.dim) >= dims.size())
                return "the call has no dim " + std::to_string(argument.dim);
            ints_[i] = static_cast<std::int32_t>(dims[argument.dim]);
            sizes_[i] = static_cast<std::uint64_t>(dims[argument.dim]);
            break;
        case EntryArgument::Source::Scalar: {
            const auto found = scalars.find(argument.role);
            if (found == scalars.end()) return "the call has no scalar " + argument.role;
            ints_[i] = static_cast<std::int32_t>(found->second);
            sizes_[i] = static_cast<std::uint64_t>(found->second);
            floats_[i] = static_cast<float>(found->second);
            break;
        }
        }
    }
    ffi_call(&cif_, reinterpret_cast<void (*)()>(function_), nullptr, values_.data());
    return "";
}

} // namespace gemm
