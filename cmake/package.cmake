# Packaging (docs/embedding.md): the shared libtg.so, install rules, the CMake package
# tgConfig.cmake, tg.pc for pkg-config, and .debs made with CPack.
#
#   cmake --install build --prefix P     # P/bin/tg, P/lib/libtg.so.0.2.0, P/lib/tg/ (plugins),
#                                        # P/include/tg/tg.hpp, P/lib/cmake/tg/, P/lib/pkgconfig/tg.pc
#   cmake --install build --prefix P --component debug   # P/lib/debug/.build-id/: the debug information
#   cpack --config build/CPackConfig.cmake   # tg_0.2.0_amd64.deb, tg-dbg_0.2.0_amd64.deb
#
# libtg.so is linked from the objects the static parts are built from (they
# are position-independent), so the shared library costs one link, not a
# second build. It exports the public API and what tg's plugins call
# (cmake/libtg.map.in). LLVM is in the JIT plugin, ONNX and protobuf in the
# exporter plugin (stdlib/plugin.hpp); OpenBLAS, libzip and PLplot are
# dlopen()ed on first use (stdlib/blas.hpp, stdlib/shared_library.hpp).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TG_PART_OBJECTS)
foreach(part ${TG_LIBRARY_PARTS})
  list(APPEND TG_PART_OBJECTS $<TARGET_OBJECTS:${part}>)
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/libtg.map.in ${PROJECT_BINARY_DIR}/libtg.map @ONLY)
add_library(tg_shared SHARED ${PROJECT_SOURCE_DIR}/cmake/libtg.cpp ${TG_PART_OBJECTS})
add_library(tg::tg ALIAS tg_shared)
set_target_properties(tg_shared PROPERTIES
  OUTPUT_NAME tg
  EXPORT_NAME tg
  VERSION ${PROJECT_VERSION}
  # 0.x: every minor version may change the ABI.
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LINK_DEPENDS ${PROJECT_BINARY_DIR}/libtg.map)
target_include_directories(tg_shared INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(tg_shared INTERFACE cxx_std_20)
target_link_libraries(tg_shared PRIVATE ZLIB::ZLIB ${CMAKE_DL_LIBS})
target_link_options(tg_shared PRIVATE
  -Wl,--version-script=${PROJECT_BINARY_DIR}/libtg.map -Wl,--no-undefined -Wl,-Bsymbolic)

install(TARGETS tg_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tg_shared EXPORT tgTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# tg's plugins (stdlib/plugin.hpp), where stdlib/plugin.cpp looks for them.
set(TG_PLUGINS tg_jit tg_onnx tg_kernel_plugin)
install(TARGETS ${TG_PLUGINS} LIBRARY DESTINATION ${TG_PLUGIN_INSTALL_DIR})
# Installed stripped, their debug information split off into .debug files
# (cmake/split_debug.cmake): the component `debug` installs those under
# lib/debug/.build-id/, and the .deb's companion tg-dbg holds them.
find_program(TG_OBJCOPY NAMES objcopy ${CMAKE_OBJCOPY} REQUIRED)
find_program(TG_READELF NAMES readelf ${CMAKE_READELF} REQUIRED)
set(TG_DEBUG_DIR ${PROJECT_BINARY_DIR}/debug-info)
set(_tg_strip "set(TG_OBJCOPY \"${TG_OBJCOPY}\")\ninclude(\"${PROJECT_SOURCE_DIR}/cmake/split_debug.cmake\")\n")
set(_tg_debug "set(TG_READELF \"${TG_READELF}\")\ninclude(\"${PROJECT_SOURCE_DIR}/cmake/split_debug.cmake\")\n")
set(_tg_installed_at \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX})
macro(tg_split_rule target kind dir)
  string(APPEND _tg_strip "tg_strip_installed(\"$<TARGET_FILE:${target}>\" \"${_tg_installed_at}/${dir}/$<TARGET_FILE_NAME:${target}>\" ${kind} \"${TG_DEBUG_DIR}\")\n")
  string(APPEND _tg_debug "tg_install_debug(\"${TG_DEBUG_DIR}/$<TARGET_FILE_NAME:${target}>.debug\" \"${_tg_installed_at}/${CMAKE_INSTALL_LIBDIR}/debug\")\n")
endmacro()
tg_split_rule(tg_cli executable ${CMAKE_INSTALL_BINDIR})
tg_split_rule(tg_shared library ${CMAKE_INSTALL_LIBDIR})
foreach(plugin ${TG_PLUGINS})
  tg_split_rule(${plugin} library ${TG_PLUGIN_INSTALL_DIR})
endforeach()
install(CODE "${_tg_strip}")
install(CODE "${_tg_debug}" COMPONENT debug EXCLUDE_FROM_ALL)
# The Jupyter kernelspec (docs/notebooks.md): kernel.json names the installed
# tg, wherever `cmake --install --prefix` (or the .deb) puts it.
set(TG_KERNELSPEC_DEST ${CMAKE_INSTALL_DATADIR}/jupyter/kernels/tg)
install(FILES ${PROJECT_SOURCE_DIR}/share/jupyter/kernels/tg/logo-32x32.png
              ${PROJECT_SOURCE_DIR}/share/jupyter/kernels/tg/logo-64x64.png
              ${PROJECT_SOURCE_DIR}/share/jupyter/kernels/tg/logo-svg.svg
        DESTINATION ${TG_KERNELSPEC_DEST})
install(CODE "
  set(TG_EXECUTABLE \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/tg\")
  configure_file(\"${PROJECT_SOURCE_DIR}/share/jupyter/kernels/tg/kernel.json.in\"
                 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${TG_KERNELSPEC_DEST}/kernel.json\" @ONLY)
  message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${TG_KERNELSPEC_DEST}/kernel.json\")")
install(FILES ${PROJECT_SOURCE_DIR}/include/tg/tg.hpp ${PROJECT_SOURCE_DIR}/include/tg/debug.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tg)
set(TG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tg)
install(EXPORT tgTargets NAMESPACE tg:: DESTINATION ${TG_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tgConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tgConfig.cmake
  INSTALL_DESTINATION ${TG_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# 0.x: 0.2 hosts need a 0.2.z library.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tgConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tgConfig.cmake ${PROJECT_BINARY_DIR}/tgConfigVersion.cmake
        DESTINATION ${TG_CMAKE_DIR})
# tg.pc finds its prefix relative to itself (${pcfiledir}), so it is right for
# any `cmake --install --prefix`.
file(RELATIVE_PATH TG_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/tg.pc.in ${PROJECT_BINARY_DIR}/tg.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tg.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_SOURCE_DIR}/docs/embedding.md ${PROJECT_SOURCE_DIR}/docs/deploying.md
              ${PROJECT_SOURCE_DIR}/docs/tgx-format.md ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# CPack: one .deb with the command, the library, the plugins, the headers
# and the build files. Its Depends are Debian package names: dpkg-shlibdeps
# computes them from the binaries' NEEDED entries (the plugins' ONNX, xeus,
# ZeroMQ, Graphviz among them); the libraries tg loads with dlopen
# (stdlib/shared_library.hpp, stdlib/blas.hpp) are named here, by Debian's
# rule for a soname libNAME.so.N: package libNAMEN.
set(CPACK_GENERATOR DEB)
# Two packages: tg (everything installed by default) and tg-dbg (the
# component `debug`: the split-off debug information, as Debian's -dbg).
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified debug)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME tg)
set(CPACK_DEBIAN_DEBUG_PACKAGE_NAME tg-dbg)
set(CPACK_DEBIAN_DEBUG_PACKAGE_DEPENDS "tg (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEBUG_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_DEBUG_PACKAGE_SECTION debug)
set(CPACK_COMPONENT_DEBUG_DESCRIPTION "debug information of the tg command, libtg and its plugins")
set(CPACK_PACKAGE_NAME tg)
set(CPACK_PACKAGE_VENDOR "tg")
set(CPACK_PACKAGE_CONTACT "tg maintainers <tg@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "tg tensor scripting language: the tg command and libtg for C++ hosts")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(TG_DLOPEN_PACKAGES libopenblas0)
foreach(soname ${TG_LIBEDIT_SONAME} ${TG_LIBZIP_SONAME} ${TG_PLPLOT_SONAME})
  string(REGEX REPLACE "^(lib.*)\\.so\\.([0-9]+)$" "\\1\\2" package ${soname})
  list(APPEND TG_DLOPEN_PACKAGES ${package})
endforeach()
list(JOIN TG_DLOPEN_PACKAGES ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
