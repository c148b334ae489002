"""A fixture library's converters (tests/index/test_library_facts.py): rows and decoys of the generator."""
import numpy as np
import torch


def to_tensor(img):
    """hit: a tensor wrapping a NumPy image, in host memory."""
    return torch.from_numpy(img.transpose(2, 0, 1)).float()


def to_numpy(t):
    """hit: reads its tensor on the host."""
    return t.detach().cpu().numpy()


def from_image(img, device):
    """decoy: built where `device=` says."""
    return torch.tensor(np.asarray(img), device=device)


def count(n):
    """decoy: reads a parameter nothing shows is a tensor."""
    return int(n) + 1


def _helper(t):
    """decoy: private."""
    return t.cpu()


def maybe_cpu(t, flag=False):
    """decoy: the read runs only under a flag."""
    if flag:
        t = t.cpu()
    return t


def zeros_default(n):
    """decoy: on the default device, which the caller may move."""
    return torch.zeros(n)


def legacy(rows):
    """decoy: the legacy constructor builds on the default device too."""
    return torch.Tensor(rows)


def via_legacy(rows):
    """decoy: a host tensor by the index, built by a library function on the default device."""
    return legacy(rows)


def moved_back(probs):
    """decoy: back where the argument lives (the index reads `device` flow-insensitively as the host's)."""
    device = probs.device
    probs = probs.cpu()
    return torch.multinomial(probs, 1).to(device)
