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
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence, TextIO

from graphlint import __version__
from graphlint.pipeline.config import (
    SCOPES, Config, ConfigError, UsageError, forget_redirect_warnings, redirect_selectors,
)
from graphlint.pipeline.config import load as load_config
from graphlint.diagnostics import INTERNAL_ERROR
from graphlint.report.fix import fix_rounds
from graphlint.pipeline.cache import DEFAULT_CACHE_DIR, ENV_CACHE_DIR
from graphlint.report.output import COLOR_MODES, FORMATS, PROG
from graphlint.report.output import error as _error

if TYPE_CHECKING:
    from graphlint.diagnostics import Finding
    from graphlint.report.fix import Target

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
ENV_OUTPUT_FORMAT = "GRAPHLINT_OUTPUT_FORMAT"
SUBCOMMANDS = ("check", "rule", "capture", "server")


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
    return glob, redirect_selectors(_comma_list(codes))


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
    forget_redirect_warnings()  # one warning per moved code and run, also for in-process callers
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


@contextlib.contextmanager
def _stderr_ctx() -> Iterator[TextIO]:
    yield sys.stderr


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
        from graphlint.report.docs import list_rules

        fmt = _output_format(args.output_format, None)
        with _open_output(args.output_file) as out, _reader_may_leave():
            list_rules(out, fmt) if args.list_rules else _explain(args.explain, out)
            out.flush()
        return EXIT_OK
    if stdin:
        first = Path(args.stdin_filename) if args.stdin_filename else None
    else:
        first = Path(args.paths[0]) if args.paths else None
    config = _build_config(args, first)
    fmt = _output_format(args.output_format, config)

    from graphlint.pipeline import targets as inputs
    from graphlint.pipeline.engine import Linter
    from graphlint.report import summary
    from graphlint.report.fix import add_noqa, write_fixes

    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    # stdin is one transient buffer: caching it would only evict the real file's entry.
    cache_dir = None if stdin else _cache_dir(args, config)
    bar = _progress_bar() if _wants_progress(args) else None
    # Raises ConfigError for unknown selectors in the config.
    # A folder (or the project, with --changed) is a tree: with no root in it, every function is checked.
    # Files named one by one (pre-commit's staged files, stdin) are a selection whose roots may be elsewhere.
    tree = not stdin and (args.changed or any(os.path.isdir(p) for p in (args.paths or ["."])))  # never raises
    linter = Linter(config, jobs=args.jobs, cache_dir=cache_dir, progress=bar, unrooted_fallback=tree)
    if args.show_settings or args.show_files:
        with _reader_may_leave():
            if args.show_settings:
                summary.show_settings(config, linter, fmt, sys.stdout)
            else:
                summary.show_files(args.paths, config, sys.stdout, force_exclude=args.force_exclude,
                                   stdin_name=(args.stdin_filename or "-") if stdin else None)
            sys.stdout.flush()
        return EXIT_OK
    report = _load_runtime_report(args.runtime_report) if args.runtime_report else None
    report_for: set[str] | None = None
    if args.changed:
        targets, report_for = inputs.changed_targets(args.paths, config, force_exclude=args.force_exclude)
    elif stdin:
        targets = inputs.stdin_targets(args.stdin_filename, config, force_exclude=args.force_exclude, fix=args.fix)
    else:
        targets = inputs.file_targets(args.paths, config, force_exclude=args.force_exclude)
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
        findings = inputs.reported_for(result, report_for)
    # A file or function went unchecked: exit 2, never "clean" nor merely "findings".
    internal = any(f.code == INTERNAL_ERROR for f in findings)
    if args.verbose:
        summary.print_tracebacks(findings)

    if args.add_noqa:
        return EXIT_OK if add_noqa(targets, findings) else EXIT_ERROR
    if args.diff:
        status = _diff(targets, fixed, findings, args)
        return EXIT_ERROR if internal else status
    if args.fix and not write_fixes(targets, stdin):
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
        summary.report(findings, fmt, out, statistics_only=args.statistics, quiet=args.quiet, color=args.color,
                       fix_mode=args.fix, unsafe=args.unsafe_fixes, fixed=fixed, sources=sources,
                       runtime=report is not None, coverage=result)
        out.flush()
    return status


def _diff(targets: list[Target], fixed: int, remaining: list[Finding], args: argparse.Namespace) -> int:
    """`--diff`: exit 1 when the fixes would change a file (0 with --exit-zero)."""
    from graphlint.report.fix import hidden_fixes, write_diff
    from graphlint.report.summary import diff_summary

    with _open_output(args.output_file) as out:
        changed = write_diff(targets, out)
    if not args.quiet:
        hidden = hidden_fixes(remaining, args.unsafe_fixes)
        sys.stderr.write(diff_summary(fixed if changed else 0, hidden) + "\n")
    if args.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if changed else EXIT_OK


def _cache_dir(args: argparse.Namespace, config: Config) -> Path | None:
    from graphlint.pipeline.cache import cache_dir_for

    return None if args.no_cache else cache_dir_for(config, args.cache_dir)


def _wants_progress(args: argparse.Namespace) -> bool:
    # Only for a person watching: never in CI logs, pipes or editors, and not with -q.
    return not args.quiet and getattr(sys.stderr, "isatty", lambda: False)()


def _progress_bar():
    from graphlint.report.progress import ProgressBar

    return ProgressBar()


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


# --- --watch ----------------------------------------------------------------------------------------

def _watch(args: argparse.Namespace) -> int:
    """`--watch` (pipeline/watch.py): each run's usage or config error is one line, and watching goes
    on (a half-edited pyproject.toml); Ctrl-C ends it with exit 0."""
    from graphlint.pipeline.watch import watch, watch_list

    if _stdin_mode(args):
        raise UsageError("--watch needs files to lint; it cannot read stdin")
    if args.add_noqa or args.diff:
        raise UsageError(f"--watch cannot be used with {'--add-noqa' if args.add_noqa else '--diff'}")

    def run() -> None:
        try:
            _check(args)
        except (UsageError, ConfigError) as exc:
            _error(str(exc))

    first = Path(args.paths[0]) if args.paths else None
    try:
        watch(run, lambda: watch_list(args.paths, lambda: _build_config(args, first), args.config,
                                      force_exclude=args.force_exclude))
    except KeyboardInterrupt:
        return EXIT_OK
    return EXIT_OK  # pragma: no cover - watch() returns only through Ctrl-C


# --- rule documentation -----------------------------------------------------------------------------

def _explain(code: str, out: TextIO) -> int:
    from graphlint.report.docs import explain

    text = explain(code)
    if text is None:
        raise UsageError(f"unknown rule code {code.strip().upper()!r} (see `graphlint --list-rules`)")
    out.write(text)
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
