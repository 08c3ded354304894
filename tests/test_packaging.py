"""What the distribution says of itself stays true: its version is the changelog's newest, the type marker ships,
and the Docker image's pins satisfy what the package requires (the image's `pip check`, without building it)."""
import os
import re

import pytest

import paddlelite

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def test_the_changelog_starts_at_the_version():
    newest = re.search(r"^## (\S+)", _read("CHANGELOG.md"), re.M).group(1)
    assert newest == paddlelite.__version__


def test_the_version_comes_from_the_package():
    project = tomllib.loads(_read("pyproject.toml"))
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "paddlelite.__version__"}


def test_the_type_marker_ships():
    project = tomllib.loads(_read("pyproject.toml"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["paddlelite"]
    assert os.path.exists(os.path.join(os.path.dirname(paddlelite.__file__), "py.typed"))


def test_the_docker_pins_satisfy_the_requirements():
    requirements = pytest.importorskip("packaging.requirements")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", _read("docker", "requirements.txt"), re.M))
    pins = {name.lower().replace("_", "-"): version for name, version in pins.items()}
    for line in tomllib.loads(_read("pyproject.toml"))["project"]["dependencies"]:
        req = requirements.Requirement(line)
        name = req.name.lower().replace("_", "-")
        assert name in pins, f"docker/requirements.txt pins no {req.name}"
        assert req.specifier.contains(pins[name]), f"docker/requirements.txt: {name}=={pins[name]} is not {req}"
