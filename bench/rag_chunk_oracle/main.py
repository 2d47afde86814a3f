"""An "oracle directory" for bench/strategies.py whose strategies are the Python package
rag_chunk's (lib_rag_chunk.py), so that the package and the libraries are timed by the same
harness: same cases, same warm-up, each call in a fresh fork, the median (bench/python.py)."""

import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def load_oracles():
    table = {}
    for name in sorted(os.listdir(HERE)):
        if name.startswith("lib_") and name.endswith(".py"):
            table.update(importlib.import_module(name[:-3]).ORACLES)
    return table
