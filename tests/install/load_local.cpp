// Loads a host library with dlopen(RTLD_LOCAL) and runs it (local_host.cpp).
// Usage: load_local LIBRARY
#include <dlfcn.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    void* lib = ::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::fprintf(stderr, "load_local: %s\n", ::dlerror());
        return 1;
    }
    auto run = reinterpret_cast<int (*)()>(::dlsym(lib, "run_local_host"));
    return run ? run() : 1;
}
