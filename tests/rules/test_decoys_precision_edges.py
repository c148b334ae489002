"""Precision edges of the armory set (docs/notes/misses-s30-armory.md, lead 2): each a language or torch fact that an
earlier version missed, so it flagged a host look-alike. Each test has the look-alike that must stay silent and the
sync beside it that must stay reported.
"""

from __future__ import annotations

from snippets import findings


def test_an_arm_that_runs_only_off_cuda_is_not_walked():
    """Seed-VC's `if device.type == "mps":` / `if self.device == "mps":`, FastChat's `if device == "mps":`: graphlint
    reads the program as run on CUDA, so the arm never runs. Decoys: the CUDA arm, a `!= "cpu"` arm, a tensor's own
    device test (it narrows the tensor, it says nothing of the program) and an offload device (kept on the host while
    the program runs on CUDA) stay walked; ktransformers' `if "cuda" in device.lower():` leaves its else arm off CUDA."""
    src = """
        import torch


        def step(x: torch.Tensor, ids: list[int], device: torch.device, offload_device: str):
            if device.type == "mps":
                a = torch.tensor(ids).to(device)
            else:
                a = torch.tensor(ids).to(device)
            if device != "cpu":
                b = torch.tensor(ids).to(device)
            if "privateuseone" in str(device) or device.type in ("cpu", "mps"):
                c = x.cpu()
            if x.device.type == "cpu":
                d = torch.tensor(ids).to(device)
            if offload_device == "cpu":
                e = x.cpu()
            return a, b


        class Wrapper:
            def __init__(self, device):
                self.device = device

            def run(self, ids: list[int], x: torch.Tensor):
                if self.device == "mps":
                    return x.cpu()
                return torch.tensor(ids).to(self.device)


        def load(data, device: str):
            if "cuda" in device.lower():
                out = data.to(device)
            else:
                out = torch.from_numpy(data).to(device)
            return out
    """
    found = findings(src, scope="all")
    assert (6, "GL131") not in found and (12, "GL103") not in found and (26, "GL103") not in found
    assert (34, "GL131") not in found
    assert {(8, "GL131"), (10, "GL131"), (14, "GL131"), (16, "GL103"), (27, "GL131")} <= found


def test_torch_context_managers_are_no_tensors():
    """stable-audio-tools' `with torch.cuda.amp.autocast(..) and torch.set_grad_enabled(g):` is an `and` of two
    context managers (`torch.set_grad_enabled`, `torch.autocast`, `torch.no_grad`, `torch.inference_mode` are in
    torch's namespace of tensor functions by name only). Decoy: a tensor operand of the same `and` is still read."""
    src = """
        import torch


        class Cond(torch.nn.Module):
            def forward(self, x: torch.Tensor, grad: bool):
                with torch.cuda.amp.autocast(dtype=torch.float16) and torch.set_grad_enabled(grad):
                    y = x * 2
                with torch.autocast("cuda") and torch.inference_mode():
                    y = y + 1
                ctx = torch.no_grad()
                if ctx:
                    y = y - 1
                if torch.set_grad_enabled(grad) and (x > 0).any():
                    y = y * 3
                return y
    """
    assert findings(src, scope="all") == {(13, "GL111")}


def test_a_device_field_is_no_tensor():
    """Seed-VC's RMVPE stores `self.device = torch.device("cuda:0")`; `"privateuseone" in str(self.device)` formats a
    device, not a tensor (and that arm runs only off CUDA). Decoy: a tensor field formatted into a string."""
    src = """
        import torch


        class RMVPE:
            def __init__(self, device=None):
                self.device = device
                if str(self.device) == "cuda":
                    self.device = torch.device("cuda:0")
                self.scale = torch.ones(4, device="cuda")

            def mel2hidden(self, mel: torch.Tensor):
                tag = "dml" if "privateuseone" in str(self.device) else str(self.device)
                return mel * 2, tag, str(self.scale)
    """
    assert findings(src, scope="all") == {(13, "GL107")}


def test_pandas_tables_are_host_data():
    """LlamaGen's `df = pd.read_csv(p)` then `df['Prompt'].tolist()`: pandas reads and computes on the host. Decoy:
    the same values once uploaded are a device tensor, whose `.tolist()` copies them back."""
    src = """
        import pandas as pd
        import torch


        def main(path: str):
            df = pd.read_csv(path, delimiter="\\t")
            prompts = df["Prompt"].tolist()
            scores = torch.from_numpy(df["Score"].values).cuda()
            return prompts, scores.tolist()
    """
    assert findings(src, scope="all") == {(8, "GL131"), (9, "GL102")}


def test_a_tensor_arm_joined_with_a_parameter_is_no_upload():
    """Seed-VC's `if not torch.is_tensor(audio): audio = torch.from_numpy(audio)` then `audio.float().to(dev)`: every
    caller passes a CUDA waveform, so the copy may move nothing; PixArt's `if x.device != torch.device("cuda"):` says
    "not that device" (a `cuda:0` tensor), not "on the host". Decoys: the same copy where both paths hold host tensors,
    where the test names the host (of an untyped value, and of one the unit builds there), and a local (not a
    parameter) bound on the host before the `if` too."""
    src = """
        import numpy as np
        import torch


        def infer(audio, device: str):
            if not torch.is_tensor(audio):
                audio = torch.from_numpy(audio)
            return audio.float().to(device)


        def both(audio: np.ndarray, ids: list[int], flag: bool, device: str):
            if flag:
                a = torch.from_numpy(audio)
            else:
                a = torch.tensor(ids)
            return a.float().to(device)


        def place(x, y):
            if x.device != torch.device("cuda"):
                x = x.to(torch.device("cuda"))
            if y.device == torch.device("cpu"):
                y = y.to(torch.device("cuda"))
            return x, y


        def local(ids: list[int], flag: bool):
            t = torch.tensor(ids)
            if flag:
                t = t.cpu()
            return t.to("cuda")


        def built(ids: list[int]):
            y = torch.tensor(ids)
            if y.device == torch.device("cpu"):
                y = y.to(torch.device("cuda"))
            return y
    """
    found = {(line, code) for line, code in findings(src, scope="all") if code == "GL131"}
    assert found == {(16, "GL131"), (23, "GL131"), (31, "GL131"), (37, "GL131")}


def test_a_number_default_contradicts_a_tensor_annotation():
    """Seed-VC's `temperature: torch.Tensor = 0.7` (every caller passes a float): the annotation is no evidence.
    Decoy: the same annotation without a number default."""
    src = """
        import torch


        def logits_to_probs(logits: torch.Tensor, temperature: torch.Tensor = 0.7, top_p: torch.Tensor = None):
            return logits / max(temperature, 1e-5)


        def scaled(logits: torch.Tensor, temperature: torch.Tensor):
            return logits / max(temperature, 1e-5)
    """
    assert findings(src, scope="all") == {(9, "GL160")}


def test_a_streamer_gets_host_tokens():
    """transformers' decode loop calls `streamer.put(next_tokens.cpu())`: GLM-4-Voice's `TokenStreamer.put(value)`
    reads host tokens. Decoys: an override with another signature (VibeVoice's `put(audio_chunks, indices)`, called
    by the project's own loop) and a plain class's `put` keep what their callers pass."""
    src = """
        import torch
        from transformers.generation.streamers import BaseStreamer


        class TokenStreamer(BaseStreamer):
            def put(self, value):
                for token in value.tolist():
                    self.queue.append(token)


        class AudioStreamer(BaseStreamer):
            def put(self, chunks, indices):
                for i in indices.tolist():
                    self.queue.append(chunks[i])


        def loop(model, x: torch.Tensor, streamer: AudioStreamer):
            for _ in range(8):
                x = model(x)
                streamer.put(x, x.argmax(-1))
    """
    found = findings(src, scope="all")
    assert (7, "GL102") not in found
    assert (13, "GL102") in found


def test_a_tokenizer_decodes_device_rows_bound_to_a_name():
    """Spark-TTS's `generated_ids = [o[len(i):] for i, o in zip(ids, model.generate(..))]` then
    `tokenizer.batch_decode(generated_ids)`: each device row is converted with `.tolist()`, as in a literal list.
    Decoys: rows moved to the host first, rows converted to lists, rows of unknown values."""
    src = """
        import torch
        from transformers import AutoTokenizer


        class TTS:
            def __init__(self, model):
                self.model = model
                self.tokenizer = AutoTokenizer.from_pretrained("m")

            def inference(self, text: str, batch):
                inputs = self.tokenizer([text], return_tensors="pt").to("cuda")
                out = self.model.generate(**inputs)
                rows = [o[len(i):] for i, o in zip(inputs.input_ids, out)]
                text = self.tokenizer.batch_decode(rows, skip_special_tokens=True)
                host = [o[len(i):].cpu() for i, o in zip(inputs.input_ids, out)]
                lists = [o.tolist() for o in host]
                other = [b for b in batch]
                return text, self.tokenizer.batch_decode(host), self.tokenizer.batch_decode(lists), \\
                    self.tokenizer.batch_decode(other)
    """
    found = {(line, code) for line, code in findings(src, scope="all") if code == "GL102"}
    assert found == {(14, "GL102")}


def test_a_parameter_named_like_a_tensor_that_the_body_shows_is_other_data():
    """`k`, `v`, `x` are taken for tensors by their names alone (`TENSOR_PARAM_NAMES`); a body that serialises the
    parameter with `json.dumps` (alone or in a literal dict), calls a method no tensor has on it (`x.encode()`) or
    compares it with or indexes it by a string literal shows it holds other data (LLMLingua's `precess_jsonKVpair(k, v, ..)` and
    `get_score(x, y)`: 2 citadel look-alikes and 7 unlabelled findings; WhisperSpeech's `merge_conditionings(x)`,
    `float(x["snr_c50.npy"][0])` of a sample dict: an armory --scope all look-alike; decoys). Hits: the same names read as
    tensors, a use after the body rebinds the name (`k = k.tolist()` then `json.dumps(k)`), and a parameter the body
    type-tests (Megatron's `_jsonable_arg_value`: `value.items()` in its `isinstance(value, dict)` arm says nothing
    of the `repr(value)` after it)."""
    src = """
        import json


        def precess(k, v, value_type, rate):
            if rate == 1:
                return f"{json.dumps({k: v})[1:-1]}, "
            if value_type == "int":
                v = int(v)
            return f'"{k}": {v}'


        def get_score(x, y):
            return len(x.encode()), f"{x} {y}"


        def flag(v, q):
            if v == "true":
                return str(v)
            return int(q)


        def step(x, q):
            return int(x.sum()), float(q.max())


        def stored(v, k):
            v = v.cpu()
            k = k.tolist()
            return json.dumps(k), v


        def merge(x):
            return {"snr": float(x["snr.npy"][0]), "lang": x["language"]}


        def jsonable(value):
            if isinstance(value, dict):
                return {str(key): jsonable(val) for key, val in value.items()}
            return repr(value)
    """
    assert findings(src, scope="all") == {(19, "GL105"), (23, "GL105"), (23, "GL105"), (27, "GL103"), (28, "GL102"),
                                          (39, "GL107")}


def test_a_parameter_named_like_a_tensor_that_the_body_passes_as_a_topk_count():
    """`k` is taken for an attention key by its name alone; passed as the `k` of `torch.topk` / `x.topk` /
    `kthvalue` (an `int` in torch's signature) it is the count (LightGlue's `top_k_keypoints(keypoints, scores, k)`,
    called with `self.conf.max_num_keypoints`: GL110 on `if k >= len(keypoints)` and GL126 on the `topk`, two barbican
    look-alikes; decoys). Hits: a caller that passes a device 0-d count (`mask.sum()`) still makes it a device tensor
    (the callers' data flow beats the name), and a `k` the body uses as an attention key stays guessed."""
    src = """
        import torch


        def top_k_keypoints(keypoints, scores, k):
            if k >= len(keypoints):
                return keypoints, scores
            scores, indices = torch.topk(scores, k, dim=0, sorted=True)
            return keypoints[indices], scores


        def kth(scores, k):
            return scores.kthvalue(k=k)


        def top_k(scores, k):
            return scores.topk(k)


        def attend(q, k):
            if k.sum() > 0:
                return q @ k
            return q


        class Head(torch.nn.Module):
            def forward(self, x: torch.Tensor, mask: torch.Tensor):
                kp = top_k_keypoints(x, x, self.conf.max_num_keypoints)
                return kp, kth(x, self.conf.k), top_k(x, mask.sum()), attend(x, x)
    """
    assert findings(src, scope="all") == {(16, "GL126"), (20, "GL110")}


def test_mps_probes_and_a_tensor_on_another_accelerator_leave_cuda():
    """moondream's `if torch.backends.mps.is_available(): def adaptive_avg_pool2d(...)` (a host round trip for MPS)
    with `else: adaptive_avg_pool2d = F.adaptive_avg_pool2d`: on a CUDA machine the probe is false, so the def never
    exists and the call is torch's; an arm under the probe inside a function, or under `x.device.type == "mps"`, never
    runs either. Decoys stay reported: the `not` probe's arm, the `else` of the tensor's MPS test and a CPU test of the
    tensor (it narrows the tensor, `x.cpu()` in its else is a sync)."""
    src = """
        import torch
        import torch.nn.functional as F

        if torch.backends.mps.is_available():
            def pool(t, size):
                return F.adaptive_avg_pool2d(t.to("cpu"), size).to("mps")
        else:
            pool = F.adaptive_avg_pool2d


        def step(x: torch.Tensor, ids: list[int]):
            y = pool(x, (4, 4))
            if torch.backends.mps.is_available():
                a = x.cpu()
            if x.device.type == "mps":
                b = torch.tensor(ids).to(x.device)
            else:
                b = x.cpu()
            if not torch.backends.mps.is_available():
                c = y.sum().item()
            if x.device.type != "cpu":
                d = x.cpu()
            return y, a, b, c, d
    """
    assert findings(src, scope="all") == {(18, "GL103"), (20, "GL101"), (22, "GL103")}


def test_a_tensors_mps_flag_leaves_cuda():
    """resemble-enhance's `if wav.is_mps: wav = wav.cpu()` (an op MPS lacks, run on the host): `Tensor.is_mps` holds
    only for a tensor on Apple's GPU, so on a CUDA run the arm never runs (decoys: the `is_mps` / `is_xpu` arms, also
    through `and`). Hits: the `else` of the MPS test, the body of `if not x.is_mps:`, and an `elif` after it."""
    src = """
        import torch


        def step(x: torch.Tensor, y: torch.Tensor):
            if x.is_mps:
                x = x.cpu()
            else:
                a = x.cpu()
            if not y.is_mps:
                b = y.cpu()
            if y.is_xpu and y.dim() > 1:
                y = y.cpu()
            elif y.dim() > 2:
                c = y.sum().item()
            return x, y, a, b, c
    """
    assert findings(src, scope="all") == {(8, "GL103"), (10, "GL103"), (14, "GL101")}


def test_an_ase_calculators_atoms_are_numpy():
    """torchmd-net's ASE calculator: ASE calls `Calculator.calculate(atoms, ..)` with an `ase.Atoms`, whose `pbc`,
    `numbers`, `cell` and `get_positions()` are NumPy arrays, so `if atoms.pbc.any():` reads no device (decoy). Hits:
    the `torch.tensor(<field>, device=..)` copies built from them, the model's `.item()`, and the same `atoms.pbc.any()`
    in a class with no ASE base (an unknown value in hot code, as before)."""
    src = """
        import torch
        import ase.calculators.calculator as ase_calc


        class Calc(ase_calc.Calculator):
            def __init__(self, model, device="cuda"):
                super().__init__()
                self.model = model
                self.device = device

            def calculate(self, atoms=None, properties=None, system_changes=ase_calc.all_changes):
                ase_calc.Calculator.calculate(self, atoms, properties, system_changes)
                numbers = atoms.numbers
                if atoms.pbc.any():
                    box = torch.tensor(atoms.cell.array, device=self.device)
                else:
                    box = None
                pos = torch.tensor(atoms.get_positions(), device=self.device)
                energy = self.model(torch.tensor(numbers, device=self.device), pos, box)
                self.results["energy"] = energy.item()


        class Other:
            def calculate(self, atoms):
                if atoms.pbc.any():
                    return atoms
    """
    assert findings(src, scope="all") == {(15, "GL130"), (18, "GL130"), (19, "GL130"), (20, "GL101"),
                                          (25, "GL111")}


def test_a_parameter_named_key_is_no_tensor_guess():
    """MegaTTS3's `_get_full_incremental_state_key(module_instance, key)` formats `key` into a state name, MoE-Infinity
    splits a module path: an unannotated `key` is a dict key or a name more often than an attention key, so its name
    alone says nothing (decoys; 0.31.0 reported GL107 and GL105 here). An annotated tensor `key` is read as before
    (hit); so is a `query` or `value`, still on the name list (hits)."""
    decoys = """
        import torch


        def state_key(module_instance, key):
            return "{}.{}.{}".format(module_instance.name, module_instance._instance_id, key)


        def lookup(model, key):
            parts = key.split(".")
            return [int(p) for p in parts if p.isdigit()]
    """
    assert findings(decoys, scope="all") == set()
    hits = """
        import torch


        def attend(query, key: torch.Tensor, value):
            print(f"{key}")
            return f"{value}", query.sum().item()
    """
    assert findings(hits, scope="all") == {(5, "GL107"), (6, "GL107"), (6, "GL101")}


def test_a_local_holding_an_off_cuda_test_reads_as_the_test():
    """demucs' `is_mps = x.device.type == 'mps'` / `if is_mps: x = x.cpu()` (MPS has no complex STFT): the flag holds
    the tensor's MPS test, so its arm never runs on CUDA, as under the test itself (decoys), and so does the arm of its
    negation's `else`. Hits stay: a flag rebound in the loop before the next test (it no longer holds the test on the
    second pass, where it is a 0-d device tensor: GL110 too), a flag from a comparison of something that is no device,
    and the `else` of the flag."""
    src = """
        import torch


        def spectro(x: torch.Tensor, mode: str, parts: list[torch.Tensor]):
            is_mps = x.device.type == 'mps'
            if is_mps:
                x = x.cpu()
            not_mps = not x.device.type == "mps"
            if not_mps:
                y = x.sum()
            else:
                y = x.cpu()
            both = x.device.type == "mps" and mode == "fast"
            if both:
                a = x.cpu()
            on_mps = mode == "mps"
            if on_mps:
                b = x.cpu()
            flag = x.device.type == "mps"
            for p in parts:
                if flag:
                    c = p.cpu()
                flag = p.sum() > 0
            if is_mps:
                d = x.sum()
            else:
                d = x.cpu()
            return x, y, a, b, c, d
    """
    assert findings(src, scope="all") == {(18, "GL103"), (21, "GL110"), (22, "GL103"), (27, "GL103")}


def test_an_ase_calculators_stored_atoms_are_numpy():
    """ASE's `Calculator.calculate` stores the `Atoms` it is handed as `self.atoms` (`super().calculate(atoms, ..)`),
    so `self.atoms.pbc.any()` in the override reads NumPy (decoy). Hits: the CUDA tensor built from
    `self.atoms.positions` (a real upload), the model's `.cpu()`, and `self.atoms` of a class with no ASE base."""
    src = """
        import torch
        from ase.calculators.calculator import Calculator, all_changes


        class Calc(Calculator):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def calculate(self, atoms=None, properties=None, system_changes=all_changes):
                super().calculate(atoms, properties, system_changes)
                cell = self.atoms.cell.array if self.atoms.pbc.any() else None
                x = torch.tensor(self.atoms.positions, dtype=torch.float32, device="cuda")
                self.results["energy"] = self.model(x, cell).cpu()


        class Other:
            def calculate(self, atoms):
                return self.atoms if self.atoms.pbc.any() else atoms
    """
    assert findings(src, scope="all") == {(13, "GL130"), (14, "GL103"), (19, "GL111")}


def test_a_dict_rebound_value_by_value_holds_what_the_loop_stored():
    """`for k, v in results.items(): results[k] = v.detach().cpu().numpy()` rebinds every value of the dict to an
    array (aimnet's ASE calculator), so `results["energy"].item()` after the loop is NumPy's (decoy). Hits: the
    same read where the store runs under an `if` (some values stay on the device) or the loop may `break` first."""
    src = """
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.l = torch.nn.Linear(3, 1)

            def forward(self, x):
                return {"energy": self.l(x).sum(), "forces": self.l(x)}


        def run(x: torch.Tensor, flag: bool):
            model = Net().cuda()
            for _ in range(10):
                a = model(x)
                for k, v in a.items():
                    a[k] = v.detach().cpu().numpy()
                e1 = a["energy"].item()
                b = model(x)
                for k, v in b.items():
                    if k != "forces":
                        b[k] = v.detach().cpu().numpy()
                e2 = b["energy"].item()
                c = model(x)
                for k, v in c.items():
                    c[k] = v.detach().cpu().numpy()
                    if flag:
                        break
                e3 = c["energy"].item()
    """
    got = {f for f in findings(src, scope="all") if f[1] == "GL101"}
    assert got == {(24, "GL101"), (30, "GL101")}


def test_einops_keeps_the_input_device_through_a_forward():
    """A forward ending in `einops.rearrange` returns where its input lives: a never-moved model on a CPU input gives
    a host result, so `print(torch.norm(result))` reads nothing on the device (decoy); the same forward of a `.cuda()`
    model on a `.cuda()` input keeps GL106."""
    net = """
        import torch
        from torch import nn
        from einops import rearrange


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(3, 10)

            def forward(self, x):
                x = self.l(x)
                x = rearrange(x, "b (h w) -> b h w", h=2)
                return x


        if __name__ == "__main__":
            model = Net(){move}
            sample = torch.randn(1, 6, 3){move}
            result = model(sample)
            print(torch.norm(result))
    """
    assert {f for f in findings(net.replace("{move}", ""), scope="all") if f[1] == "GL106"} == set()
    assert {f for f in findings(net.replace("{move}", ".cuda()"), scope="all") if f[1] == "GL106"} == {(21, "GL106")}
