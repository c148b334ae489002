"""GPU-native, CUDA-graph-capturable kernels for a DeepSeek-V4-style decode step.

Each module holds one kernel: a plain-PyTorch reference, the Triton kernel, and its registration as a
`torch.library` custom op with a fake implementation.

torch is required (the `kernels` extra pins it); Triton is optional: without it every kernel runs its
PyTorch reference.
"""
try:
    import torch  # noqa: F401
except ImportError as _exc:  # one actionable line instead of a traceback from deep inside a kernel module
    raise ImportError(
        f"dsv4_native needs PyTorch, which is not installed ({_exc}); "
        'install the kernels extra: pip install "torch-graphlint[kernels]"'
    ) from None
from . import compressor  # noqa: F401,E402  (registers dsv4::compressor_update_emit)
from . import indices  # noqa: F401,E402  (registers dsv4::build_attention_indices)
from . import sparse_attention  # noqa: F401,E402  (registers dsv4::sparse_decode_attention)
from . import indexer  # noqa: F401,E402  (registers dsv4::indexer_topk_fixed)
from . import mhc, moe, router, sampler, static_io  # noqa: F401,E402  (registers the C4-C7 dsv4:: ops)
from . import fused  # noqa: F401,E402  (registers dsv4::norm_rope, dsv4::linear_f32)
from . import fp4, moe_w4  # noqa: F401,E402  (registers dsv4::moe_w4_experts)
