// One kernel that does nothing, on the legacy stream: the GPU side of an empty call.
#pragma once

namespace gemm {

void launch_empty_kernel();

} // namespace gemm
