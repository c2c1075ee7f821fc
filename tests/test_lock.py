"""The lock file (``constraints.txt``, made by ``ops/lock``) pins every
dependency that ``pyproject.toml`` asks for, at a version its range admits, so
that ``ops/serve`` and ``ops/test`` install the same thing on every machine."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for raw in (ROOT / "constraints.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep, f"constraints.txt: {line!r} is not an exact pin"
        pins[canonicalize_name(name)] = Version(version)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in project.get("optional-dependencies", {}).values():
        found += [Requirement(r) for r in extra]
    return found


@pytest.mark.parametrize("requirement", _requirements(), ids=str)
def test_every_dependency_is_pinned_within_its_range(requirement: Requirement) -> None:
    pins = _pins()
    name = canonicalize_name(requirement.name)
    assert name in pins, f"{requirement.name} is not in constraints.txt: run ops/lock"
    assert pins[name] in requirement.specifier, (
        f"constraints.txt pins {requirement.name}=={pins[name]}, outside {requirement.specifier}"
    )


def test_the_install_scripts_use_the_lock_file() -> None:
    assert "-c constraints.txt" in (ROOT / "ops" / "_venv.sh").read_text()


def test_the_distribution_installs_one_top_level_package() -> None:
    """DESIGN §6: nothing generic goes into site-packages; every package the
    build finds (with pyproject.toml's own ``find`` settings) is ``cgledger``
    or inside it."""
    from setuptools import find_packages

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = find_packages(str(ROOT), include=find["packages"]["find"]["include"])
    assert "cgledger.domain.rulesets" in packages
    assert {p.split(".")[0] for p in packages} == {"cgledger"}
