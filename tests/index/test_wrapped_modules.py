"""torch's wrappers of a module (`facts.torch_kinds.MODULE_WRAPPERS`): `torch.jit.script(m)`, `torch.jit.freeze(m)`,
and `torch.compile(m)` return an object that stands for `m` (a call of it runs `m`'s forward, its attributes are
`m`'s), so a value bound to one is a value of `m`'s class, wherever the index reads what a value holds
(`index.assigned.module_held`): a local, a field, a global, a local rebound to its own wrapper. Each positive case has
its decoy: a project function named like a wrapper is no wrapper, and a traced module (`torch.jit.trace`) replays
constants, not the forward's host reads."""

from __future__ import annotations

from index_projects import hot, project_index

from graphlint.index.project import BY_NAME

NET = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def forward(self, x):
            return x * 2

        def pre_infer(self, x):
            return x + 1
"""


def edges_of(files: dict[str, str], qualname: str) -> dict[str, list[str]]:
    """{call descriptor: the qualnames it resolves to} of every call function `qualname` makes (not a method found by
    its name alone on a receiver of unknown class)."""
    index = project_index(files)
    fn = next(f for f in index.functions.values() if f.qualname == qualname)
    return {callee: sorted(t.qualname for t, how in index.call_edges(fn, fn.module, callee) if not how.startswith(BY_NAME))
            for callee, _ in fn.calls}


def reaches(files: dict[str, str], qualname: str, target: str) -> bool:
    return any(target in found for found in edges_of(files, qualname).values())


def test_a_local_bound_to_a_wrapped_module_calls_its_forward_and_methods():
    for wrapped in ("torch.jit.script(Net())", "torch.jit.script(Net().eval())", "torch.jit.freeze(torch.jit.script(Net()))",
                    "torch.compile(Net(), mode='max-autotune')",
                    "torch.jit.script(Net()).to('cuda')"):
        src = NET + f"""
    def run(x):
        m = {wrapped}
        return m(m.pre_infer(x))
    """
        assert reaches({"pkg.m": src}, "run", "Net.forward"), wrapped
        assert reaches({"pkg.m": src}, "run", "Net.pre_infer"), wrapped


def test_a_local_rebound_to_its_own_wrapper_keeps_what_it_held():
    """GPT-SoVITS' `stream_t2s = StreamT2SModel(t2s).to(device); stream_t2s = torch.jit.script(stream_t2s)`, in a
    function and at a script's top level; and a project factory's product wrapped so (`_made_callee`)."""
    in_function = NET + """
    def build(cfg):
        return Net()

    def run(x):
        m = Net().to("cuda")
        m = torch.jit.script(m)
        return m.pre_infer(x)

    def run_made(x, cfg):
        m = build(cfg)
        m = torch.jit.script(m)
        return m.pre_infer(x)
    """
    assert reaches({"pkg.m": in_function}, "run", "Net.pre_infer")
    assert reaches({"pkg.m": in_function}, "run_made", "Net.pre_infer")
    script = NET + """
    model = Net().cuda()
    model = torch.jit.script(model)
    for _ in range(4):
        model.pre_infer(torch.zeros(2))
    """
    index = project_index({"pkg.m": script})
    calls = [c for s in index.modules.values() if s.script for c, _ in s.script.calls]
    assert "pkg.m.Net().pre_infer" in calls


def test_a_field_stored_from_a_wrapped_module_holds_its_class():
    src = NET + """
    class Runner:
        def __init__(self, path):
            net = Net()
            self.net = torch.jit.script(net)
            self.fast = torch.compile(Net().eval())

        def step(self, x):
            return self.fast(self.net.pre_infer(x))
    """
    found = edges_of({"pkg.m": src}, "Runner.step")
    assert found["self.net.pre_infer"] == ["Net.pre_infer"]
    assert found["self.fast"] == ["Net.forward"]


def test_a_decode_loop_through_a_scripted_model_is_the_step():
    src = NET + """
    def generate(x, n):
        model = torch.jit.script(Net()).cuda()
        for _ in range(n):
            x = model(x)
        return x
    """
    assert hot({"pkg.m": src})["Net.forward"][0] == "step"


def test_a_project_function_named_like_a_wrapper_is_no_wrapper():
    """Decoy: `script(Net())` / `compile(...)` of the project's own helpers return whatever those return (here a
    plain function), not the module: nothing of Net is called through them."""
    src = NET + """
    def script(module):
        return lambda x: x

    class jit:
        @staticmethod
        def trace(module, x):
            return None

    def run(x):
        m = script(Net())
        n = jit.trace(Net(), x)
        return m(x), n.pre_infer(x)
    """
    found = edges_of({"pkg.m": src}, "run")
    assert not any("Net.forward" in t or "Net.pre_infer" in t for t in found.values()), found


def test_a_traced_module_is_no_value_of_its_class():
    """Decoy: `torch.jit.trace(m, x)` replays the ops the forward ran once at trace time; its `.item()` and branches
    on tensors ran then, so calls through the trace do not run the forward's host reads."""
    src = NET + """
    def run(x):
        m = torch.jit.trace(Net().eval(), x)
        return m(m.pre_infer(x))
    """
    assert not reaches({"pkg.m": src}, "run", "Net.forward")


def test_a_wrapped_bound_method_calls_the_method():
    """`step = torch.jit.script(self._step)` (a method, not a module) runs `_step`, as `torch.compile` of it does."""
    src = NET + """
    class Gen:
        def _step(self, x):
            return x

        def run(self, x):
            step = torch.jit.script(self._step)
            return step(x)
    """
    assert edges_of({"pkg.m": src}, "Gen.run")["self._step"] == ["Gen._step"]


LIBRARY = """
    import torch
    from transformers import AutoModelForCausalLM

    class Server:
        def __init__(self, path):
            self.model = torch.compile(AutoModelForCausalLM.from_pretrained(path).cuda())

        def decode(self, x, n):
            for _ in range(n):
                nxt = self.model(x)[:, -1].argmax(-1, keepdim=True)
                x = torch.cat((x, nxt), dim=1)
            return x

    def local(path, x, n):
        model = torch.jit.script(AutoModelForCausalLM.from_pretrained(path).eval())
        for _ in range(n):
            x = torch.cat((x, model(x)[:, -1].argmax(-1, keepdim=True)), dim=1)
        return x
"""


def test_a_wrapped_library_model_is_a_whole_model():
    """`summary.is_model_loader` reads through the wrapper as through `.cuda()`: the field is a whole model
    (`_typed_models`), and a call of the local is the loader's model's (`loader()`, `_model_call`)."""
    index = project_index({"pkg.m": LIBRARY})
    fns = {fn.qualname: fn for fn in index.functions.values()}
    assert "self.model" in index._typed_models(fns["Server.decode"])
    assert "transformers.AutoModelForCausalLM.from_pretrained()" in [c for c, _ in fns["local"].calls]


def test_a_wrapped_function_of_a_library_is_no_model():
    """Decoy: `torch.compile(F.gelu)` / `torch.jit.script(torch.nn.functional.softmax)` wrap a function, no model."""
    src = LIBRARY.replace("AutoModelForCausalLM.from_pretrained(path).cuda()", "torch.nn.functional.gelu") \
        .replace("AutoModelForCausalLM.from_pretrained(path).eval()", "torch.nn.functional.softmax")
    index = project_index({"pkg.m": src})
    fns = {fn.qualname: fn for fn in index.functions.values()}
    assert "self.model" not in index._typed_models(fns["Server.decode"])
    assert not any(c.endswith("()") and "softmax" in c for c, _ in fns["local"].calls)


def test_a_global_bound_to_a_wrapped_module_holds_its_class():
    """`MODEL = torch.compile(Net())` at module level: a function reading the global calls Net's methods."""
    src = NET + """
    MODEL = torch.compile(Net().eval())

    def run(x):
        return MODEL.pre_infer(x)
    """
    assert reaches({"pkg.m": src}, "run", "Net.pre_infer")
