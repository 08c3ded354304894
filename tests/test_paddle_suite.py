"""Paddle's own unit tests run unchanged against paddlelite (issue 28): a sample of Paddle's public-API test files
(tests/paddle_suite/manifest.py), one process per file as Paddle's CI runs them, each under `python -m paddlelite`.
A test that fails must be listed: failing under real Paddle 3.3.1 too (paddle_fails.json, kept true by
test_paddle_fails_list_is_true when Paddle is installed), a deliberate difference, or a known bug with its issue.

The files are the copies in tests/paddle_suite/vendored (or a checkout of Paddle's repository named by
$PADDLELITE_PADDLE_SOURCES, see tests/paddle_suite/README.md).
"""
import importlib.util

import pytest

from tests.paddle_suite import manifest, suite

needs_sources = pytest.mark.skipif(suite.sources() is None,
                                   reason=f"${suite.SOURCES_VAR} is not a checkout of {manifest.REPO}")


@needs_sources
@pytest.mark.parametrize("path", list(manifest.FILES))
def test_file_under_paddlelite(path):
    unexpected, stale = suite.compare(path, suite.run(path, "paddlelite"), suite.load_paddle_fails())
    assert not unexpected, f"{path}: failing tests not listed in tests/paddle_suite: {unexpected}"
    assert not stale, f"{path}: listed as failing but passing (remove from the lists): {stale}"


@needs_sources
@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="real Paddle is not installed")
@pytest.mark.parametrize("path", list(manifest.FILES))
def test_paddle_fails_list_is_true(path):
    intermittent = manifest.INTERMITTENT.get(path, {})
    if "*" in intermittent:
        pytest.skip(f"{path}: its random inputs decide what fails ({intermittent['*']})")
    recorded = {name for name in suite.load_paddle_fails().get(path, {}) if name not in intermittent}
    failed = {name for name in suite.failures(suite.run(path, "paddle")) if name not in intermittent}
    assert sorted(failed) == sorted(recorded), (
        f"{path}: real Paddle's failures changed; rerun `python -m tests.paddle_suite.suite --record {path}`: "
        f"now {sorted(failed)}, recorded {sorted(recorded)}")


def test_lists_name_only_manifest_files():
    """Every list entry names a file of the manifest, and every difference and known bug says why."""
    for table in (manifest.DIFFERENCES, manifest.KNOWN_BUGS, manifest.INTERMITTENT, suite.load_paddle_fails()):
        assert set(table) <= set(manifest.FILES), set(table) - set(manifest.FILES)
    for table in (manifest.DIFFERENCES, manifest.KNOWN_BUGS):
        for path, tests in table.items():
            assert all(isinstance(why, str) and why.strip() for why in tests.values()), path
    assert len(manifest.FILES) >= 60
