"""The same DeepSeek-V4 decode step through `dsv4_native`: graphlint reports nothing here, and the step
captures in one CUDA graph per batch bucket.

Where dsv4_naive_step.py branches on `start_pos`, returns None from the compressor, grows KV by `cat`,
counts experts on the host and samples on the host, the native step reads the fixed-shape state the model
preallocated: `compressor_update_emit` decides the group boundary in-kernel, the index builder and the
fixed-k indexer replace the live-length slices, the MoE routes and aligns on device, and the sampler and
epilogue write the next token and advance the positions on device. Only `generate` (marked cold) runs
on the host between replays: the stop check and detokenisation.

Run: python examples/dsv4_native_step.py  (needs transformers>=5.8; uses the GPU when there is one).
"""

import graphlint
import torch

from dsv4_native.model import DSV4Model


@graphlint.hot
def native_step(model: DSV4Model, n: int) -> torch.Tensor:
    """One decode step for slots [0, n): every input is already in the model's static buffers."""
    return model.decode_step(n)


@graphlint.cold
def generate(prompt: list[int], max_new_tokens: int = 16) -> list[int]:
    from dsv4_native._model_configs import TINY, build_hf_model
    from dsv4_native.loader import from_hf_model
    from dsv4_native.runner import DSV4Runner

    device = "cuda" if torch.cuda.is_available() else "cpu"
    hf = build_hf_model(TINY, seed=0)
    model = from_hf_model(hf, max_batch=4, max_len=512, device=device, dtype=torch.float32)
    runner = DSV4Runner(model).capture()  # one graph per bucket 1, 2, 4 on CUDA; eager on CPU
    return runner.generate([prompt], max_new_tokens=max_new_tokens,
                           on_tokens=lambda slot, tok: print(f"slot {slot}: {tok}"))[0]


if __name__ == "__main__":
    print(generate([5, 17, 3, 99, 42]))
