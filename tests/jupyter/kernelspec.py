"""The tg kernel registered for a test (tests/jupyter): `tg kernel install
--prefix` into a temporary folder that JUPYTER_PATH then names."""
import os
import subprocess
import tempfile


def register(tg):
    """A temporary JUPYTER_PATH with the kernelspec of `tg`; returns its prefix."""
    prefix = tempfile.mkdtemp(prefix="tg-jupyter-")
    subprocess.run([tg, "kernel", "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    return prefix
