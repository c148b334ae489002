# saudF (session 23) H200 checks for the fairseq2 silo labels.
# W: host time of the statement after queuing a ~200 ms torch.cuda._sleep (>150 ms = the host waited).
# D: does torch.cuda.set_sync_debug_mode("error") raise?
import time, torch
dev = torch.device("cuda")
torch.cuda.init()
_ = torch.zeros(1, device=dev); torch.cuda.synchronize()
# calibrate sleep cycles for ~200 ms
def calib():
    c = 10_000_000
    s = time.perf_counter(); torch.cuda._sleep(c); torch.cuda.synchronize(); e = time.perf_counter() - s
    return int(c * 0.2 / e)
CYC = calib()

def to_tensor(data, *, dtype=None, device=None):  # verbatim copy of fairseq2/utils/tensor.py @027bdebc
    if device is None or device.type != "cuda":
        return torch.tensor(data, dtype=dtype, device=device)
    t = torch.tensor(data, dtype=dtype, device="cpu", pin_memory=True)
    return t.to(device, non_blocking=True)

def check(name, setup, stmt):
    env = setup()
    torch.cuda.synchronize()
    torch.cuda._sleep(CYC)
    s = time.perf_counter()
    stmt(env)
    w = (time.perf_counter() - s) * 1e3
    torch.cuda.synchronize()
    env = setup(); torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        stmt(env); d = "silent"
    except RuntimeError as ex:
        d = "RAISES" if "synchroniz" in str(ex) else "err:" + str(ex)[:60]
    finally:
        torch.cuda.set_sync_debug_mode("default")
    torch.cuda.synchronize()
    print(f"{name:70s} W={w:7.1f} ms {'WAITS' if w > 150 else 'no wait'}  D={d}", flush=True)

N, V = 8, 32000
def mk():
    return dict(probs=torch.rand(N, V, device=dev), seqs=torch.randint(0, V, (N, 5), device=dev),
                idx=torch.randint(0, V, (3,), device=dev), s=torch.empty(N, 40, dtype=torch.int64, device=dev),
                mask=torch.rand(N, device=dev) > 0.5, lp=torch.randn(N, V, device=dev))

# to_tensor: first use of a size (cold pinned cache), then a decode-like burst (2 per layout x 33 layouts)
check("to_tensor([3], int32) first call (cold pinned alloc) + non_blocking H2D", lambda: None,
      lambda e: to_tensor([3], dtype=torch.int32, device=dev))
check("to_tensor burst: 66 calls, lists of 8 ints (BatchLayout x 33 per step)", lambda: None,
      lambda e: [to_tensor(list(range(8)), dtype=torch.int32, device=dev) for _ in range(66)])
check("to_tensor burst: 66 calls, 66 distinct sizes (fresh cudaHostAlloc each)", lambda: None,
      lambda e: [to_tensor(list(range(1000 + 37 * k)), dtype=torch.int32, device=dev) for k in range(66)])
check("seqs[int, int] = python int (all-integer scalar store, beam _finish_sequence)", mk,
      lambda e: e["s"].__setitem__((3, 7), 2))
check("seqs[:, int] = python int (slice + int scalar store, control)", mk,
      lambda e: e["s"].__setitem__((slice(None), 7), 2))
check("probs[:, idx_cuda_long] = 0 (BannedSequenceProcessor single-token ban)", mk,
      lambda e: e["probs"].__setitem__((slice(None), e["idx"]), 0))
check("probs[arange(N,1) cuda, seqs] = -inf (NGram ngram_size==1)", mk,
      lambda e: e["probs"].__setitem__((torch.arange(N, device=dev).unsqueeze(1), e["seqs"]), -torch.inf))
check("probs[batch_idx cuda, vocab_idx cuda] = 0 (banned prefix match store)", mk,
      lambda e: e["probs"].__setitem__((e["seqs"][:2, 0] % N, e["seqs"][:2, 1]), 0))
check("list.sort(key=0-d cuda score) of 4 hypotheses", lambda: [torch.randn((), device=dev) for _ in range(4)],
      lambda e: sorted(e, reverse=True))
check("lp[0, vocab_idx] with (1,) cuda long slice (gather)", mk,
      lambda e: e["lp"][0, e["seqs"][0, 2:3]])
check("torch.tensor(0.95, float32, device=cuda) + Normal(0,1).icdf (Gemma3n FFN)", lambda: None,
      lambda e: torch.distributions.normal.Normal(0, 1).icdf(torch.tensor(0.95, dtype=torch.float32, device=dev)))
check("eos_mask[mask] = False (bool mask, python scalar; control)", mk,
      lambda e: e["mask"].__setitem__(e["mask"].clone(), False))
print("torch", torch.__version__, "sleep cycles", CYC)
