# Installing stripped binaries with their debug information split off, as
# Debian does (docs/embedding.md "Installing"): run at install time by the
# rules of cmake/package.cmake.
#
#   tg_strip_installed(BUILT INSTALLED KIND DEBUG_DIR)
#     BUILT, the binary in the build tree, keeps its debug information; it
#     is copied to DEBUG_DIR/<name>.debug (objcopy --only-keep-debug,
#     compressed); INSTALLED, the installed copy, is stripped (KIND
#     "executable": every symbol; "library": those no relocation needs) and
#     names the .debug file (--add-gnu-debuglink).
#   tg_install_debug(DEBUG_FILE DEST)
#     Installs a .debug file as DEST/.build-id/xx/yyyy.debug, by its build
#     ID: where gdb looks for it (under /usr/lib/debug, or wherever
#     `set debug-file-directory` points).
function(tg_strip_installed built installed kind debug_dir)
  get_filename_component(name "${built}" NAME)
  set(debug "${debug_dir}/${name}.debug")
  if(NOT EXISTS "${debug}" OR "${built}" IS_NEWER_THAN "${debug}")
    file(MAKE_DIRECTORY "${debug_dir}")
    execute_process(COMMAND "${TG_OBJCOPY}" --only-keep-debug --compress-debug-sections=zlib "${built}" "${debug}"
                    RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "objcopy --only-keep-debug ${built} failed")
    endif()
  endif()
  if(kind STREQUAL "executable")
    set(strip --strip-all)
  else()
    set(strip --strip-unneeded)
  endif()
  execute_process(COMMAND "${TG_OBJCOPY}" ${strip} --remove-section=.comment "--add-gnu-debuglink=${debug}" "${installed}"
                  RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "objcopy ${strip} ${installed} failed")
  endif()
endfunction()

function(tg_install_debug debug_file dest)
  execute_process(COMMAND "${TG_READELF}" -n "${debug_file}" OUTPUT_VARIABLE notes ERROR_QUIET)
  string(REGEX MATCH "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)" match "${notes}")
  if(NOT match)
    message(FATAL_ERROR "${debug_file} has no build ID")
  endif()
  set(target "${dest}/.build-id/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}.debug")
  message(STATUS "Installing: ${target}")
  file(MAKE_DIRECTORY "${dest}/.build-id/${CMAKE_MATCH_1}")
  file(COPY_FILE "${debug_file}" "${target}")
endfunction()
