#!/usr/bin/env bash
# Installs tg into a temporary prefix, checks the layout (docs/embedding.md: the tg
# command, libtg.so with an SONAME and only tg's functions exported, the
# plugins, the header, the CMake package, tg.pc; every binary stripped, its
# debug information in the component `debug`), checks that the installed tg
# and a host load the plugins from the prefix, then builds examples/host
# outside the tree twice — with find_package(tg) and with a one-line g++
# command using pkg-config — and runs both, and a host library loaded with
# dlopen(RTLD_LOCAL) that exports ONNX; then builds the .deb and its -dbg
# with CPack and checks their Depends. Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tg-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "install test: $*" >&2; exit 1; }
step() { echo "== $*"; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "install failed"; }
plugins="lib/tg/libtg_jit.so.0.2.0 lib/tg/libtg_onnx.so.0.2.0 lib/tg/libtg_kernel.so.0.2.0"
for f in bin/tg include/tg/tg.hpp include/tg/debug.hpp lib/libtg.so lib/libtg.so.0.2 lib/libtg.so.0.2.0 \
         lib/cmake/tg/tgConfig.cmake lib/cmake/tg/tgConfigVersion.cmake lib/cmake/tg/tgTargets.cmake \
         lib/pkgconfig/tg.pc $plugins; do
  [[ -e $prefix/$f ]] || fail "missing $f"
done
# Stripped, naming their split-off debug information (cmake/split_debug.cmake),
# which the component `debug` installs by build ID.
for f in bin/tg lib/libtg.so.0.2.0 $plugins; do
  sections=$(readelf -S "$prefix/$f")
  grep -q -e '\.debug_info' -e '\.symtab' <<< "$sections" && fail "$f is not stripped"
  grep -q '\.gnu_debuglink' <<< "$sections" || fail "$f names no .debug file"
done
[[ -d $prefix/lib/debug ]] && fail "the default install has the debug information"
cmake --install "$build" --prefix "$prefix" --component debug > "$tmp/install-debug.log" ||
  { cat "$tmp/install-debug.log"; fail "installing the component debug failed"; }
[[ $(find "$prefix/lib/debug/.build-id" -name '*.debug' | wc -l) == 5 ]] || fail "not 5 .debug files in lib/debug/.build-id"
rm -rf "$prefix/lib/debug"
lib=$prefix/lib/libtg.so.0.2.0
readelf -d "$lib" | grep -q 'SONAME.*\[libtg\.so\.0\.2\]' || fail "no SONAME libtg.so.0.2"
# tg and libtg.so load nothing at start but the C and C++ runtimes and zlib
# (docs/performance.md "Start-up"): LLVM, ONNX and the kernel are plugins,
# OpenBLAS, libzip, PLplot and libedit are loaded on first use.
for f in "$lib" "$prefix/bin/tg"; do
  needed=$(readelf -d "$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' |
           grep -v -e '^libc\.so' -e '^libm\.so' -e '^libstdc++\.so' -e '^libgcc_s\.so' -e '^libz\.so' -e '^ld-linux' || true)
  [[ -z $needed ]] || fail "$f loads more at start than the C and C++ runtimes and zlib: $needed"
done
# Only tg's functions are exported (the public API, and what the plugins
# call: cmake/plugin_symbols.txt); LLVM and the rest of tg stay hidden.
others=$(nm -D --defined-only "$lib" | c++filt | cut -d' ' -f3- | grep -v -e '^tg::' -e '^typeinfo for tg::' \
         -e '^typeinfo name for tg::' -e '^vtable for tg::' || true)
[[ -z $others ]] || fail "libtg.so exports more than tg's functions:"$'\n'"$others"
# LLVM is in the JIT plugin, hidden there (one exported function).
[[ $(nm -D --defined-only "$prefix/lib/tg/libtg_jit.so.0.2.0" | grep -c ' T ') == 1 ]] ||
  fail "the JIT plugin exports more than tg_jit_plugin"
if grep -hv '^#' "$prefix"/lib/cmake/tg/*.cmake "$prefix/lib/pkgconfig/tg.pc" | grep -qi llvm; then
  fail "the package refers to LLVM"
fi
[[ $("$prefix/bin/tg" --version) == "tg 0.2.0" ]] || fail "tg --version: $("$prefix/bin/tg" --version)"
# the Jupyter kernelspec (docs/notebooks.md) names the installed tg
for f in kernel.json logo-32x32.png logo-64x64.png logo-svg.svg; do
  [[ -e $prefix/share/jupyter/kernels/tg/$f ]] || fail "missing share/jupyter/kernels/tg/$f"
done
grep -q "\"$prefix/bin/tg\", \"kernel\", \"-f\"" "$prefix/share/jupyter/kernels/tg/kernel.json" ||
  fail "kernel.json does not start $prefix/bin/tg: $(cat "$prefix/share/jupyter/kernels/tg/kernel.json")"
printf 'print(sum(ones((3,))) * 2)\n' > "$tmp/a.tg"
[[ $("$prefix/bin/tg" run "$tmp/a.tg") == "6.0" ]] || fail "installed tg does not run a script"
# The plugins are loaded from the prefix, not from the build tree.
cat > "$tmp/plugins.tg" <<'TG'
@graph
def f(x):
    return x * 2.0 + 1.0
print(f(tensor([1.0, 2.0])))
save("plugins.onnx", concrete(f, tensor([1.0, 2.0])))
TG
(cd "$tmp" && LD_DEBUG=files "$prefix/bin/tg" run plugins.tg > "$tmp/plugins.out" 2> "$tmp/plugins.log") ||
  { cat "$tmp/plugins.out"; fail "installed tg does not compile or export ONNX"; }
for p in libtg_jit libtg_onnx; do
  grep -q "file=$prefix/lib/tg/$p.so.0.2.0 .*dynamically loaded by" "$tmp/plugins.log" ||
    fail "installed tg did not load $p from $prefix/lib/tg: $(grep -o 'file=[^ ]*libtg_[^ ]*' "$tmp/plugins.log" | sort -u)"
done

expected=$(cat "$src/examples/host/expected.out")
step "find_package(tg): configure, build and run examples/host out of the tree"
cmake -S "$src/examples/host" -B "$tmp/host" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  > "$tmp/host.log" 2>&1 || { cat "$tmp/host.log"; fail "examples/host does not configure"; }
cmake --build "$tmp/host" >> "$tmp/host.log" 2>&1 || { cat "$tmp/host.log"; fail "examples/host does not build"; }
out=$(LD_DEBUG=files "$tmp/host/tg_host" 2> "$tmp/host-files.log") || fail "tg_host failed: $out"
[[ $out == "$expected" ]] || fail "tg_host printed:"$'\n'"$out"$'\n'"expected:"$'\n'"$expected"
grep -q "file=$prefix/lib/tg/libtg_jit.so.0.2.0 .*dynamically loaded by $prefix/lib/libtg.so" "$tmp/host-files.log" ||
  fail "the host's libtg.so did not load the JIT plugin from $prefix/lib/tg"

step "a host library loaded with dlopen(RTLD_LOCAL) exports ONNX (the plugin finds libtg.so's functions)"
g++ -std=c++20 -O1 -shared -fPIC "$src/tests/install/local_host.cpp" -o "$tmp/liblocal_host.so" -I"$prefix/include" \
  -L"$prefix/lib" -ltg -Wl,-rpath,"$prefix/lib" || fail "the RTLD_LOCAL host library does not build"
g++ -O1 "$src/tests/install/load_local.cpp" -o "$tmp/load_local" -ldl || fail "the loader does not build"
out=$(cd "$tmp" && ./load_local "$tmp/liblocal_host.so") || fail "the RTLD_LOCAL host failed: $out"
[[ $out == "onnx bytes > 0" ]] || fail "the RTLD_LOCAL host printed: $out"

step "pkg-config: one g++ command"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[[ $(pkg-config --modversion tg) == 0.2.0 ]] || fail "pkg-config --modversion tg"
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$src/examples/host/host.cpp" -o "$tmp/host_pc" $(pkg-config --cflags --libs tg) \
  -Wl,-rpath,"$(pkg-config --variable=libdir tg)" || fail "the pkg-config build failed"
out=$("$tmp/host_pc") || fail "host_pc failed: $out"
[[ $out == "$expected" ]] || fail "host_pc printed:"$'\n'"$out"
step "cpack: the .deb depends on Debian packages by name; tg-dbg has the debug information"
(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -G DEB > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack failed"; }
deb=$(ls "$tmp"/tg_*_amd64.deb 2>/dev/null | head -1)
[[ -n $deb ]] || fail "cpack made no .deb"
dbg=$(ls "$tmp"/tg-dbg_*_amd64.deb 2>/dev/null | head -1)
[[ -n $dbg ]] || fail "cpack made no tg-dbg .deb"
[[ $(dpkg-deb -f "$dbg" Depends) == "tg (= 0.2.0)" ]] || fail "tg-dbg depends on: $(dpkg-deb -f "$dbg" Depends)"
[[ $(dpkg-deb -c "$dbg" | grep -c '/usr/lib/debug/\.build-id/.*\.debug$') == 5 ]] ||
  fail "tg-dbg has not the 5 .debug files: $(dpkg-deb -c "$dbg")"
[[ $(dpkg-deb -f "$deb" Package) == tg ]] || fail "the .deb's package name is not tg"
depends=$(dpkg-deb -f "$deb" Depends)
for p in libopenblas0 libedit2 libzip4 libplplot17 libstdc++6 libonnx1 libxeus6; do
  [[ $depends == *"$p"* ]] || fail "the .deb does not depend on $p: $depends"
done
[[ $depends != *llvm* ]] || fail "the .deb depends on LLVM: $depends"
contents=$(dpkg-deb -c "$deb")
grep -q 'libtg\.so\.0\.2\.0$' <<< "$contents" || fail "the .deb has no libtg.so.0.2.0"
grep -q 'bin/tg$' <<< "$contents" || fail "the .deb has no bin/tg"
grep -q 'lib/tg/libtg_jit\.so\.0\.2\.0$' <<< "$contents" || fail "the .deb has no JIT plugin"
grep -q '/usr/lib/debug' <<< "$contents" && fail "the .deb has the debug information"
echo "install test: ok"
