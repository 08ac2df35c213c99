"""The wheel carries the data folders: an installed copy parses and validates away from the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
import nile_align
from nile_align.resources import data_dir
from nile_align.cli import main
from nile_align.judge.templates import available_templates
assert set(available_templates()) >= {"net", "para", "fr", "rev"}
print(json.dumps({"module": nile_align.__file__, "grammar": str(data_dir("grammar")),
                  "templates": str(data_dir("templates")), "corpora": str(data_dir("corpora"))}))
sys.stdout.flush()
sys.exit(main(["validate", "-q", "--format", "text", "--column", "nile", "--allow-empty",
               str(data_dir("corpora") / "demo.csv")]))
"""


def test_installed_wheel_finds_its_grammar_and_corpora(tmp_path):
    dist, site = tmp_path / "dist", tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist), str(ROOT)], check=True, capture_output=True)
    (wheel,) = dist.glob("nile_align-*.whl")
    from nile_align import __version__

    assert wheel.name.startswith(f"nile_align-{__version__}-")  # read from nile_align.resources
    names = zipfile.ZipFile(wheel).namelist()
    assert "nile_align/review/assets/review.js" in names  # the review page's own files
    assert "nile_align/_data/grammar/nile.lark" in names
    assert "nile_align/_data/grammar/nile-lenient.lark" in names
    assert "nile_align/_data/grammar/english.toml" in names
    assert "nile_align/_data/corpora/demo.csv" in names
    assert "nile_align/_data/templates/net.toml" in names
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(site)}
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    import json

    where = json.loads(proc.stdout.splitlines()[0])
    for key in ("module", "grammar", "templates", "corpora"):
        assert where[key].startswith(str(site)), where
