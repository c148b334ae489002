"""Hits and decoys for values two paths bind differently (docs/inference.md, session 18): a device tensor on one path
and a value nothing types on another, and PyTorch's private `_is_any_true()` / `_is_all_true()` reductions. Each
hit is a labelled sync of the accuracy sets' shape; each decoy the host look-alike of the same code, which must stay
silent.
"""

from __future__ import annotations

from snippets import findings


def test_a_device_tensor_on_one_path_and_an_untyped_call_on_another_is_read():
    """Parler-TTS's decoder: `past_key_values_length` is `0`, `cache_position[0]` (a device element) or
    `past_key_values.get_seq_length()` (a library call nothing types), and `if past_key_values_length == 0:` reads
    the device whenever the cache position was given. Before, the untyped path made the whole value unknown."""
    src = """
        import torch


        def forward(x: torch.Tensor, cache_position: torch.Tensor, past_key_values):
            past_len = 0
            if cache_position is not None:
                past_len = cache_position[0]
            elif past_key_values is not None:
                past_len = past_key_values.get_seq_length()
            if past_len == 0:
                x = x * 2
            step = x.sum() if cache_position is None else past_key_values.step_count()
            while step > 3:
                step = step - 1
            return x
    """
    assert findings(src, scope="all") == {(10, "GL110"), (13, "GL110")}


def test_host_values_and_containers_met_with_an_untyped_path_stay_silent():
    """Decoys: the typed path holds a host number (a shape), a CPU tensor (built without `device=`), or the other path
    binds a list; a value untyped on both paths stays unknown. Weak tensors stay out of the rules that want
    certainty: a joined value used as a Python list index is not claimed a device read."""
    src = """
        import torch


        def forward(x: torch.Tensor, cache, layers: list, flag: bool):
            n = x.shape[0] if flag else cache.get_seq_length()
            if n == 0:
                x = x * 2
            c = torch.zeros(4).sum() if flag else cache.get_seq_length()
            if c > 2:
                x = x + 1
            u = cache.a() if flag else cache.b()
            if u > 2:
                x = x - 1
            ids = [] if flag else x.argmax()
            if ids:
                x = x * 3
            k = x.argmax() if flag else cache.pick()
            return layers[k](x)
    """
    assert findings(src, scope="all") == set()


def test_private_any_reductions_are_zero_d_device_booleans():
    """Sequoia's decode loops: `if (input_ids[0] == 2)._is_any_true(): terminate = True`, the private reduction
    `torch.any` calls, a 0-d bool tensor on the receiver's device, read by the `if`. On a host tensor it reads host
    memory (decoy)."""
    src = """
        import torch


        def loop(input_ids: torch.Tensor, host_ids: list):
            done = False
            if (input_ids[0] == 2)._is_any_true() or (input_ids[0] == 0)._is_all_true():
                done = True
            cpu = torch.tensor(host_ids)
            if (cpu == 2)._is_any_true():
                done = True
            return done
    """
    assert findings(src, scope="all") == {(6, "GL110")}


def test_a_scalar_store_into_a_joined_value_stays_silent():
    """Decoy (ChatTTS's `logits[:, eos_token] = -torch.inf`): a scalar stored through a tensor index into a value that
    is a device tensor on one path and untyped on another. The joined value is weak, a guess of one path, so the
    store is not claimed an `index_put_` of host memory; the same store into a value that is a device tensor on
    every path still is."""
    src = """
        import torch


        def step(x: torch.Tensor, eos: torch.Tensor, processors):
            logits = x.float()
            for p in processors:
                logits = p(logits)
            logits[:, eos] = -torch.inf
            x[:, eos] = -torch.inf
            return logits
    """
    assert findings(src, scope="all") == {(9, "GL133")}
