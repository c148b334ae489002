"""GPU-native, CUDA-graph-capturable kernels for a DeepSeek-V4-style decode step.

Each module holds one kernel: a plain-PyTorch reference, the Triton kernel, and its registration as a
`torch.library` custom op with a fake implementation.
"""
