"""Call-site facts of a method compiled in place (`self.step = torch.compile(self.step, mode=...)`): the wrapper is
bound back to the very name the method is, so the method is still called only through `self.step(...)`, the calls
the index resolves; what those calls pass reaches its parameters (graphlint.index.summary `compiled_in_place`,
graphlint.index.callfacts `_references`). WhisperSpeech's `generate_next` (armory): a CUDA 0-d temperature made in
`generate` reaches `max(T, 1e-5)` through `generate_next(*args)` -> `generate_one` -> `sample`. Decoys: a compile
bound to another name, or a compiled callable handed to a library, keeps the parameters unknown."""

from __future__ import annotations

from snippets import findings

MODEL = """
    import torch


    def logits_to_probs(logits, T=1.0):
        return logits / max(T, 1e-5)


    class Decoder(torch.nn.Module):
        def optimize(self):
            {compile}

        def generate_one(self, logits, T):
            return logits_to_probs(logits, T)

        def generate_next(self, *args, **kwargs):
            return self.generate_one(*args, **kwargs)

        @torch.no_grad()
        def generate(self, logits, T=0.7):
            T = torch.tensor(T, device=logits.device)
            for _ in range(8):
                logits = {call}(logits, T)
            return logits
"""


def _src(compile_line: str, call: str = "self.generate_next") -> str:
    return MODEL.replace("{compile}", compile_line).replace("{call}", call)


def test_hit_a_device_scalar_reaches_a_method_compiled_in_place():
    src = _src('self.generate_next = torch.compile(self.generate_next, mode="reduce-overhead", fullgraph=True)')
    assert (5, "GL160") in findings(src, scope="all")


def test_hit_without_compile_the_same_flow_is_found():
    """The baseline the in-place compile must not hide: no compile at all."""
    assert (5, "GL160") in findings(_src("pass"), scope="all")


def test_decoy_a_compile_bound_to_another_name_keeps_the_parameter_unknown():
    """`self.fast = torch.compile(self.generate_next)`: the compiled callable is a new value the index does not
    follow to its calls (it could be handed anywhere), so `generate_next`'s parameters stay unknown."""
    src = _src("self.fast = torch.compile(self.generate_next)")
    assert (5, "GL160") not in findings(src, scope="all")


def test_decoy_a_method_compiled_in_place_and_handed_to_a_library_keeps_the_parameter_unknown():
    """Compiled in place, but also handed to a library as a callback (`register(self.generate_next)`): calls the index
    cannot see may pass anything."""
    src = _src("self.generate_next = torch.compile(self.generate_next)\n"
               "            torch.utils.hooks.register(self.generate_next)")
    assert (5, "GL160") not in findings(src, scope="all")


def test_decoy_a_host_temperature_stays_silent_through_an_in_place_compile():
    """The callers' flow now counts both ways: a Python float temperature (no `torch.tensor`) is host data, and
    `max(T, 1e-5)` compares two floats."""
    src = _src('self.generate_next = torch.compile(self.generate_next, mode="reduce-overhead")').replace(
        "            T = torch.tensor(T, device=logits.device)\n", "")
    assert (5, "GL160") not in findings(src, scope="all")


GLOBAL = """
    import torch


    def decode_one(x, T):
        return x / max(T, 1e-5)


    def decode_n(x, T, n):
        for _ in range(n):
            x = decode_one(x, T)
        return x


    def main(x, compile=True):
        global decode_one
        if compile:
            decode_one = torch.compile(decode_one, mode="reduce-overhead")
        T = {temperature}
        return decode_n(x, T, 8)
"""


def test_hit_a_module_function_compiled_in_place_under_global():
    """gpt-fast / litgpt style: `global decode_one; decode_one = torch.compile(decode_one)` rebinds the module's name,
    so `decode_n`'s call still runs it with what `main` passes (a CUDA 0-d temperature)."""
    src = GLOBAL.replace("{temperature}", 'torch.tensor(0.7, device="cuda")')
    assert (5, "GL160") in findings(src, scope="all")


def test_decoy_a_module_function_compiled_in_place_fed_a_float_stays_silent():
    assert (5, "GL160") not in findings(GLOBAL.replace("{temperature}", "0.7"), scope="all")


TRAIN = """
    import torch


    def main():
        device = torch.device("cuda")
        model = torch.nn.Linear(4, 4).to(device)

        def update(data):
            loss = model(data).sum()
            return loss.item()

        {before}
        update = torch.compile(update{how})
        for _ in range(100):
            update(torch.randn(4, 4, device=device))


    if __name__ == "__main__":
        main()
"""


def _contexts(how: str, before: str = "pass") -> dict[tuple[int, str], str | None]:
    import textwrap

    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter

    text = textwrap.dedent(TRAIN.replace("{how}", how).replace("{before}", before)).lstrip("\n")
    return {(f.line, f.code): f.context for f in Linter(Config()).lint_text(text, "m.py").findings}


def test_hit_a_nested_def_rebound_by_a_graphed_compile_is_captured():
    """fasttd3's `update_main = torch.compile(update_main, mode=...)` in `main`: the nested def is walked with `main`
    (its closure), and every call of the name after the compile replays a CUDA graph, as a method compiled in place
    (`self._plan = torch.compile(self._plan, mode="reduce-overhead")`) is a graphed region: its code is `captured`,
    for `mode="reduce-overhead"`, `"max-autotune"` and `fullgraph=True` alike."""
    for how in (', mode="reduce-overhead"', ', mode="max-autotune"', ", fullgraph=True"):
        assert _contexts(how)[(10, "GL101")] == "captured", how


def test_decoy_a_nested_def_compiled_without_graphs_or_called_first_stays_step():
    """A plain `torch.compile` (or `"max-autotune-no-cudagraphs"`) replays no graph, and a call before the compile
    runs the def eagerly (the def is walked once, at its first call): both keep the enclosing loop's tier."""
    assert _contexts("")[(10, "GL101")] == "step"
    assert _contexts(', mode="max-autotune-no-cudagraphs"')[(10, "GL101")] == "step"
    warm = "update(torch.randn(4, 4, device=device))"
    assert _contexts(', mode="reduce-overhead"', before=warm)[(10, "GL101")] != "captured"
