#!/usr/bin/env python3
"""`tg kernel` driven by Jupyter's own client (docs/notebooks.md).

    kernel_test.py TG

Registers the kernel TG in a temporary JUPYTER_PATH (`tg kernel install
--prefix`), then runs jupyter_kernel_test's KernelTests (Debian
python3-jupyter-kernel-test: kernel info, stdout, execute results, display
data, completion, inspect, is_complete, errors) and tg's own cases: located
errors and magics, streamed output, Jupyter's interrupt stopping a compiled
loop with the kernel answering after it, restart.

Without jupyter_kernel_test or jupyter_client the test is skipped (exit 77),
unless TG_REQUIRE_JUPYTER=1 (scripts/test, CI): scripts/install-deps
installs them.
"""
import os
import sys
import time
import unittest

try:
    import jupyter_kernel_test
    from jupyter_client.manager import start_new_kernel  # noqa: F401 (jupyter_kernel_test uses it)
except ImportError as e:
    if os.environ.get("TG_REQUIRE_JUPYTER") == "1":
        sys.exit(f"kernel_test: {e} (scripts/install-deps installs python3-jupyter-kernel-test)")
    print(f"kernel_test: skipped: {e}")
    sys.exit(77)

from kernelspec import register  # noqa: E402 (after the skip above)

TIMEOUT = 60


class TgKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "tg"
    language_name = "tg"
    file_extension = ".tg"
    code_hello_world = 'print("hello, world")'
    completion_samples = [
        {"text": "zeros_l", "matches": {"zeros_like"}},
        {"text": "tensor([1.0]).resh", "matches": {"reshape"}},
    ]
    complete_code_samples = ["1 + 2", 'print("x")', "def f(x):\n    return x\n\n",
                             "def f(x):\n    y = x\n\n    return y\n\n", "x = [1,\n 2]"]
    incomplete_code_samples = ["def f(x):", "x = (1,", "for i in range(3):\n    print(i)",
                               "if True:\n    a = 1\n\n    b = 2"]
    invalid_code_samples = ["x = = 1", "1 +* 2"]
    code_generate_error = "undefined_name + 1"
    code_execute_result = [
        {"code": "1 + 2", "result": "tensor(3, shape=(), dtype=i64)"},  # repr, as the REPL echoes
        {"code": "x = 5\nx * 2", "result": "tensor(10, shape=(), dtype=i64)"},
        {"code": '"a" + "b"', "result": "'ab'"},
        {"code": "tensor([1.0, 2.0])", "result": "tensor([1.0, 2.0], shape=(2,), dtype=f32)"},
    ]
    code_display_data = [
        {"code": "display(tensor([[1.0, 2.0], [3.0, 4.0]]))", "mime": "text/html"},
        {"code": "display(3)", "mime": "text/plain"},
    ]
    code_inspect_sample = "zeros"

    def run_cell(self, code):
        """The reply and the IOPub messages of executing `code`."""
        self.flush_channels()
        return self.execute_helper(code, timeout=TIMEOUT)

    def outputs(self, msgs, msg_type):
        return [m["content"] for m in msgs if m["msg_type"] == msg_type]

    def test_tg_error_located(self):
        reply, msgs = self.run_cell("x = 1\ny = x + undefined_name")
        self.assertEqual(reply["content"]["status"], "error")
        [err] = self.outputs(msgs, "error")
        self.assertRegex(err["traceback"][0], r"^<cell:\d+>:2:9: error: .*undefined_name")
        self.assertEqual(err["traceback"][1], "    2 | y = x + undefined_name")
        self.assertEqual(err["traceback"][2], "      |         ^")
        self.assertEqual(err["traceback"][3], "  in <module> (%s:2:9)" % err["traceback"][0].split(":2:9")[0])

    def test_tg_bad_magic_located(self):
        reply, msgs = self.run_cell("%nope\n1")
        self.assertEqual(reply["content"]["status"], "error")
        [err] = self.outputs(msgs, "error")
        self.assertRegex(err["traceback"][0], r"^<cell:\d+>:1:1: error: unknown magic %nope")
        reply, msgs = self.run_cell("\n%eager maybe")
        [err] = self.outputs(msgs, "error")
        self.assertRegex(err["traceback"][0], r"^<cell:\d+>:2:8: error: usage: %eager on\|off")

    def test_tg_complete_in_session(self):
        """Completion sees the session: a module's names and a variable's methods after `.`."""
        self.run_cell("import nn\nx = tensor([1.0])")
        for text, want in (("nn.line", "linear"), ("x.resh", "reshape"), ("y = x.su", "sum")):
            self.kc.complete(text)
            reply = self.get_non_kernel_info_reply()
            self.assertIn(want, reply["content"]["matches"], text)
            self.assertEqual(reply["content"]["cursor_end"], len(text))
        self.kc.complete("é = 1\nx.resh")  # cursor positions count code points, not bytes
        reply = self.get_non_kernel_info_reply()
        self.assertEqual(reply["content"]["cursor_start"], len("é = 1\nx."))

    def test_tg_inspect(self):
        self.run_cell("def scaled(x, k=2.0):\n    # x times k, for the test\n    return x * k\n")
        for code, want in (("scaled(", "x times k"), ("zeros", "zeros("), ("tensor([1.0]).reshape", "reshape")):
            self.kc.inspect(code)
            reply = self.get_non_kernel_info_reply()
            self.assertTrue(reply["content"]["found"], code)
            self.assertIn(want, reply["content"]["data"]["text/plain"], code)

    def test_tg_magics(self):
        reply, msgs = self.run_cell("%reset\nkept = 41")
        self.assertEqual(reply["content"]["status"], "ok")
        reply, msgs = self.run_cell("%vars")
        self.assertIn("kept = tensor(41, shape=(), dtype=i64)\n", "".join(s["text"] for s in self.outputs(msgs, "stream")))
        reply, msgs = self.run_cell("%time kept + 1")
        text = "".join(s["text"] for s in self.outputs(msgs, "stream"))
        self.assertRegex(text, r"time: \d+\.\d+ ms")
        self.assertEqual(self.outputs(msgs, "execute_result")[0]["data"]["text/plain"], "tensor(42, shape=(), dtype=i64)")
        code = "@graph\ndef double(x):\n    return x * 2.0\n\ndouble(tensor([1.0, 2.0]))"
        reply, msgs = self.run_cell(code)
        self.assertEqual(reply["content"]["status"], "ok")
        reply, msgs = self.run_cell("%graph double")
        [shown] = self.outputs(msgs, "display_data")
        self.assertIn("<svg", shown["data"]["image/svg+xml"])
        self.assertIn("mul", shown["data"]["text/plain"])
        for toggle in ("%eager on", "%eager off", "%trace on", "%trace off"):
            reply, msgs = self.run_cell(toggle + "\n1")
            self.assertEqual(reply["content"]["status"], "ok", toggle)

    def test_tg_tensor_table(self):
        reply, msgs = self.run_cell("reshape(arange(2000.0), (100, 20))")
        [result] = self.outputs(msgs, "execute_result")
        html = result["data"]["text/html"]
        self.assertIn("shape=(100, 20) dtype=f32", html)
        self.assertIn("min 0  max 1999  mean 999.5", html)
        self.assertIn("&hellip;", html)  # elided past 1000 elements, as NumPy
        self.assertIn("<td>1999.0</td>", html)

    def test_tg_graph_value_svg(self):
        code = "def f(x):\n    return x + 1.0\n\ng = concrete(f, spec((3,), f32))\ng"
        reply, msgs = self.run_cell(code)
        [result] = self.outputs(msgs, "execute_result")
        self.assertIn("<svg", result["data"]["image/svg+xml"])

    def test_tg_figure_inline(self):
        reply, msgs = self.run_cell('import plot\nfig = plot.line([3.0, 1.0, 2.0], label="loss", title="curve")\n'
                                    'display(fig)\nplot.hist([1.0, 2.0, 2.0])')
        self.assertEqual(reply["content"]["status"], "ok")
        [shown] = self.outputs(msgs, "display_data")
        [result] = self.outputs(msgs, "execute_result")
        for bundle in (shown["data"], result["data"]):
            self.assertTrue(bundle["image/svg+xml"].startswith("<svg"))
            self.assertIn("<polyline", bundle["image/svg+xml"])
            self.assertEqual(bundle["text/plain"], "<figure>")
        reply, msgs = self.run_cell('plot.line([1.0, 0.0], ylog=True)')
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("log-scale y axis", reply["content"]["evalue"])

    def test_tg_interrupt(self):
        """Jupyter's interrupt stops a compiled loop; the kernel answers the next request."""
        code = ("@graph\ndef spin(n):\n    i = 0\n    s = 0.0\n    while i < n:\n        s = s + 1.0\n"
                "        i = i + 1\n    return s\n\nprint(\"spinning\")\nspin(tensor(10 ** 15))")
        self.flush_channels()
        msg_id = self.kc.execute(code)
        # the print arrives while the cell still runs: output is streamed
        while True:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["msg_type"] == "stream" and "spinning" in msg["content"]["text"]:
                break
        time.sleep(0.5)  # into the compiled loop
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("interrupted", reply["content"]["evalue"])
        reply, msgs = self.run_cell("6 * 7")
        self.assertEqual(self.outputs(msgs, "execute_result")[0]["data"]["text/plain"], "tensor(42, shape=(), dtype=i64)")

    def test_tg_z_restart(self):
        """Last (z): a restarted kernel is a fresh session that answers."""
        self.run_cell("before_restart = 1")
        self.km.restart_kernel(now=True)
        self.kc.wait_for_ready(timeout=TIMEOUT)
        reply, msgs = self.run_cell("before_restart")
        self.assertEqual(reply["content"]["status"], "error")


if __name__ == "__main__":
    register(sys.argv.pop(1))
    unittest.main(verbosity=2)
