"""Phase 1: a cheap index of every linted file, and the hot path computed over it.

The index uses the stdlib `ast` (about 7x cheaper than a libcst parse, positions included): it only
needs definitions, imports, classes with their `__init__` attributes, call sites and markers. Summaries
are plain picklable data so that they can be built in worker processes and cached per file.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from graphlint._annotations import annotation_kind, is_cpu_name, tuple_item_kinds
from graphlint._torch_kinds import SEQ_METHODS, TORCH_ONLY_METHODS, torch_return_kind

MARKER_RE = re.compile(r"#\s*graphlint:\s*(hot|cold|capture)\b", re.IGNORECASE)
SKIP_FILE_RE = re.compile(r"#\s*graphlint:\s*skip-file\b", re.IGNORECASE)

# Bases that are nn.Module subclasses although they are defined outside the linted files.
DEFAULT_MODULE_BASES = (
    "torch.nn.Module", "torch.nn.modules.module.Module", "PreTrainedModel", "*PreTrainedModel",
    "GradientCheckpointingLayer", "ModelMixin", "LightningModule", "CustomOp", "torch.nn.Sequential",
)
# Methods that run per step besides `forward` (vLLM's CustomOp dispatches to these).
HOT_METHOD_NAMES = ("forward", "forward_cuda", "forward_native", "forward_hip", "forward_xpu")
CAPTURE_CONTEXTS = ("torch.cuda.graph", "torch.cuda.graphs.graph")
COMPILE_CALLS = ("torch.compile", "torch.cuda.make_graphed_callables", "torch.cuda.graphs.make_graphed_callables")
HOT_DECORATORS = ("graphlint.hot", "torch.compile", "torch.cuda.make_graphed_callables")
COLD_DECORATORS = ("graphlint.cold",)
MODULE_LIST_CALLS = ("torch.nn.ModuleList", "torch.nn.Sequential", "torch.nn.ModuleDict")
PARAMETER_CALLS = ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer")


@dataclass
class FunctionInfo:
    key: str  # "module:qualname"
    module: str
    qualname: str
    path: str
    lineno: int  # the `def` line
    end_lineno: int
    first_line: int  # first decorator line (or the def line)
    class_key: str | None
    parent_key: str | None  # enclosing function, for nested defs
    markers: set[str] = field(default_factory=set)  # hot / cold / capture
    calls: list[tuple[str, int]] = field(default_factory=list)  # (callee descriptor, line)
    regions: list[tuple[int, int]] = field(default_factory=list)  # `with torch.cuda.graph` bodies
    returns: str = "unknown"  # tensor / bool_tensor / weak_tensor / tensor_seq / host / items:<k>,<k> / unknown

    @property
    def display(self) -> str:
        return self.qualname


@dataclass
class ClassInfo:
    key: str
    module: str
    qualname: str
    bases: list[str]
    methods: dict[str, str] = field(default_factory=dict)  # name -> function key
    # attribute -> "tensor" | "host" | "module:<dotted class>" | "modules:<dotted>,<dotted>"
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class ModuleSummary:
    module: str
    path: str
    imports: dict[str, str] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    compile_roots: list[tuple[str, int]] = field(default_factory=list)  # descriptors passed to compile
    module_regions: list[tuple[int, int]] = field(default_factory=list)
    module_region_calls: list[tuple[str, int]] = field(default_factory=list)
    skip_file: bool = False
    syntax_error: tuple[int, int, str] | None = None


def module_name_for(path: Path) -> str:
    """Dotted module name: climb while the folder is a package (has __init__.py)."""
    path = path.resolve()
    parts = [path.stem] if path.stem != "__init__" else []
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts) or path.stem


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for Name/Attribute chains; `super().x` for super calls; None otherwise."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super":
        return "super()"
    if isinstance(node, ast.Subscript):
        base = dotted(node.value)
        return f"{base}[]" if base else None
    return None


class _Indexer(ast.NodeVisitor):
    def __init__(self, module: str, path: str, lines: list[str], is_package: bool) -> None:
        self.s = ModuleSummary(module=module, path=path)
        self.lines = lines
        self.package = module if is_package else module.rpartition(".")[0]
        self.class_stack: list[ClassInfo] = []
        self.func_stack: list[FunctionInfo] = []
        self.local_binds: list[dict[str, str]] = []
        self.region_depth = 0

    # -- imports ------------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.s.imports[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                self.s.imports[head] = head

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            pkg = self.package.split(".") if self.package else []
            pkg = pkg[: len(pkg) - (node.level - 1)] if node.level > 1 else pkg
            base = ".".join([*pkg, base] if base else pkg)
        for alias in node.names:
            if alias.name == "*":
                continue
            self.s.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name

    def resolve(self, name: str | None) -> str | None:
        """Resolve the head of a dotted name through imports and module-level definitions."""
        if name is None:
            return None
        head, _, rest = name.partition(".")
        head_base = head.split("[")[0]
        for binds in reversed(self.local_binds):
            if head_base in binds:
                target = binds[head_base] + head[len(head_base):]
                return f"{target}.{rest}" if rest else target
        if head_base in self.s.imports:
            target = self.s.imports[head_base] + head[len(head_base):]
        elif head_base in ("self", "cls") or head.startswith("super()"):
            return name
        else:  # a module-level name (or an unknown local: it simply won't resolve in the index)
            target = f"{self.s.module}.{head}"
        return f"{target}.{rest}" if rest else target

    # -- definitions --------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        qual = ".".join([c.qualname for c in self.class_stack[-1:]] + [node.name])
        info = ClassInfo(
            key=f"{self.s.module}:{qual}", module=self.s.module, qualname=qual,
            bases=[b for b in (self.resolve(dotted(base)) for base in node.bases) if b],
        )
        self.s.classes[qual] = info
        self.class_stack.append(info)
        self.generic_visit(node)
        self.class_stack.pop()
        for stmt in node.body:  # dataclass-style fields (`seq_lens: torch.Tensor`); __init__ wins
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                kind = _annotation_kind(ast.unparse(stmt.annotation))
                if kind == "tensor" and is_cpu_name(stmt.target.id):
                    kind = "cpu_tensor"  # `seq_lens_cpu: torch.Tensor` is a host-side copy
                if kind:
                    info.attrs.setdefault(stmt.target.id, kind)

    def _markers(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        found = set()
        for line in self.lines[first - 1: node.lineno]:
            found.update(m.group(1).lower() for m in MARKER_RE.finditer(line))
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            name = self.resolve(dotted(target)) or ""
            if name in HOT_DECORATORS:
                found.add("hot")
            elif name in COLD_DECORATORS:
                found.add("cold")
        return found

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        cls = self.class_stack[-1] if self.class_stack and not self.func_stack else None
        parent = self.func_stack[-1] if self.func_stack else None
        prefix = parent.qualname if parent else (cls.qualname if cls else "")
        qual = f"{prefix}.{node.name}" if prefix else node.name
        info = FunctionInfo(
            key=f"{self.s.module}:{qual}", module=self.s.module, qualname=qual, path=self.s.path,
            lineno=node.lineno, end_lineno=node.end_lineno or node.lineno,
            first_line=min([d.lineno for d in node.decorator_list] + [node.lineno]),
            class_key=cls.key if cls else (parent.class_key if parent else None),
            parent_key=parent.key if parent else None,
            markers=self._markers(node), returns=self._returns(node),
        )
        self.s.functions[qual] = info
        if cls is not None:
            cls.methods[node.name] = info.key
            if node.name == "__init__":
                self._init_attrs(node, cls)
        self.func_stack.append(info)
        self.local_binds.append({})
        for stmt in node.body:
            self.visit(stmt)
        self.local_binds.pop()
        self.func_stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _returns(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        if node.returns is not None:
            text = ast.unparse(node.returns)
            kind = _annotation_kind(text)
            if kind is None and (items := tuple_item_kinds(text)):
                return "items:" + ",".join(items)  # `-> tuple[Tensor, tuple[int, ...]]`: unpacked item by item
            cls = class_annotation(node.returns) if kind is None else None
            # "object:Name": a class named in the callee's module, resolved (and checked) at the call site
            return kind or (f"object:{cls}" if cls else "unknown")
        return self._infer_returns(node)

    def _infer_returns(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        """An unannotated function's return kind, when every value-returning `return` agrees by syntax
        alone (docs/inference.md): a torch call, a tensor-only method, or a local bound once to one."""
        binds: dict[str, list[ast.expr | None]] = {}
        returns: list[ast.expr] = []
        for sub in _own_nodes(node):
            if isinstance(sub, ast.Return):
                if sub.value is not None and not (isinstance(sub.value, ast.Constant) and sub.value.value is None):
                    returns.append(sub.value)
            elif isinstance(sub, (ast.Assign, ast.AnnAssign)) and sub.value is not None:
                for target in sub.targets if isinstance(sub, ast.Assign) else [sub.target]:
                    for name in _bound_names(target):
                        binds.setdefault(name, []).append(sub.value if isinstance(target, ast.Name) else None)
            elif isinstance(sub, (ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.withitem)):
                target = sub.optional_vars if isinstance(sub, ast.withitem) else sub.target
                for name in _bound_names(target) if target is not None else ():
                    binds.setdefault(name, []).append(None)  # rebound some other way: not followed
        kinds = {self._return_kind(value, binds, 0) for value in returns}
        if len(kinds) == 1:
            return kinds.pop()
        return "weak_tensor" if kinds == {"tensor", "weak_tensor"} else "unknown"

    def _return_kind(self, value: ast.expr, binds: dict[str, list[ast.expr | None]], depth: int) -> str:
        if isinstance(value, ast.Name) and depth < 4:
            bound = binds.get(value.id, [])
            if len(bound) == 1 and bound[0] is not None:  # parameters and multiply-bound names: unknown
                return self._return_kind(bound[0], binds, depth + 1)
            return "unknown"
        if not isinstance(value, ast.Call):
            return "unknown"
        name = dotted(value.func)
        qual = self.resolve(name) if name else None
        if qual in ("len", "int", "float", "bool", "str"):
            return "host"
        if qual == "torch.where" and len(value.args) == 3:  # the one-argument form is a nonzero tuple
            return "tensor"
        if qual and qual.startswith("torch."):
            return torch_return_kind(qual)
        if isinstance(value.func, ast.Attribute) and value.func.attr in TORCH_ONLY_METHODS \
                and value.func.attr not in SEQ_METHODS:
            return "weak_tensor"  # a method only tensors have, on a receiver of unknown type
        return "unknown"

    def _init_attrs(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Assign, ast.AnnAssign)) and sub.value is not None:
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == "self":
                        kind = self._attr_kind(sub.value)
                        if kind:
                            cls.attrs[target.attr] = kind
            elif isinstance(sub, ast.Call):
                name = dotted(sub.func) or ""
                if name.endswith(("register_buffer", "register_parameter")) and sub.args \
                        and isinstance(sub.args[0], ast.Constant) and isinstance(sub.args[0].value, str):
                    cls.attrs[sub.args[0].value] = "tensor"

    def _attr_kind(self, value: ast.expr) -> str | None:
        if isinstance(value, ast.Constant):
            return "host"
        if not isinstance(value, ast.Call):
            return None
        name = self.resolve(dotted(value.func)) or ""
        if name in PARAMETER_CALLS or (name.startswith("torch.") and name.split(".")[1][:1].islower()
                                       and not name.startswith(("torch.nn.", "torch.cuda."))):
            return "tensor"
        if name in MODULE_LIST_CALLS:
            classes = []
            for sub in ast.walk(value):
                if isinstance(sub, ast.Call) and sub is not value:
                    cname = self.resolve(dotted(sub.func))
                    if cname and cname.rpartition(".")[2][:1].isupper():
                        classes.append(cname)
            return "modules:" + ",".join(classes)
        tail = name.rpartition(".")[2]
        if tail[:1].isupper():
            return f"module:{name}"
        return None

    # -- bodies -------------------------------------------------------------------------------
    def visit_For(self, node: ast.For) -> None:
        it = dotted(node.iter)
        if isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) \
                and node.iter.func.id in ("enumerate", "zip", "reversed") and node.iter.args:
            it = dotted(node.iter.args[-1])
            target = node.target.elts[-1] if isinstance(node.target, ast.Tuple) and node.target.elts else node.target
        else:
            target = node.target
        if it and isinstance(target, ast.Name) and self.local_binds:
            self.local_binds[-1][target.id] = f"{self.resolve(it)}[]"
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and self.local_binds:
            src = dotted(node.value)
            if src and src.startswith("self."):
                self.local_binds[-1][node.targets[0].id] = src
            elif isinstance(node.value, ast.Call) and self.local_binds:
                # `model = Block(...)`: later `torch.compile(model)` roots Block.forward.
                cname = self.resolve(dotted(node.value.func))
                if cname and cname.rpartition(".")[2][:1].isupper():
                    self.local_binds[-1][node.targets[0].id] = f"{cname}()"
        self.generic_visit(node)

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        is_capture = any(
            isinstance(item.context_expr, ast.Call)
            and (self.resolve(dotted(item.context_expr.func)) or "") in CAPTURE_CONTEXTS
            for item in node.items
        )
        if is_capture and node.body:
            region = (node.body[0].lineno, max(getattr(s, "end_lineno", s.lineno) for s in node.body))
            (self.func_stack[-1].regions if self.func_stack else self.s.module_regions).append(region)
            self.region_depth += 1
            self.generic_visit(node)
            self.region_depth -= 1
        else:
            self.generic_visit(node)

    visit_AsyncWith = visit_With

    def visit_Call(self, node: ast.Call) -> None:
        callee = self.resolve(dotted(node.func))
        if callee:
            if self.func_stack:
                self.func_stack[-1].calls.append((callee, node.lineno))
            elif self.region_depth:
                self.s.module_region_calls.append((callee, node.lineno))
            if callee in COMPILE_CALLS and node.args:
                first = node.args[0]
                items = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
                for item in items:
                    ref = self.resolve(dotted(item))
                    if ref:
                        self.s.compile_roots.append((ref, node.lineno))
        self.generic_visit(node)


def index_source(source: str, path: str, module: str, is_package: bool = False) -> ModuleSummary:
    """Build the summary of one file. A syntax error is recorded, not raised."""
    lines = source.splitlines()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        s = ModuleSummary(module=module, path=path)
        s.syntax_error = (exc.lineno or 1, exc.offset or 1, exc.msg or "invalid syntax")
        return s
    except ValueError as exc:  # e.g. null bytes
        s = ModuleSummary(module=module, path=path)
        s.syntax_error = (1, 1, str(exc))
        return s
    indexer = _Indexer(module, path, lines, is_package)
    indexer.visit(tree)
    indexer.s.skip_file = any(SKIP_FILE_RE.search(line) for line in lines)
    return indexer.s


# ---------------------------------------------------------------------------------------------
# The project index: resolution across modules, and the hot path.


@dataclass(frozen=True)
class HotInfo:
    via: tuple[str, ...]
    whole: bool  # False: only the capture regions of the function are hot
    capture: bool = False  # config capture-region: allocation rules apply


class ProjectIndex:
    def __init__(self, summaries: list[ModuleSummary], module_bases: tuple[str, ...] = ()) -> None:
        self.modules: dict[str, ModuleSummary] = {s.module: s for s in summaries}
        self.functions: dict[str, FunctionInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        for s in summaries:
            for f in s.functions.values():
                self.functions[f.key] = f
            for c in s.classes.values():
                self.classes[c.key] = c
        self.module_bases = DEFAULT_MODULE_BASES + tuple(module_bases)
        self._is_module_cache: dict[str, bool] = {}
        self._class_cache: dict[str, ClassInfo | None] = {}
        self._function_cache: dict[str, FunctionInfo | None] = {}

    def replace(self, old: ModuleSummary, new: ModuleSummary) -> bool:
        """Swap one file's summary in place (the editor server, after an edit), dropping what was
        derived from the old one. False, changing nothing, when a rebuild is needed to match the
        constructor: the module name changed or another file owns it or one of its definitions."""
        if new.module != old.module or self.modules.get(old.module) is not old \
                or any(self.functions.get(f.key) is not f for f in old.functions.values()) \
                or any(self.classes.get(c.key) is not c for c in old.classes.values()):
            return False
        for f in old.functions.values():
            del self.functions[f.key]
        for c in old.classes.values():
            del self.classes[c.key]
        if any(f.key in self.functions for f in new.functions.values()) \
                or any(c.key in self.classes for c in new.classes.values()):
            self.functions.update({f.key: f for f in old.functions.values()})
            self.classes.update({c.key: c for c in old.classes.values()})
            return False
        self.modules[new.module] = new
        self.functions.update({f.key: f for f in new.functions.values()})
        self.classes.update({c.key: c for c in new.classes.values()})
        self._is_module_cache.clear()
        self._class_cache.clear()
        self._function_cache.clear()
        return True

    # -- lookups ------------------------------------------------------------------------------
    def split_dotted(self, name: str) -> tuple[str, str] | None:
        """Split `pkg.mod.Cls.meth` into (module, qualname) by the longest known module prefix."""
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod = ".".join(parts[:i])
            if mod in self.modules:
                return mod, ".".join(parts[i:])
        return None

    def class_by_dotted(self, name: str) -> ClassInfo | None:
        return self._by_dotted(name, self.classes, self._class_cache)

    def function_by_dotted(self, name: str) -> FunctionInfo | None:
        return self._by_dotted(name, self.functions, self._function_cache)

    def _by_dotted(self, name: str, table: dict, cache: dict):
        """Look `pkg.mod.Qual.name` up in `table`, following re-exports (`from .x import y` in a
        package `__init__`). Cycles in re-exports end the search instead of recursing forever."""
        if name in cache:
            return cache[name]
        cache[name] = None  # cycle guard while resolving
        result, seen, current = None, set(), name
        while current not in seen:
            seen.add(current)
            split = self.split_dotted(current)
            if split is None:
                break
            mod, qual = split
            result = table.get(f"{mod}:{qual}")
            if result is not None:
                break
            head = qual.split(".")[0]
            target = self.modules[mod].imports.get(head)
            if not target:
                break
            current = target + qual[len(head):]
        cache[name] = result
        return result

    def mro(self, cls: ClassInfo) -> list[ClassInfo]:
        out, queue, seen = [], deque([cls]), set()
        while queue:
            c = queue.popleft()
            if c.key in seen:
                continue
            seen.add(c.key)
            out.append(c)
            for base in c.bases:
                b = self.class_by_dotted(base)
                if b is not None:
                    queue.append(b)
        return out

    def method(self, cls: ClassInfo, name: str, *, skip_self: bool = False) -> FunctionInfo | None:
        for c in self.mro(cls)[1 if skip_self else 0:]:
            key = c.methods.get(name)
            if key:
                return self.functions[key]
        return None

    def attr(self, cls: ClassInfo, name: str) -> str | None:
        for c in self.mro(cls):
            if name in c.attrs:
                return c.attrs[name]
        return None

    def is_nn_module(self, cls: ClassInfo) -> bool:
        if cls.key in self._is_module_cache:
            return self._is_module_cache[cls.key]
        self._is_module_cache[cls.key] = False  # cycle guard
        result = False
        for base in cls.bases:
            tail = base.rpartition(".")[2]
            if any(fnmatch.fnmatchcase(base, p) or fnmatch.fnmatchcase(tail, p) for p in self.module_bases):
                result = True
            elif base.startswith("torch.nn.") and tail[:1].isupper():
                result = True
            else:
                b = self.class_by_dotted(base)
                result = b is not None and self.is_nn_module(b)
            if result:
                break
        self._is_module_cache[cls.key] = result
        return result

    # -- call resolution ----------------------------------------------------------------------
    def resolve_call(self, caller: FunctionInfo | None, module: str, callee: str) -> list[FunctionInfo]:
        """The project functions a call descriptor can reach (empty when unknown or external)."""
        cls = self.classes.get(caller.class_key) if caller and caller.class_key else None
        if callee.startswith(("self.", "cls.")) and cls is not None:
            return self._resolve_self(cls, callee.split(".", 1)[1])
        if callee.startswith("super()."):
            if cls is None:
                return []
            fn = self.method(cls, callee.split(".", 1)[1], skip_self=True)
            return [fn] if fn else []
        if callee.endswith("()") or callee.endswith("()[]"):
            return []
        fn = self.function_by_dotted(callee)
        if fn is not None:
            return [fn]
        # `Cls.method(...)` or calling a module instance held in a module-level name.
        head, _, meth = callee.rpartition(".")
        owner = self.class_by_dotted(head) if head else None
        if owner is not None:
            fn = self.method(owner, meth)
            return [fn] if fn else []
        return []

    def _resolve_self(self, cls: ClassInfo, rest: str) -> list[FunctionInfo]:
        parts = rest.split(".")
        first = parts[0]
        if len(parts) == 1 and not first.endswith("[]"):
            fn = self.method(cls, first)
            if fn is not None:
                return [fn]
        attr = self.attr(cls, first.rstrip("[]").rstrip("["))
        if attr is None:
            return []
        meth = parts[1] if len(parts) > 1 else "forward"
        targets = []
        if attr.startswith("module:"):
            targets = [attr[len("module:"):]]
        elif attr.startswith("modules:"):
            targets = [t for t in attr[len("modules:"):].split(",") if t]
        out = []
        for t in targets:
            owner = self.class_by_dotted(t)
            fn = self.method(owner, meth) if owner else None
            if fn:
                out.append(fn)
        return out

    # -- hot path -----------------------------------------------------------------------------
    def hot_functions(self, hot_patterns: tuple[str, ...] = (), cold_patterns: tuple[str, ...] = (),
                      capture_patterns: tuple[str, ...] = ()) -> dict[str, HotInfo]:
        def matches(fn: FunctionInfo, patterns: tuple[str, ...]) -> bool:
            full = f"{fn.module}:{fn.qualname}"
            return any(fnmatch.fnmatchcase(full if ":" in p else fn.qualname, p) for p in patterns)

        cold = {k for k, f in self.functions.items() if "cold" in f.markers or matches(f, cold_patterns)}
        result: dict[str, HotInfo] = {}
        queue: deque[str] = deque()

        def add(fn: FunctionInfo, via: tuple[str, ...], capture: bool = False) -> None:
            if fn.key in cold:
                return
            prev = result.get(fn.key)
            if prev is not None and prev.whole and (prev.capture or not capture):
                return
            result[fn.key] = HotInfo(via=via if prev is None or not prev.whole else prev.via,
                                     whole=True, capture=capture or (prev.capture if prev else False))
            queue.append(fn.key)

        for fn in self.functions.values():
            cls = self.classes.get(fn.class_key) if fn.class_key else None
            name = fn.qualname.rpartition(".")[2]
            is_hot_method = (cls is not None and fn.parent_key is None and name in HOT_METHOD_NAMES
                             and self.is_nn_module(cls))
            capture = "capture" in fn.markers or matches(fn, capture_patterns)
            if is_hot_method or "hot" in fn.markers or capture or matches(fn, hot_patterns):
                add(fn, (fn.display,), capture)
        for s in self.modules.values():
            for ref, _line in s.compile_roots:
                for fn in self._compile_targets(s, ref):
                    add(fn, (fn.display,))
        # Capture regions: the body of `with torch.cuda.graph(...)` is hot, and so is what it calls.
        for fn in list(self.functions.values()):
            if fn.regions and fn.key not in result and fn.key not in cold:
                result[fn.key] = HotInfo(via=(f"{fn.display} (capture region)",), whole=False)
            for callee, line in fn.calls:
                if any(a <= line <= b for a, b in fn.regions):
                    for target in self.resolve_call(fn, fn.module, callee):
                        add(target, (f"{fn.display} (capture region)", target.display))
        for s in self.modules.values():
            for callee, _line in s.module_region_calls:
                for target in self.resolve_call(None, s.module, callee):
                    add(target, ("<module> (capture region)", target.display))

        while queue:
            fn = self.functions[queue.popleft()]
            via = result[fn.key].via
            for callee, _line in fn.calls:
                for target in self.resolve_call(fn, fn.module, callee):
                    if target.key not in result or not result[target.key].whole:
                        add(target, via + (target.display,))
        # Nested defs of a hot function are analysed inline with it.
        for key in list(result):
            fn = self.functions[key]
            if fn.parent_key and fn.parent_key in result and result[fn.parent_key].whole:
                del result[key]
        return result

    def _compile_targets(self, s: ModuleSummary, ref: str) -> list[FunctionInfo]:
        if ref.endswith("()"):
            owner = self.class_by_dotted(ref[:-2])
            fn = self.method(owner, "forward") if owner else None
            return [fn] if fn else []
        fn = self.function_by_dotted(ref)
        if fn:
            return [fn]
        # `torch.compile(self.step)` inside a class: any class method with that name in the module.
        if ref.startswith("self."):
            name = ref.split(".", 1)[1]
            return [self.functions[c.methods[name]] for c in s.classes.values() if name in c.methods]
        return []

    def all_functions(self, cold_patterns: tuple[str, ...] = ()) -> dict[str, HotInfo]:
        """`--scope all`: every function that is not marked cold, outermost defs only."""
        out = {}
        for fn in self.functions.values():
            full = f"{fn.module}:{fn.qualname}"
            if "cold" in fn.markers or any(fnmatch.fnmatchcase(full if ":" in p else fn.qualname, p)
                                           for p in cold_patterns):
                continue
            if fn.parent_key is None:
                out[fn.key] = HotInfo(via=(), whole=True, capture="capture" in fn.markers)
        return out


def _own_nodes(func: ast.FunctionDef | ast.AsyncFunctionDef):
    """Nodes of a function's own body: nested functions, lambdas and classes are not entered."""
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def _bound_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _bound_names(elt)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def class_annotation(node: ast.expr | str) -> str | None:
    """The dotted class name of an annotation (node or source text) that names one class: `Meta`,
    `mod.Meta`, `"Meta"`, `Optional[Meta]`, `Meta | None`; None for anything else."""
    if isinstance(node, str):
        node = ast.Constant(node)
    while isinstance(node, ast.Constant) and isinstance(node.value, str):  # source text, or a quoted name
        try:
            node = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript) and dotted(node.value) in ("Optional", "typing.Optional"):
        node = node.slice
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) \
            and isinstance(node.right, ast.Constant) and node.right.value is None:
        node = node.left
    name = dotted(node)
    return name if name and name.replace(".", "").isidentifier() else None


def _annotation_kind(annotation: str) -> str | None:
    """Kind named by a return or field annotation: "tensor" (bool tensors included), "tensor_seq", "host",
    or None."""
    kind = annotation_kind(annotation)
    if kind == "bool_tensor":
        return "tensor"
    return kind if kind in ("tensor", "tensor_seq", "host") else None
