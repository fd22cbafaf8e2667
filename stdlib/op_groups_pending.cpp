// Empty registrations for the op groups not implemented yet (kernels helper).
// When a group gets its own file (reduce.cpp, linalg.cpp, ...), delete its
// stub here; when all are gone, delete this file and its CMake line.
#include "stdlib/op_registry.hpp"

namespace tg::stdlib {

void register_linalg_ops(OpRegistry&) {}
void register_creation_ops(OpRegistry&) {}
void register_random_ops(OpRegistry&) {}
void register_nn_ops(OpRegistry&) {}

}  // namespace tg::stdlib
