// Placeholder until the tensor runtime lands (stdlib issue).
#include "stdlib/tensor.hpp"
