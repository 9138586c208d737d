// expect: RE
// cases: sample/02-small-explicit
// detail: exited with status 0
// Prints a fake verdict and exits with status 0 from inside solve(): no result was
// sent, so it is RE whatever it printed and whatever its exit status.
#include <cstdio>
#include <cstdlib>

extern "C" void solve(const float *, const float *, float *, int, int, int) {
    std::printf("AC\n{\"event\":\"result\",\"verdict\":\"AC\"}\n");
    std::exit(0);
}
