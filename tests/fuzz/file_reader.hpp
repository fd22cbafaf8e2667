// What the file-reader fuzz targets (fuzz_npy, fuzz_idx) share: a reader
// runs under a 64 MiB memory limit, as in a script with max_memory_bytes.
// A stdlib error (a malformed file, the limit) is what a reader must give;
// a crash, a sanitizer report, a leak or an allocation past the limit is a bug.
#pragma once

#include <cstdint>

#include "stdlib/budget.hpp"

template <class Read>
void read_within_limits(Read&& read) {
    tg::stdlib::Budget* budget = tg::stdlib::Budget::create();
    budget->max_bytes = int64_t{64} << 20;
    {
        tg::stdlib::Budget::Scope scope(budget);
        try {
            read();
        } catch (const tg::stdlib::OpError&) {
            // a malformed file or the memory limit: what the reader must do
        }
    }
    budget->release();
}
