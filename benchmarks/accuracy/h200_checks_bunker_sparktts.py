"""sparktts (Spark-TTS) bunker labeller, session 29. Plain torch only; run from benchmarks/accuracy:
    python3 h200_sparktts.py
Uncertain: factorized_vector_quantize.py:99  F.one_hot(indices, self.codebook_size) on CUDA with num_classes given.
Controls for patterns the sparktts/miniomni verdicts lean on (all expected per the hazard catalog)."""
import torch
import torch.nn.functional as F

from h200_timing import timed

d = "cuda"
# BiCodec: codebook_size 8192, indices (B=1, T=~300 frames at 50 Hz)
idx = torch.randint(0, 8192, (1, 300), device=d)
timed("vq:99 F.one_hot(cuda idx[1,300], num_classes=8192)  (expect no wait)", lambda: F.one_hot(idx, 8192))
timed("control: F.one_hot(cuda idx) without num_classes  (expect WAIT)", lambda: F.one_hot(idx))

# SparkTTS.py:74 f-string over a CUDA [32] token tensor (speaker global tokens)
g = torch.randint(0, 4096, (1, 1, 32), device=d)
timed("SparkTTS:74 ''.join(f'..{i}..' for i in cuda[32])  (expect WAIT)", lambda: "".join([f"<|g_{i}|>" for i in g.squeeze()]))
timed("SparkTTS:74 control: iterate cuda[32] without formatting (expect no wait)", lambda: [i for i in g.squeeze()])

# vocoder/1/model.py:87 and miniomni base.py:150: blocking pageable H2D of a tiny CPU int tensor
small = torch.randint(0, 4096, (1, 32), dtype=torch.int32)
timed("vocoder:87 torch.from_numpy(np int32[1,32]).to(cuda)  (expect WAIT)", lambda: torch.from_numpy(small.numpy()).to(d))
pos = torch.tensor([100])
timed("miniomni base:149 cpu input_pos[1].to(cuda)  (expect WAIT)", lambda: pos.to(d))
# miniomni inference.py:479: CUDA sampled token .to(cpu device)
tok = torch.randint(0, 4096, (1,), device=d)
timed("miniomni inference:479 cuda token[1].clone().to(cpu)  (expect WAIT)", lambda: tok.clone().to(torch.device("cpu")).to(torch.int32))

# samper.py:73 repeat_interleave with a Python int repeats
x = torch.randn(1, 1024, 50, device=d)
timed("samper:73 x.repeat_interleave(2, dim=2) (int repeats; expect no wait)", lambda: x.repeat_interleave(2, dim=2))
# factorized_vector_quantize.py:108 builtin sum over a CUDA bool tensor (catalog 13a)
cs = torch.rand(256, device=d) * 4  # fewer than the real 8192 so launch-queue backpressure does not look like a wait
timed("vq:108 builtin sum(cuda[256] > 2) (expect no wait, slow)", lambda: sum(cs > 2))
