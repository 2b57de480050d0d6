"""The layout stays as the README draws it: layers that only point down, no import cycles, no
heavy browser or model library in the coder and graph layers, no file too long to read."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["tasks", "mcp_servers", "agents", "graphs", "evals"]  # each may import only from itself and those before it
HEAVY = ("playwright", "torch", "transformers")
MAX_LINES = 400


def module_name(path: Path) -> str:
    """The name a layer's file is imported by: the build ships each top-level folder as `iwr.<folder>`."""
    parts = ["iwr", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    return module.split(".")[1]


def imports_of(path: Path, here: str | None = None) -> set[str]:
    """Every module a file imports, wherever the import stands (functions included); `here` is its module name."""
    tree, here = ast.parse(path.read_text(encoding="utf-8")), here or module_name(path)
    package = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
            mod = ".".join(p for p in (base, node.module or "") if p)
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)  # `from pkg import module`
    return found


def project_files() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py")
                  if "sites" not in p.relative_to(ROOT).parts)


def graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    files = {module_name(p): p for p in project_files()}
    return {m: {i for i in imports_of(p) if i in files and i != m} for m, p in files.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def upward(edges: dict[str, set[str]]) -> list[str]:
    rank = {name: i for i, name in enumerate(LAYERS)}
    return [f"{a} -> {b}" for a, targets in sorted(edges.items()) for b in sorted(targets)
            if rank[layer(b)] > rank[layer(a)]]


def test_layers_point_down():
    assert upward(graph()) == []


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_the_checks_catch_what_they_look_for(tmp_path):
    edges = {"iwr.tasks.a": {"iwr.evals.b"}, "iwr.evals.b": {"iwr.evals.c"}, "iwr.evals.c": {"iwr.evals.b"}}
    assert upward(edges) == ["iwr.tasks.a -> iwr.evals.b"]
    assert cycles(edges) == [["iwr.evals.b", "iwr.evals.c"]]
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from torch import nn\n    import playwright.async_api\nfrom ..run import attempt\n")
    assert imports_of(f, "iwr.evals.quality.m") == {"torch", "torch.nn", "playwright.async_api", "iwr.evals.run",
                                                     "iwr.evals.run.attempt"}
    assert module_name(ROOT / "graphs" / "judge.py") == "iwr.graphs.judge"
    assert module_name(ROOT / "evals" / "cli" / "__init__.py") == "iwr.evals.cli"


def test_coders_and_graphs_load_no_browser_or_model_library():
    bad = [f"{module_name(p)} imports {i}" for layer in ("agents", "graphs") for p in (ROOT / layer).rglob("*.py")
           for i in imports_of(p) if i.split(".")[0] in HEAVY]
    assert bad == []


def test_no_file_is_too_long_to_read():
    files = [*project_files(), *(ROOT / "tests").rglob("*.py")]
    long = [f"{p.relative_to(ROOT)}: {n}" for p in files if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert long == []
