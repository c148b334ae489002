"""nanovlm labeller checks (session 27): plain torch rebuilds of nanoVLM patterns at real sizes.
One line per check: name, host ms behind a 200 ms torch.cuda._sleep, and whether sync debug mode raises."""
import torch, time
d = "cuda"
def timed(name, fn):
    fn(); torch.cuda.synchronize()
    torch.cuda._sleep(200_000_000)
    t0 = time.perf_counter()
    try:
        fn()
        ms = (time.perf_counter() - t0) * 1e3
    except Exception as e:
        print(f"{name:62s} ERROR {type(e).__name__}: {str(e)[:120]}"); torch.cuda.synchronize(); return
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        fn(); dbg = "ok"
    except Exception as e:
        dbg = "RAISES" if "synchroniz" in str(e) else "ERR " + str(e)[:60]
    torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()
    print(f"{name:62s} host_ms_behind_sleep={ms:8.1f} debug={dbg}")

# language_model.py 255/256: GQA repeat_interleave with a Python int (15 q heads / 5 kv heads), decode-time cache
k = torch.randn(1, 5, 1200, 64, device=d, dtype=torch.bfloat16)
timed("LM255 k.repeat_interleave(3, dim=1) int repeats (expect no wait)", lambda: k.repeat_interleave(3, dim=1))
# language_model.py 87-88: rotary dynamic-scaling check on a CUDA 0-d
pos = torch.arange(1199, 1200, device=d).unsqueeze(0).expand(1, -1)
def rope_if():
    max_seq = pos.max() + 1
    if max_seq > 8192:
        pass
timed("LM88 if (pos.max()+1) > 8192 (expect wait)", rope_if)
# vision_language_model.py 47: image embeddings written through a bool mask
ids = torch.randint(0, 49000, (1, 1200), device=d); ids[0, 10:10 + 17 * 64] = 49152
emb = torch.randn(1, 1200, 960, device=d, dtype=torch.bfloat16)
img = torch.randn(17, 64, 960, device=d, dtype=torch.bfloat16)
def mask_write():
    e = emb.clone(); m = ids == 49152
    e[m] = img.view(-1, img.size(-1)).to(e.dtype)
timed("VLM47 emb[mask] = image_embd tensor (expect wait)", mask_write)
# vision_language_model.py 181: EOS fill through a bool mask with a Python int
gen = torch.randint(0, 49000, (1, 300), device=d)
def eos_fill():
    g = gen.clone(); g[g > 40000] = 2
timed("VLM181 ids[mask] = int scalar (expect no wait)", eos_fill)
# generate.py 80: prompt token list -> CPU tensor -> blocking .to(cuda)
toks = list(range(1200))
timed("GEN80 torch.tensor(list).to(cuda) blocking (expect wait)", lambda: torch.tensor([toks]).to(d))
# generate.py 86: tokenizer decode does tensor.tolist() on the CUDA ids
timed("GEN86 cuda_ids[0].tolist() as in to_py_obj (expect wait)", lambda: gen[0].tolist())
# vision_language_model.py 122: multinomial sampling (not labelled; context)
probs = torch.softmax(torch.randn(1, 49218, device=d), -1)
timed("VLM122 torch.multinomial(probs, 1) (context, expect no wait)", lambda: torch.multinomial(probs, num_samples=1))
