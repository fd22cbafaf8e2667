// C libraries tg loads when first needed instead of linking them: libzip
// (.npz files), PLplot (figures), libedit (the REPL's line editor), Graphviz
// (the notebook's graph pictures). Linked, each would be loaded, relocated
// and initialized by every tg process at start — ~0.5-1.5 ms apiece, most of
// a script's start-up (docs/performance.md "Start-up"). OpenBLAS has its
// own loader (stdlib/blas.hpp).
//
// A user declares the functions it calls in a struct and keeps one instance
// for the process (a loaded library is process-wide, never unloaded):
//
//   struct Zip {
//       SharedLibrary lib{"libzip", {TG_LIBZIP_SONAME}};
//       TG_LIBRARY_FUNCTION(zip_close);   // decltype(&::zip_close) zip_close
//   };
//   const Zip& zip() { static const Zip z; return z; }   // zip().zip_close(z)
#pragma once

#include <initializer_list>
#include <string>

namespace tg::stdlib {

class SharedLibrary {
public:
    // Loads the first of `files` that loads (the soname the build found,
    // then a fallback path). `what` names the library in errors. Throws
    // std::runtime_error with dlerror()'s reasons when none loads.
    SharedLibrary(const char* what, std::initializer_list<const char*> files);

    // The address of a function or variable the library defines; throws
    // std::runtime_error when it has none of that name.
    void* symbol(const char* name) const;
    template <class Pointer>
    Pointer get(const char* name) const {
        return reinterpret_cast<Pointer>(symbol(name));
    }

private:
    std::string what_;
    void* handle_ = nullptr;
};

}  // namespace tg::stdlib

// A member pointer to the library's function `fn` (or, for a variable, to
// the variable), bound when the struct is made; `lib` is the struct's
// SharedLibrary. A name the header defines as a macro (PLplot's `plinit` is
// `c_plinit`) is expanded first, in the member's name and in the symbol's.
#define TG_LIBRARY_STRINGIFY(x) #x
#define TG_LIBRARY_SYMBOL(fn) TG_LIBRARY_STRINGIFY(fn)
#define TG_LIBRARY_FUNCTION(fn) decltype(&::fn) fn = lib.get<decltype(&::fn)>(TG_LIBRARY_SYMBOL(fn))
#define TG_LIBRARY_VARIABLE(var) TG_LIBRARY_FUNCTION(var)
