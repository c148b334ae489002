from .conv import from_image, legacy, maybe_cpu, moved_back, to_numpy, to_tensor, via_legacy, zeros_default
from .ops import keep, placed
