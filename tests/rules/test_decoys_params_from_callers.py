"""A parameter's facts from what its callers pass, and the values a project object's `__call__` hands back
(graphlint.index.callfacts `CallFacts`, graphlint.facts.follows, graphlint.check.walker). Distilled from
k-diffusion / consistency models (`get_sigmas_karras(.., device="cpu")`, `append_zero`) and VALL-E's
`TextTokenCollater`. Hits are real uploads; decoys are the host look-alikes."""

from __future__ import annotations

import textwrap

from snippets import findings, lint

SIGMAS = """
    import torch as th


    def append_zero(x):
        return th.cat([x, x.new_zeros([1])])


    def get_sigmas_karras(n, sigma_min, sigma_max, rho=7.0, device={default}):
        ramp = th.linspace(0, 1, n)
        sigmas = (sigma_max + ramp * (sigma_min - sigma_max)) ** rho
        return append_zero(sigmas).to(device)


    def sample(model, steps, device=None):
        sigmas = get_sigmas_karras(steps, 0.002, 80.0{passed})
        return model(sigmas)


    def main(model, dev):
        for _ in range(4):
            print(sample(model, 40{outer}).shape)
"""


def test_hit_cpu_default_every_caller_overrides_with_a_device():
    """`get_sigmas_karras(.., device="cpu")` that every caller calls with the caller's device (`dist_util.dev()`
    through `karras_sample(device=...)`): the schedule is built on the host by `linspace` and joined by
    `append_zero` (`cat` of its input and `x.new_zeros`, so where its input is), then uploaded: a blocking copy."""
    src = SIGMAS.format(default='"cpu"', passed=", device=device", outer=", device=dev")
    assert (11, "GL131") in findings(src, scope="all")


def test_decoy_cpu_default_every_caller_keeps():
    """The same helper where every caller leaves `device="cpu"` as it is (or passes "cpu", or `torch.device("cpu")`
    is the default): `.to(device)` moves nothing."""
    for default, passed in (('"cpu"', ""), ('th.device("cpu")', ""), ('"cuda"', ', device="cpu"')):
        src = SIGMAS.format(default=default, passed=passed, outer="")
        assert (11, "GL131") not in findings(src, scope="all"), (default, passed)


def test_decoy_join_helper_of_a_device_tensor():
    """`append_zero` of a device schedule (`linspace(.., device=device)`) lives on the device: `.to(device)` of it
    is no upload."""
    src = """
        import torch as th


        def append_zero(x):
            return th.cat([x, x.new_zeros([1])])


        def get_sigmas(n, device):
            sigmas = th.linspace(1.0, 0.0, n, device="cuda")
            return append_zero(sigmas).to(device)


        def main(dev):
            for _ in range(4):
                print(get_sigmas(10, dev).shape)
    """
    assert (11, "GL131") not in findings(src, scope="all")


HOST_ITEMS = ("tokens = torch.from_numpy(np.array(seqs, dtype=np.int64))\n"
              "            lens = torch.IntTensor([len(s) for s in seqs])\n"
              "            return tokens, lens")
HEAD = """
    from typing import List, Tuple

    import numpy as np
    import torch


    class TextTokenCollater:
        def __init__(self, symbols):
            self.token2idx = {{t: i for i, t in enumerate(symbols)}}

        def __call__(self, texts: List[str]) -> Tuple[torch.Tensor, torch.Tensor]:
            seqs = [[self.token2idx[t] for t in text] for text in texts]
            {body}


    def get_text_token_collater(path: str) -> TextTokenCollater:
        return TextTokenCollater(open(path).read().split())
"""
COLLATER = HEAD + """


    def plain_factory(path):
        collater = TextTokenCollater(open(path).read().split())
        return collater


    def main(model, texts):
        device = torch.device("cuda", 0)
        typed = get_text_token_collater("x")
        plain = plain_factory("y")
        direct = TextTokenCollater(["a"])
        for text in texts:
            a, b = typed([text])
            c, d = plain([text])
            e, f = direct([text])
            print(model(a.to(device), b.to(device), c.to(device), d.to(device), e.to(device), f.to(device)))
"""


def uploads(src: str) -> int:
    """How many `.to(device)` uploads (GL131) the snippet has: six on one line, so counted, not set by line."""
    return sum(f.code == "GL131" for f in lint(src, scope="all"))


def test_hit_collater_call_returns_host_tensors():
    """A project object's `__call__` returning `torch.from_numpy(..)` and `torch.IntTensor(..)` as a tuple (VALL-E's
    `TextTokenCollater`), called through an instance an annotated factory, a plain factory or the class itself made:
    each item is a host tensor, so `.to(device)` of it is a blocking upload."""
    assert uploads(COLLATER.format(body=HOST_ITEMS)) == 6


def test_decoy_collater_call_returns_device_tensors():
    """The same collater building its tensors on the device: the items are device tensors, and `.to(device)` of them
    moves nothing."""
    body = ('tokens = torch.tensor(seqs, device="cuda")\n'
            '            lens = torch.tensor([len(s) for s in seqs], device="cuda")\n'
            "            return tokens, lens")
    assert uploads(COLLATER.format(body=body)) == 0


INFER = HEAD.replace("{body}", HOST_ITEMS) + """


    class Model(torch.nn.Module):
        def inference(self, x: torch.Tensor, enroll_x_lens: torch.Tensor, top_k: int = 1):
            prefix_len = enroll_x_lens.max().item()
            return x[:, prefix_len:]


    def main(model: Model, texts, prompt):
        device = torch.device("cuda", 0)
        text_collater = get_text_token_collater("tokens.txt")
        for text in texts:
            text_tokens, text_tokens_lens = text_collater([prompt + text])
            _, enroll_x_lens = text_collater([prompt])
            print(model.inference(text_tokens.to(device), enroll_x_lens={passed}))
"""


def syncs(src: str) -> int:
    """How many `.item()` syncs (GL101) the snippet has: the callee's one `.item()` or none."""
    return sum(code == "GL101" for _line, code in findings(src, scope="all"))


def test_decoy_parameter_every_caller_passes_a_host_tensor():
    """VALL-E's `enroll_x_lens`: the collater's `torch.IntTensor` lengths, passed beside the `.to(device)` arguments
    and never moved. The callee's annotation (`torch.Tensor`) names no device; every call passes a host tensor, so
    `enroll_x_lens.max().item()` reads host memory (no GL101)."""
    assert not syncs(INFER.format(passed="enroll_x_lens"))


def test_hit_parameter_a_caller_passes_a_device_tensor():
    """The same call with the lengths moved up first: the callee's `.item()` waits for the device."""
    assert syncs(INFER.format(passed="enroll_x_lens.to(device)")) == 1


SAMPLER = """
    import torch as th


    def append_zero(x):
        return th.cat([x, x.new_zeros([1])])


    def get_sigmas(n, device="cpu"):
        return append_zero(th.linspace(1, 0, n)).to(device)


    def sample_heun(denoiser, x, sigmas, s_churn=0.0):
        for i in range(len(sigmas) - 1):
            x = denoiser(x, sigmas[i])
            if sigmas[i + 1] == 0:
                x = x + 1
        return x


    def karras_sample(denoiser, x, steps, sampler, device, churn):
        sigmas = get_sigmas(steps{passed})
        sampler_args = dict(s_churn=churn) if sampler == "heun" else {{}}
        sample_fn = {{"heun": sample_heun}}[sampler]
        return sample_fn(denoiser, x, sigmas, **sampler_args)
"""


def test_hit_sampler_of_a_dispatch_table_takes_device_sigmas():
    """Consistency models' `karras_sample`: the schedule moved to the caller's device, handed to the sampler a dict
    display picks (`sample_fn = {...}[sampler]`) next to `**sampler_args`: `if sigmas[i + 1] == 0` reads a device
    value every step."""
    assert (15, "GL110") in findings(SAMPLER.format(passed=", device=device"), scope="all")


def test_decoy_sampler_of_a_dispatch_table_takes_host_sigmas():
    """The same schedule left on the host (`get_sigmas` keeps its `device="cpu"`): the comparison reads host memory."""
    assert (15, "GL110") not in findings(SAMPLER.format(passed=""), scope="all")


def test_a_number_default_every_caller_leaves_out_is_a_host_number():
    """`grid_size=80` that no caller passes holds the number, so `W // grid_size` is a host int and `torch.arange(n) *
    step + ox` a CPU tensor written into a device slice (co-tracker's dense grid, per offset: GL131); decoy: the same
    default scaling a tensor built on the device (a host number operand copies nothing)."""
    src = """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                g = torch.zeros((2, 8, 3), device=x.device)
                return self.dense(g), self.scaled(g)
            def dense(self, g, grid_size=80):
                step = g.shape[-1] // grid_size
                for offset in range(step * step):
                    ox = offset % step
                    g[:, :, 1] = torch.arange(8).repeat(2) * step + ox
                return g
            def scaled(self, g, scale=2.0):
                g[:, :, 2] = torch.arange(8, device=g.device) * scale
                return g
    """
    assert {f for f in findings(src) if f[1] == "GL131"} == {(10, "GL131")}


def test_a_helper_every_caller_hands_its_own_self_reads_the_class_methods():
    """wenet's `attention_rescoring(self, ...)` in `ASRModel.decode`: the helper's untyped `model` is the caller's own
    instance, so `model.scores(x)` returns what the class's `scores` returns (device log-probs and a host copy) and
    per-token `math.exp(s)` / `if s > best` read device values (GL105, GL110). Decoys: the host item of the same
    return, and a helper one caller hands its `self` and another some other object (no one class: nothing known)."""
    src = """
        import math
        import torch
        class Decoder(torch.nn.Module):
            def forward(self, x: torch.Tensor, other):
                return rescore(self, x), rescore_any(self, x), rescore_any(other, x)
            def scores(self, x: torch.Tensor):
                return torch.log_softmax(x, dim=-1), torch.zeros(4)
        def rescore(model, x):
            out, host = model.scores(x)
            best = 0.0
            for i in range(4):
                s = out[0][i]
                c = math.exp(s)
                if s > best:
                    best = c
                if host[i] > 0:
                    best = math.exp(host[i])
            return best
        def rescore_any(model, x):
            out, host = model.scores(x)
            s = out[0][1]
            return math.exp(s) if s > 0 else 0.0
    """
    assert {f for f in findings(src) if f[1] in ("GL105", "GL110")} == {(13, "GL105"), (14, "GL110")}


def test_a_plain_object_handed_as_self_keeps_the_field_facts_of_its_name():
    """Megatron's `sampling.log_probs_kernel(logits, self, ...)` in its inference context: the helper's `context` is the
    context object (`Inst`), whose `active_request_metadata` its class leaves untyped; what every class keeps in a field
    of that name (host metadata, `CallFacts.field`) still answers, as for a receiver of unknown class (decoy: its
    `.tolist()` reads the host)."""
    src = """
        import torch
        class Context:
            def __init__(self, n: int):
                self.active_request_metadata = {"temperature": torch.zeros(n, pin_memory=True)}
                self.total = n
            def log_probs(self, sampler, logits: torch.Tensor):
                return sampler.kernel(logits, self)
        class Sampler:
            def kernel(self, logits: torch.Tensor, context):
                metadata = context.active_request_metadata
                temps = metadata["temperature"][: context.total].tolist()
                return logits / temps[0]
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return Context(4).log_probs(Sampler(), x)
    """
    assert {f for f in findings(src) if f[1] == "GL102"} == set()


PREPARE = """
    import torch
    from PIL import Image
    from torchvision.transforms.functional import pil_to_tensor


    def prepare(input_image):
        if isinstance(input_image, Image.Image):
            rgb = pil_to_tensor(input_image.convert("RGB")).unsqueeze(0)
        elif isinstance(input_image, torch.Tensor):
            rgb = input_image
        else:
            raise TypeError(type(input_image))
        rgb_norm = rgb / 255.0 * 2.0 - 1.0
        assert rgb_norm.min() >= -1.0 and rgb_norm.max() <= 1.0
        return rgb_norm


    def main(model, paths):
        for p in paths:
            img = {image}
            model(prepare(img).to("cuda"))
"""


def test_decoy_an_image_helper_every_caller_passes_a_pil_image():
    """Marigold's pre-processing: `pil_to_tensor` of a PIL image on one arm, a tensor passed through on the other.
    Every caller passes a Pillow image (`Image.open(path)`, `.convert("RGB")` of one, `Image.fromarray(a)`): Pillow
    values are host data, so the tensor arm never runs for them and the range check reads host memory (no GL110)."""
    for image in ("Image.open(p)", 'Image.open(p).convert("RGB")', "Image.fromarray(p)"):
        assert not {f for f in findings(PREPARE.format(image=image), scope="all") if f[1] == "GL110"}, image


def test_hit_an_image_helper_a_caller_passes_a_device_tensor():
    """The same helper where the caller passes a CUDA tensor: the pass-through arm holds it and the range check
    waits for the device (GL110, twice); so it does where another caller still passes a PIL image (the sites
    disagree: no claim from the callers, the parameter policy decides as before)."""
    device = 'torch.rand(1, 3, 8, 8, device="cuda")'
    assert {f for f in findings(PREPARE.format(image=device), scope="all") if f[1] == "GL110"} == {(14, "GL110")}
    mixed = PREPARE.format(image="Image.open(p)").replace(
        "    for p in paths:", f"    prepare({device})\n    for p in paths:")
    assert {f for f in findings(mixed, scope="all") if f[1] == "GL110"} == {(14, "GL110")}


def test_decoy_a_pil_image_tested_for_a_tensor_in_place():
    """A PIL image made in the function itself (`Image.open(p).convert("RGB")`) is not narrowed into a tensor by an
    `isinstance(img, torch.Tensor)` test: that arm never runs, its reduction reads nothing on the device."""
    src = """
        import torch
        from PIL import Image


        def run(model, paths):
            for p in paths:
                img = Image.open(p).convert("RGB")
                if isinstance(img, torch.Tensor):
                    if (img > 1).any():
                        raise ValueError(p)
                model(img)
    """
    assert not {f for f in findings(src, scope="all") if f[1] == "GL111"}


# surya's layout decoder: each step's boxes are copied to the host once (`rows_cpu = rows.cpu()`) and every row goes
# to a helper that reads its numbers with `.item()`; the helper's only caller passes a row of the host copy, through
# `enumerate(zip(..))`, with the model config's scales
POLYGON = """
    import torch


    def to_polygon(pred, img_size, bbox_scaler, skew_scaler, skew_min=0.001):
        w_scale = img_size[0] / bbox_scaler
        cx, width = pred[0], pred[2]
        skew = torch.floor((pred[4] - skew_scaler) / 2)
        skew[torch.abs(skew) < skew_min] = 0
        polygon = [cx - width / 2 - skew, cx + width / 2 + skew]
        return [p.item() * w_scale for p in polygon]  # <- the read


    class Predictor:
        @torch.inference_mode()
        def detect(self, x, sizes):
            while True:
                rows = self.model(x)
                done_cpu = (rows[:, -1, 6] == 0).cpu()
                rows_cpu = rows.cpu()
                for j, (pred, done) in enumerate(zip({rows}, done_cpu)):
                    if done:
                        continue
                    polygon = to_polygon(pred[0], sizes[j], self.model.config.decoder.bbox_size,
                                         self.model.config.decoder.skew_scaler)
                    print(polygon)
                x = rows
{more}"""


def _polygon_reads(src: str) -> set[tuple[int, str]]:
    line = next(i for i, text in enumerate(textwrap.dedent(src).lstrip("\n").splitlines(), 1) if "<- the read" in text)
    return {f for f in findings(src, scope="all") if f == (line, "GL101")}


def test_decoy_a_helper_whose_only_caller_passes_a_row_of_a_host_copy():
    """The loop's names read as elements of what it iterates at the call site (`zip` element-wise, `enumerate`'s
    item), and a config's field passed along is a Python number: every caller passes a CPU row, so `.item()` of its
    arithmetic reads host memory (no GL101), whatever the parameter policy would guess for `pred`."""
    for rows in ("rows_cpu", "rows_cpu.clone()"):
        assert not _polygon_reads(POLYGON.format(rows=rows, more="")), rows
    single = POLYGON.format(rows="rows_cpu", more="").replace(
        "for j, (pred, done) in enumerate(zip(rows_cpu, done_cpu)):", "for pred in rows_cpu:\n                    j = 0\n                    done = False")
    assert not _polygon_reads(single)


def test_hit_a_helper_whose_caller_passes_a_device_row():
    """The same helper fed rows of the device tensor: the read waits for the GPU (GL101); so it does where one caller
    passes a host row and another a device row (the sites disagree: the parameter policy decides, as before), and
    where the loop's name is moved to the device in the body before the call."""
    assert _polygon_reads(POLYGON.format(rows="rows", more=""))
    other = """

    def debug(model, x, sizes):
        print(to_polygon(model(x)[0], sizes[0], 1024, 0))
"""
    assert _polygon_reads(POLYGON.format(rows="rows_cpu", more=other))
    moved = POLYGON.format(rows="rows_cpu", more="").replace("continue\n", "continue\n                    pred = pred.cuda()\n")
    assert _polygon_reads(moved)


def test_hit_a_helper_no_project_code_calls():
    """Without an in-tree caller (a library's public helper) nothing overrides the parameter policy: flagged as
    before."""
    src = POLYGON.format(rows="rows_cpu", more="").replace("polygon = to_polygon(", "polygon = (")
    assert _polygon_reads(src)


# A helper whose return follows its argument (`FunctionInfo.follows`), called inside another project function whose
# return the checker reads (`CallFacts.direct` with the owner, `settle`): lerobot's RTC `get_prefix_weights`, whose
# arms rebind `weights = self._add_leading_ones(weights, start, total)` after an element store into a host buffer.
PREFIX = """
    import torch
    from torch import nn


    class RTC(nn.Module):
        def __init__(self, mode):
            super().__init__()
            self.mode = mode

        def get_prefix_weights(self, start, end, total):
            if self.mode == 0:
                weights = torch.zeros(total)
                weights[:start] = 1.0
            else:
                weights = self._linweights(start, end, total)
                weights = self._add_leading_ones(weights, start, total)
            return weights

        def _linweights(self, start, end, total):
            return {lin}

        def _add_leading_ones(self, weights, start, total):
            if start <= 0:
                return weights
            ones = torch.ones(start)
            return torch.cat([ones, {part}])

        def forward(self, x_t, delay, horizon):
            weights = self.get_prefix_weights(delay, horizon, x_t.shape[1]).to(x_t.device)
            return x_t * weights
"""


def test_hit_pass_through_helper_of_a_host_tensor():
    """Every arm of `get_prefix_weights` builds its weights on the host: the zeros filled in place, and the
    linspace handed through `_add_leading_ones` (the argument itself, or `cat` with a host part): `.to(device)` of
    the result is a pageable upload every denoise step."""
    src = PREFIX.format(lin="torch.linspace(1, 0, total - start + 2)[1:-1]", part="weights")
    assert (29, "GL131") in findings(src)


def test_decoy_pass_through_helper_of_a_device_tensor_or_a_moved_part():
    """The same shape where the argument lives on the device (`linspace(.., device=...)`), or where the helper
    moves its argument before the join (`weights.cuda()`, the other arm then a device tensor too): no host
    claim, `.to(device)` is no upload."""
    for lin, part in (("torch.linspace(1, 0, total, device='cuda')", "weights"),
                      ("torch.linspace(1, 0, total)", "weights.cuda()")):
        src = PREFIX.format(lin=lin, part=part)
        assert (29, "GL131") not in findings(src), (lin, part)


def test_decoy_pass_through_helper_with_a_device_arm():
    """A helper that returns its argument on one arm and a new device tensor on the other (`torch.zeros(n,
    device=self.device)`), or that moves it (`w.to(self.device)`): its return follows no parameter, so a host
    argument says nothing about it."""
    src = """
        import torch
        from torch import nn


        class P(nn.Module):
            def __init__(self):
                super().__init__()
                self.device = torch.device("cuda")

            def _fresh(self, w, n):
                if n:
                    return w
                return torch.zeros(n, device=self.device)

            def _moved(self, w):
                return w.to(self.device)

            def prepare(self, n):
                a = torch.zeros(n)
                a = self._fresh(a, n)
                return a

            def moved(self, n):
                b = torch.zeros(n)
                b = self._moved(b)
                return b

            def forward(self, x, n):
                return x + self.prepare(n).to(x.device) + self.moved(n).to(x.device)
    """
    assert not {f for f in findings(src, scope="all") if f[0] == 28}


# A memoising method: `if k in self.voices: return self.voices[k]`, else build the value, store it under `k` and
# return it (kokoro's `KPipeline.load_single_voice`): the dict field's values are what the project stores there under
# any key (`CallFacts.keyed`, "owner|voices|*").
MEMO = """
    import torch
    from torch import nn


    class Pipeline(nn.Module):
        def __init__(self):
            super().__init__()
            self.voices = {{}}

        def load_voice(self, name, n):
            if name in self.voices:
                return self.voices[name]
            pack = torch.zeros(n)
            self.voices[name] = {stored}
            return {returned}

        def warm(self, name, n):
            {elsewhere}

        def forward(self, x, name, n):
            v = self.load_voice(name, n).to(x.device)
            return x + v
"""


def test_hit_memoising_method_of_host_values():
    """Every value stored in `self.voices` is a host tensor and so is the fresh one: the memo's return is a host
    tensor, and its `.to(device)` a pageable upload on each call."""
    for returned, elsewhere in (("pack", "pass"), ("self.voices[name]", "self.voices[name] = torch.ones(n)")):
        src = MEMO.format(stored="pack", returned=returned, elsewhere=elsewhere)
        assert (21, "GL131") in findings(src), (returned, elsewhere)


def test_decoy_memoising_method_with_a_device_value():
    """The cache stores the moved value (`pack.to("cuda")`), another method stores a device tensor, fills the
    field with `setdefault` or rebinds it: a cached value may live on the device, so the return is no host claim."""
    for stored, returned, elsewhere in (
            ('pack.to("cuda")', "self.voices[name]", "pass"),
            ("pack", "pack", 'self.voices[name] = torch.ones(n, device="cuda")'),
            ("pack", "pack", 'return self.voices.setdefault(name, torch.ones(n).cuda())'),
            ("pack", "pack", "self.voices = torch.load(name)")):
        src = MEMO.format(stored=stored, returned=returned, elsewhere=elsewhere)
        assert (21, "GL131") not in findings(src), (stored, elsewhere)


def test_a_helper_building_on_its_device_parameter_returns_where_the_call_places_it():
    """A helper whose tensors are built on its `device` parameter, default the host (stylegan2's `sample_affine(..,
    device="cpu")`): a call that leaves it out, or passes `"cpu"`, gets a host tensor, in the caller and handed on to
    a helper reading its `.device` (no upload). Hits: the same helper given `"cuda"` or a CUDA tensor's `.device`,
    and a parameter nothing types."""
    src = """
        import torch


        def mk(size, device="cpu"):
            return torch.eye(3, device=device).unsqueeze(0).repeat(size, 1, 1)


        def pad_of(G):
            return torch.tensor([1, 2], device=G.device)


        def handed(img):
            return pad_of(mk(img.shape[0]))


        def step(img, loaded):
            a = mk(img.shape[0])
            b = mk(img.shape[0], device="cpu")
            c = mk(img.shape[0], device="cuda")
            d = mk(img.shape[0], device=img.device)
            return (torch.tensor([1], device=a.device), torch.tensor([1], device=b.device),
                    torch.tensor([1], device=c.device), torch.tensor([1], device=d.device),
                    torch.tensor([1], device=loaded.device))


        def main(net, load):
            for _ in range(10):
                x = torch.randn(8, 4, device="cuda")
                step(x, load())
                handed(x)
                net(x).sum().backward()
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL130"} == {(22, "GL130"), (23, "GL130")}


def test_a_none_parameter_every_call_leaves_out_holds_no_tensor_in_a_join():
    """`G_try = G; if G is None: G_try = mk(..)` (stylegan2's `try_sample_affine_and_pad`) of a `G=None` every call
    leaves out: `G_try` is what `torch.inverse(mk(..))` returns, a host tensor here (a torch op of a project return
    lives where it settles), so a helper reading its `.device` uploads nothing. Hits: the same shape where a call
    passes a CUDA `G` (the join keeps the device tensor), and the op of a return built on `"cuda"`."""
    src = """
        import torch


        def mk(size, device="cpu"):
            return torch.eye(3, device=device).unsqueeze(0).repeat(size, 1, 1)


        def pad_a(G):
            return torch.tensor([1, 2], device=G.device)


        def pad_b(G):
            return torch.tensor([1, 2], device=G.device)


        def pad_c(G):
            return torch.tensor([1, 2], device=G.device)


        def left_none(img, G=None):
            G_try = G
            if G is None:
                G_try = torch.inverse(mk(img.shape[0]))
            return pad_a(G_try)


        def on_cuda(img):
            return pad_c(torch.inverse(mk(img.shape[0], device="cuda")))


        def given(img, G=None):
            G_try = G
            if G is None:
                G_try = mk(img.shape[0])
            return pad_b(G_try)


        def main(net):
            for _ in range(10):
                x = torch.randn(8, 4, device="cuda")
                left_none(x)
                on_cuda(x)
                given(x, torch.eye(3, device="cuda")[None])
                net(x).sum().backward()
    """
    # GL150: `torch.inverse` of the CUDA matrix checks its result on the host; of the host one it waits for nothing
    assert findings(src, scope="all") == {(13, "GL130"), (17, "GL130"), (28, "GL150")}


def test_a_helper_passing_its_device_parameter_on_returns_where_the_call_places_it():
    """stylegan2's `sample_affine(.., device="cpu")` rebinds `G = random_mat_apply(p, Gc, G, eye, device=device)`, a
    module helper whose return is built on the device it is passed (through another helper): a call that leaves the
    device out gets a host matrix, so is its `torch.inverse` (no GL150) and what is built on its `.device`. Hits: the
    same chain given `"cuda"` or a CUDA tensor's `.device`, and a helper mixing the device with a data parameter its
    caller fills with a CUDA tensor."""
    src = """
        import torch


        def bern(size, p, device="cpu"):
            return torch.empty(size, device=device).bernoulli_(p)


        def mat_apply(p, transform, prev, device="cpu"):
            select = bern(transform.shape[0], p, device=device).view(-1, 1, 1)
            return (select * transform + (1 - select)) @ prev


        def scale_mat(s, device="cpu"):
            return torch.eye(3, device=device).unsqueeze(0).repeat(4, 1, 1) * s


        def sample(p, size, device="cpu"):
            G = torch.eye(3, device=device).unsqueeze(0).repeat(size, 1, 1)
            G = mat_apply(p, scale_mat(2.0, device=device), G, device=device)
            return G


        def mixed(p, x, device="cpu"):
            return mat_apply(p, x, x, device=device)


        def step(img):
            a = torch.inverse(sample(0.5, img.shape[0]))
            c = sample(0.5, img.shape[0], device="cuda")
            d = sample(0.5, img.shape[0], device=img.device)
            e = mixed(0.5, img)
            ta = torch.tensor([1], device=a.device)
            tc = torch.tensor([1], device=c.device)
            td = torch.tensor([1], device=d.device)
            te = torch.tensor([1], device=e.device)
            return ta, tc, td, te


        def main(net):
            for _ in range(10):
                x = torch.randn(8, 4, device="cuda")
                step(x)
                net(x).sum().backward()
    """
    found = {f for f in findings(src, scope="all") if f[1] in ("GL130", "GL150")}
    assert found == {(33, "GL130"), (34, "GL130"), (35, "GL130")}


def test_a_none_parameter_passed_on_or_an_item_of_a_none_tuple_default_is_none():
    """stylegan2's `augment(img, p, transform_matrix=(None, None))` passes `transform_matrix[0]` to
    `random_apply_affine(img, p, G=None)`, which passes `G` on to `try_pad(img, G=None)` (`img, G = try_pad(img, G)`
    rebinds it after the call): every call leaves the tuple out, so `G` is None two hops down, and so is an explicit
    `None`; `G_try` is the host matrix, handed to a helper reading its `.device` (the index's join). Hits: the same
    chain where one caller passes a CUDA matrix in the tuple, or passes it at one call and None at another (the join
    keeps the device tensor)."""
    src = """
        import torch


        def mk(size, device="cpu"):
            return torch.eye(3, device=device).unsqueeze(0).repeat(size, 1, 1)


        def pad_a(G):
            return torch.tensor([1, 2], device=G.device)


        def pad_b(G):
            return torch.tensor([1, 2], device=G.device)


        def pad_c(G):
            return torch.tensor([1, 2], device=G.device)


        def try_pad(img, G=None):
            G_try = G
            if G is None:
                G_try = mk(img.shape[0])
            return img, pad_a(G_try)


        def apply_affine(img, G=None):
            img, G = try_pad(img, G)
            return img, G


        def augment(img, tm=(None, None)):
            return apply_affine(img, tm[0])


        def try_pad2(img, G=None):
            G_try = G
            if G is None:
                G_try = mk(img.shape[0])
            return pad_b(G_try)


        def augment2(img, tm=(None, None)):
            return try_pad2(img, tm[0])


        def try_pad3(img, G=None):
            G_try = G
            if G is None:
                G_try = mk(img.shape[0])
            return pad_c(G_try)


        def main(net):
            for _ in range(10):
                x = torch.randn(8, 4, device="cuda")
                augment(x)
                try_pad(x, None)
                augment2(x)
                augment2(x, (torch.eye(3, device="cuda")[None], None))
                try_pad3(x, None)
                try_pad3(x, torch.eye(3, device="cuda")[None])
                net(x).sum().backward()
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL130"} == {(13, "GL130"), (17, "GL130")}


CFG = """
    import numpy as np
    import torch
    from torch import nn


    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(4, 4)

        def sample(self, z, temperature=1.0, cfg=1.0):
            if not cfg == 1.0:
                z = torch.cat([z, z], dim=0)
            return self.l(z) * temperature


    class Gen(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = Head()
            self.seq_len = 16

        def sample_tokens(self, bsz, num_iter=8, {cfg}, cfg_schedule="linear", temperature=1.0):
            z = torch.randn(bsz, 4).cuda()
            for step in range(num_iter):
                mask_len = torch.Tensor([np.floor(self.seq_len * 0.5)]).cuda()
                if cfg_schedule == "linear":
                    cfg_iter = 1 + (cfg - 1) * (self.seq_len - mask_len[0]) / self.seq_len
                else:
                    cfg_iter = cfg
                z = self.head.sample(z, temperature, cfg_iter){other}
            return z
"""


def test_a_parameter_every_caller_fills_from_a_device_tensor_is_one():
    """MAR's `sample_tokens` passes `cfg_iter`, computed from the CUDA `mask_len[0]` and the `cfg=1.0` parameter (a
    number next to the tensor) on one path and `cfg` itself on the other (an optional tensor): `DiffLoss.sample`'s
    `if not cfg == 1.0:` tests a device tensor (GL110)."""
    assert (12, "GL110") in findings(CFG.format(cfg="cfg=1.0", other=""), scope="all")


def test_a_parameter_some_caller_fills_with_a_number_or_nothing_types_is_not():
    """Decoys: a second call passing a Python float (the sites disagree), and a `cfg` without a number default (the
    value nothing types next to the tensor may be anything: `_arithmetic` leaves it unknown)."""
    assert (12, "GL110") not in findings(CFG.format(cfg="cfg=1.0", other="\n            z = self.head.sample(z, "
                                                    "temperature, 2.0)"), scope="all")
    assert (12, "GL110") not in findings(CFG.format(cfg="cfg=None", other=""), scope="all")
