// libtg.so is made of the objects of the library parts (tg_lang, tg_stdlib,
// tg_codegen, tg_tracer, tg_interp); a shared library target needs one source
// of its own. See cmake/package.cmake.
