#!/usr/bin/env python3
"""The example notebooks run in `tg kernel` (docs/notebooks.md "Notebooks in CI").

    notebook_test.py TG OUT_DIR [NOTEBOOK ...]

Registers the kernel TG in a temporary JUPYTER_PATH (`tg kernel install
--prefix`), executes each notebook (default: examples/notebooks/*.ipynb)
with nbclient, as `jupyter nbconvert --execute` does, and checks the
executed notebook: no error outputs, a tensor shown as a `text/html` table,
a picture (`image/svg+xml`: a `%graph` and a plot), and the lines the
notebook's own checks print ending in `True`. The executed notebook is
written to OUT_DIR and converted to HTML with jupyter-nbconvert; when
Chromium is installed (Debian `chromium`), a headless screenshot of that
page is taken (OUT_DIR/NAME.png, kept as a CI artifact) and must not be
blank.

Without nbclient or jupyter-nbconvert the test is skipped (exit 77), unless
TG_REQUIRE_JUPYTER=1 (scripts/test, CI): scripts/install-deps installs them
(and chromium).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import nbclient
    import nbformat
except ImportError as e:
    if os.environ.get("TG_REQUIRE_JUPYTER") == "1":
        sys.exit(f"notebook_test: {e} (scripts/install-deps installs python3-nbclient)")
    print(f"notebook_test: skipped: {e}")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
from kernelspec import register  # noqa: E402 (after the skip above)

TIMEOUT = 120


def outputs(nb):
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            yield i, out


def check(nb, name):
    """The problems of an executed notebook."""
    problems, mimes = [], set()
    for i, out in outputs(nb):
        if out.output_type == "error":
            problems.append(f"{name}: cell {i}: error {out.ename}: {out.evalue}")
        if out.output_type == "stream" and out.name == "stderr":
            problems.append(f"{name}: cell {i}: stderr: {out.text!r}")
        if out.output_type in ("display_data", "execute_result"):
            mimes.update(out.data.keys())
            if "text/html" in out.data and "<table" not in out.data["text/html"]:
                problems.append(f"{name}: cell {i}: text/html without a table")
            if "image/svg+xml" in out.data and "<svg" not in out.data["image/svg+xml"]:
                problems.append(f"{name}: cell {i}: image/svg+xml without <svg>")
        if out.output_type == "stream" and out.name == "stdout":
            for line in out.text.splitlines():
                if line.endswith(("True", "False")) and ":" in line and not line.endswith("True"):
                    problems.append(f"{name}: cell {i}: a check failed: {line}")
    for mime in ("text/plain", "text/html", "image/svg+xml"):
        if mime not in mimes:
            problems.append(f"{name}: no output has {mime}")
    return problems


def screenshot(html, png):
    """A headless Chromium screenshot of `html`; problems (none when there is no Chromium)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        if os.environ.get("TG_REQUIRE_JUPYTER") == "1":
            return [f"chromium is not installed (scripts/install-deps installs it)"]
        print("notebook_test: no chromium: no screenshot")
        return []
    profile = tempfile.mkdtemp(prefix="tg-chromium-")
    try:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--screenshot={png}", "--window-size=1000,3000",
                        "file://" + os.path.abspath(html)],
                       check=True, capture_output=True, timeout=TIMEOUT)
    except (subprocess.SubprocessError, OSError) as e:
        return [f"chromium failed on {html}: {e}"]
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return check_not_blank(png)


def check_not_blank(png):
    """The screenshot has drawn pixels: many colours, not one page colour."""
    try:
        import numpy
        from PIL import Image
    except ImportError:
        return [] if os.path.getsize(png) > 20000 else [f"{png}: the screenshot looks blank"]
    pixels = numpy.asarray(Image.open(png).convert("L"))
    dark = (pixels < 128).mean()
    if dark < 0.002 or len(numpy.unique(pixels)) < 16:
        return [f"{png}: the screenshot looks blank ({dark:.4f} of it dark)"]
    return []


def scratch_folder(out_dir, path):
    """A folder for the notebook to run in, beside a link to the examples'
    data (the notebooks read ../data/...): what they save stays out of the
    source tree."""
    run_dir = os.path.join(out_dir, "run", "notebooks")
    os.makedirs(run_dir, exist_ok=True)
    data = os.path.join(out_dir, "run", "data")
    if not os.path.lexists(data):
        os.symlink(os.path.abspath(os.path.join(os.path.dirname(path), "..", "data")), data)
    return run_dir


def run(tg, out_dir, path):
    name = os.path.splitext(os.path.basename(path))[0]
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=TIMEOUT, kernel_name="tg",
                                     resources={"metadata": {"path": scratch_folder(out_dir, path)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        return [f"{name}: {e}"]
    executed = os.path.join(out_dir, name + ".ipynb")
    nbformat.write(nb, executed)
    problems = check(nb, name)
    html = os.path.join(out_dir, name + ".html")
    # tests/jupyter/nbconvert/tg_lab: the lab page with SVG outputs kept as they are
    conv = subprocess.run(["jupyter-nbconvert", "--to", "html", "--template", "tg_lab",
                           "--TemplateExporter.extra_template_basedirs=" + os.path.join(HERE, "nbconvert"),
                           "--output", os.path.abspath(html), executed],
                          capture_output=True, text=True, timeout=TIMEOUT)
    if conv.returncode != 0:
        return problems + [f"{name}: jupyter-nbconvert failed: {conv.stderr[-2000:]}"]
    page = open(html, encoding="utf-8").read()
    # the tables, and pictures with what they draw: Graphviz's nodes (<ellipse>), PLplot's lines (<polyline>)
    for part in ("<table", "<svg", "<ellipse", "<polyline"):
        if part not in page:
            problems.append(f"{name}: {html} has no {part}")
    return problems + screenshot(html, os.path.join(out_dir, name + ".png"))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    tg, out_dir = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    if not shutil.which("jupyter-nbconvert"):
        if os.environ.get("TG_REQUIRE_JUPYTER") == "1":
            return "notebook_test: jupyter-nbconvert is not installed (scripts/install-deps installs it)"
        print("notebook_test: skipped: no jupyter-nbconvert")
        return 77
    notebooks = argv[2:] or sorted(glob.glob(os.path.join(HERE, "..", "..", "examples", "notebooks", "*.ipynb")))
    os.makedirs(out_dir, exist_ok=True)
    prefix = register(tg)
    problems = []
    try:
        for path in notebooks:
            found = run(tg, out_dir, path)
            print(f"{os.path.basename(path)}: {'ok' if not found else 'FAILED'}")
            problems += found
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
