"""The package's layout: data flows one way through the stages (no import cycles, no stage
importing a later one) and the public API is importable from the top; the tests mirror it
(a folder per wing), take what they share as fixtures and use no private name."""

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
TESTS = Path(__file__).resolve().parent

#: The stages, lowest first: a module may import its own stage and those before it. Every
#: import counts, including those inside functions (kept lazy for start-up time).
LAYERS = [
    {"errors", "resources", "runtime", "guard"},
    {"nile"},         # the language: Nile text → checked intents
    {"english"},      # English text → what it states (a reading)
    {"facts"},        # readings compared with intents and with each other
    {"corpus"},       # corpora read and checked
    {"judge"},        # pairs → scores and verdicts
    {"evaluation"},   # judges measured; calibrations the graph uses
    {"graph"},        # scores → decisions and flags
    {"review"},       # flags → an expert's decisions
    {"pipeline"},     # the main job, end to end, as partitions on an engine; its outputs
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
    # A wing per stage, corpus, the four modules every stage shares (errors, resources,
    # runtime, guard) and __main__: 15 since issue 42 gave the main job a wing of its own
    # (pipeline: run, driver, engines, outputs were four top-level modules).
    assert len(units) <= 15, sorted(units)
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
    facts = copy / "facts" / "structural.py"
    facts.write_text(facts.read_text(encoding="utf-8")
                     + "\nfrom ..english.reading import _state\n", encoding="utf-8")
    line = len(facts.read_text(encoding="utf-8").splitlines())
    assert private_imports(copy) == [f"nile_align/facts/structural.py:{line}: _state"]


def test_a_planted_back_import_is_named(tmp_path):
    """The same checks on a copy of the package with one import that goes against the flow,
    and one cycle inside a stage."""
    copy = tmp_path / "nile_align"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    facts = copy / "facts" / "structural.py"
    facts.write_text(facts.read_text(encoding="utf-8") +
                     "\n\ndef _late():\n    from ..graph.translation import build_graph\n",
                     encoding="utf-8")
    grammar = copy / "nile" / "grammar.py"
    grammar.write_text(grammar.read_text(encoding="utf-8") + "\nfrom . import validate\n",
                       encoding="utf-8")
    line = len(facts.read_text(encoding="utf-8").splitlines())

    edges = package_imports(copy)
    assert back_imports(edges) == [
        f"nile_align/facts/structural.py:{line}: nile_align.facts.structural imports "
        f"nile_align.graph.translation, but 'graph' comes after 'facts' in the pipeline"]
    assert any({"nile_align.nile.grammar", "nile_align.nile.validate"} <= set(c)
               for c in cycles(edges))


def test_public_api_from_the_top():
    for name in nile_align.__all__:
        assert getattr(nile_align, name) is not None, name
    from nile_align import Scorer, check_facts, parse, run_check, validate  # noqa: F401
    assert parse("for endpoint('guests') block service('ssh')").operations
    # Every name the package loads on first use (its table of them, read from its source)
    # is listed in __all__.
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    lazy = [key.value for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
            and isinstance(node.value, ast.Dict) for key in node.value.keys
            if isinstance(key, ast.Constant)]
    assert "Scorer" in lazy and set(lazy) <= set(nile_align.__all__)


def test_no_shim_keeps_an_old_path():
    """At 0.1.0 a module lives where it is: an old path is Python's own ImportError."""
    for old in ("nile_align.nile.facts", "nile_align.nile.reading", "nile_align.partitioned",
                "nile_align.engines", "nile_align.report", "nile_align.scoring"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)
    assert not hasattr(nile_align, "MOVED")


def test_import_loads_no_heavy_stage():
    """The lazy public API keeps torch, transformers and networkx out of ``import nile_align``."""
    code = ("import sys, nile_align; nile_align.validate('for endpoint(\"a\") allow service(\"ssh\")');"
            "print(sorted(m for m in ('torch', 'transformers', 'networkx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the tests' layout ------------------------------------------------------------------------

#: Tests about the whole project, beside one ``test_<module>.py`` per top-level module.
WHOLE_PROJECT = {"test_layout.py", "test_lock.py", "test_packaging.py", "test_readme.py",
                 "test_robustness.py"}
#: Folders of tests/ that are no wing: the helpers conftest.py loads, and expected outputs.
NOT_WINGS = {"support", "expected"}


def rule_breaks(tests: Path, package: Path) -> list[str]:
    """What breaks the tests' rules, one message each: every ``test_*.py`` lives in the
    folder of the package wing it tests (``tests/judge`` for ``nile_align/judge``) or at the
    top when it is about the whole project or a top-level module; no test module or
    conftest.py imports another test file or a helper (what tests share is a fixture); no
    file of the tests imports a private name of the package."""
    units = {m.name: m.ispkg for m in pkgutil.iter_modules([str(package)])}
    wings = {name for name, ispkg in units.items() if ispkg}
    top = WHOLE_PROJECT | {f"test_{name}.py" for name, ispkg in units.items()
                           if not ispkg and not name.startswith("_")}
    ours = {p.stem for p in tests.rglob("*.py")} | {tests.name} | NOT_WINGS
    problems = []
    for folder in sorted(p for p in tests.iterdir() if p.is_dir()):
        if folder.name not in wings | NOT_WINGS and not folder.name.startswith((".", "__")):
            problems.append(f"{folder.name}/: no wing of {package.name} has this name")
    for path in sorted(tests.rglob("*.py")):
        where = path.relative_to(tests).as_posix()
        parts = path.relative_to(tests).parts
        if parts[0] in NOT_WINGS - {"support"}:
            continue
        if path.name.startswith("test_"):
            if len(parts) == 1 and path.name not in top:
                problems.append(f"{where}: a test of one wing belongs in its wing's folder")
            elif len(parts) > 1 and (len(parts) > 2 or parts[0] not in wings):
                problems.append(f"{where}: not in the folder of a wing")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
                names: list[str] = []
            elif isinstance(node, ast.ImportFrom):
                modules = ["." * node.level + (node.module or "")]
                names = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                head = module.split(".")[0]
                helper = module.startswith(".") or head in ours
                if helper and parts[0] != "support":
                    problems.append(f"{where}:{node.lineno}: imports {module}, a file of the "
                                    f"tests: take it as a fixture")
                if head == package.name:
                    private = [part for part in module.split(".")[1:] if part.startswith("_")]
                    private += [n for n in names if n.startswith("_") and not n.startswith("__")]
                    problems += [f"{where}:{node.lineno}: imports {name}, private to "
                                 f"{module}" for name in private]
    return problems


def test_the_tests_mirror_the_wings_and_import_no_helper_or_private_name():
    assert rule_breaks(TESTS, PACKAGE) == []
    units = {m.name for m in pkgutil.iter_modules(nile_align.__path__) if m.ispkg}
    assert units <= {p.name for p in TESTS.iterdir() if p.is_dir()}  # a folder per wing


def test_a_planted_break_of_the_tests_rules_is_named(tmp_path):
    tests = tmp_path / "tests"
    shutil.copytree(TESTS, tests, ignore=shutil.ignore_patterns("__pycache__"))
    (tests / "test_scoring.py").write_text("")                              # a wing's test
    (tests / "judge" / "test_cases.py").write_text(
        "from tiny_model import build_tiny_model\n"                         # a helper
        "from test_reading import facts\n"                                  # another test
        "from nile_align.english.matching import _needed, Patterns\n"       # a private name
        "import nile_align.cli._private\n")
    (tests / "judge" / "deeper").mkdir()
    (tests / "judge" / "deeper" / "test_x.py").write_text("")
    (tests / "models").mkdir()
    assert rule_breaks(tests, PACKAGE) == [
        "models/: no wing of nile_align has this name",
        "judge/deeper/test_x.py: not in the folder of a wing",
        "judge/test_cases.py:1: imports tiny_model, a file of the tests: take it as a fixture",
        "judge/test_cases.py:2: imports test_reading, a file of the tests: take it as a "
        "fixture",
        "judge/test_cases.py:3: imports _needed, private to nile_align.english.matching",
        "judge/test_cases.py:4: imports _private, private to nile_align.cli._private",
        "test_scoring.py: a test of one wing belongs in its wing's folder"]
