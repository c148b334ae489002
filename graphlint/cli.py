"""The `graphlint` command line, following ruff's conventions (docs/output.md is the reference).

    graphlint [check] [PATH ...]          lint files and folders (default: .)
    graphlint rule CODE                   print a rule's documentation (also --explain CODE)
    graphlint capture module:factory      run the CUDA-graph capture harness (graphlint.runtime)
    graphlint server                      the Language Server for editors (stdio; graphlint.lsp)

Exit codes: 0 no findings, 1 findings (or `--diff` would change something), 2 usage or configuration
error, or an internal error (a GL002 finding, even with other findings or `--exit-zero`). Every bad
input is reported as one `graphlint: error: ...` line on stderr, never a traceback; Ctrl-C exits 130.
"""

from __future__ import annotations

import argparse
import contextlib
from collections import Counter
import difflib
import io
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence, TextIO

from graphlint import __version__
from graphlint.pipeline.config import SCOPES, Config, ConfigError
from graphlint.pipeline.config import load as load_config
from graphlint.diagnostics import INTERNAL_ERROR, TIERS, Finding
from graphlint.report.fix import Target, applicable, fix_rounds, fixed_text_problem, hidden_fixes
from graphlint.pipeline.cache import DEFAULT_CACHE_DIR, ENV_CACHE_DIR
from graphlint.report.output import COLOR_MODES, FORMATS

if TYPE_CHECKING:  # the engine (libcst) loads lazily: `--version` and usage errors stay fast
    from graphlint.pipeline.engine import LintResult
    from graphlint.pipeline.sources import SourceFile

PROG = "graphlint"
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
ENV_OUTPUT_FORMAT = "GRAPHLINT_OUTPUT_FORMAT"
TEXT_FORMATS = ("full", "concise")  # the only formats that get notes and a summary line
SUBCOMMANDS = ("check", "rule", "capture", "server")
WATCH_INTERVAL = 0.5  # seconds between two looks at the files' modification times in --watch


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse prints a usage block and exits; we want one line and exit 2 through main()."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _comma_list(value: str) -> list[str]:
    """`GL1,GL140` -> ["GL1", "GL140"]; codes are case-insensitive, like flake8's."""
    return [part.strip().upper() for part in value.split(",") if part.strip()]


def _path_list(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _per_file_ignore(value: str) -> tuple[str, tuple[str, ...]]:
    glob, sep, codes = value.rpartition(":")
    if not sep or not glob or not codes.strip():
        raise argparse.ArgumentTypeError(f"expected GLOB:CODES (e.g. 'tests/*:GL1'), got {value!r}")
    return glob, tuple(_comma_list(codes))


# --- argument parsers -------------------------------------------------------------------------------

def _check_parser() -> _Parser:
    p = _Parser(
        prog=PROG,
        description="Find hidden GPU->CPU syncs and CUDA-graph capture hazards in PyTorch hot paths.",
        epilog="Other commands: `graphlint rule CODE`, `graphlint capture module:factory`, `graphlint server`. "
               "Exit codes: 0 clean, 1 findings, 2 usage, configuration or internal error.",
        allow_abbrev=False,
    )
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or folders to lint (default: .); `-` reads the source from stdin")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")

    sel = p.add_argument_group("rule selection (comma-separated codes or prefixes: GL1 selects GL1xx)")
    sel.add_argument("--select", type=_comma_list, action="extend", default=None, metavar="CODES",
                     help="enable exactly these rules (replaces the configured selection)")
    sel.add_argument("--extend-select", type=_comma_list, action="extend", default=[], metavar="CODES",
                     help="enable these rules on top of the selection")
    sel.add_argument("--ignore", type=_comma_list, action="extend", default=[], metavar="CODES",
                     help="disable these rules")
    sel.add_argument("--extend-ignore", type=_comma_list, action="extend", default=[], metavar="CODES",
                     help="same as --ignore (flake8 spelling)")
    sel.add_argument("--per-file-ignores", type=_per_file_ignore, action="append", default=None,
                     metavar="GLOB:CODES", help="ignore codes in matching files (repeatable; replaces the config)")
    sel.add_argument("--extend-per-file-ignores", type=_per_file_ignore, action="append", default=[],
                     metavar="GLOB:CODES", help="like --per-file-ignores, added to the config's")
    sel.add_argument("--warn-unused-noqa", action="store_true",
                     help="report `# noqa` codes that suppress nothing (same as --extend-select GL001)")

    scope = p.add_argument_group("hot path")
    scope.add_argument("--scope", choices=SCOPES, default=None,
                       help="captured: code that runs inside a CUDA graph; step: also the eager per-step code "
                            "around it; hot: also code reached only from some forward (default); all: every "
                            "function")
    scope.add_argument("--hot", action="append", default=[], metavar="PATTERN",
                       help="extra hot root, a `module:qualname` glob (repeatable; added to config `hot`)")
    scope.add_argument("--cold", action="append", default=[], metavar="PATTERN",
                       help="extra cold function, a `module:qualname` glob (repeatable; added to config `cold`)")

    files = p.add_argument_group("file selection")
    files.add_argument("--exclude", type=_path_list, action="extend", default=None, metavar="PATTERNS",
                       help="replace the excludes (including the defaults) with these globs")
    files.add_argument("--extend-exclude", type=_path_list, action="extend", default=[], metavar="PATTERNS",
                       help="exclude these globs as well")
    files.add_argument("--force-exclude", action=argparse.BooleanOptionalAction, default=False,
                       help="apply excludes to files named on the command line too (for pre-commit)")
    files.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                       help="skip files that .gitignore ignores (default: on)")
    files.add_argument("--changed", action="store_true",
                       help="the PATHs are changed files (the pre-commit hook): lint the whole project (the "
                            "configuration root) and report only the findings in them or reached through a "
                            "function they define")
    files.add_argument("--stdin-filename", metavar="NAME",
                       help="the path of the file read from stdin (config, excludes, per-file-ignores)")

    cfg = p.add_argument_group("configuration")
    cfg.add_argument("--config", metavar="PATH",
                     help="read [tool.graphlint] from this file instead of the nearest pyproject.toml")
    cfg.add_argument("--isolated", action="store_true", help="ignore every configuration file")

    out = p.add_argument_group("output")
    out.add_argument("--output-format", choices=FORMATS, default=None,
                     help=f"{', '.join(FORMATS)} (default: full); env {ENV_OUTPUT_FORMAT}")
    out.add_argument("--color", choices=COLOR_MODES, default="auto",
                     help="colour the full view: auto (default: on a terminal, or when FORCE_COLOR is set "
                          "and not when NO_COLOR is), always or never")
    out.add_argument("-o", "--output-file", metavar="FILE", help="write the report to FILE instead of stdout")
    out.add_argument("--statistics", action="store_true", help="print a count per code instead of the findings")
    out.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    out.add_argument("-q", "--quiet", action="store_true", help="print the findings only: no summary, no notes")
    out.add_argument("-v", "--verbose", action="store_true",
                     help="print the traceback of each internal error (GL002) on stderr")
    out.add_argument("--runtime-report", metavar="FILE",
                     help="cross-check the findings with a runtime report from `graphlint capture --report`")
    out.add_argument("--watch", action="store_true",
                     help="lint again whenever a linted file or the config changes; Ctrl-C stops")

    perf = p.add_argument_group("performance")
    perf.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                      help="worker processes (default: every core; small runs stay in one process)")
    perf.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    perf.add_argument("--cache-dir", metavar="DIR",
                      help=f"where the result cache lives (default: {DEFAULT_CACHE_DIR} next to the config; "
                           f"env {ENV_CACHE_DIR}; config cache-dir)")

    fix = p.add_argument_group("fixes")
    fix.add_argument("--fix", action="store_true", help="apply the available fixes to the files")
    fix.add_argument("--unsafe-fixes", action="store_true",
                     help="also apply (with --fix) or show (with --diff) fixes that can change results")
    fix.add_argument("--diff", action="store_true",
                     help="print the fixes as a unified diff instead of applying them; exit 1 if any")
    fix.add_argument("--add-noqa", action="store_true",
                     help="append `# noqa: CODE` to every line with a finding (merging existing ones); exit 0")

    info = p.add_argument_group("information")
    info.add_argument("--explain", metavar="CODE", help="print the documentation of a rule and exit")
    info.add_argument("--list-rules", action="store_true", help="print the rule catalog and exit")
    info.add_argument("--show-settings", action="store_true",
                      help="print the resolved settings (config file, enabled rules, excludes) and exit")
    info.add_argument("--show-files", action="store_true", help="print the files that would be linted and exit")
    return p


def _rule_parser() -> _Parser:
    p = _Parser(prog=f"{PROG} rule", description="Print the documentation of a rule (GLxxx or GLRxxx).",
                allow_abbrev=False)
    p.add_argument("code", metavar="CODE")
    return p


def _capture_parser() -> _Parser:
    p = _Parser(prog=f"{PROG} capture", allow_abbrev=False,
                description="Capture a step into a CUDA graph, replay it and compare with eager (needs a GPU).")
    p.add_argument("target", metavar="module:factory",
                   help="a factory returning the case: dotted module or .py path, then `:` and the callable")
    p.add_argument("--tolerance", type=float, default=None,
                   help="absolute tolerance for replay-vs-eager comparison (default: bitwise)")
    p.add_argument("--replays", type=int, default=None, help="number of replays to compare")
    p.add_argument("--output-format", choices=FORMATS, default=None)
    p.add_argument("-o", "--output-file", metavar="FILE")
    p.add_argument("--report", metavar="FILE", help="also write the runtime report (JSON) to FILE")
    return p


def _server_parser() -> _Parser:
    return _Parser(prog=f"{PROG} server", allow_abbrev=False,
                   description="Run the graphlint Language Server on stdin/stdout (docs/editors.md). The "
                               "workspace's [tool.graphlint] applies; the editor's settings layer on top.")


# --- entry point ------------------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        status = _dispatch(args)
        with _reader_may_leave():
            sys.stdout.flush()  # here, not at interpreter exit: a closed pipe must not change the status
        return status
    except (UsageError, ConfigError) as exc:
        _error(str(exc))
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader left in the middle of output whose status was not settled yet (`--diff | head`):
        # there was something to print.
        _silence_stdout()
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # argparse's --help and --version: main() returns, it does not exit
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except Exception as exc:  # noqa: BLE001 - a bug outside the per-file phases: one line, not a traceback
        if "-v" in args or "--verbose" in args:
            import traceback

            traceback.print_exc()
        _error(f"internal error: {type(exc).__name__}: {exc} (please report it; --verbose shows the traceback)")
        return EXIT_ERROR


@contextlib.contextmanager
def _reader_may_leave() -> Iterator[None]:
    """Output whose exit status is already settled: a reader that leaves early (`| head`, `| true`)
    does not change it. The Python docs' recipe: point stdout at devnull so that the interpreter's
    last flush stays quiet."""
    try:
        yield
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no file descriptor (an in-memory stream)
        sys.stdout = open(os.devnull, "w")


def _error(message: str) -> None:
    # One line, whatever the message contains: editors and CI logs show the first line only.
    sys.stderr.write(f"{PROG}: error: {' '.join(message.split())}\n")


def _dispatch(argv: list[str]) -> int:
    # Subcommand names win over paths of the same name (`graphlint ./rule` lints a folder named rule).
    if argv and argv[0] == "rule":
        code = _rule_parser().parse_args(argv[1:]).code
        with _reader_may_leave():
            _explain(code, sys.stdout)
            sys.stdout.flush()
        return EXIT_OK
    if argv and argv[0] == "capture":
        return _capture(_capture_parser().parse_args(argv[1:]))
    if argv and argv[0] == "server":
        return _server(_server_parser().parse_args(argv[1:]))
    if argv and argv[0] == "check":
        argv = argv[1:]
    args = _check_parser().parse_args(argv)
    return _watch(args) if args.watch else _check(args)


# --- configuration ----------------------------------------------------------------------------------

def _output_format(cli_value: str | None, config: Config | None) -> str:
    if cli_value:
        return cli_value
    env = os.environ.get(ENV_OUTPUT_FORMAT, "").strip()
    if env:
        if env not in FORMATS:
            raise UsageError(f"{ENV_OUTPUT_FORMAT} must be one of {', '.join(FORMATS)}, got {env!r}")
        return env
    if config is not None and config.output_format:
        return config.output_format
    return "full"


def _apply_selection(config: Config, args: argparse.Namespace) -> Config:
    """The command line's selection layered on the config's (pipeline/selection.py)."""
    from graphlint.pipeline.selection import command_line_layer

    extend = list(args.extend_select) + (["GL001"] if args.warn_unused_noqa else [])
    return command_line_layer(config, args.select, extend, list(args.ignore) + list(args.extend_ignore))


def _build_config(args: argparse.Namespace, first_path: Path | None) -> Config:
    if args.isolated:
        config = Config(root=Path.cwd().resolve())
    else:
        config = load_config(first_path, Path(args.config) if args.config else None)
    changes: dict = {}
    if args.per_file_ignores is not None:
        changes["per_file_ignores"] = tuple(args.per_file_ignores)
    if args.extend_per_file_ignores:
        base = changes.get("per_file_ignores", config.per_file_ignores)
        changes["per_file_ignores"] = tuple(base) + tuple(args.extend_per_file_ignores)
    if args.exclude is not None:
        changes["exclude"] = tuple(args.exclude)
    if args.extend_exclude:
        changes["extend_exclude"] = config.extend_exclude + tuple(args.extend_exclude)
    if args.respect_gitignore is not None:
        changes["respect_gitignore"] = args.respect_gitignore
    if args.scope is not None:
        changes["scope"] = args.scope
    if args.hot:
        changes["hot"] = config.hot + tuple(args.hot)
    if args.cold:
        changes["cold"] = config.cold + tuple(args.cold)
    return _apply_selection(replace(config, **changes), args)


# --- check ------------------------------------------------------------------------------------------

@contextlib.contextmanager
def _open_output(path: str | None) -> Iterator[TextIO]:
    if not path:
        yield sys.stdout
        return
    try:
        fh = open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write output file {path}: {exc.strerror or exc}") from None
    with fh:
        yield fh


def _stdin_mode(args: argparse.Namespace) -> bool:
    if "-" in args.paths:
        if len(args.paths) > 1:
            raise UsageError("`-` (stdin) cannot be combined with other paths")
        return True
    return not args.paths and args.stdin_filename is not None


def _check(args: argparse.Namespace) -> int:
    if args.fix and args.diff:
        raise UsageError("--fix and --diff cannot be used together")
    if args.add_noqa and (args.fix or args.diff):
        raise UsageError(f"--add-noqa cannot be used with {'--fix' if args.fix else '--diff'}")
    stdin = _stdin_mode(args)
    if args.changed and (stdin or args.fix or args.diff):
        raise UsageError("--changed lints files on disk and reports only: not with stdin, --fix or --diff")
    if args.add_noqa and stdin:
        raise UsageError("--add-noqa rewrites files; it cannot read stdin")
    if args.list_rules or args.explain:
        fmt = _output_format(args.output_format, None)
        with _open_output(args.output_file) as out, _reader_may_leave():
            _list_rules(out, fmt) if args.list_rules else _explain(args.explain, out)
            out.flush()
        return EXIT_OK
    if stdin:
        first = Path(args.stdin_filename) if args.stdin_filename else None
    else:
        first = Path(args.paths[0]) if args.paths else None
    config = _build_config(args, first)
    fmt = _output_format(args.output_format, config)

    from graphlint.pipeline.engine import Linter

    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    # stdin is one transient buffer: caching it would only evict the real file's entry.
    cache_dir = None if stdin else _cache_dir(args, config)
    bar = _ProgressBar() if _wants_progress(args) else None
    # Raises ConfigError for unknown selectors in the config.
    # A folder (or the project, with --changed) is a tree: with no root in it, every function is checked.
    # Files named one by one (pre-commit's staged files, stdin) are a selection whose roots may be elsewhere.
    tree = not stdin and (args.changed or any(os.path.isdir(p) for p in (args.paths or ["."])))  # never raises
    linter = Linter(config, jobs=args.jobs, cache_dir=cache_dir, progress=bar, unrooted_fallback=tree)
    if args.show_settings or args.show_files:
        with _reader_may_leave():
            if args.show_settings:
                _show_settings(config, linter, fmt, sys.stdout)
            else:
                _show_files(args, config, stdin, sys.stdout)
            sys.stdout.flush()
        return EXIT_OK
    report = _load_runtime_report(args.runtime_report) if args.runtime_report else None
    report_for: set[str] | None = None
    if args.changed:
        targets, report_for = _changed_targets(args, config)
    else:
        targets = _stdin_targets(args, config) if stdin else _file_targets(args, config)
    if not targets and not stdin and not args.quiet:
        sys.stderr.write("warning: No Python files found under the given path(s)\n")

    fixed = 0
    result = None
    with bar or contextlib.nullcontext():
        if args.fix or args.diff:
            findings, fixed = fix_rounds(linter, targets, unsafe=args.unsafe_fixes)
        elif targets:
            result = linter.lint_sources([t.source for t in targets])
            findings = result.findings
        else:
            findings = []
    if report_for is not None and result is not None:
        findings = _reported_for(result, report_for)
    # A file or function went unchecked: exit 2, never "clean" nor merely "findings".
    internal = any(f.code == INTERNAL_ERROR for f in findings)
    _print_tracebacks(findings, args.verbose)

    if args.add_noqa:
        return _add_noqa(targets, findings)
    if args.diff:
        status = _emit_diff(targets, fixed, findings, args)
        return EXIT_ERROR if internal else status
    if args.fix and not _write_fixes(targets, stdin):
        return EXIT_ERROR
    if report is not None:
        findings = _runtime_module().cross_check(findings, report)

    if internal:
        status = EXIT_ERROR
    elif args.exit_zero:
        status = EXIT_OK
    else:
        status = EXIT_FINDINGS if findings else EXIT_OK
    # With `--fix` on stdin, stdout carries the fixed source (editors read it back); the report moves.
    stream_ctx = _stderr_ctx() if (args.fix and stdin) else _open_output(args.output_file)
    with stream_ctx as out, _reader_may_leave():
        # What was linted, decoded (coding cookies) and fixed: the frames show it, not a re-read of the file.
        sources = {t.source.path: t.source.text for t in targets if t.source.text}
        _report(findings, fmt, out, args, fixed=fixed, sources=sources, runtime=report is not None,
                coverage=result)
        out.flush()
    return status


def _print_tracebacks(findings: list[Finding], verbose: bool) -> None:
    if not verbose:
        return
    for f in (f for f in findings if f.code == INTERNAL_ERROR and f.extra.get("traceback")):
        sys.stderr.write(f"{PROG}: internal error in {f.path} ({f.extra.get('phase')} phase):\n")
        sys.stderr.write(f.extra["traceback"].rstrip("\n") + "\n")


def _cache_dir(args: argparse.Namespace, config: Config) -> Path | None:
    from graphlint.pipeline.cache import cache_dir_for

    return None if args.no_cache else cache_dir_for(config, args.cache_dir)


def _wants_progress(args: argparse.Namespace) -> bool:
    # Only for a person watching: never in CI logs, pipes or editors, and not with -q.
    return not args.quiet and getattr(sys.stderr, "isatty", lambda: False)()


class _ProgressBar:
    """The engine's `progress(phase, total) -> tick` hook, drawn with rich on stderr.

    No refresh thread (auto_refresh=False): the engine forks worker processes, and forking while a
    thread holds the terminal's lock can hang a child. Ticks redraw at most ten times a second.
    """

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 console=Console(file=sys.stderr), transient=True, auto_refresh=False)
        self.last = 0.0

    def __enter__(self) -> "_ProgressBar":
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def __call__(self, phase: str, total: int) -> Callable[[], None]:
        import time

        task = self.progress.add_task(phase, total=total)

        def tick() -> None:
            self.progress.advance(task)
            now = time.monotonic()
            if now - self.last > 0.1 or self.progress.tasks[-1].finished:
                self.last = now
                self.progress.refresh()

        return tick


@contextlib.contextmanager
def _stderr_ctx() -> Iterator[TextIO]:
    yield sys.stderr


def _file_targets(args: argparse.Namespace, config: Config) -> list[Target]:
    from graphlint.pipeline.discovery import discover

    paths = [Path(p) for p in (args.paths or ["."])]
    return _targets(discover(paths, config, force_exclude=args.force_exclude))


def _targets(files: list[Path]) -> list[Target]:
    from graphlint.pipeline.sources import read_source

    targets = []
    for path in files:
        src = read_source(path)
        targets.append(Target(path, src, src.text))
    return targets


def _changed_targets(args: argparse.Namespace, config: Config) -> tuple[list[Target], set[str]]:
    """`--changed`: every project file is linted (a changed helper is hot only through its unchanged
    callers), and the displayed paths of the changed files are returned to filter the report."""
    from graphlint.pipeline.discovery import discover
    from graphlint.pipeline.discovery import display_path

    changed = discover([Path(p) for p in (args.paths or ["."])], config, force_exclude=args.force_exclude)
    project = discover([config.root], config)
    known = {p.resolve() for p in project}
    files = project + [p for p in changed if p.resolve() not in known]
    return _targets(files), {display_path(p) for p in changed}


def _reported_for(result, report_for: set[str]) -> list[Finding]:
    """`--changed`: the findings in, or reached through, the changed files; internal errors (GL002)
    anywhere too, since an unchecked function may hide a finding reached through them."""
    from graphlint.index.chains import Chains

    chains = Chains(result.index, result.hot)
    return [f for f in result.findings if f.code == INTERNAL_ERROR or chains.reaches_through(f, report_for)]


def _stdin_targets(args: argparse.Namespace, config: Config) -> list[Target]:
    from graphlint.pipeline.discovery import is_excluded
    from graphlint.pipeline.discovery import display_path
    from graphlint.pipeline.sources import decode_source
    from graphlint.index.project import module_name_for

    data = _read_stdin()
    name = args.stdin_filename
    if name and args.force_exclude and is_excluded(Path(name), config):
        if args.fix:
            sys.stdout.buffer.write(data)  # editors expect their buffer back unchanged
            sys.stdout.flush()
        return []
    shown = display_path(Path(name)) if name else "-"
    module = module_name_for(Path(name)) if name else "stdin"
    src = decode_source(data, shown, module, shown.endswith("__init__.py"))
    return [Target(None, src, src.text, data)]


def _read_stdin() -> bytes:
    """The bytes on stdin; a closed stdin (`graphlint - <&-`) is a usage error."""
    stream = sys.stdin
    if stream is None:
        raise UsageError("cannot read the source from stdin: stdin is closed")
    try:
        buffer = getattr(stream, "buffer", None)
        return buffer.read() if buffer is not None else stream.read().encode("utf-8")
    except (OSError, ValueError) as exc:  # ValueError: "I/O operation on closed file"
        raise UsageError(f"cannot read the source from stdin: {exc}") from None


def _load_runtime_report(path: str):
    runtime = _runtime_module()
    try:
        return runtime.load_runtime_report(path)
    except OSError as exc:
        raise UsageError(f"cannot read runtime report {path}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path} is not a graphlint runtime report: {exc}") from None


def _runtime_module():
    try:
        import graphlint.runtime.cli as runtime_cli
    except ImportError as exc:
        raise UsageError(f"the runtime harness (graphlint.runtime.cli) is not available: {exc}") from None
    return runtime_cli


# --- fixes ------------------------------------------------------------------------------------------

def _encoded(src: SourceFile) -> bytes:
    """The text in the file's own encoding; "utf-8-sig" puts the BOM back."""
    return src.text.encode(src.encoding)  # type: ignore[union-attr]


def _write_fixes(targets: list[Target], stdin: bool) -> bool:
    """Write the fixed files (stdin: the source to stdout); False after a one-line error per failure."""
    ok = True
    for t in targets:
        if t.path is None:
            if stdin:  # the whole buffer, fixed or not: never hand an editor an emptied one
                # Unfixed: the bytes as they came (some codecs cannot encode what they decoded: idna).
                unfixed = t.source.text is None or t.source.text == t.original
                data = t.raw if unfixed else _encoded(t.source)
                sys.stdout.flush()
                buffer = getattr(sys.stdout, "buffer", None)
                if buffer is None:  # an in-memory stream: text (None: it did not decode, as UTF-8)
                    sys.stdout.write(data.decode("utf-8", "replace") if t.source.text is None else t.source.text)
                else:
                    buffer.write(data)
                    buffer.flush()
            continue
        if t.source.text is None or t.source.text == t.original:
            continue
        try:
            # Bytes, not text mode: keep the file's own line endings (the text still holds them).
            t.path.write_bytes(_encoded(t.source))
        except OSError as exc:
            _error(f"cannot write {t.source.path}: {exc.strerror or exc}")
            ok = False
    return ok


def _diff_lines(src: SourceFile, text: str) -> list[str]:
    """`text` as `--fix` would write it, in diff lines: split at LF only (what patch and git apply
    read), with the BOM a utf-8-sig file starts with."""
    bom = "\ufeff" if src.encoding == "utf-8-sig" else ""
    return io.StringIO(bom + text, newline="\n").readlines()


def _emit_diff(targets: list[Target], fixed: int, remaining: list[Finding], args: argparse.Namespace) -> int:
    changed = False
    with _open_output(args.output_file) as out:
        for t in targets:
            before, after = t.original, t.source.text
            if before is None or after is None or before == after:
                continue
            changed = True
            name = t.source.path
            for line in difflib.unified_diff(_diff_lines(t.source, before), _diff_lines(t.source, after),
                                             fromfile=f"a/{name}", tofile=f"b/{name}"):
                out.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    if not args.quiet:
        hidden = hidden_fixes(remaining, args.unsafe_fixes)
        sys.stderr.write(_diff_summary(fixed if changed else 0, hidden) + "\n")
    if args.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if changed else EXIT_OK


def _diff_summary(fixed: int, hidden: int) -> str:
    """ruff's closing line for `--diff`."""
    noun = "fix" if hidden == 1 else "fixes"
    if fixed and hidden:
        return f"Would fix {_plural(fixed, 'error')} ({hidden} additional {noun} available with `--unsafe-fixes`)."
    if fixed:
        return f"Would fix {_plural(fixed, 'error')}."
    if hidden:
        return f"No errors would be fixed ({hidden} {noun} available with `--unsafe-fixes`)."
    return "No fixes available."


# --- --add-noqa, --watch ----------------------------------------------------------------------------

def _add_noqa(targets: list[Target], findings: list[Finding]) -> int:
    """ruff's --add-noqa: a `# noqa: CODE` for each remaining finding. Each new text is checked as a
    fix is (graphlint.report.fix.fixed_text_problem) before it is written; one that would no longer parse
    (which would be a bug) is not written."""
    from graphlint.report.suppression import add_noqa

    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    added, unwritable = 0, 0
    for t in targets:
        todo = by_path.get(t.source.path)
        if not todo or t.path is None or t.source.text is None:
            continue
        new_text, count = add_noqa(t.source.text, todo)
        if not count:
            continue
        problem = fixed_text_problem(new_text, t.source.text, t.source.encoding)
        if problem is not None:
            sys.stderr.write(f"{PROG}: warning: {t.source.path}: adding noqa directives broke the file (the "
                             f"new code {problem}); left it unchanged, please report it\n")
            continue
        try:
            t.source = replace(t.source, text=new_text)
            if not _write_fixes([t], stdin=False):  # it has named the file it cannot write
                unwritable += 1
                continue
        except OSError as exc:  # the other files still get theirs; the run ends with exit 2
            _error(f"cannot write {t.source.path}: {exc.strerror or exc}")
            unwritable += 1
            continue
        added += count
    sys.stderr.write(f"Added {_plural(added, 'noqa directive')}.\n")
    return EXIT_ERROR if unwritable else EXIT_OK


def _sleep(seconds: float) -> None:
    time.sleep(seconds)  # a seam: the --watch tests replace it with a fake clock


def _watch(args: argparse.Namespace) -> int:
    """ruff's --watch: lint, then lint again whenever a linted file or the config changes, or a Python
    file appears or goes; Ctrl-C ends it with exit 0."""
    if _stdin_mode(args):
        raise UsageError("--watch needs files to lint; it cannot read stdin")
    if args.add_noqa or args.diff:
        raise UsageError(f"--watch cannot be used with {'--add-noqa' if args.add_noqa else '--diff'}")
    try:
        while True:
            if getattr(sys.stdout, "isatty", lambda: False)():
                sys.stdout.write("\x1b[2J\x1b[H")  # clear the screen: each run replaces the last
            try:
                _check(args)
            except (UsageError, ConfigError) as exc:  # a half-edited pyproject.toml: say so, keep watching
                _error(str(exc))
            sys.stdout.flush()
            sys.stderr.write("Watching for file changes (Ctrl-C to stop).\n")
            _wait_for_change(args)
    except KeyboardInterrupt:
        return EXIT_OK


def _wait_for_change(args: argparse.Namespace) -> None:
    """Poll modification times every WATCH_INTERVAL s (works on every file system) until a linted file
    or the config changes, or a changed folder turns out to hold a different set of files to lint.
    Files discovery skips (an editor's swap file) change a folder's time but start no run."""
    inputs, folders = _watch_list(args)
    before = _stamps(inputs + folders)
    while True:
        _sleep(WATCH_INTERVAL)
        now = _stamps(inputs + folders)
        if now == before:
            continue
        if now[:len(inputs)] != before[:len(inputs)]:
            return
        fresh, folders = _watch_list(args)
        if fresh != inputs:
            return
        before = now[:len(inputs)] + _stamps(folders)


def _watch_list(args: argparse.Namespace) -> tuple[list[Path], list[Path]]:
    """(the files a run lints and the config file; the folders up to the given paths that hold them,
    whose mtimes change when a file in them is added, removed or renamed, and their .gitignore).
    Discovery costs ~1 s on 2,700 files, so it runs once per lint and when a folder changes, never on
    every poll; a poll stats ~3,800 paths in ~25 ms."""
    from graphlint.pipeline.config import find_config
    from graphlint.pipeline.discovery import discover

    first = Path(args.paths[0]) if args.paths else None
    try:
        config = _build_config(args, first)
        files = discover([Path(p) for p in (args.paths or ["."])], config, force_exclude=args.force_exclude)
    except (UsageError, ConfigError):
        found = Path(args.config) if args.config else find_config(first or Path.cwd())
        return ([found] if found else []), []  # a broken config: wait until it is edited
    roots = {Path(os.path.abspath(p)) for p in (args.paths or ["."])}
    folders = {root for root in roots if root.is_dir()}
    for file in files:
        if Path(os.path.abspath(file)) in roots:
            continue  # a file named on the command line: no folder to watch for it
        for parent in Path(os.path.abspath(file)).parents:
            if parent in folders:
                break
            folders.add(parent)
    watched_folders = sorted(folders)
    inputs = [*files, *([config.source] if config.source else [])]
    return inputs, [*watched_folders, *(folder / ".gitignore" for folder in watched_folders)]


def _stamps(paths: list[Path]) -> list[tuple[int, int] | None]:
    """(mtime, size) of each path; None for one that is gone."""
    stamps: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            st = path.stat()
            stamps.append((st.st_mtime_ns, st.st_size))
        except OSError:
            stamps.append(None)
    return stamps


# --- reporting --------------------------------------------------------------------------------------

def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _report(findings: list[Finding], fmt: str, out: TextIO, args: argparse.Namespace, *, fixed: int,
            sources: dict[str, str], runtime: bool, coverage: LintResult | None = None) -> None:
    from graphlint.report.output import render, render_statistics, statistics, use_color

    if args.statistics:
        if fmt == "json":
            rows = [{"count": n, "code": code, "name": name, "fixable": fixable}
                    for n, code, name, fixable in statistics(findings)]
            json.dump(rows, out, indent=2)
            out.write("\n")
        else:
            render_statistics(findings, out)
    else:
        render(findings, fmt, out, sources=sources, color=use_color(args.color, out))
    # A clean concise run prints nothing at all, like flake8: scripts and hooks test for empty output.
    clean_concise = fmt == "concise" and not findings and not fixed
    if fmt in TEXT_FORMATS and not args.quiet and not clean_concise:
        for line in _summary(findings, fixed=fixed, fix_mode=args.fix, unsafe=args.unsafe_fixes,
                             runtime=runtime, coverage=coverage):
            out.write(line + "\n")
        if fmt == "full":  # the terminal view; concise stays flake8's lines plus ruff's count
            for line in _tier_lines(findings, coverage):
                out.write(line + "\n")


def _tier_lines(findings: list[Finding], coverage: LintResult | None) -> list[str]:
    """Where the findings run (captured / step / forward), and once, when nothing is captured, why no
    finding is in the captured tier."""
    counts = Counter(f.context for f in findings if f.context)
    if not counts:
        return []
    lines = ["Where they run: " + ", ".join(f"{counts[t]} {t}" for t in TIERS if counts[t]) + "."]
    if coverage is not None and coverage.capture_sites is False:
        lines.append("No capture site found (`torch.cuda.graph`, `capture_begin()`, `make_graphed_callables`, "
                     "`torch.compile(mode=\"reduce-overhead\")`): no finding is in the captured tier.")
    return lines


def _summary(findings: list[Finding], *, fixed: int, fix_mode: bool, unsafe: bool, runtime: bool,
             coverage: LintResult | None = None) -> list[str]:
    """ruff's closing lines: "Found N errors." / "All checks passed!" and the fixable hint; and, when
    functions went unchecked, how many, so that a clean result over nothing never looks clean."""
    lines = []
    functions, checked, skipped = (0, 0, 0)
    if coverage is not None:
        functions, checked = coverage.functions, coverage.checked
        skipped = max(0, coverage.checkable - checked)  # not cold, not reached from a hot root
    if fix_mode and fixed:
        total = fixed + len(findings)
        lines.append(f"Found {_plural(total, 'error')} ({fixed} fixed, {len(findings)} remaining).")
    elif findings:
        lines.append(f"Found {_plural(len(findings), 'error')}.")
    elif skipped and not checked:
        lines.append(f"No hot path found: {_plural(skipped, 'function')} not checked (`--scope all` checks "
                     f"{'it' if skipped == 1 else 'them'}; `# graphlint: hot` marks a root).")
    else:
        lines.append("All checks passed!")
    if skipped and (checked or findings):
        lines.append(f"Checked {checked} of {_plural(functions, 'function')} (the hot path); "
                     f"`--scope all` checks {skipped} more.")
    elif coverage is not None and coverage.unrooted and checked:
        lines.append(f"No hot path found: checked all {_plural(checked, 'function')}, in the `unrooted` context "
                     f"(`# graphlint: hot` or config `hot = [...]` marks the roots that narrow it).")
    fixable = sum(1 for f in findings if applicable(f, unsafe))
    hidden = hidden_fixes(findings, unsafe)
    hint = f"{hidden} hidden {'fix' if hidden == 1 else 'fixes'} can be enabled with the `--unsafe-fixes` option"
    if fixable and not fix_mode:
        lines.append(f"[*] {fixable} fixable with the `--fix` option" + (f" ({hint})." if hidden else "."))
    elif hidden:
        lines.append(f"No fixes available ({hint}).")
    if runtime:
        confirmed = sum(1 for f in findings if f.confirmed is True and not f.code.startswith("GLR"))
        unconfirmed = sum(1 for f in findings if f.confirmed is False)
        runtime_only = sum(1 for f in findings if f.code.startswith("GLR"))
        lines.append(f"Runtime cross-check: {confirmed} confirmed, {unconfirmed} not seen at runtime, "
                     f"{runtime_only} seen only at runtime.")
    return lines


# --- settings and files ---------------------------------------------------------------------------

def _show_settings(config: Config, linter, fmt: str, out: TextIO) -> int:
    """One `key = value` line per setting, after config file, environment and flags are merged."""
    settings = {
        "config-file": str(config.source) if config.source else None,
        "root": str(config.root),
        "enabled": sorted(linter.enabled),
        "per-file-ignores": {glob: list(codes) for glob, codes in config.per_file_ignores},
        "exclude": list(config.exclude),
        "extend-exclude": list(config.extend_exclude),
        "respect-gitignore": config.respect_gitignore,
        "scope": config.scope,
        "hot": list(config.hot),
        "cold": list(config.cold),
        "capture-regions": list(config.capture_regions),
        "module-bases": list(config.module_bases),
        "output-format": fmt,
        "cache-dir": str(linter.cache_dir) if linter.cache_dir else None,
        "jobs": linter.jobs,
    }
    for key, value in settings.items():
        out.write(f"{key} = {json.dumps(value)}\n")
    return EXIT_OK


def _show_files(args: argparse.Namespace, config: Config, stdin: bool, out: TextIO) -> int:
    from graphlint.pipeline.discovery import discover
    from graphlint.pipeline.discovery import display_path

    if stdin:
        out.write((args.stdin_filename or "-") + "\n")
        return EXIT_OK
    for path in discover([Path(p) for p in (args.paths or ["."])], config, force_exclude=args.force_exclude):
        out.write(display_path(path) + "\n")
    return EXIT_OK


# --- rule documentation and catalog -----------------------------------------------------------------

def _explain(code: str, out: TextIO) -> int:
    from graphlint.report.docs import explain

    text = explain(code)
    if text is None:
        raise UsageError(f"unknown rule code {code.strip().upper()!r} (see `graphlint --list-rules`)")
    out.write(text)
    return EXIT_OK


def _list_rules(out: TextIO, fmt: str) -> int:
    from graphlint.report.docs import catalog

    rows = catalog()
    if fmt == "json":
        json.dump(rows, out, indent=2)
        out.write("\n")
        return EXIT_OK
    headers = ("CODE", "NAME", "FAMILY", "DEFAULT", "FIXABLE")
    cells = [(r["code"], r["name"], r["family"], r["default"], "yes" if r["fixable"] else "no") for r in rows]
    if getattr(out, "isatty", lambda: False)():
        from rich.console import Console
        from rich.table import Table

        table = Table(*headers, title="graphlint rules")
        for row in cells:
            table.add_row(*row)
        Console(file=out).print(table)
        return EXIT_OK
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    for row in (headers, *cells):
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")
    return EXIT_OK


# --- server -------------------------------------------------------------------------------------------

def _server(args: argparse.Namespace) -> int:
    from graphlint.lsp import serve

    try:
        status = serve()
    except ImportError as exc:
        raise UsageError(str(exc)) from None
    _silence_stdout()  # pygls closed stdout when the client said exit: main()'s final flush must not fail
    return status


# --- capture ----------------------------------------------------------------------------------------

def _capture(args: argparse.Namespace) -> int:
    runtime = _runtime_module()
    fmt = _output_format(args.output_format, None)
    problem = None
    if args.replays is not None and args.replays < 1:
        problem = f"--replays must be at least 1, got {args.replays}"
    elif args.tolerance is not None and not args.tolerance >= 0:
        problem = f"--tolerance must be a non-negative number, got {args.tolerance}"
    with _open_output(args.output_file) as out:
        if problem:  # through the harness's writer: json output gets an error object, not nothing
            return runtime.write_error(problem, fmt, out)
        return runtime.capture_command(args.target, output_format=fmt, tolerance=args.tolerance,
                                       replays=args.replays, stream=out, report_path=args.report)


if __name__ == "__main__":  # pragma: no cover - `python -m graphlint` goes through __main__.py
    sys.exit(main())
