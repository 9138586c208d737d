// The secret that lets a browser use ./judge serve, as Jupyter's: printed once in the URL,
// then kept by the browser as a cookie. Another user of the machine, or a page of another
// site open in the same browser, does not know it, so it can neither read the page nor
// submit a solution to be run.
#pragma once

#include <string>

namespace gemm::serve {

// 32 bytes from the kernel's CSPRNG (getrandom), as 64 hexadecimal digits. Throws
// std::runtime_error when the kernel gives none.
std::string new_access_token();

// Whether `offered` is `token`, in a time that depends on the token's length alone: a
// client cannot learn the token a character at a time from how fast it is refused.
bool is_token(const std::string &offered, const std::string &token);

} // namespace gemm::serve
