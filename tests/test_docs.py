"""The contributor guide's worked example is the real code: each snippet appears verbatim in its source."""
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = open(os.path.join(ROOT, "docs", "CONTRIBUTING.md")).read()
EXAMPLE = GUIDE[GUIDE.index("### Worked example"):]
BLOCKS = re.findall(r"```(?:python|cuda)\n(.*?)```", EXAMPLE, re.S)
SOURCES = ["paddlelite/ops/activation.py", "paddlelite/ops/activation.py", "kernels/common.cuh",
           "tests/op_cases/activation.py", "paddlelite/nn/functional/activation.py"]


def test_every_snippet_has_a_source():
    assert len(BLOCKS) == len(SOURCES)


@pytest.mark.parametrize("k", range(len(SOURCES)), ids=SOURCES)
def test_snippet_is_in_its_source(k):
    with open(os.path.join(ROOT, SOURCES[k])) as f:
        source = f.read()
    assert BLOCKS[k].strip("\n") in source, f"the guide's snippet #{k + 1} is no longer in {SOURCES[k]}"
