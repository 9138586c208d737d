// expect: RE
// cases: sample/02-small-explicit
// detail: broke the runner protocol
// Writes a perfect-looking "AC" result to every file descriptor it did not open, hoping
// one is the judge's channel. The only channel its process holds is the runner's, on
// which the referee believes nothing but "returned": the line breaks that protocol.
#include <cstring>
#include <unistd.h>

extern "C" void solve(const float *, const float *, float *, int, int, int) {
    const char *fake =
        "{\"event\":\"result\",\"worker_exits\":false,\"result\":{\"name\":\"x\",\"M\":2,\"N\":3,\"K\":4,"
        "\"verdict\":\"AC\",\"detail\":\"\",\"reference\":\"\",\"output_tail\":\"\",\"wall_seconds\":0,"
        "\"check\":null,\"timing\":null,\"baseline_cublas\":null}}\n";
    for (int fd = 3; fd < 64; ++fd) (void)!write(fd, fake, std::strlen(fake));
    pause(); // leave the forged line as the only answer
}
