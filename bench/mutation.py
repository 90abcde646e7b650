"""Mutation testing by hand, one module at a time against its own tests.

    .venv/bin/python bench/mutation.py audit/merkle.py [MODULE ...] [--tests FILE ...]

Each mutant is one small change to the module's source (an operator, a comparison, a constant,
a removed statement or `not`, a negated condition), applied to a copy of the project in
./mutants/<name>/; the module's tests run against it with `pytest -x -q -p no:cacheprovider`,
in a child forked from a process that has already imported the heavy libraries (but none of
the project), under a timeout of 1.5 times the clean run (which coverage slows). A failing
run kills the mutant; only the tests that run the mutant's lines are run (coverage contexts).

Tests: --tests, else the module's entry in TESTS, else tests/**/test_<stem>*.py.
Strings that are only an error's message (a raise's arguments after its code) are not mutated,
only counted: a message is not behaviour. --rerun runs again only the mutants that survived
the last run (tests are only ever added, so a killed mutant stays killed).

Not mutmut 3.8.1: it mutates only inside functions (module constants such as MAX_SIZE and
MAX_SIGNATURES, which carry the spec's limits, are never mutated) and lists and runs the whole
suite before its first mutant (4-15 minutes on this shared machine). This driver uses the same
kinds of mutation, plus removed statements and negated conditions.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import json
import os
import shlex
import shutil
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "mutants"

TESTS = {
    # The store is not what is mutated here: its PostgreSQL runs repeat the SQLite ones.
    "domain/match.py": ["tests/test_match_mutants.py", "tests/test_match_ledger.py",
                        "tests/test_sealing.py", "tests/test_snapshots.py", "-m", "not postgres"],
    "audit/merkle.py": ["tests/audit/test_merkle_mutants.py", "tests/audit/test_merkle.py"],
    "audit/notes.py": ["tests/audit/test_notes_mutants.py", "tests/audit/test_notes.py"],
    "audit/canonical.py": ["tests/audit/test_canonical_mutants.py", "tests/test_canonical.py",
                           "tests/audit/test_canonical_vectors.py"],
    "audit/checkpoints.py": ["tests/audit/test_checkpoints_mutants.py",
                             "tests/test_checkpoints.py", "-m", "not postgres"],
    "audit/witness.py": ["tests/audit/test_witness_mutants.py",
                         "tests/audit/test_cut_and_rekey.py"],
    "audit/keys.py": ["tests/audit/test_keys_mutants.py", "tests/audit/test_keys.py"],
    "audit/state_root.py": ["tests/audit/test_state_root_mutants.py"],
    "audit/signing.py": ["tests/audit/test_signing_mutants.py", "tests/test_checkpoints.py",
                         "-m", "not postgres"],
}
HEAVY = ["pytest", "hypothesis", "pydantic", "eventsourcing", "psycopg", "psycopg_pool",
         "cryptography.hazmat.primitives.asymmetric.ed25519", "fastapi", "starlette",
         "click", "rich", "orjson", "msgspec", "rfc8785", "httpx", "jinja2"]
SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
            ast.FloorDiv: ast.Div, ast.Mod: ast.Div, ast.Pow: ast.Mult, ast.LShift: ast.RShift,
            ast.RShift: ast.LShift, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
            ast.BitXor: ast.BitAnd}
SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
            ast.In: ast.NotIn, ast.NotIn: ast.In}


class Mutant:
    def __init__(self, node: ast.AST, text: str, what: str) -> None:
        self.line, self.col = node.lineno, node.col_offset
        self.end = (node.end_lineno, node.end_col_offset)
        self.text, self.what = text, what
        self.key = f"{self.line}:{self.col}:{what}"


def _expr(node: ast.expr) -> str:
    return f"({ast.unparse(node)})"


def _copy(node: ast.AST, **changes: object) -> ast.AST:
    fields = {name: getattr(node, name) for name in node._fields}
    return type(node)(**{**fields, **changes})


def _skipped(tree: ast.Module) -> tuple[set[int], set[int]]:
    """Nodes never mutated (docstrings, annotations, f-strings, __all__), and the ids of
    message strings."""
    skip: set[int] = set()
    messages: set[int] = set()

    def drop(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                and isinstance(first.value.value, str):
            drop(first)
        if isinstance(node, ast.arg | ast.AnnAssign):
            drop(node.annotation)
        if isinstance(node, ast.FunctionDef):
            drop(node.returns)
        if isinstance(node, ast.JoinedStr):
            drop(node)
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ("__all__", "__slots__") for t in node.targets):
            drop(node)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            call = node.exc
            # A lone argument is the message; with more, the first is the error's code.
            for arg in call.args[len(call.args) > 1:]:
                for n in ast.walk(arg):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str):
                        messages.add(id(n))
    return skip, messages


def mutants(source: str) -> tuple[list[Mutant], int]:
    """Every mutant of `source`, and how many message-only mutants were set aside."""
    tree = ast.parse(source)
    skip, messages = _skipped(tree)
    found: list[Mutant] = []
    message_only = 0
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if id(node) in messages:
            message_only += 1
            continue
        add = found.append
        if isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            new = SWAP_BIN[type(node.op)]
            add(Mutant(node, _expr(_copy(node, op=new())),
                       f"{type(node.op).__name__}->{new.__name__}"))
        elif isinstance(node, ast.AugAssign) and type(node.op) in SWAP_BIN:
            new = SWAP_BIN[type(node.op)]
            add(Mutant(node, ast.unparse(_copy(node, op=new())), f"aug {type(node.op).__name__}"))
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP_CMP:
                    ops = [*node.ops]
                    ops[i] = SWAP_CMP[type(op)]()
                    add(Mutant(node, _expr(_copy(node, ops=ops)),
                               f"{type(op).__name__}->{type(ops[i]).__name__} #{i}"))
        elif isinstance(node, ast.BoolOp):
            new = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            add(Mutant(node, _expr(_copy(node, op=new)),
                       f"{type(node.op).__name__}->{type(new).__name__}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub | ast.Invert):
            add(Mutant(node, _expr(node.operand), f"drop {type(node.op).__name__}"))
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                add(Mutant(node, repr(not value), f"{value}->{not value}"))
            elif isinstance(value, int):
                add(Mutant(node, repr(value + 1), f"{value}->{value + 1}"))
            elif isinstance(value, str | bytes):
                add(Mutant(node, repr(_xx(value)), "string"))
        elif isinstance(node, ast.Expr):
            add(Mutant(node, "pass", "drop statement"))
        elif isinstance(node, ast.Raise):
            add(Mutant(node, "pass", "drop raise"))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            add(Mutant(node.value, "None", "value->None"))
        elif isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            add(Mutant(node.value, "None", "return None"))
        elif isinstance(node, ast.Break):
            add(Mutant(node, "continue", "break->continue"))
        elif isinstance(node, ast.Continue):
            add(Mutant(node, "break", "continue->break"))
        if isinstance(node, ast.If | ast.While | ast.IfExp) and not isinstance(
                node.test, ast.Compare | ast.BoolOp | ast.UnaryOp):
            add(Mutant(node.test, f"(not {ast.unparse(node.test)})", "negate condition"))
    seen: dict[str, int] = {}
    for m in found:  # two mutants of one place and kind keep their own results
        seen[m.key] = seen.get(m.key, 0) + 1
        if seen[m.key] > 1:
            m.key += f" copy {seen[m.key]}"
    return found, message_only


def _xx(value: str | bytes) -> str | bytes:
    return b"XX" + value + b"XX" if isinstance(value, bytes) else "XX" + value + "XX"


def apply(source: str, mutant: Mutant) -> str:
    raw = source.encode()
    starts = [0]
    for line in raw.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    begin = starts[mutant.line - 1] + mutant.col
    end = starts[mutant.end[0] - 1] + mutant.end[1]
    return (raw[:begin] + mutant.text.encode() + raw[end:]).decode()


class _Contexts:
    """A pytest plugin for the clean run: which test runs each line of the module."""

    def __init__(self, cov) -> None:
        self.cov = cov

    def pytest_runtest_protocol(self, item, nextitem):
        self.cov.switch_context(item.nodeid)


def run_tests(copy: Path, module: str, tests: list[str], timeout: float, log: Path,
              coverage_file: Path | None = None) -> str:
    pid = os.fork()
    if pid == 0:  # the child: a fresh import of the project from the copy
        code = 3
        try:
            os.setpgid(0, 0)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(out, 2)
            os.chdir(copy)
            sys.path.insert(0, str(copy))
            import pytest
            plugins = []
            if coverage_file is not None:
                import coverage
                cov = coverage.Coverage(data_file=None, include=[str(copy / module)],
                                        config_file=False)
                plugins.append(_Contexts(cov))
                cov.start()
            # Autoloading every installed plugin costs some 20 s a run here; the suite needs
            # only hypothesis's.
            os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
            code = int(pytest.main(["-x", "-q", "-p", "no:cacheprovider",
                                    "-p", "_hypothesis_pytestplugin", *tests], plugins=plugins))
            if coverage_file is not None:
                cov.stop()
                data = cov.get_data()
                by_line = data.contexts_by_lineno(str(copy / module))
                coverage_file.write_text(json.dumps(by_line))
            loaded = sys.modules.get(module.removesuffix(".py").replace("/", "."))
            if loaded is not None and not str(loaded.__file__).startswith(str(copy)):
                print(f"MUTATION DRIVER: {module} was imported from {loaded.__file__}",
                      flush=True)
                code = 4
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return {0: "survived", 1: "killed", 2: "killed"}.get(code, f"error {code}")
        time.sleep(0.05)
    os.killpg(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "timeout"


def _selected(m: Mutant, by_line: dict[int, list[str]], tests: list[str],
              options: list[str]) -> list[str]:
    """The tests that run the mutant's lines, in their order; all of them when only the import
    runs those lines (a constant, a default) or coverage names none (a line inside a longer
    statement)."""
    ids = {c for line in range(m.line, m.end[0] + 1) for c in by_line.get(line, [])}
    if not ids or "" in ids:
        return tests
    return [*options, *sorted(ids, key=lambda nodeid: (_order(nodeid, tests), nodeid))]


def _order(nodeid: str, tests: list[str]) -> int:
    path = nodeid.split("::")[0]
    return tests.index(path) if path in tests else len(tests)


def tests_of(module: str, given: list[str] | None) -> list[str]:
    """Test files and pytest options; a listed test file not written yet is left out."""
    if given:
        return given
    if module in TESTS:
        return [t for t in TESTS[module] if not t.endswith(".py") or (ROOT / t).exists()]
    stem = Path(module).stem
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob(f"test_{stem}*.py"))


def mutate(module: str, tests: list[str], rerun: bool, lines: str | None,
           resume: bool = False) -> dict:
    name = module.removesuffix(".py").replace("/", ".")
    copy = WORK / name
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".venv", ".git", "mutants", "__pycache__", ".hypothesis", "*.db*", ".ruff_cache"))
    target = copy / module
    source = target.read_text(encoding="utf-8")
    results_file = WORK / f"{name}.json"
    # --rerun, --resume and --lines add to the last run's results.
    keep = (rerun or lines or resume) and results_file.exists()
    before = json.loads(results_file.read_text()) if keep else {}
    log = WORK / f"{name}.log"
    started = time.monotonic()
    covered = WORK / f"{name}.lines.json"
    clean = run_tests(copy, module, tests, 1800, log, covered)
    took = time.monotonic() - started
    by_line = {int(k): v for k, v in json.loads(covered.read_text()).items()}
    options = [t for t in tests if not t.endswith(".py")]
    if clean != "survived":
        sys.exit(f"{module}: the clean run did not pass ({clean}); see {log}")
    timeout = 1.5 * took + 10  # the clean run is traced by coverage, so already slower
    found, message_only = mutants(source)
    if lines:
        first, last = (int(n) for n in lines.split("-"))
        found = [m for m in found if first <= m.line <= last]
    results: dict[str, dict] = dict(before)
    try:
        for m in found:
            old = before.get(m.key)
            mutated = apply(source, m)
            try:
                compile(mutated, module, "exec")
            except SyntaxError:
                continue
            if rerun and (old is None or old["status"] in ("killed", "timeout")):
                continue  # only the last run's survivors
            if resume and old is not None:
                continue  # measured by the cut run
            target.write_text(mutated, encoding="utf-8")
            status = run_tests(copy, module, _selected(m, by_line, tests, options), timeout,
                               WORK / f"{name}.mutant.log")
            if status == "error 4":  # pytest's usage error: a selected test id is unknown
                sys.exit(f"{module}: pytest could not select the mutant's tests (a test id that "
                         f"changes between runs?); see {WORK / f'{name}.mutant.log'}")
            line = source.splitlines()[m.line - 1].strip()
            results[m.key] = {"status": status, "line": m.line, "what": m.what,
                              "source": line, "mutant": m.text[:80]}
            results_file.write_text(json.dumps(results, indent=1))  # a cut run keeps its part
            print(f"[{len(results)}/{len(found)}] {status}", file=sys.stderr, flush=True)
            if status != "killed":
                print(f"  {status}: {module}:{m.line} {m.what}: {line}  ->  {m.text[:60]}",
                      flush=True)
    finally:
        target.write_text(source, encoding="utf-8")
    results_file.write_text(json.dumps(results, indent=1))
    counts = {s: sum(r["status"] == s for r in results.values())
              for s in ("killed", "survived", "timeout")}
    total = len(results)
    print(f"{module}: {total} mutants, killed {counts['killed']}, survived {counts['survived']}, "
          f"timeout {counts['timeout']}, message-only set aside {message_only}, "
          f"score {100 * (counts['killed'] + counts['timeout']) / max(total, 1):.1f}% "
          f"(clean run {took:.1f}s; tests: {' '.join(tests)})", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", help="e.g. audit/merkle.py or audit.merkle")
    parser.add_argument("--tests", nargs="+", help="test files (default: see TESTS)")
    parser.add_argument("--rerun", action="store_true", help="only the last run's survivors")
    parser.add_argument("--lines", help="only mutants starting on lines FIRST-LAST")
    parser.add_argument("--resume", action="store_true", help="go on with a cut run")
    parser.add_argument("--pytest", default="", help="more pytest options, e.g. '-k fast'")
    args = parser.parse_args()
    for lib in HEAVY:  # imported once here so each forked run starts fast
        with contextlib.suppress(ImportError):
            importlib.import_module(lib)
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    sys.dont_write_bytecode = True
    WORK.mkdir(exist_ok=True)
    for module in args.modules:
        if not module.endswith(".py"):
            module = module.replace(".", "/") + ".py"
        tests = [*tests_of(module, args.tests), *shlex.split(args.pytest)]
        mutate(module, tests, args.rerun, args.lines, args.resume)


if __name__ == "__main__":
    main()
