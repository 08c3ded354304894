"""Paddle's official tutorials run unchanged through `python -m paddlelite` (issue 28): each notebook of
tests/paddle_tutorials/tutorials.py, with synthetic data and small step counts in place of its downloads and epochs,
trains from the same start as real Paddle did and must give the losses Paddle recorded, step by step.

The notebooks are the copies in tests/paddle_tutorials/vendored (or a checkout of Paddle's docs repository named by
$PADDLELITE_PADDLE_DOCS). With real Paddle installed, the recorded losses are checked to be what Paddle gives now.
"""
import importlib.util

import numpy as np
import pytest

from tests.paddle_tutorials import tutorials

pytestmark = [
    pytest.mark.skipif(tutorials.docs() is None, reason=f"${tutorials.DOCS_VAR} is not a checkout of {tutorials.DOCS_REPO}"),
    pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="the tutorials plot with matplotlib"),
]
# float32 on different kernels (summation orders) over at most ~20 optimizer steps
RTOL, ATOL = 1e-4, 1e-6


def _missing_modules(name):
    return [m for m in tutorials.TUTORIALS[name].modules if importlib.util.find_spec(m) is None]


def _case(name, under_paddlelite=True):
    """The tutorial as a test case: skipped without the modules it imports, expected to fail under paddlelite while it
    has a known bug."""
    marks = [pytest.mark.skipif(bool(_missing_modules(name)), reason=f"{name} imports {_missing_modules(name)}")]
    bug = tutorials.TUTORIALS[name].known_bug
    if bug and under_paddlelite:
        marks.append(pytest.mark.xfail(reason=bug, strict=True))
    return pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", [_case(name) for name in tutorials.TUTORIALS])
def test_tutorial_matches_paddle_step_by_step(name):
    recorded = tutorials.load_recorded(name)
    losses = tutorials.run(name, "paddlelite")
    assert len(losses) == len(recorded), f"{name}: {len(losses)} backward steps, Paddle took {len(recorded)}"
    np.testing.assert_allclose(losses, recorded, rtol=RTOL, atol=ATOL, err_msg=name)


@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="real Paddle is not installed")
@pytest.mark.parametrize("name", [_case(name, under_paddlelite=False) for name in tutorials.TUTORIALS])
def test_recorded_losses_are_paddles(name):
    np.testing.assert_allclose(tutorials.run(name, "paddle"), tutorials.load_recorded(name), rtol=RTOL, atol=ATOL,
                               err_msg=f"{name}: rerun `python -m tests.paddle_tutorials.tutorials --record {name}`")
