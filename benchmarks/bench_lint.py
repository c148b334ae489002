#!/usr/bin/env python3
"""Benchmark graphlint against the linters users already run, on a pinned real corpus.

    python benchmarks/bench_lint.py [--workdir /tmp/graphlint-bench] [--runs 3] [--skip-slow]

It downloads `transformers==5.17.0` with pip (no dependencies), lints its `models/` folder, and
times, in the same run on the same machine, with `/usr/bin/time -v` (wall time, peak RSS):

- graphlint cold (`--no-cache`), default scope (hot-path roots) and `--scope all`;
- graphlint warm (second run, cache kept) and after touching one file;
- ruff and flake8 with their default rules;
- TorchFix and Fixit (libcst-based peers; slow, so they run on a fixed sample: every 10th file);
- the editor route: `graphlint server` (over stdio, as an editor drives it): the first diagnostics
  after opening a ~1,000-line modeling file, then the re-lint after each edit of it (median);
- `flake8 --select E,F,W one.py` with and without graphlint installed (the plugin must cost nothing
  when no GL code is selected), each flake8 in its own virtualenv.

`--editor-only` runs just the editor rows. `--baseline REF` (a commit or tag of this repository, e.g.
`2b01db9`, release 0.1.22) times only a regression check: a cold single-process (`-j 1`) lint of the whole
`models/` folder by graphlint at REF and by this checkout, interleaved run by run, in user CPU seconds (what
a shared machine measures best) and peak RSS.

Every ratio is against graphlint on the same files. The peers are installed into their own
virtualenv under the work folder. Results go to stdout as a Markdown table (paste into
docs/benchmarks.md); raw numbers to `<workdir>/results.json`.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

CORPUS = "transformers==5.17.0"
PEERS = ["ruff==0.17.6", "flake8==7.5.0", "torchfix==0.7.0", "fixit==2.2.1"]


def sh(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def prepare(work: Path) -> tuple[Path, Path]:
    """Download and unzip the corpus; build the every-10th-file sample."""
    corpus = work / "corpus"
    models = corpus / "transformers" / "models"
    if not models.is_dir():
        dl = work / "dl"
        dl.mkdir(parents=True, exist_ok=True)
        sh([sys.executable, "-m", "pip", "download", "--no-deps", CORPUS, "-d", str(dl), "-q"])
        wheel = next(dl.glob("transformers-*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(corpus, [n for n in zf.namelist() if n.startswith("transformers/models/")])
    sample = work / "sample"
    if not sample.is_dir():
        files = sorted(models.rglob("*.py"))[::10]
        for f in files:
            dst = sample / f.relative_to(models)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dst)
    return models, sample


def peers_venv(work: Path) -> Path:
    venv = work / "peers"
    if not (venv / "bin" / "python").exists():
        sh([sys.executable, "-m", "venv", str(venv)])
        sh([str(venv / "bin" / "pip"), "install", "-q", *PEERS])
    return venv / "bin"


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, int]:
    """(wall seconds, peak RSS in MB) of one whole-process run, via GNU time."""
    wall, _user, rss = timed_cpu(cmd, cwd)
    return wall, rss


def timed_cpu(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> tuple[float, float, int]:
    """(wall seconds, user CPU seconds, peak RSS in MB) of one whole-process run, via GNU time."""
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, env=env, text=True, capture_output=True)
    err = proc.stderr
    if "Traceback (most recent call last)" in err or proc.returncode not in (0, 1):
        # A crashed run would otherwise be timed as a fast one.
        raise RuntimeError(f"{cmd[0]} {cmd[1:4]} exited {proc.returncode}: {err[-1500:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", err)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    if wall is None:
        raise RuntimeError(f"{cmd[0]} failed: {err[-2000:]}")
    h, m, s = wall.groups()
    seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
    user = re.search(r"User time \(seconds\): ([\d.]+)", err)
    return seconds, float(user.group(1)) if user else 0.0, int(rss.group(1)) // 1024 if rss else 0


def measure(name: str, cmd: list[str], runs: int, before=None, cwd: Path | None = None) -> dict:
    walls, rss = [], []
    for _ in range(runs):
        if before:
            before()
        w, r = timed(cmd, cwd)
        walls.append(w)
        rss.append(r)
    row = {"tool": name, "median_s": statistics.median(walls), "runs": walls, "peak_rss_mb": max(rss)}
    print(f"  {name}: {row['median_s']:.2f}s (runs {', '.join(f'{w:.2f}' for w in walls)}), {row['peak_rss_mb']} MB",
          file=sys.stderr)
    return row


def count(folder: Path) -> tuple[int, int]:
    files = list(folder.rglob("*.py"))
    return len(files), sum(f.read_bytes().count(b"\n") for f in files)


def graphlint_cmds(target: Path, cache: Path) -> dict[str, list[str]]:
    gl = [sys.executable, "-m", "graphlint", str(target), "--output-format", "concise", "--exit-zero", "-q"]
    return {
        "cold": gl + ["--no-cache"],
        "cold_all": gl + ["--no-cache", "--scope", "all"],
        "warm": gl + ["--cache-dir", str(cache)],
    }


def suite(label: str, target: Path, bins: Path, work: Path, runs: int, slow: bool) -> list[dict]:
    print(f"[{label}] {target}", file=sys.stderr)
    cache = work / f"cache-{label}"
    shutil.rmtree(cache, ignore_errors=True)
    cmds = graphlint_cmds(target, cache)
    rows = [measure("graphlint cold (hot-path scope)", cmds["cold"], runs),
            measure("graphlint cold --scope all", cmds["cold_all"], runs)]
    subprocess.run(cmds["warm"], capture_output=True)  # fill the cache
    rows.append(measure("graphlint warm (nothing changed)", cmds["warm"], runs))
    touched = sorted(target.rglob("modeling_*.py"))[0]
    original = touched.read_text()

    def touch() -> None:
        touched.write_text(original + f"\n# touched {os.urandom(4).hex()}\n")

    rows.append(measure("graphlint warm, one file touched", cmds["warm"], runs, before=touch))
    touched.write_text(original)
    rows.append(measure("ruff check (default rules)", [str(bins / "ruff"), "check", "--no-cache", "--exit-zero",
                                                       "--output-format", "concise", str(target)], runs))
    rows.append(measure("flake8 (default rules)", [str(bins / "flake8"), "--exit-zero", "-j", "auto", str(target)],
                        1 if label == "full" else runs))
    if slow:
        rows.append(measure("TorchFix", [str(bins / "torchfix"), str(target)], 1))
        rows.append(measure("Fixit (built-in rules)", [str(bins / "fixit"), "lint", str(target)], 1))
    return rows


# --- against an earlier release ---------------------------------------------------------------------

def release_tree(work: Path, ref: str) -> tuple[Path, str]:
    """The `graphlint` package of this repository at `ref`, unpacked under the work folder, and its version.

    A tree already unpacked there is used as it is, so the check also runs on a machine whose copy of the
    repository has no git history (`git archive REF graphlint | tar -x -C <workdir>/graphlint-REF`)."""
    checkout = Path(__file__).resolve().parents[1]
    tree = work / f"graphlint-{ref}"
    if not (tree / "graphlint").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(checkout), "archive", "--format=tar", ref, "graphlint"],
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree)
    version = re.search(r'^__version__ = "([^"]+)"', (tree / "graphlint" / "__init__.py").read_text(), re.M)
    return tree, version.group(1) if version else ref


def baseline_rows(models: Path, work: Path, ref: str, runs: int) -> list[dict]:
    """Cold `-j 1` default-scope lint of `models/`, graphlint at `ref` then this checkout, `runs` times
    interleaved (load drift hits both alike); each imported from its own tree through PYTHONPATH."""
    old, version = release_tree(work, ref)
    trees = {f"graphlint {version} ({ref})": old, "graphlint (this checkout)": Path(__file__).resolve().parents[1]}
    cmd = [sys.executable, "-P", "-m", "graphlint", "models", "--no-cache", "-j", "1", "--output-format", "concise",
           "--exit-zero", "-q"]
    got: dict[str, list[tuple[float, float, int]]] = {name: [] for name in trees}
    for _ in range(runs):
        for name, tree in trees.items():
            # The tree goes first; the caller's PYTHONPATH (e.g. where libcst was unpacked) stays after it.
            path = os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH", "")]))
            got[name].append(timed_cpu(cmd, cwd=models.parent, env={**os.environ, "PYTHONPATH": path}))
            print(f"  {name}: {got[name][-1][1]:.1f} s user CPU, {got[name][-1][2]} MB", file=sys.stderr)
    return [{"tool": name, "median_s": statistics.median(r[1] for r in rows), "runs": [r[1] for r in rows],
             "wall": [r[0] for r in rows], "peak_rss_mb": max(r[2] for r in rows)} for name, rows in got.items()]


def baseline_table(models: Path, rows: list[dict]) -> str:
    return table(f"Cold `-j 1` lint of transformers/models against {rows[0]['tool']}", models, rows,
                 ("graphlint", "Median user CPU s", "× first row"), digits=1)


# --- the editor route -------------------------------------------------------------------------------

def venv_with(work: Path, name: str, packages: list[str]) -> Path:
    venv = work / name
    if not (venv / "bin" / "python").exists():
        sh([sys.executable, "-m", "venv", str(venv)])
        sh([str(venv / "bin" / "pip"), "install", "-q", *packages])
    return venv / "bin"


def flake8_rows(work: Path, one: Path, runs: int) -> list[dict]:
    """`flake8 --select E,F,W one.py`: a flake8 alone, and the same flake8 next to graphlint."""
    # Installed from a copy: building in the checkout would leave build/ and *.egg-info there.
    source = work / "graphlint-src"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    checkout = Path(__file__).resolve().parents[1]
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(checkout / name, source / name)
    for name in ("graphlint", "dsv4_native"):
        shutil.copytree(checkout / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    plain = venv_with(work, "flake8-plain", ["flake8==7.5.0"])
    with_gl = venv_with(work, "flake8-graphlint", ["flake8==7.5.0", str(source)])
    cmd = ["-m", "flake8", "--exit-zero", "--select", "E,F,W", str(one)]
    names = ("flake8 --select E,F,W one file, without graphlint", "flake8 --select E,F,W one file, graphlint installed")
    walls: dict[str, list[float]] = {name: [] for name in names}
    rss = {name: timed([str(bins / "python"), *cmd])[1] for name, bins in zip(names, (plain, with_gl))}
    for _ in range(max(runs, 10) * 3):  # ~0.3 s processes, interleaved so that load drift hits both alike
        for name, bins in zip(names, (plain, with_gl)):
            # perf_counter, not GNU time: its 10 ms steps are 3% of a run, too coarse for a 5% question.
            start = time.perf_counter()
            subprocess.run([str(bins / "python"), *cmd], check=True, capture_output=True)
            walls[name].append(time.perf_counter() - start)
    rows = [{"tool": name, "median_s": statistics.median(walls[name]), "runs": walls[name], "peak_rss_mb": rss[name]}
            for name in names]
    for row in rows:
        print(f"  {row['tool']}: {row['median_s']:.3f}s", file=sys.stderr)
    return rows


def edit_site(path: Path) -> tuple[int, str]:
    """(line, indentation) of the first statement of the first hot function in `path`: an inserted
    `torch.cuda.synchronize()` there is a finding (GL140), so every edit changes the diagnostics."""
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter
    from graphlint.pipeline.sources import read_source
    from graphlint.index.summary import index_source
    from graphlint.index.project import ProjectIndex

    src = read_source(path)
    index = ProjectIndex([index_source(src.text, src.path, src.module)])
    hot = Linter(Config(root=path.parent)).hot_map(index)
    starts = {index.functions[key].lineno for key, info in hot.items() if info.whole}
    for node in sorted(ast.walk(ast.parse(src.text)), key=lambda n: getattr(n, "lineno", 0)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno in starts \
                and node.body[0].lineno > node.lineno:
            return node.body[0].lineno, " " * node.body[0].col_offset
    raise RuntimeError(f"no hot function with a body on its own lines in {path}")


def server_rows(target: Path, one: Path, cache: Path, edits: int) -> list[dict]:
    """Time `graphlint server` as an editor drives it: open `one`, then edit it `edits` times."""
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient

    text = one.read_text()
    line, indent = edit_site(one)
    lines = text.splitlines(keepends=True)
    edited = "".join(lines[:line - 1] + [f"{indent}torch.cuda.synchronize()\n"] + lines[line - 1:])

    async def drive() -> tuple[float, list[float], int]:
        client = LanguageClient("bench", "1")
        published: asyncio.Queue = asyncio.Queue()

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: lsp.PublishDiagnosticsParams) -> None:
            published.put_nowait((params.uri, params.version, time.perf_counter()))

        async def until(version: int) -> float:
            while True:
                uri, got, at = await asyncio.wait_for(published.get(), 600)
                if uri == one.as_uri() and got == version:
                    return at

        env = {**os.environ, "GRAPHLINT_CACHE_DIR": str(cache)}
        await client.start_io(sys.executable, "-m", "graphlint", "server", cwd=str(target), env=env)
        start = time.perf_counter()
        await client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=target.as_uri(), initialization_options={"debounce": 0}))
        client.initialized(lsp.InitializedParams())
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
            uri=one.as_uri(), language_id="python", version=1, text=text)))
        first = await until(1) - start
        walls = []
        cpu_before = cpu_seconds(client._server.pid)
        for version in range(2, edits + 2):
            sent = time.perf_counter()
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=one.as_uri(), version=version),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text if version % 2 else edited)]))
            walls.append(await until(version) - sent)
        cpu = (cpu_seconds(client._server.pid) - cpu_before) / edits
        rss = int(re.search(r"VmHWM:\s+(\d+)", Path(f"/proc/{client._server.pid}/status").read_text())[1]) // 1024
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return first, walls, rss, cpu

    first, walls, rss, cpu = asyncio.run(drive())
    n = len(one.read_text().splitlines())
    rows = [{"tool": "graphlint server: open a file, first diagnostics (index loaded from the cache)",
             "median_s": first, "runs": [first], "peak_rss_mb": rss},
            {"tool": f"graphlint server re-lint: one edit of a {n:,}-line file ({cpu * 1000:.0f} ms CPU each, "
                     f"load average {os.getloadavg()[0]:.1f})",
             "median_s": statistics.median(walls), "runs": walls, "peak_rss_mb": rss}]
    for row in rows:
        print(f"  {row['tool']}: {row['median_s'] * 1000:.0f} ms (max {max(row['runs']) * 1000:.0f} ms), {rss} MB",
              file=sys.stderr)
    return rows


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc; ticks of 1/CLK_TCK s)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_file(target: Path) -> Path:
    """The modeling file closest to 1,000 lines (the server's speed goal is stated for that size)."""
    return min(sorted(target.rglob("modeling_*.py")), key=lambda p: abs(len(p.read_text().splitlines()) - 1000))


def editor_suite(label: str, target: Path, work: Path, runs: int) -> list[dict]:
    print(f"[{label}, editor] {target}", file=sys.stderr)
    cache = work / f"cache-{label}"
    # Fill the cache as the CLI run from the project root would (its entries are keyed by that path).
    subprocess.run(graphlint_cmds(Path("."), cache)["warm"], capture_output=True, cwd=target)
    one = one_file(target)
    return server_rows(target, one, cache, edits=max(runs, 10) * 2) + flake8_rows(work, one, runs)


def editor_table(label: str, rows: list[dict]) -> str:
    out = [f"### {label}: editor route\n", "| What | Median ms | Max ms | Runs | Peak RSS MB |", "|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['tool']} | {r['median_s'] * 1000:.0f} | {max(r['runs']) * 1000:.0f} | {len(r['runs'])} "
                   f"| {r['peak_rss_mb']} |")
    plain, with_gl = rows[-2]["runs"], rows[-1]["runs"]
    paired = statistics.median(w / p for p, w in zip(plain, with_gl))
    out.append(f"\nflake8 with graphlint installed / without: {paired:.3f} (median of {len(plain)} paired runs; "
               f"fastest runs {min(with_gl) / min(plain):.3f})")
    return "\n".join(out) + "\n"


def table(label: str, target: Path, rows: list[dict],
          heads: tuple[str, str, str] = ("Tool", "Median wall s", "× graphlint cold"), digits: int = 2) -> str:
    """Median, runs, ratio to the first row and peak RSS per tool; `heads` names the tool, median and ratio
    columns."""
    files, lines = count(target)
    base = rows[0]["median_s"]
    out = [f"### {label}: {files} files, {lines:,} lines\n",
           f"| {heads[0]} | {heads[1]} | Runs | {heads[2]} | Peak RSS MB |", "|---|---|---|---|---|"]
    for r in rows:
        runs = ", ".join(f"{w:.1f}" for w in r["runs"])
        out.append(f"| {r['tool']} | {r['median_s']:.{digits}f} | {runs} | {r['median_s'] / base:.2f} | "
                   f"{r['peak_rss_mb']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/graphlint-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-slow", action="store_true", help="skip TorchFix and Fixit")
    ap.add_argument("--skip-full", action="store_true", help="only the every-10th-file sample")
    ap.add_argument("--editor-only", action="store_true", help="only the editor rows (server, flake8 plugin)")
    ap.add_argument("--baseline", metavar="REF", help="only the regression check against graphlint at REF "
                    "(a commit or tag of this repository, e.g. 2b01db9 = 0.1.22)")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    models, sample = prepare(args.workdir)
    if args.baseline:
        rows = baseline_rows(models, args.workdir, args.baseline, args.runs)
        (args.workdir / "results-baseline.json").write_text(json.dumps(rows, indent=2))
        print(baseline_table(models, rows))
        return 0
    if args.editor_only:
        targets = [("Sample", sample)] + ([] if args.skip_full else [("Full transformers/models", models)])
        results = {label: editor_suite(label.split()[0].lower(), target, args.workdir, args.runs)
                   for label, target in targets}
        (args.workdir / "results-editor.json").write_text(json.dumps(results, indent=2))
        for label, rows in results.items():
            print(editor_table(label, rows))
        return 0
    bins = peers_venv(args.workdir)
    results = {"sample": suite("sample", sample, bins, args.workdir, args.runs, not args.skip_slow)}
    results["sample-editor"] = editor_suite("sample", sample, args.workdir, args.runs)
    if not args.skip_full:
        results["full"] = suite("full", models, bins, args.workdir, args.runs, False)
        results["full-editor"] = editor_suite("full", models, args.workdir, args.runs)
    (args.workdir / "results.json").write_text(json.dumps(results, indent=2))
    print(table("Sample (every 10th file; all tools)", sample, results["sample"]))
    print(editor_table("Sample", results["sample-editor"]))
    if "full" in results:
        print(table("Full transformers/models", models, results["full"]))
        print(editor_table("Full transformers/models", results["full-editor"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
