// A host library that a program loads with dlopen(RTLD_LOCAL), as a Python
// extension module is loaded: libtg.so, its dependency, is then not in the
// process's global scope, where tg's plugins find tg's functions
// (stdlib/plugin.hpp). Saving a graph as .onnx loads the ONNX plugin, which
// must still find them. Built and run by install_test.sh (load_local.cpp).
#include <tg/tg.hpp>

#include <cstdio>
#include <filesystem>

extern "C" int run_local_host() {
    try {
        tg::Interpreter interp;
        interp.run_source("@graph\ndef f(x):\n    return x * 2.0\n\nsave(\"local.onnx\", concrete(f, tensor([1.0, 2.0])))\n",
                          "local.tg");
        std::printf("onnx bytes %s\n", std::filesystem::file_size("local.onnx") > 0 ? "> 0" : "= 0");
        return 0;
    } catch (const tg::Error& e) {
        std::fprintf(stderr, "%s", e.rendered().c_str());
        return 1;
    }
}
