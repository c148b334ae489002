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
