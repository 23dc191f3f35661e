"""The package's shape, as the README's "Architecture" section states it (the layer contracts
themselves are import-linter's, in ``pyproject.toml``, run by ``make lint``)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "s3connect"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_package_root_holds_at_most_six_modules() -> None:
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root) <= 6, root
    assert "errors.py" in root


def test_no_module_imports_another_modules_private_names() -> None:
    found = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("s3connect"):
                found += [
                    f"{_name(path)}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_")
                ]
    assert found == []


def test_no_function_is_over_80_lines() -> None:
    long = [
        f"{_name(path)}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for path in MODULES
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > 80
    ]
    assert long == []


def test_only_spark_and_app_import_pyspark() -> None:
    found = []
    for path in MODULES:
        layer = _name(path).split(".")[1] if "." in _name(path) else ""
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if layer not in ("spark", "app") and any(n.split(".")[0] == "pyspark" for n in names):
                found.append(_name(path))
    assert found == []


def test_every_integration_module_carries_the_integration_marker() -> None:
    # `make unit` (-m "not integration") must not collect a test that needs the stack.
    root = Path(__file__).resolve().parents[1] / "integration"
    unmarked = [
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("test_*.py"))
        if "pytestmark = pytest.mark.integration" not in p.read_text()
    ]
    assert unmarked == []
