#!/usr/bin/env python3
"""The getting-started notebook is made from docs/getting-started.md, so the
two tell the same tour.

    tour_notebook.py DOC.md NOTEBOOK.ipynb           # writes the notebook
    tour_notebook.py --check DOC.md NOTEBOOK.ipynb   # fails when it is stale

Prose becomes markdown cells, each ```python piece a code cell (a piece
that is a `# file: NAME` and the ```console blocks stay in the prose: the
notebook has no shell), and each `<!-- notebook: CODE -->` line a code cell
of its own — what a notebook shows better than a page (a tensor's table, a
`%graph` picture). Outputs are left empty: ctest `notebooks` executes it.
"""
import json
import re
import sys

FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)
EXTRA = re.compile(r"^<!-- notebook: (.*?) -->\n", re.M)


def lines(text):
    parts = text.splitlines(keepends=True)
    if parts:
        parts[-1] = parts[-1].rstrip("\n")
    return parts


def cells(doc):
    out = []

    def cell_id():  # nbformat 4.5: every cell has an id, stable for a stable page
        return f"tour-{len(out):02d}"

    def markdown(text):
        text = EXTRA.sub("", text).strip("\n")
        if text:
            out.append({"cell_type": "markdown", "id": cell_id(), "metadata": {}, "source": lines(text)})

    def code(text):
        out.append({"cell_type": "code", "execution_count": None, "id": cell_id(), "metadata": {}, "outputs": [],
                    "source": lines(text.rstrip("\n"))})

    pos = 0
    events = sorted([(m.start(), m.end(), "fence", m) for m in FENCE.finditer(doc)] +
                    [(m.start(), m.end(), "extra", m) for m in EXTRA.finditer(doc)])
    prose = ""
    for start, end, kind, m in events:
        if start < pos:
            continue
        prose += doc[pos:start]
        pos = end
        if kind == "extra":
            markdown(prose)
            prose = ""
            code(m.group(1).replace("\\n", "\n"))
        elif m.group(1) == "python" and not m.group(2).startswith("# file: "):
            markdown(prose)
            prose = ""
            code(m.group(2))
        elif m.group(1) == "text" and not m.group(2).strip():
            pass  # a piece that prints nothing
        elif m.group(1) == "text":
            pass  # what a piece prints: the notebook shows it when it runs
        else:
            prose += doc[start:end]
    markdown(prose + doc[pos:])
    return out


def notebook(doc):
    return {
        "cells": cells(doc),
        "metadata": {
            "kernelspec": {"display_name": "tg", "language": "tg", "name": "tg"},
            "language_info": {"file_extension": ".tg", "name": "tg"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def main(argv):
    check = argv[:1] == ["--check"]
    if check:
        argv = argv[1:]
    doc_path, nb_path = argv
    text = json.dumps(notebook(open(doc_path).read()), indent=1, ensure_ascii=False) + "\n"
    if check:
        if open(nb_path).read() != text:
            sys.exit(f"{nb_path} is older than {doc_path}: run tests/docs/tour_notebook.py {doc_path} {nb_path}")
        print(f"{nb_path}: made from {doc_path}")
        return
    open(nb_path, "w").write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
