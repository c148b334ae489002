"""Citadel audit cS (session 31): seamless + llmlingua. Plain torch; run from benchmarks/accuracy:
    python3 h200_checks_citadel_audit_cS.py   (from benchmarks/accuracy)
One line per check: host ms behind a ~200 ms torch.cuda._sleep and whether set_sync_debug_mode("error") raises.
Expected (what the audited labels assume) is in each name after '->'."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
import torch

from h200_timing import timed

d = "cuda"

# llmlingua prompt_compressor.py:1468  need_idx[ii] = 0  (CUDA bool, all-integer index, Python int)
need_idx = torch.rand(4096, device=d) > 0.5
timed("llmlingua 1468 need_idx[ii] = 0 (bool 0-d target) -> WAITS", lambda: need_idx.__setitem__(123, 0))

# seamless nar_decoder_frontend.py:223 / :258  Python-int stores into CUDA int64 tensors
char_lens = torch.zeros(1, 64, dtype=torch.int64, device=d)
char_seq_lens = torch.zeros(1, dtype=torch.int64, device=d)
timed("seamless nar 223 char_lens[b, i] = 5 -> WAITS", lambda: char_lens.__setitem__((0, 7), 5))
timed("seamless nar 258 char_seq_lens[b] = total -> WAITS", lambda: char_seq_lens.__setitem__(0, 300))

# seamless online_text_decoder.py:229  logits[:, :, blocked_indices] = -inf (Python list of 4 ids)
logits = torch.randn(1, 1, 256_206, device=d, dtype=torch.float16)
timed("seamless 229 logits[:, :, list4] = -inf -> WAITS",
      lambda: logits.__setitem__((slice(None), slice(None), [11, 12, 13, 14]), float("-inf")))

# seamless online_text_decoder.py:332  decoder_features.new(0)
feat = torch.randn(1, 1, 1024, device=d, dtype=torch.float16)
timed("seamless 332 feat.new(0) (size overload) -> no wait", lambda: feat.new(0))

# llmlingua: end becomes a 0-d CUDA tensor after get_compressed_input, then is used as a slice bound / in min()
loss = torch.rand(4000, device=d)
ni = torch.concat([loss > 0.5, loss[:1] > 0])


def make_end():
    end = 200
    end -= (ni[:end] == 0).sum()
    return end


e0 = make_end()
print("llmlingua end type after `end -= cuda_sum`:", type(e0).__name__, getattr(e0, "device", None))
timed("llmlingua 1496 end -= (need_idx[:200] == 0).sum() (int end) -> no wait", make_end)
timed("llmlingua 1427 need_idx[end:] = 1 (0-d CUDA end) -> WAITS", lambda: ni.__setitem__(slice(e0, None), 1))
timed("llmlingua 187 min(end, 4096) (0-d CUDA end) -> WAITS", lambda: min(e0, 4096))
timed("llmlingua 1743 end += 200 (0-d CUDA end) -> no wait", lambda: e0 + 200)

# fairseq2n fbank converter / audio decoder copies (seamless translator.py:275/293, online_feature_extractor.py:139,
# pretssel_vocoder.py:113): rebuilt with plain torch at their sizes
fbank_cpu = torch.randn(1000, 80)                      # ~10 s of 10 ms frames
timed("seamless fe 139 fbank_cpu.to(cuda, float16) -> WAITS", lambda: fbank_cpu.to(d, torch.float16))
wave_cuda = torch.randn(160_000, 1, device=d)
timed("seamless pretssel 113 wave_cuda.to(cpu, float32) -> WAITS", lambda: wave_cuda.to("cpu", torch.float32))
