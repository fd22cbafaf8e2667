#!/usr/bin/env bash
# Installs tg into a temporary prefix, checks the layout (docs/embedding.md: the tg
# command, libtg.so with an SONAME and only the public API exported, the
# header, the CMake package, tg.pc), then builds examples/host outside the
# tree twice — with find_package(tg) and with a one-line g++ command using
# pkg-config — and runs both; then builds the .deb with CPack and checks its
# Depends. Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tg-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "install test: $*" >&2; exit 1; }
step() { echo "== $*"; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "install failed"; }
for f in bin/tg include/tg/tg.hpp include/tg/debug.hpp lib/libtg.so lib/libtg.so.0.2 lib/libtg.so.0.2.0 \
         lib/cmake/tg/tgConfig.cmake lib/cmake/tg/tgConfigVersion.cmake lib/cmake/tg/tgTargets.cmake \
         lib/pkgconfig/tg.pc; do
  [[ -e $prefix/$f ]] || fail "missing $f"
done
lib=$prefix/lib/libtg.so.0.2.0
readelf -d "$lib" | grep -q 'SONAME.*\[libtg\.so\.0\.2\]' || fail "no SONAME libtg.so.0.2"
if readelf -d "$lib" "$prefix/bin/tg" | grep NEEDED | grep -qi -e llvm -e openblas; then
  fail "LLVM or OpenBLAS is a link-time dependency: $(readelf -d "$lib" | grep NEEDED)"
fi
# Only the public API is exported (LLVM and tg's internals stay hidden).
others=$(nm -D --defined-only "$lib" | c++filt | cut -d' ' -f3- | grep -v -e '^tg::' -e ' for tg::Error$' || true)
[[ -z $others ]] || fail "libtg.so exports more than the public API:"$'\n'"$others"
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

expected=$(cat "$src/examples/host/expected.out")
step "find_package(tg): configure, build and run examples/host out of the tree"
cmake -S "$src/examples/host" -B "$tmp/host" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  > "$tmp/host.log" 2>&1 || { cat "$tmp/host.log"; fail "examples/host does not configure"; }
cmake --build "$tmp/host" >> "$tmp/host.log" 2>&1 || { cat "$tmp/host.log"; fail "examples/host does not build"; }
out=$("$tmp/host/tg_host") || fail "tg_host failed: $out"
[[ $out == "$expected" ]] || fail "tg_host printed:"$'\n'"$out"$'\n'"expected:"$'\n'"$expected"

step "pkg-config: one g++ command"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[[ $(pkg-config --modversion tg) == 0.2.0 ]] || fail "pkg-config --modversion tg"
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$src/examples/host/host.cpp" -o "$tmp/host_pc" $(pkg-config --cflags --libs tg) \
  -Wl,-rpath,"$(pkg-config --variable=libdir tg)" || fail "the pkg-config build failed"
out=$("$tmp/host_pc") || fail "host_pc failed: $out"
[[ $out == "$expected" ]] || fail "host_pc printed:"$'\n'"$out"
step "cpack: the .deb depends on Debian packages by name"
(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -G DEB > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack failed"; }
deb=$(ls "$tmp"/tg_*_amd64.deb 2>/dev/null | head -1)
[[ -n $deb ]] || fail "cpack made no .deb"
[[ $(dpkg-deb -f "$deb" Package) == tg ]] || fail "the .deb's package name is not tg"
depends=$(dpkg-deb -f "$deb" Depends)
for p in libopenblas0 libedit2 libzip4 libstdc++6; do
  [[ $depends == *"$p"* ]] || fail "the .deb does not depend on $p: $depends"
done
[[ $depends != *llvm* ]] || fail "the .deb depends on LLVM: $depends"
contents=$(dpkg-deb -c "$deb")
grep -q 'libtg\.so\.0\.2\.0$' <<< "$contents" || fail "the .deb has no libtg.so.0.2.0"
grep -q 'bin/tg$' <<< "$contents" || fail "the .deb has no bin/tg"
echo "install test: ok"
