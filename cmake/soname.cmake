# tg_soname(VAR LIBRARY): the SONAME of a shared library file (what the
# dynamic linker would have recorded had tg linked it), for the libraries tg
# loads with dlopen on first use (stdlib/shared_library.hpp). Falls back to
# the file's name when objdump cannot tell. VAR is an internal cache
# variable, seen by every directory.
function(tg_soname var library)
  set(name "")
  find_program(TG_OBJDUMP NAMES objdump ${CMAKE_OBJDUMP})
  if(TG_OBJDUMP)
    execute_process(COMMAND ${TG_OBJDUMP} -p ${library} OUTPUT_VARIABLE dump ERROR_QUIET)
    string(REGEX MATCH "SONAME +([^\n ]+)" match "${dump}")
    set(name "${CMAKE_MATCH_1}")
  endif()
  if(NOT name)
    get_filename_component(name ${library} NAME)
  endif()
  # a cache variable: cmake/package.cmake names the Debian packages from it
  set(${var} ${name} CACHE INTERNAL "the SONAME of ${library}")
endfunction()

