"""The per-file result cache: plain data only, one entry file per source file, keyed so that no edit is
ever served stale.

Safety. Entries are msgpack (JSON when msgpack is not installed) decoded into plain values and then
checked field by field against the dataclass types they must rebuild; nothing in the cache directory is
ever unpickled or imported, so a `.graphlint_cache` committed to an untrusted checkout cannot run code
(an entry forged to be valid for a path it guessed can still forge that file's findings: the cache is
data, not a signature). Anything that fails to read, decode or validate (a flipped byte behind the
checksum, truncation, another file's or environment's entry, a symlink, a FIFO, an oversized file) is a
miss, never a traceback.

Layout. `<cache dir>/v<graphlint version>-<format>-py<X.Y>/<blake2b of the real path>.msgpack`: one
file per source file, written atomically (temp file + rename), so a run over a subset replaces only its
own files' entries, a run from another directory finds the same entries (display paths are re-attached
on load), and concurrent runs can only race to write the same complete entry. Other Python versions get
their own folder; folders (and the old `*.pickle` caches) of other graphlint versions are deleted when
a run writes. Entries unused for `STALE_AFTER` seconds (deleted or renamed files) are deleted then too.

Keys. An entry's summary (phase 1) is valid for the same content hash in the same environment (graphlint
version and code, Python version, libcst version). Its findings (phase 2) are valid for the same
`file_key`: the content, the settings, the file's own hot-path entries (which depend on the callers in
the whole project), and the `Dependencies` digest of the modules it can reach. That digest covers the
*transitive* import closure bounded by the project: re-exports through `__init__`, base classes up the
hierarchy, attribute types and callees' return facts are all resolved through imports, so any of them
changing changes the digest. It is a Merkle hash over the strongly connected components of the import
graph, linear in the project's imports.

The trade-off, measured on transformers/models (2,384 files): an interface edit re-lints every module
that reaches the edited one, also those that never use the edited name. Per module, that is a median of
2 files, 7 at p90, 56 at p99 and 631 at most, where the old direct-importers key gave 2 / 4 / 10 / 269
(and served stale results). Computing the digests costs 0.12 s of a warm run there; per-name tracking
would be exact but needs the analyser to record every index lookup. A warm run with nothing changed
takes 2.5 s of CPU there against 2.3 s for the old single pickle (2,384 entry files to open and validate).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from graphlint import __version__
from graphlint.diagnostics import Finding
from graphlint.facts import kinds
from graphlint.facts.kinds import IKind
from graphlint.index.summary import ModuleSummary
from graphlint.index.project import HotInfo, ProjectIndex

if TYPE_CHECKING:
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.sources import SourceFile

try:
    import msgpack
except ImportError:  # pragma: no cover - msgpack is a dependency; JSON keeps a broken install working
    msgpack = None

CACHE_FORMAT = 4  # 4: class attributes as typed Held values (session 9)
MAX_ENTRY_BYTES = 64 << 20  # larger than any real entry: a planted huge file is a miss, not a slow read
STALE_AFTER = 30 * 86400  # seconds without a hit before an entry is deleted
TOUCH_AFTER = 86400  # a hit refreshes the entry's mtime at most once a day
GITIGNORE = "# created by graphlint\n*\n"
ENV_CACHE_DIR = "GRAPHLINT_CACHE_DIR"
DEFAULT_CACHE_DIR = ".graphlint_cache"  # under the config root, like ruff's .ruff_cache
# What a graphlint cache directory holds: version folders (and old pickles) that may be pruned.
_VERSIONED = re.compile(r"v[0-9][0-9A-Za-z.+!_-]*-[0-9]+(\.pickle|-py[0-9]+\.[0-9]+)")
_ENTRY = re.compile(r"[0-9a-f]{32}\.(msgpack|json)")
_TEMP = re.compile(r"\.[^/]*\.tmp")  # ours: mkstemp(prefix=".", suffix=".tmp")


class Invalid(ValueError):
    """Cached data of the wrong shape (or a value the cache cannot hold)."""


# ---------------------------------------------------------------------------------------------
# Plain-data conversion, derived from the dataclasses' type hints.

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


@functools.cache
def codec(tp: Any) -> tuple[Encoder, Decoder]:
    """(encode, decode) for a type hint. Encoding checks the value (so that only what decodes back
    is written); decoding checks the shape of untrusted data and raises `Invalid`. Dataclasses become
    lists of their fields in declaration order."""
    if tp in _SCALARS:
        return _scalar(tp)
    if tp == IKind:
        return _kind_codec
    if tp is dict or tp is Any:
        return _plain, _plain
    if dataclasses.is_dataclass(tp):
        return _dataclass_codec(tp)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        enc, dec = codec(args[0] if args[1] is type(None) else args[1])
        return (lambda v: None if v is None else enc(v)), (lambda v: None if v is None else dec(v))
    if origin in (list, set) or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return _sequence_codec(origin, args[0])
    if origin is tuple:
        return _tuple_codec(args)
    if origin is dict and args[0] is str:
        return _dict_codec(args[1])
    raise TypeError(f"the cache cannot hold values of type {tp!r}")


# Scalars are checked inline by the containers below: summaries are mostly strings and ints, and one
# call per string would make decoding slower than the lint it saves.
_SCALARS = (str, int, bool)


def _scalar(tp: type) -> tuple[Encoder, Decoder]:
    def check(v: Any) -> Any:
        if type(v) is not tp:  # exact: a bool is no int here
            raise Invalid(f"expected {tp.__name__}, got {type(v).__name__}")
        return v
    return check, check


_key = _scalar(str)[0]


def _decode_kind(v: Any) -> IKind:
    try:
        return kinds.from_plain(v)
    except (ValueError, RecursionError) as exc:
        raise Invalid(str(exc)) from None


def _encode_kind(v: Any) -> Any:
    try:
        return kinds.to_plain(v)
    except TypeError as exc:
        raise Invalid(str(exc)) from None


_kind_codec = (_encode_kind, _decode_kind)  # the index's kinds (graphlint.facts.kinds): strings and tagged lists


def _plain(v: Any) -> Any:
    """An untyped value (`Finding.extra`): JSON-like data only; arrays come back as tuples."""
    if v is None or type(v) in (str, int, bool, float):
        return v
    if type(v) in (list, tuple):
        return tuple(_plain(x) for x in v)
    if type(v) is dict:
        return {_key(k): _plain(x) for k, x in v.items()}
    raise Invalid(f"not plain data: {type(v).__name__}")


def _array(v: Any) -> list | tuple:
    if type(v) not in (list, tuple):
        raise Invalid(f"expected an array, got {type(v).__name__}")
    return v


def _sequence_codec(origin: type, item: Any) -> tuple[Encoder, Decoder]:
    if item in _SCALARS:
        def convert(v: Any, into: type) -> Any:
            if not set(map(type, v)) <= {item}:
                raise Invalid(f"expected {item.__name__} items")
            return into(v)

        return (lambda v: convert(v, list)), (lambda v: convert(_array(v), origin))
    enc, dec = codec(item)
    shape = typing.get_args(item) if typing.get_origin(item) is tuple else ()
    if shape and Ellipsis not in shape and all(t in _SCALARS for t in shape):
        def decode_rows(v: Any) -> Any:  # `calls`: a few hundred thousand (str, int) rows in a large tree
            if any(type(x) not in (list, tuple) or tuple(map(type, x)) != shape for x in _array(v)):
                raise Invalid(f"expected rows of {', '.join(t.__name__ for t in shape)}")
            return origin([tuple(x) for x in v])

        return (lambda v: [enc(x) for x in v]), decode_rows
    return (lambda v: [enc(x) for x in v]), (lambda v: origin([dec(x) for x in _array(v)]))


def _tuple_codec(items: tuple) -> tuple[Encoder, Decoder]:
    if all(t in _SCALARS for t in items):
        def convert(v: Any) -> tuple:
            if type(v) not in (list, tuple) or tuple(map(type, v)) != items:
                raise Invalid(f"expected a tuple of {', '.join(t.__name__ for t in items)}")
            return v

        return (lambda v: list(convert(v))), (lambda v: tuple(convert(v)))
    codecs = [codec(t) for t in items]

    def encode(v: Any) -> list:
        if len(v) != len(codecs):
            raise Invalid("tuple of the wrong length")
        return [enc(x) for (enc, _), x in zip(codecs, v)]

    def decode(v: Any) -> tuple:
        if len(_array(v)) != len(codecs):
            raise Invalid("tuple of the wrong length")
        return tuple([dec(x) for (_, dec), x in zip(codecs, v)])
    return encode, decode


def _dict_codec(value: Any) -> tuple[Encoder, Decoder]:
    def checked(v: Any) -> dict:
        if type(v) is not dict or not set(map(type, v)) <= {str}:
            raise Invalid("expected a map with string keys")
        return v

    if value in _SCALARS:
        def convert(v: Any) -> dict:
            if not set(map(type, checked(v).values())) <= {value}:
                raise Invalid(f"expected {value.__name__} values")
            return dict(v)

        return convert, convert
    enc, dec = codec(value)
    return (lambda v: {k: enc(x) for k, x in checked(v).items()}), \
        (lambda v: {k: dec(x) for k, x in checked(v).items()})


def _dataclass_codec(cls: type) -> tuple[Encoder, Decoder]:
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        raise TypeError(f"{cls.__name__} has fields outside __init__; the cache cannot rebuild it")
    names = [f.name for f in fields]
    codecs = [codec(hints[name]) for name in names]
    encoders = list(zip(names, [enc for enc, _ in codecs]))
    decoders = [dec for _, dec in codecs]

    def encode(v: Any) -> list:
        if type(v) is not cls:
            raise Invalid(f"expected {cls.__name__}, got {type(v).__name__}")
        return [enc(getattr(v, name)) for name, enc in encoders]

    def decode(v: Any) -> Any:
        if len(_array(v)) != len(decoders):
            raise Invalid(f"{cls.__name__} with the wrong number of fields")
        return cls(*[dec(x) for dec, x in zip(decoders, v)])
    return encode, decode


def to_plain(tp: Any, value: Any) -> Any:
    return codec(tp)[0](value)


def from_plain(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp`; `Invalid` (or RecursionError for absurd nesting) on a bad shape."""
    return codec(tp)[1](data)


def dumps(data: Any) -> bytes:
    """Plain data as msgpack (JSON without it), behind a checksum: a flipped bit or a torn write is a
    miss, not a different valid entry."""
    if msgpack is not None:
        body = msgpack.packb(data, use_bin_type=True)
    else:
        body = json.dumps(data, separators=(",", ":")).encode()
    return hashlib.blake2b(body, digest_size=16).digest() + body


# Everything decoding untrusted bytes can raise (msgpack's errors are ValueErrors, and so are JSON's and
# UnicodeDecodeError); RecursionError for deeply nested JSON.
_DECODE_ERRORS: tuple[type[BaseException], ...] = (ValueError, TypeError, KeyError, IndexError, OverflowError,
                                                   RecursionError, MemoryError)
if msgpack is not None:
    _DECODE_ERRORS += (msgpack.UnpackException,)  # OutOfData and BufferFull are no ValueErrors


def loads(data: bytes) -> Any:
    body = data[16:]
    if hashlib.blake2b(body, digest_size=16).digest() != data[:16]:
        raise Invalid("checksum mismatch")
    if msgpack is not None:
        return msgpack.unpackb(body, raw=False, strict_map_key=True)
    return json.loads(body)


# ---------------------------------------------------------------------------------------------
# Keys.

def content_hash(src: "SourceFile") -> str:
    data = (src.text or "").encode("utf-8", "surrogatepass") + b"\0" + src.module.encode()
    data += b"\1" if src.is_package else b"\0"  # relative imports resolve from the package
    if src.error is not None:
        data += repr((src.error.code, src.error.message)).encode()
    return _digest(data)


def _digest(data: bytes | str) -> str:
    return hashlib.blake2b(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data,
                           digest_size=16).hexdigest()


def interface_digest(s: ModuleSummary) -> str:
    """What other modules read from this one: definitions, returns, markers, classes, imports."""
    parts = [s.module, repr(sorted(s.imports.items()))]
    for f in sorted(s.functions.values(), key=lambda f: f.key):
        parts.append(f"{f.key}|{f.returns}|{f.follows}|{f.item_follows}|{f.key_follows}|{f.item_params}|"
                     f"{f.placed_returns}|{f.number_defaults}|{f.cpu_defaults}|"
                     f"{sorted(f.markers)}|{f.class_key}|{f.parent_key}|{f.attr_sets}|{f.field_params}|{f.return_rank}|"
                     f"{f.attr_ranks}|{f.host_reads}|{f.yields_items}|{f.yield_follows}|{f.placement}|"
                     f"{f.read_only_params}|{f.is_property}|{f.iterated_loaders}")
        # (`is_property`: `obj.f` of a getter, `getter_field`; `iterated_loaders`: the collates a loop reaches)
    parts.append(repr(sorted(s.lambda_reads.items())))  # a call of a helper that waits is reported where it is made
    # what its module-level instances hold: an importer's `g_ctx.filter_reqs(..)` runs their class's method
    # (`ProjectIndex._imported_global`)
    parts.append(repr((sorted(s.global_sets.items()), sorted(s.global_items.items()))))
    # importers read a module-level list of CPU tensors, a TensorBoard writer or a placed module as one
    # (`walker.module_constant`); a number constant's importers are not re-linted (a module-level name is not part of
    # the interface)
    parts.append(repr(sorted((name, kind) for name, kind in s.constants.items()
                             if isinstance(kind, (kinds.Items, kinds.Moved))
                             or kind in (kinds.Base.SUMMARY_WRITER, kinds.Base.PLACED_MODULE))))
    for c in sorted(s.classes.values(), key=lambda c: c.key):
        parts.append(f"{c.key}|{c.bases}|{sorted(c.methods.items())}|{sorted(c.attrs.items())}|{c.init_fields}|"
                     f"{sorted(c.or_params.items())}|{sorted(c.arm_modules.items())}|{sorted(c.keyed_entries.items())}")
        # (`self.f = p or C(..)`, a class one arm of a method stores, the classes under a field's constant keys: what
        # an importer's `x.f` may hold or run)
    return _digest("\n".join(parts))


def direct_dependencies(s: ModuleSummary, index: ProjectIndex, under: dict[str, list[str]]) -> set[str]:
    """The project modules whose facts a lookup from `s` can read. Every name the indexer and the
    analyser look up starts with an import target or with the module's own name (`pkg.sub` for an
    unimported `sub` in `pkg/__init__.py`); the index splits it at its longest project-module prefix,
    which is a module prefix of that start or a module under it. `under[m]`: the modules below `m`."""
    out = {s.module, *under.get(s.module, ())}
    for target in s.imports.values():
        module = index.project_module(target)
        if module:
            out.add(module)
        else:
            split = index.split_dotted(target)
            if split:
                out.add(split[0])
        out.update(under.get(module or target, ()))
    # `from .utils import *`: its names are read too
    out.update(m for star in s.star_imports if (m := index.project_module(star)))
    return out


class Dependencies:
    """Per module, a digest of the interfaces of every project module it reaches through imports
    (itself included): a Merkle hash over the import graph's strongly connected components, so
    computing it is linear in the project's imports. `interfaces`: each module's `interface_digest`
    (the cache keeps them with the summaries)."""

    def __init__(self, index: ProjectIndex, interfaces: dict[str, str]) -> None:
        self.index = index
        self.under: dict[str, list[str]] = {}
        for name in index.modules:
            parts = name.split(".")
            for i in range(1, len(parts)):
                self.under.setdefault(".".join(parts[:i]), []).append(name)
        graph = {m: sorted(direct_dependencies(s, index, self.under)) for m, s in index.modules.items()}
        self.digests: dict[str, str] = {}
        for component in _components(graph):
            members = set(component)
            parts = sorted(f"{m}={interfaces[m]}" for m in component)
            outside = sorted({self.digests[d] for m in component for d in graph[m] if d not in members})
            digest = _digest("\n".join(parts + ["--"] + outside))
            for m in component:
                self.digests[m] = digest

    def digest(self, s: ModuleSummary) -> str:
        """The digest of what `s`'s lookups can reach."""
        if self.index.modules.get(s.module) is s:
            return self.digests[s.module]
        # A file shadowed by another of the same module name (two top-level `conftest.py`): the index
        # holds the other one, but this file's own lookups still start from its own imports.
        return _digest(repr(sorted(self.digests[d] for d in direct_dependencies(s, self.index, self.under))))


def _components(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively; dependencies come before dependents."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in graph:
        if root in order:
            continue
        work = [(root, iter(graph[root]))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(component)
    return out


def settings_key(config: "Config", enabled: set[str]) -> str:
    """The `prefix` of every file key: what the whole run's findings depend on besides the files."""
    return repr((__version__, config.fingerprint(), str(config.root), sorted(enabled)))


def hot_entries(hot: dict[str, HotInfo], index: ProjectIndex) -> dict[str, list]:
    """{path: the file's hot-path entries}, the `own_hot` part of its key."""
    out: dict[str, list] = {}
    for key, info in hot.items():
        fn = index.functions.get(key) or index.script_of(key)
        if fn is not None:
            # call-site facts come from callers in other files: a changed caller re-lints the callee
            facts = sorted(index.call_facts.params(fn).items())
            facts += sorted((f"**{key}", kind) for key, kind in index.call_facts.keywords(fn).items())
            facts += [("**device", index.call_facts.kwargs_device(fn))] if fn.star_kwargs else []
            facts += [(f"filled:{name}", "") for name in sorted(index.call_facts.filled(fn))]
            # (a None passed on from a caller's caller: `CallFacts.left_none` reads two hops up)
            facts += [(f"left_none:{name}", "") for name in sorted(index.call_facts.left_none(fn))]
            # a host path's callers are elsewhere too: the path (its chain's key), tier and bound parameters
            facts += [(f"host:{hop.key.hex()}:{tier}", repr(params)) for hop, tier, params in info.host]
            out.setdefault(fn.path, []).append(
                (key, info.via_key, info.whole, info.capture, info.tier, info.steps, info.outside, facts))
    for entries in out.values():
        entries.sort()
    return out


def file_key(prefix: str, h: str, own_hot: list, deps: str) -> str:
    """What a file's findings depend on: the settings (`prefix`), its content `h`, its own hot-path
    entries and `deps`, the `Dependencies.digest` of every module its lookups can reach."""
    return _digest(repr((prefix, h, own_hot, deps)))


def cache_dir_for(config: "Config", flag: str | None = None) -> Path:
    """Flag, then environment (both relative to the current directory), then config (relative to it)."""
    explicit = flag or os.environ.get(ENV_CACHE_DIR, "").strip()
    if explicit:
        return Path(explicit).resolve()
    return (config.root / (config.cache_dir or DEFAULT_CACHE_DIR)).resolve()


@functools.cache
def environment() -> str:
    """What every entry depends on besides the file: graphlint's version and code, Python's version
    (syntax errors and the stdlib `ast` differ), libcst's version and the cache format."""
    try:
        from libcst._version import __version__ as cst_version
    except ImportError:  # pragma: no cover - a libcst without the generated version module
        from importlib.metadata import version
        cst_version = version("libcst")
    code = []
    root = Path(__file__).parent.parent  # the graphlint package, not this subpackage
    for path in sorted(root.rglob("*.py")):  # an edited checkout of graphlint is a new environment
        st = path.stat()
        code.append(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}")
    return _digest(repr((__version__, CACHE_FORMAT, sys.version_info[:2], cst_version, _ext(), code)))


# ---------------------------------------------------------------------------------------------
# The store.

@dataclass
class Entry:
    """One source file's cached results, as stored."""

    env: str
    path: str  # the real path: the identity of the entry
    hash: str
    summary: ModuleSummary
    interface: str  # interface_digest(summary): a third of a warm run's key work on a large tree
    key: str | None = None  # the `file_key` the findings are valid for
    findings: list[Finding] | None = None


@dataclass
class Cache:
    """The entries of one run: read lazily per file, written back (only the changed ones) by `save`."""

    folder: Path | None  # this environment's folder; None: caching is off
    entries: dict[str, Entry] = field(default_factory=dict)  # by real path
    dirty: set[str] = field(default_factory=set)
    reals: dict[str, str] = field(default_factory=dict)  # display path -> real path

    @classmethod
    def open(cls, cache_dir: Path | None) -> "Cache":
        if cache_dir is None:
            return cls(None)
        major, minor = sys.version_info[:2]
        return cls(cache_dir / f"v{__version__}-{CACHE_FORMAT}-py{major}.{minor}")

    def summary(self, src: "SourceFile", h: str) -> ModuleSummary | None:
        """The cached summary of `src` when its content hash is `h`."""
        entry = self._entry(src)
        if entry is None or entry.hash != h:
            return None
        return entry.summary

    def findings(self, src: "SourceFile", key: str) -> list[Finding] | None:
        entry = self._entry(src)
        if entry is None or entry.key != key or entry.findings is None:
            return None
        return list(entry.findings)

    def put_summary(self, src: "SourceFile", h: str, summary: ModuleSummary) -> None:
        if self.folder is not None:
            real = self._real(src.path)
            self.entries[real] = Entry(environment(), real, h, summary, interface_digest(summary))
            self.dirty.add(real)

    def interface(self, src: "SourceFile", summary: ModuleSummary) -> str:
        """`interface_digest(summary)`, from the entry when it holds this summary."""
        entry = self.entries.get(self._real(src.path)) if self.folder is not None else None
        return entry.interface if entry is not None and entry.summary is summary else interface_digest(summary)

    def put_findings(self, src: "SourceFile", key: str, findings: list[Finding]) -> None:
        entry = self.entries.get(self._real(src.path)) if self.folder is not None else None
        if entry is not None:
            entry.key, entry.findings = key, findings
            self.dirty.add(entry.path)

    def _entry(self, src: "SourceFile") -> Entry | None:
        if self.folder is None:
            return None
        real = self._real(src.path)
        if real not in self.entries:
            entry = self._read(real)
            if entry is None:
                return None
            self.entries[real] = entry
        entry = self.entries[real]
        if entry.summary.path != src.path:  # stored by a run from another directory
            _reattach(entry, src.path)
        return entry

    def _real(self, shown: str) -> str:
        if shown not in self.reals:
            self.reals[shown] = os.path.realpath(shown)
        return self.reals[shown]

    def _read(self, real: str) -> Entry | None:
        path = self.folder / _entry_name(real)  # type: ignore[operator]
        collecting = gc.isenabled()
        gc.disable()  # decoding allocates only acyclic containers: cycle scans over them are pure cost
        try:
            data, mtime = _read_regular(path)
            entry = from_plain(Entry, loads(data))
        except (OSError, *_DECODE_ERRORS):
            return None
        finally:
            if collecting:
                gc.enable()
        if entry.env != environment() or entry.path != real or not _consistent(entry):
            return None
        if time.time() - mtime > TOUCH_AFTER:  # keep entries in use out of the stale sweep
            try:
                os.utime(path)
            except OSError:
                pass
        return entry

    def save(self) -> None:
        """Write the changed entries (each atomically), then sweep old versions and stale entries."""
        if self.folder is None or not self.dirty:
            return
        try:
            _prepare(self.folder)
        except OSError:
            return  # a read-only tree still lints; it just stays cold
        for real in sorted(self.dirty):
            entry = self.entries[real]
            if not _consistent(entry):
                continue  # findings under another path than the summary's: not worth a special case
            try:
                data = dumps(to_plain(Entry, entry))
            except (ValueError, TypeError, OverflowError):
                continue  # e.g. a lone surrogate in a message: the file is simply not cached
            _write_atomic(self.folder / _entry_name(real), data)
        self.dirty.clear()
        _sweep(self.folder)


def _ext() -> str:
    return "msgpack" if msgpack is not None else "json"


def _entry_name(real: str) -> str:
    return f"{_digest(real)}.{_ext()}"


def _consistent(entry: Entry) -> bool:
    """Every path in an entry is the display path of one run (the one `_reattach` rewrites)."""
    shown = entry.summary.path
    return all(f.path == shown for f in entry.summary.functions.values()) \
        and all(f.path == shown for f in entry.findings or ())


def _reattach(entry: Entry, shown: str) -> None:
    """Give the entry `shown` as its display path; copies, since a summary already handed out for
    another display path of the same file must keep its own."""
    functions = {k: dataclasses.replace(fn, path=shown) for k, fn in entry.summary.functions.items()}
    entry.summary = dataclasses.replace(entry.summary, path=shown, functions=functions)
    if entry.findings is not None:
        entry.findings = [f.with_(path=shown) for f in entry.findings]


def _read_regular(path: Path) -> tuple[bytes, float]:
    """The bytes of a regular file, never following a symlink nor blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
            raise OSError(f"{path}: not a cache entry")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(MAX_ENTRY_BYTES + 1), st.st_mtime
    finally:
        os.close(fd)


def _prepare(folder: Path) -> None:
    if folder.is_symlink():
        raise OSError(f"{folder} is a symlink")
    folder.mkdir(parents=True, exist_ok=True)
    try:  # O_EXCL: never through a planted (dangling) symlink, never over the user's own file
        fd = os.open(folder.parent / ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as fh:
        fh.write(GITIGNORE)


def _write_atomic(path: Path, data: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600; the cache is shared like ruff's
        os.replace(tmp, path)
    except OSError:
        _unlink(tmp)


def _sweep(folder: Path) -> None:
    """Delete other graphlint versions' caches, and entries (and leftover temp files) not used lately.
    Only names graphlint writes are touched: a cache dir pointed at a user's folder loses nothing else."""
    now = time.time()
    keep = f"v{__version__}-{CACHE_FORMAT}-py"
    for item in _scan(folder.parent):
        if _VERSIONED.fullmatch(item.name) and not item.name.startswith(keep):
            if item.is_dir(follow_symlinks=False):
                shutil.rmtree(item.path, ignore_errors=True)
            else:
                _unlink(item.path)
    for item in _scan(folder):
        limit = STALE_AFTER if _ENTRY.fullmatch(item.name) else 3600 if _TEMP.fullmatch(item.name) else None
        try:
            if limit is not None and now - item.stat(follow_symlinks=False).st_mtime > limit:
                _unlink(item.path)
        except OSError:
            pass  # a concurrent run deleted or replaced it


def _scan(folder: Path) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as it:
            return list(it)
    except OSError:
        return []


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass  # a concurrent run was first, or the folder is read-only
