#include "stdlib/shared_library.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace tg::stdlib {

SharedLibrary::SharedLibrary(const char* what, std::initializer_list<const char*> files) : what_(what) {
    std::string why;
    for (const char* file : files) {
        if (!file || !*file) continue;
        handle_ = ::dlopen(file, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);
        if (handle_) return;
        const char* e = ::dlerror();
        why += std::string(why.empty() ? "" : "; ") + (e ? e : file);
    }
    throw std::runtime_error("cannot load " + what_ + " (" + why + ")");
}

void* SharedLibrary::symbol(const char* name) const {
    ::dlerror();
    void* p = ::dlsym(handle_, name);
    if (!p) throw std::runtime_error(what_ + " has no " + name);
    return p;
}

}  // namespace tg::stdlib
