"""Find the data folders (``grammar/``, ``templates/``, ``corpora/``) of an installed
or checked-out nile_align.

A wheel carries them inside the package as ``nile_align/_data/<name>`` (see
``pyproject.toml``); a source checkout or an editable install has them at the
repository root, next to the package.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path


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
