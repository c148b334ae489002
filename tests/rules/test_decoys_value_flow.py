"""Hits and decoys for device values the value inference follows (docs/inference.md, session 17): a value a `for`
body carries into its next iteration, library calls that keep their input's device (einops),
and `generate(**inputs)` of a batch moved to the device. Each hit is a labelled sync of the accuracy sets' shape;
each decoy the host look-alike of the same code, which must stay silent.
"""

from __future__ import annotations

from snippets import findings


def test_a_running_total_of_device_elements_is_read_from_the_second_iteration():
    """CosyVoice's `nucleus_sampling`: `cum_prob = 0.0`, then `cum_prob += sorted_value[i]` in the loop, so the
    `if cum_prob < top_p` at the top of the body compares a 0-d device tensor from the second iteration on (one read
    per kept token). Before, the loop body was walked once with the value before the loop (a Python float)."""
    src = """
        import torch


        def nucleus(scores: torch.Tensor, top_p: float, top_k: int):
            probs, idx = scores.softmax(dim=0).sort(descending=True)
            cum_prob = 0.0
            kept = []
            for i in range(len(idx)):
                if cum_prob < top_p and len(kept) < top_k:
                    cum_prob += probs[i]
                    kept.append(idx[i])
                else:
                    break
            return kept
    """
    assert findings(src, scope="all") == {(9, "GL110")}


def test_a_running_total_of_host_values_stays_silent():
    """Decoys of the same shape: a count of host sizes (`x.shape[0]`), a sum of host tensors (built without
    `device=`), and a name the body rebinds to a host value. None of them is a device tensor at the loop's top."""
    src = """
        import torch


        def sizes(xs: list, cap: int, ids: torch.Tensor):
            total = 0
            for x in xs:
                if total > cap:
                    break
                total += x.shape[0]
            acc = 0
            for t in [torch.ones(2), torch.zeros(2)]:
                if acc > 1:
                    break
                acc = acc + t.sum()
            last = None
            for row in ids.tolist():
                if last is not None and last > 3:
                    break
                last = row
            return total, acc, last
    """
    assert findings(src, scope="all") == {(16, "GL102")}


def test_einops_keeps_its_inputs_device():
    """einops returns its input's backend type (a torch tensor of a torch tensor), computed where the input lives: a
    branch on the rearranged device tensor reads it, and so does `.tolist()` of a repeated one. Decoy: the same
    calls on a host tensor and on a NumPy array stay silent (before, `.tolist()` of the array's `rearrange`, an
    unknown value, was reported)."""
    src = """
        import numpy as np
        import torch
        from einops import rearrange, repeat


        def step(x: torch.Tensor, ids: torch.Tensor):
            y = rearrange(x.softmax(-1), "b n -> n b")
            rows = repeat(ids.argmax(-1), "b -> b g", g=2)
            if y.sum() > 0:
                return rows.tolist()
            return y


        def host(boxes: list, a: np.ndarray):
            b = torch.tensor(boxes)
            y = rearrange(b, "b n -> n b")
            w = rearrange(a, "b n -> n b")
            if y.sum() > 0:
                return w.tolist()
            return y
    """
    assert findings(src, scope="all") == {(9, "GL110"), (10, "GL102")}


def test_generate_of_a_batch_moved_to_the_device_returns_device_ids():
    """`inputs = tokenizer(prompt, return_tensors="pt").to(device)` then `model.generate(**inputs)`: the prompt ids
    are on the device, so the generated ids are too, and the tokenizer's `decode` reads them back (SnapKV's
    LongBench `pred_snap.py`; the move itself is the pageable copy up, GL131). Decoy: the batch left on the host
    generates host ids."""
    src = """
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained("m")


        @torch.inference_mode()
        def answer(model, prompt: str, device: str):
            inputs = tokenizer(prompt, return_tensors="pt").to(device)
            output = model.generate(**inputs, max_new_tokens=8)[0]
            return tokenizer.decode(output[inputs.input_ids.shape[-1]:], skip_special_tokens=True)


        @torch.inference_mode()
        def answer_host(model, prompt: str):
            inputs = tokenizer(prompt, return_tensors="pt")
            output = model.generate(**inputs, max_new_tokens=8)[0]
            return tokenizer.decode(output, skip_special_tokens=True)
    """
    assert findings(src, scope="all") == {(9, "GL131"), (11, "GL102")}


def test_a_helper_computed_from_its_argument_returns_a_device_tensor_for_a_device_argument():
    """Higgs Audio's `_ceil_to_nearest(n, round_to)` is `(n + round_to - 1) // round_to * round_to`: no return kind holds
    for it alone (`FunctionInfo.follows`: its result lives where `n` does), and the merge step passes it the 0-d device
    `token_placeholder_num.sum(-1).max()`, so the padded length is a device tensor: every factory sized by it and every
    branch on it reads it back (kiln labels). A helper of two followed parameters passed a device tensor and a number
    computes on the device too."""
    src = """
        import torch


        def _ceil_to_nearest(n, round_to):
            return (n + round_to - 1) // round_to * round_to


        def scaled(start, scale):
            return start * scale + 1


        def merge(counts: torch.Tensor, embeds: torch.Tensor, step: int):
            max_len = _ceil_to_nearest(counts.sum(-1).max(), 8)
            out = torch.zeros((embeds.shape[0], max_len), device=embeds.device)
            end = scaled(counts.max(), 2)
            if end > step:
                return out
            return out[:, :end]
    """
    assert findings(src, scope="all") == {(14, "GL126"), (16, "GL110"), (18, "GL126")}


def test_a_helper_computed_from_its_argument_stays_silent_for_host_arguments():
    """Decoys of the same helpers: a Python int, a list's length, a host tensor (`.cpu()`, a factory without
    `device=`), a NumPy scalar, an argument nothing types, and a device tensor next to a host list (list arithmetic
    or a host sequence may decide the result). None of them is a device value at the call."""
    src = """
        import numpy as np
        import torch


        def _ceil_to_nearest(n, round_to):
            return (n + round_to - 1) // round_to * round_to


        def scaled(start, scale):
            return start * scale + 1


        def merge(counts: torch.Tensor, embeds: torch.Tensor, sizes: list, k: int, lens):
            a = _ceil_to_nearest(k, 8)
            b = _ceil_to_nearest(len(sizes), 8)
            c = _ceil_to_nearest(counts.max().cpu(), 8)
            d = _ceil_to_nearest(torch.tensor(sizes).max(), 8)
            e = _ceil_to_nearest(np.int64(k), 8)
            f = _ceil_to_nearest(lens, 8)
            g = scaled(counts.max(), sizes)
            out = torch.zeros((a, b, c, d, e, f, g), device=embeds.device)
            if a > 1 or b > 1 or e > 1 or f > 1 or g > 1:
                return out
            return out[:b]
    """
    assert findings(src, scope="all") == {(16, "GL103")}


def test_a_host_list_whose_slots_take_device_values_holds_them():
    """DeepSeek-VL2's `prepare_inputs_embeds`: `batch_num_tiles = [0 for _ in range(bs)]`, then `batch_num_tiles[idx]
    += 1 + w * h` of the 0-d CUDA crop sizes, so the slice bound `images[idx, :batch_num_tiles[idx]]` and `assert n ==
    sum(batch_num_tiles)` read device values (two barn labels). Only a list takes a store, and a slot never stored
    keeps its number: an element is an optional device tensor, as two paths of one name join. Before, the list stayed
    a list of host numbers. Decoys: the same list filled with host numbers (a `list[int]` parameter's items, an int)
    and one filled with CPU tensors' reads stay silent."""
    src = """
        import torch


        def embed(images: torch.Tensor, crop: torch.Tensor, bs: int):
            tiles = [0 for _ in range(bs)]
            out = []
            for idx in range(bs):
                for jdx in range(crop.shape[1]):
                    w, h = crop[idx, jdx]
                    tiles[idx] += 1 + w * h
                out.append(images[idx, :tiles[idx]])
            total = torch.cat(out)
            assert total.shape[0] == sum(tiles)
            return total


        def embed_host(images: torch.Tensor, lens: list[int], bs: int):
            tiles = [0] * bs
            sizes = [0 for _ in range(bs)]
            for idx in range(bs):
                tiles[idx] += lens[idx]
                tiles[idx] += 1
                sizes[idx] = len(lens)
            assert images.shape[0] == sum(tiles) + sum(sizes)
            return images[:, :tiles[0]]
    """
    assert findings(src, scope="all") == {(11, "GL126"), (13, "GL109")}


def test_a_tuple_item_a_helper_computes_from_its_parameters_lives_where_they_do():
    """EAGLE's and Spec-Bench's `update_inference_inputs(..., accept_length, ..., new_token)` returns `(input_ids,
    logits, new_token)` after `new_token += accept_length + 1`: the count lives where `accept_length` does, so with the
    0-d CUDA `accept_length` of `evaluate_posterior` the loop's `if new_token > max_new_tokens:` reads the device every
    step (sealed and depot labels). `n += v` is `n = n + v` (it follows `n`'s other bindings and `v`). Decoys: the same
    helper fed host counts, and an item the helper builds itself."""
    src = """
        import torch


        def update(input_ids, accept_length, new_token):
            new_token += accept_length + 1
            return input_ids, new_token, 0


        def generate(input_ids: torch.Tensor, logits: torch.Tensor, max_new: int, lens: list[int]):
            new_token = 0
            for _ in range(8):
                accept_length = logits.argmax()
                input_ids, new_token, z = update(input_ids, accept_length, new_token)
                if new_token > max_new:
                    break
            m = 0
            for i in range(8):
                input_ids, m, z = update(input_ids, lens[i], m)
                if m > max_new or z > 1:
                    break
            return input_ids
    """
    assert findings(src, scope="all") == {(14, "GL110")}


MODULES = """
    import torch
    from torch import nn


    class Conn(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.fc = nn.Linear(d, d)
            self.norm = nn.LayerNorm(d)

        def forward(self, x):
            h = self.fc(x)
            return self.norm(h) * 2


    class Flat(nn.Module):
        def forward(self, x):
            return [len(x), 2]


    class Rnn(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.rnn = nn.LSTM(d, d)

        def forward(self, x):
            return self.rnn(x)


"""


def test_a_project_module_call_returns_what_its_forward_computes_from_the_arguments():
    """VibeVoice's `self.acoustic_connector(x)`, IndexTTS's GPT: a project module's `forward` that applies the
    `torch.nn` layers it holds to its input (`self.norm(self.fc(x))`) returns a value that lives where the input does
    (`FunctionInfo.follows`, bound with the call's arguments as a plain helper call's are). Before, any call of a
    project module was unknown, so the reads of its output downstream were missed."""
    src = MODULES + """
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.conn = Conn(4)

        def forward(self, x: torch.Tensor):
            y = self.conn(x)
            if y.sum() > 0:
                y = y + 1
            z = self.conn.forward(y)
            return float(z.max())
    """
    assert findings(src, scope="all") == {(38, "GL110"), (41, "GL105")}


def test_a_project_module_call_of_host_data_or_an_unread_forward_stays_silent():
    """Decoys: the same module called with a host tensor (a factory without `device=`) computes on the host; a
    module whose forward moves its input to the host, or returns a Python list of numbers, returns host data; a
    forward that returns what a recurrent layer gives (a tuple) or an untyped argument's value stays unknown."""
    src = MODULES + """
    class ToHost(nn.Module):
        def forward(self, x):
            return x.cpu()


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.conn = Conn(4)
            self.host = ToHost()
            self.flat = Flat()
            self.rnn = Rnn(4)

        def forward(self, x: torch.Tensor, w):
            c = self.conn(torch.zeros(3, 4))
            h = self.host(x)
            n = self.flat(x)
            r = self.rnn(x)
            u = self.conn(w)
            if (c > 0).any() or (h > 0).any() or n[0] > 1 or r > 0 or u.sum() > 0:
                return c.sum().item() + h.sum().item()
            return 0
    """
    assert findings(src, scope="all") == {(33, "GL103"), (46, "GL103")}  # (46: `self.host(x)` waits there)
