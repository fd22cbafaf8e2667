#!/usr/bin/env python3
"""Compiles every ```cpp block of a Markdown page against <tg/tg.hpp>; a block
with a main() is also linked with libtg.so and run (it must exit 0).
Usage: check_snippets.py PAGE.md INCLUDE_DIR LIB_DIR"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    page, include, libdir = sys.argv[1:4]
    text = open(page, encoding="utf-8").read()
    blocks = re.findall(r"^```cpp\n(.*?)^```", text, re.S | re.M)
    if not blocks:
        print(f"{page}: no cpp blocks")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tg-snippets-") as tmp:
        for i, code in enumerate(blocks, 1):
            src = os.path.join(tmp, f"snippet{i}.cpp")
            with open(src, "w") as f:
                f.write(code)
            has_main = re.search(r"\bint main\s*\(", code) is not None
            out = os.path.join(tmp, f"snippet{i}")
            cmd = ["g++", "-std=c++20", "-Wall", "-Wextra", "-Werror", "-I", include, src]
            cmd += ["-o", out, "-L", libdir, "-ltg", f"-Wl,-rpath,{libdir}"] if has_main else ["-c", "-o", out + ".o"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{page}: cpp block {i} does not compile:\n{code}\n{r.stderr}")
                failed += 1
                continue
            if has_main:
                r = subprocess.run([out], capture_output=True, text=True, timeout=60)
                if r.returncode != 0:
                    print(f"{page}: cpp block {i} exits {r.returncode}:\n{r.stdout}{r.stderr}")
                    failed += 1
                    continue
            print(f"cpp block {i}: ok" + (" (ran)" if has_main else " (compiled)"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
