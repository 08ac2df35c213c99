"""What this nile_align installation is: its version, and where its data folders
(``grammar/``, ``templates/``, ``corpora/``) are.

A wheel carries them inside the package as ``nile_align/_data/<name>`` (see
``pyproject.toml``); a source checkout or an editable install has them at the
repository root, next to the package.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

#: The package version (read by the build backend from here; in every score's signature).
__version__ = "0.1.0"


def data_dir(name: str) -> Traversable:
    """The shipped data folder ``name``: inside the installed package, else in the checkout."""
    installed = resources.files("nile_align").joinpath("_data", name)
    if installed.is_dir():
        return installed
    checkout = Path(__file__).resolve().parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"nile_align data folder {name!r} is missing from this installation")


def read_text(name: str, filename: str) -> str:
    """The text of ``filename`` inside the data folder ``name``."""
    return data_dir(name).joinpath(filename).read_text(encoding="utf-8")
