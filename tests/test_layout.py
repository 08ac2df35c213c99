"""The package's layout: data flows one way through the stages (no import cycles, no stage
importing a later one), the public API is importable from the top, and old module paths
fail with an ImportError that names the new one."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

import nile_align

PACKAGE = Path(nile_align.__file__).resolve().parent

#: The stages, lowest first: a module may import its own stage and those before it. Every
#: import counts, including those inside functions (kept lazy for start-up time).
LAYERS = [
    {"errors", "resources", "runtime", "guard"},
    {"nile"},         # text → intents and their facts
    {"corpus"},       # corpora read and checked
    {"judge"},        # pairs → scores and verdicts
    {"evaluation"},   # judges measured; calibrations the graph uses
    {"graph"},        # scores → decisions and flags
    {"review"},       # flags → an expert's decisions
    {"report"},       # the outputs of a check
    {"pipeline", "partitioned", "engines"},  # the main job, end to end, as partitions
    {"cli"},          # the command line
    {"__init__", "__main__"},
]
RANK = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}


def module_name(path: Path, root: Path) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_imports(root: Path) -> list[tuple[str, str, int, str]]:
    """Every import of a ``root`` module by another: (importer, file:line, imported
    module, importer's stage) from the source, so a function-level import counts too."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    edges = []
    for name, path in sorted(modules.items()):
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # ``from . import x`` imports the module x when there is one.
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                           for a in node.names]
            else:
                continue
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                if target in modules and target != name:
                    where = f"{path.relative_to(root.parent)}:{node.lineno}"
                    edges.append((name, where, target, stage(name)))
    return edges


def stage(module: str) -> str:
    """The top-level unit of a module: ``nile_align.judge.scoring`` → ``judge``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def back_imports(edges) -> list[str]:
    """One message for each import of a later stage, naming the file and line."""
    return [f"{where}: {importer} imports {target}, but {stage(target)!r} comes after "
            f"{importer_stage!r} in the pipeline"
            for importer, where, target, importer_stage in edges
            if RANK[stage(target)] > RANK[importer_stage]]


def cycles(edges) -> list[list[str]]:
    return list(nx.simple_cycles(nx.DiGraph((a, t) for a, _, t, _ in edges)))


def test_every_top_level_unit_has_a_stage():
    units = {m.name for m in pkgutil.iter_modules(nile_align.__path__)}
    # The stages' subpackages and the few modules every stage shares; 13 since `runtime`
    # (how long jobs run: the collector paused) joined errors and resources at the bottom,
    # 14 since `partitioned` (the main job as partitions, on Ray) joined `pipeline`, 15 since
    # `engines` (where the partitions run: a pool of processes, or Ray) joined them, 16 since
    # `guard` (what every command writes and shows: nothing overwritten, nothing injected)
    # joined the bottom.
    assert len(units) <= 16, sorted(units)
    assert units | {"__init__"} == set(RANK), "a new top-level module needs a place in LAYERS"


def test_data_flows_one_way():
    edges = package_imports(PACKAGE)
    assert len(edges) > 100  # the walk sees the package's imports, relative ones included
    assert back_imports(edges) == []
    assert cycles(edges) == []


def private_imports(root: Path) -> list[str]:
    """Every ``from X import _name`` of a package module by another module: a private name
    is its module's own."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                    root.name)):
                out += [f"{path.relative_to(root.parent)}:{node.lineno}: {a.name}"
                        for a in node.names if a.name.startswith("_")
                        and not a.name.startswith("__")]
    return out


def test_no_module_imports_another_modules_private_name(tmp_path):
    assert private_imports(PACKAGE) == []
    copy = tmp_path / "nile_align"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    facts = copy / "nile" / "facts.py"
    facts.write_text(facts.read_text(encoding="utf-8") + "\nfrom .reading import _state\n",
                     encoding="utf-8")
    line = len(facts.read_text(encoding="utf-8").splitlines())
    assert private_imports(copy) == [f"nile_align/nile/facts.py:{line}: _state"]


def test_a_planted_back_import_is_named(tmp_path):
    """The same checks on a copy of the package with one import that goes against the flow,
    and one cycle inside a stage."""
    copy = tmp_path / "nile_align"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    facts = copy / "nile" / "facts.py"
    facts.write_text(facts.read_text(encoding="utf-8") +
                     "\n\ndef _late():\n    from ..graph.translation import build_graph\n",
                     encoding="utf-8")
    grammar = copy / "nile" / "grammar.py"
    grammar.write_text(grammar.read_text(encoding="utf-8") + "\nfrom . import facts\n",
                       encoding="utf-8")
    line = len(facts.read_text(encoding="utf-8").splitlines())

    edges = package_imports(copy)
    assert back_imports(edges) == [
        f"nile_align/nile/facts.py:{line}: nile_align.nile.facts imports "
        f"nile_align.graph.translation, but 'graph' comes after 'nile' in the pipeline"]
    assert any({"nile_align.nile.grammar", "nile_align.nile.facts"} <= set(c)
               for c in cycles(edges))


def test_public_api_from_the_top():
    for name in nile_align.__all__:
        assert getattr(nile_align, name) is not None, name
    from nile_align import Scorer, check_facts, parse, run_check, validate  # noqa: F401
    assert parse("for endpoint('guests') block service('ssh')").operations
    assert set(nile_align._LAZY) <= set(nile_align.__all__)


@pytest.mark.parametrize("old", sorted(nile_align.MOVED))
def test_old_module_paths_say_where_they_went(old):
    with pytest.raises(ImportError, match=rf"moved to nile_align\.{nile_align.MOVED[old]}"):
        importlib.import_module(f"nile_align.{old}")
    new = importlib.import_module(f"nile_align.{nile_align.MOVED[old]}")
    assert new.__name__ == f"nile_align.{nile_align.MOVED[old]}"


@pytest.mark.parametrize("statement, where", [
    ("from nile_align.graph import build_graph", "nile_align.graph.translation"),
    ("from nile_align.review import ReviewStore", "nile_align.review.store"),
    ("from nile_align.review import Decisions", "nile_align.graph.decisions"),
])
def test_old_names_of_packages_that_kept_their_name(statement, where):
    with pytest.raises(ImportError, match=f"moved to {where}"):
        exec(statement, {})


def test_import_loads_no_heavy_stage():
    """The lazy public API keeps torch, transformers and networkx out of ``import nile_align``."""
    code = ("import sys, nile_align; nile_align.validate('for endpoint(\"a\") allow service(\"ssh\")');"
            "print(sorted(m for m in ('torch', 'transformers', 'networkx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
