"""Decode loops found from the language: a loop that runs the model, directly (`self(ids)` in a model's own
`generate`) or through a function its callers hand the model to (`tree_decoding(self, ...)`, a closure reading
the parameter), is a step root; one-shot calls, training loops, loops over a model's parts or over helpers that
do not run it stay cold. Each positive case has its decoy."""

from __future__ import annotations

import textwrap

from graphlint.index.project import ProjectIndex
from graphlint.index.summary import MAX_NAME_DISPATCH, index_source
from index_projects import hot, project_index


# EAGLE's shape: the model class carries its generate loop, which hands `self` to module helpers (imported with
# `*`) that run it or its parts.
HANDED = {
    "pkg.__init__": "",
    "pkg.utils": """
        def tree_decoding(model, ids):
            logits = model(ids)
            return logits.argmax(-1)

        def update_inputs(model, ids):
            return model.drafter.propose(ids)

        def check(model, ids):
            return model(ids).sum().item()

        def log_stats(model, step):
            print(model.name, step)

        def train_step(model, batch):
            return model(batch).mean()

        def _private(model, ids):
            return model(ids)
    """,
    "pkg.model": """
        from torch import nn
        from .utils import *

        class Drafter(nn.Module):
            def forward(self, x):
                return x

            def propose(self, ids):
                return ids.max().item()

        class EaModel(nn.Module):
            def __init__(self):
                super().__init__()
                self.drafter = Drafter()
                self.layers = nn.ModuleList()

            def forward(self, ids):
                return ids

            def generate(self, ids, n):
                for _ in range(n):
                    logits = tree_decoding(self, ids)
                    ids = update_inputs(self, ids)
                    if ids.sum().item() == 0:
                        break
                return ids

            def sanity_check(self, ids):
                return check(self, ids)

            def report(self, n):
                for step in range(n):
                    log_stats(self, step)

            def fit(self, batches, optimizer):
                for batch in batches:
                    loss = train_step(self, batch)
                    loss.backward()
                    optimizer.step()

            def grow(self, n):
                for _ in range(n):
                    self.layers.append(Drafter())
    """,
}


def test_a_model_method_looping_over_a_helper_it_hands_itself_is_a_decode_loop():
    found = hot(HANDED)
    assert found["EaModel.generate"] == ("step", ("EaModel.generate (step: decode loop)",))
    assert found["tree_decoding"] == ("step", ("EaModel.generate (step: decode loop)", "tree_decoding"))
    # The helper's call on a part of the handed model resolves on the class that handed it, and says so.
    assert found["Drafter.propose"] == ("step", (
        "EaModel.generate (step: decode loop)", "update_inputs",
        "Drafter.propose [model = self of EaModel.generate]"))
    # The model's own forward keeps its tier: the loop drives it, it is model code.
    assert found["EaModel.forward"][0] == "forward"


def test_one_shot_calls_training_loops_and_loops_over_other_work_stay_cold():
    found = hot(HANDED)
    # Decoys: a check that runs the model once (no loop, here or above), a loop over a helper that does not run
    # the model, a training loop (it calls backward: graphlint's tiers describe inference), a loop that builds
    # modules.
    for cold in ("check", "EaModel.sanity_check", "log_stats", "EaModel.report", "train_step", "EaModel.fit",
                 "EaModel.grow"):
        assert cold not in found, cold


def test_a_star_import_binds_the_public_names_of_the_module():
    summaries = [index_source(textwrap.dedent(src), f"{mod.replace('.', '/')}.py", mod, mod.endswith("__init__"))
                 for mod, src in HANDED.items()]
    index = ProjectIndex(summaries)
    assert index.function_by_dotted("pkg.model.tree_decoding") is index.functions["pkg.utils:tree_decoding"]
    # Decoy: `import *` leaves out underscore names (no `__all__` here), and a module's own definitions win.
    assert index.function_by_dotted("pkg.model._private") is None
    assert index.class_by_dotted("pkg.model.Drafter") is index.classes["pkg.model:Drafter"]
    # Two modules that star-import each other end the lookup (a miss), and the later import wins a name.
    cyclic = {"pkg.__init__": "", "pkg.a": "from .b import *\n", "pkg.b": "from .a import *\n",
              "pkg.c": "def helper():\n    pass\n", "pkg.d": "def helper():\n    pass\n",
              "pkg.e": "from .c import *\nfrom .d import *\n"}
    index = ProjectIndex([index_source(src, f"{mod.replace('.', '/')}.py", mod, mod.endswith("__init__"))
                          for mod, src in cyclic.items()])
    assert index.function_by_dotted("pkg.a.missing") is None and index.function_by_dotted("pkg.b.missing") is None
    assert index.function_by_dotted("pkg.e.helper") is index.functions["pkg.d:helper"]


def test_a_chain_of_star_imports_longer_than_the_recursion_limit_ends():
    """`m0` star-imports `m1`, which star-imports `m2`, ... 1,500 deep: the lookup ends (a miss past
    MAX_REEXPORT_HOPS) instead of raising RecursionError; a short chain still binds the name."""
    depth = 1500
    chain = {f"m{i}": f"from m{i + 1} import *\n" for i in range(depth)}
    chain[f"m{depth}"] = "def far():\n    pass\n"
    chain["near0"], chain["near1"] = "from near1 import *\n", "def close():\n    pass\n"
    index = ProjectIndex([index_source(src, f"{mod}.py", mod) for mod, src in chain.items()])
    assert index.function_by_dotted("m0.far") is None
    assert index.function_by_dotted("near0.close") is index.functions["near1:close"]


OWN_LOOP = """
    from torch import nn

    class Encoder(nn.Module):
        def forward(self, x):
            return x

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = Encoder()

        def forward(self, ids):
            return ids

        def generate(self, ids, n):
            for _ in range(n):
                nxt = self(ids).argmax(-1)
                if nxt.item() == 0:
                    break
            return ids

        def encode_images(self, images):
            return [self.encoder(img) for img in images] + [self.encoder(images[0])]

        def embed_all(self, images):
            out = []
            for img in images:
                out.append(self.encoder(img))
            return out

        def score(self, ids):
            return self(ids).sum().item()

        def next_token(self, ids):
            return self.forward(ids).argmax(-1)

        def sample(self, ids, n):
            while ids.shape[1] < n:
                ids = self.next_token(ids)
            return ids
"""


def test_a_model_method_calling_its_own_forward_in_a_loop_is_a_decode_loop():
    found = hot({"pkg.lm": OWN_LOOP})
    assert found["LM.generate"] == ("step", ("LM.generate (step: decode loop)",))
    # A method that runs the model once is one step of the loop that calls it.
    assert found["LM.sample"] == ("step", ("LM.sample (step: decode loop)",))
    assert found["LM.next_token"] == ("step", ("LM.sample (step: decode loop)", "LM.next_token"))
    # Decoys: a loop over the model's parts (images through the encoder) and a one-shot call of the model.
    # (`embed_all` and `score`, which nothing calls, are the model's inference API: forward, no step)
    assert all(found.get(name, ("forward",))[0] == "forward" for name in ("LM.embed_all", "LM.score"))
    assert "LM.encode_images" not in found or found["LM.encode_images"][0] == "forward"


CLOSURE = """
    from torch import nn

    def sample(logits):
        return logits.argmax(-1)

    def decode(ids, model, n):
        def get_logits(x):
            return model(x)

        def warm(x):
            return x

        while ids.shape[1] < n:
            ids = sample(get_logits(ids))
        return ids

    def prime(ids, model, n):
        def get_logits(x):
            return model(x)

        for _ in range(n):
            ids = ids + 1
        return get_logits(ids)

    class GenerationMixin:
        def generate(self, ids, n):
            prime(ids, self, n)
            return decode(ids, self, n)

    class LM(nn.Module, GenerationMixin):
        def forward(self, ids):
            return ids
"""


def test_a_loop_calling_a_closure_that_runs_the_handed_model_is_a_decode_loop():
    """mamba's `decode(input_ids, model)`: its `while` loop calls `get_logits`, a nested def reading `model`,
    which `GenerationMixin.generate` fills with `self` (whichever model class inherits the mixin)."""
    found = hot({"pkg.gen": CLOSURE})
    assert found["decode"] == ("step", ("decode (step: calls the model it is handed)",))
    assert found["sample"] == ("step", ("decode (step: calls the model it is handed)", "sample"))
    # Decoy: the closure runs the model once, after a loop that does not call it: no decode loop (`generate`
    # runs it once per request, before the decode loop: the request's `forward` tier).
    assert found["prime"][0] == found["GenerationMixin.generate"][0] == "forward"


MIXIN = """
    import torch
    from torch import nn
    from ext import make_depth

    class SamplerMixin:
        def sample(self, ids, n):
            for _ in range(n):
                ids = self(ids)
                self.depth_decoder.generate(ids)
            return ids

        def _sample(self, ids, n):
            for _ in range(n):
                nxt = torch.argmax(self.model_forward(ids), -1)  # (CSM: an alias of its compiled forward)
                ids = torch.cat([ids, self.depth_decoder.generate(nxt)], dim=-1)
            return ids

    class Depth(nn.Module):
        def forward(self, x):
            return x

        def generate(self, ids):
            return ids

    class Other(nn.Module):
        def forward(self, x):
            return x

        def generate(self, ids):
            return ids.sum().item()

    class Speech(nn.Module, SamplerMixin):
        def __init__(self):
            super().__init__()
            self.depth_decoder = make_depth()

        def forward(self, ids):
            return ids
"""


def test_a_model_mixins_loop_is_a_decode_loop_and_its_parts_are_not_every_model():
    """A sampling mixin only models inherit runs its model's forward in a loop (`self(ids)`): a decode loop. What
    it calls on its own attributes (`self.depth_decoder.generate(...)`, set by the model) is one of the model's
    parts, not every project model that defines the protocol method `generate`; nor is the step call of its
    data-flow decode loop (`_sample`: a first version reached 60 transformers models' `generate` that way,
    more than MAX_NAME_DISPATCH definers of a model-protocol name)."""
    others = MIXIN.replace("class Other(", "class Other0(") + "".join(
        MIXIN[MIXIN.index("    class Other("):MIXIN.index("    class Speech(")].replace("Other", f"Other{i}")
        for i in range(1, MAX_NAME_DISPATCH + 1))
    found = hot({"pkg.m": others})
    assert found["SamplerMixin.sample"] == ("step", ("SamplerMixin.sample (step: decode loop)",))
    assert found["SamplerMixin._sample"] == ("step", ("SamplerMixin._sample (step: decode loop)",))
    assert not [name for name in found if name.endswith(".generate")]


# A decode loop told by its data flow: the model is a parameter only a script fills (TinyChat's
# `StreamGenerator(model, ...)`, TriForce's `graph_engine.inference(...)`), so no type says it is a model.
FLOW = """
    import torch

    def stream(model, tokenizer, prompt, n):
        ids = tokenizer(prompt)
        token = None
        for i in range(n):
            inputs = torch.as_tensor([ids] if i == 0 else [[token]], device="cuda")
            logits = model(inputs)
            token = int(torch.argmax(logits[0, -1]))
            if token == tokenizer.eos:
                break

    def speculate(engine, next_token, gamma):
        verify = next_token
        n = 0
        while n < gamma:
            probs = engine.draft(input_ids=verify[:, : n + 1])
            picked = sample(probs)
            verify[:, n + 1] = picked
            n += 1
        return verify

    def sample(probs):
        return torch.multinomial(probs, 1)

    def collect(model, batches):
        out = []
        for batch in batches:
            logits = model(batch)
            out.append(logits.argmax(-1))
        return out

    def draw(probs, k):
        picked = []
        for _ in range(k):
            idx = torch.multinomial(probs, 1)
            probs = probs.scatter(-1, idx, 0.0)
            picked.append(idx)
        return picked

    def greedy(model, ids, n):
        for _ in range(n):
            ids = torch.cat([ids, model(ids).argmax(-1)], dim=-1)
        return ids

    def log_loop(model, steps):
        for step in range(steps):
            token = torch.argmax(model(step))
            print(step, token)

    def batch_greedy(model, encoder_out, sizes, n):
        hyps = [[0] for _ in range(n)]
        decoder_out = model.decoder(torch.tensor(hyps, device="cuda"))
        for t, size in enumerate(sizes):
            logits = model.joiner(encoder_out[t], decoder_out[:size])
            y = logits.argmax(dim=1).tolist()
            for i, v in enumerate(y):
                if v != 0:
                    hyps[i].append(v)
            decoder_input = [h[-2:] for h in hyps[:size]]
            decoder_out = model.decoder(torch.tensor(decoder_input, device="cuda"))
        return hyps

    def batch_collect(model, batches, n):
        hyps = [[] for _ in range(n)]
        for batch in batches:
            y = model(batch).argmax(dim=1).tolist()
            for i, v in enumerate(y):
                hyps[i].append(v)
        return hyps
"""


def test_a_loop_feeding_its_picked_token_back_into_a_call_is_a_decode_loop():
    found = hot({"pkg.gen": FLOW})
    assert found["stream"] == ("step", ("stream (step: decode loop)",))
    assert found["speculate"] == ("step", ("speculate (step: decode loop)",))
    assert found["sample"] == ("step", ("speculate (step: decode loop)", "sample"))
    assert found["greedy"][0] == "step"  # (the pick is a method of the call's result)
    # (each row's pick appended to that row's hypothesis, `hyps[i].append(v)`, and the rows read back as the input)
    assert found["batch_greedy"] == ("step", ("batch_greedy (step: decode loop)",))
    # Decoys: a loop that picks from each batch's output but feeds nothing back (an evaluation over batches; also
    # into each row's list, `batch_collect`), a sampler's own loop (the token goes back only through tensor methods),
    # and a loop that prints its pick.
    for cold in ("collect", "batch_collect", "draw", "log_loop"):
        assert cold not in found, cold


ENGINE = {
    "pkg.__init__": "",
    "pkg.engine": """
        class GraphEngine:
            def inference(self, input_ids):
                return self.graph.replay_logits(input_ids)

            def reset(self):
                return None

        class Stats:
            def inference(self, rows):
                return sum(rows)
    """,
    "pkg.loops": """
        import torch

        def generate(engine, ids, n):
            for _ in range(n):
                logits = engine.inference(input_ids=ids)
                ids = torch.cat([ids, sample(logits)], dim=-1)
                engine.reset()
            return ids

        def sample(logits):
            return logits.argmax(-1, keepdim=True)

        def report(stats, rows):
            for row in rows:
                total = stats.inference(row)
                print(total)
    """,
    "pkg.patch": """
        from transformers import GenerationMixin

        def search_proxy(self, input_ids, n):
            for _ in range(n):
                out = self.lookahead_forward(input_ids)
                input_ids = torch.cat([input_ids, out.logits.argmax(-1)], dim=-1)
            return input_ids

        GenerationMixin.greedy_search = search_proxy
    """,
    "pkg.model": """
        from torch import nn

        class LM(nn.Module):
            def forward(self, ids):
                return ids

            def lookahead_forward(self, ids):
                return self(ids)
    """,
}


def test_the_step_a_decode_loop_runs_on_an_object_of_unknown_class_is_step_code():
    """TriForce's `graph_engine.inference(...)` on a parameter, lade's `self.jforward_multilevel(...)` in a function
    patched onto transformers' `GenerationMixin`: the loop's step call runs every project method of that name."""
    found = hot(ENGINE)
    via = "generate (step: decode loop)"
    by_name = "GraphEngine.inference [method inference, decode loop step]"
    assert found["GraphEngine.inference"] == ("step", (via, by_name))
    assert found["Stats.inference"][0] == "step"  # (by name: either class may be the one handed in)
    assert found["LM.lookahead_forward"][0] == "step"
    # Decoys: a call in the loop that the picked token does not flow through (`engine.reset()`), and a loop that
    # picks nothing (`report`): neither makes their methods step code.
    assert "GraphEngine.reset" not in found and "report" not in found


# The pick inside a project function the loop calls: gpt-fast's `decode_one_token` (which calls `sample`), a
# token decoder object's `update` (Whisper's `GreedyDecoder`). Decoy: a host loop over MoE layers whose
# `forward` picks experts with `topk` (model code: no token pick).
CALLEE_PICKS = """
    import torch

    def sample(logits):
        return torch.multinomial(torch.softmax(logits, -1), 1)

    def decode_one_token(model, token, pos):
        return sample(model(token, pos))

    def decode_n_tokens(model, cur_token, pos, n):
        new_tokens = []
        for i in range(n):
            next_token = decode_one_token(model, cur_token, pos)
            pos += 1
            new_tokens.append(next_token.clone())
            cur_token = next_token.clone()
        return new_tokens

    class GreedyDecoder:
        def update(self, tokens, logits):
            nxt = logits.argmax(dim=-1)
            return torch.cat([tokens, nxt[:, None]], dim=-1), bool((nxt == 0).all())

    class DecodingTask:
        def __init__(self, model):
            self.model = model
            self.decoder = GreedyDecoder()

        def main_loop(self, tokens, n):
            for _ in range(n):
                logits = self.model.logits(tokens)
                tokens, done = self.decoder.update(tokens, logits)
                if done:
                    break
            return tokens

    def run_layers(layers, h):
        for layer in layers:
            h = layer(h)
        return h

    def best_of(scores):
        return scores.argmax().item()

    def keep_best(masks):
        return masks * torch.argmax(masks, dim=0, keepdim=True)

    def post_process(resize, masks, sizes, constrain):
        out = []
        for i, size in enumerate(sizes):
            mask = resize(masks[i], size)
            if constrain:
                mask = keep_best(mask)
            out.append(mask)
        return out

    def rerank(scorer, items, n):
        for _ in range(n):
            best = best_of(scorer(items))
            print(best)
"""


def test_a_loop_carrying_the_token_a_project_function_picks_is_a_decode_loop():
    found = hot({"pkg.gen": CALLEE_PICKS})
    assert found["decode_n_tokens"] == ("step", ("decode_n_tokens (step: decode loop)",))
    assert found["decode_one_token"][0] == "step" and found["sample"][0] == "step"
    assert found["DecodingTask.main_loop"] == ("step", ("DecodingTask.main_loop (step: decode loop)",))
    assert found["GreedyDecoder.update"][0] == "step"
    assert "run_layers" not in found and "rerank" not in found and "best_of" not in found
    # Decoy: SAM's mask post-processing; `mask = keep_best(mask)` reads what the same iteration bound at its top
    # (`mask = resize(...)`): nothing is carried from one iteration to the next.
    assert "post_process" not in found and "keep_best" not in found


# CSM's shape: the model class has no `forward`; its `generate_frame` runs the backbone and samples each frame's
# codes, and the generator's loop feeds the frame back in. Decoy: a loop carrying a hidden state through a model
# method no forward runs that picks nothing (`refine`): a model method is a step only when it picks.
MODEL_STEP_PICKS = """
    import torch
    from torch import nn

    def sample_topk(logits, k):
        probs = torch.softmax(logits.topk(k).values, -1)
        return torch.multinomial(probs, 1)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = nn.Linear(8, 8)

        def generate_frame(self, tokens, pos):
            return sample_topk(self.backbone(tokens), 50)

        def refine(self, h):
            return self.backbone(h)

        def reset_caches(self):
            pass

    class Generator:
        def __init__(self, model: Model):
            self._model = model

        def generate(self, tokens, n):
            self._model.reset_caches()
            pos = torch.arange(0, tokens.size(0)).to("cuda")
            samples = []
            for _ in range(n):
                sample = self._model.generate_frame(tokens, pos)
                if torch.all(sample == 0):
                    break
                samples.append(sample)
                tokens = sample
            return samples

        def polish(self, h, n):
            for _ in range(n):
                h = self._model.refine(h)
            return h.sum().item()
"""


def test_a_model_method_no_forward_runs_that_picks_is_the_step_of_the_loop_around_it():
    found = hot({"pkg.gen": MODEL_STEP_PICKS})
    assert found["Generator.generate"] == ("step", ("Generator.generate (step: decode loop)",))
    assert found["Model.generate_frame"][0] == "step" and found["sample_topk"][0] == "step"
    assert "Generator.polish" not in found and "Model.refine" not in found  # decoy: no pick, no decode step


def test_a_helper_drawing_with_the_random_module_picks_no_token():
    """lmdeploy's EPLB set-up: a loop carrying a tensor map through `_fair_choices(...)`, which calls
    `r.sample(arr, k)` on a `random.Random`: a draw from a list, not a token pick, so no decode loop."""
    src = """
        import random
        import torch

        def fair_choices(arr, k, r):
            return r.sample(arr, k)

        def dispatch_map(table, n, seed):
            r = random.Random(seed)
            for layer in range(n):
                row = table[layer]
                remain = int((row == -1).sum())
                row[row == -1] = torch.tensor(fair_choices(list(range(8)), remain, r))
            return table
    """
    assert "dispatch_map" not in hot({"pkg.eplb": src})


PATCHED = {
    "pkg.__init__": "",
    "pkg.attn": """
        from types import MethodType
        import transformers
        from transformers.models.llama import modeling_llama

        def compressed_attn_forward(self, hidden, **kw):
            return hidden

        def glide_forward(self, ids):
            return ids

        def original_forward(self, hidden):
            return hidden

        def describe(self):
            return "attn"

        def enable(model):
            modeling_llama.LlamaAttention.forward = compressed_attn_forward
            modeling_llama.LlamaAttention.extra_repr = describe

        class Glide(transformers.LlamaForCausalLM):
            def __init__(self, config):
                super().__init__(config)
                bound = MethodType(glide_forward, self)
                setattr(self, "forward", bound)
                self.saved = original_forward

        class Fused:
            def __init__(self, short):
                if short:
                    self.forward = self.short_forward

            def short_forward(self, x):
                return x

            def long_forward(self, x):
                return x
    """,
}


def test_a_function_installed_as_a_forward_is_a_forward_root():
    """Monkey-patched forwards (`LlamaAttention.forward = compressed_attn_forward`, KV-compression libraries'
    pattern; `setattr(self, "forward", MethodType(fwd, self))`; `self.forward = self.short_forward`) run as
    the forward of the module they patch."""
    found = hot(PATCHED)
    for name in ("compressed_attn_forward", "glide_forward", "Fused.short_forward"):
        assert found[name] == ("forward", (f"{name} (patched forward)",)), name
    # Decoys: a function patched in as another attribute, one stored under another name, an unused alternative.
    for cold in ("describe", "original_forward", "Fused.long_forward"):
        assert cold not in found, cold


def test_decode_loop_flow_reads_nested_blocks_and_bounds_generated_bodies():
    """The token cycle is found through `try`/`with`/`match` blocks and tuple targets; a generated body past
    MAX_LOOP_STATEMENTS bindings is not analysed (bounded work, no decode loop), and a def nested in the loop
    is not part of its flow."""
    from graphlint.index.decode import MAX_LOOP_STATEMENTS

    nested = """
        import torch

        def gen(model, ids, n, mode):
            for _ in range(n):
                try:
                    with torch.no_grad():
                        match mode:
                            case "greedy":
                                logits, _state = model(ids)
                            case _:
                                logits, _state = model(ids, temperature=1.0)
                except RuntimeError:
                    continue
                ids = torch.cat([ids, logits.argmax(-1)], dim=-1)

        def with_def(model, ids, n):
            for _ in range(n):
                def pick(x):
                    return x.argmax(-1)
                ids = model(ids)
    """

    def chain(name: str, n: int) -> str:
        """A loop of n bindings carrying `x0` through `f` to a pick and back."""
        body = "".join(f"        x{i} = f(x{i - 1})\n" for i in range(1, n + 1))
        return f"def {name}(f, x0, k):\n    for _ in range(k):\n{body}        x0 = torch.argmax(x{n})\n"

    generated = "import torch\n\n" + chain("small", 3) + chain("big", MAX_LOOP_STATEMENTS)
    found = hot({"pkg.nested": nested, "pkg.gen2": generated})
    assert found["small"][0] == "step"
    assert found["gen"] == ("step", ("gen (step: decode loop)",))
    assert "with_def" not in found and "big" not in found


SELF_ALIAS = """
    from torch import nn

    def build(cfg):
        return cfg

    class LM(nn.Module):
        def __init__(self, fsdp=None):
            super().__init__()
            self._fsdp = fsdp

        def forward(self, ids):
            return ids

        def _next(self, ids):
            model = self if self._fsdp is None else self._fsdp
            return model(ids).argmax(-1)

        def generate(self, ids, n):
            for _ in range(n):
                ids = self._next(ids)
            return ids

        def _plain(self, ids):
            model = self
            return model(ids).argmax(-1)

        def sample(self, ids, n):
            while ids.shape[1] < n:
                ids = self._plain(ids)
            return ids

        def _other(self, ids, cfg):
            model = self if cfg is None else build(cfg)
            return model(ids).argmax(-1)

        def other_loop(self, ids, n, cfg):
            for _ in range(n):
                ids = self._other(ids, cfg)
            return ids

        def score(self, ids):
            model = self
            return model(ids).sum().item()
"""


def test_a_local_alias_of_self_calls_the_models_own_forward():
    """audiocraft's `LMModel._sample_next_token`: `model = self if self._fsdp is None else self._fsdp`, then
    `model(seq)`: a call of either arm, so the model's own forward, once per call of the helper that its
    `generate` loop calls. A plain `model = self` is the same alias."""
    found = hot({"pkg.lm": SELF_ALIAS})
    assert found["LM.generate"] == ("step", ("LM.generate (step: decode loop)",))
    assert found["LM._next"] == ("step", ("LM.generate (step: decode loop)", "LM._next"))
    assert found["LM.sample"] == ("step", ("LM.sample (step: decode loop)",))
    # Decoys: an arm that is no alias (a call's result) leaves the local unknown; a one-shot call is no step.
    # (`other_loop` and `score`, which nothing calls, are the model's inference API: forward, no step)
    assert all(found.get(name, ("forward",))[0] == "forward" for name in ("LM.other_loop", "LM._other", "LM.score"))


REQUEST = """
    import torch
    from torch import nn

    class LM(nn.Module):
        def forward(self, ids):
            return ids

        def generate(self, ids, n):
            for _ in range(n):
                ids = self(ids).argmax(-1)
            return ids

    class MusicGen:
        def __init__(self, lm: LM):
            self.lm = lm

        def _prepare(self, prompt):
            return torch.tensor(prompt).cuda()

        def _generate_tokens(self, ids):
            return self.lm.generate(ids, 8)

        def generate(self, prompt):
            return self._generate_tokens(self._prepare(prompt))

        def api(self, prompt):
            return self.generate(prompt)

        def serve(self, prompt):
            return self.api(prompt)

        def warmup(self):
            return self._generate_tokens(torch.zeros(1).cuda())

    def load_and_check(lm: LM):
        return lm.generate(torch.zeros(1).cuda(), 1)

    def main():
        load_and_check(LM())
"""


def test_the_request_that_runs_a_decode_loop_once_is_hot_in_the_forward_tier():
    """audiocraft's `MusicGen.generate -> _generate_tokens -> lm.generate`: the request around the decode loop
    runs once per generation, and so does what it calls (preparing the prompt's tensors), in the `forward`
    tier, up to MAX_REQUEST_HOPS callers above the loop."""
    found = hot({"pkg.gen": REQUEST})
    assert found["LM.generate"][0] == "step"
    assert found["MusicGen._generate_tokens"] == (
        "forward", ("MusicGen._generate_tokens (request: runs LM.generate once)",))
    assert found["MusicGen.generate"] == (
        "forward", ("MusicGen.generate (request: runs MusicGen._generate_tokens once)",))
    assert found["MusicGen._prepare"][0] == "forward"
    # Decoys: warm-up, a script's entry point nothing calls (and what only it calls, set-up), callers beyond
    # MAX_REQUEST_HOPS.
    assert "MusicGen.warmup" not in found and "main" not in found
    assert "MusicGen.api" not in found and "MusicGen.serve" not in found


REQUESTS_IN_A_LOOP = REQUEST.split("    class MusicGen")[0] + """
    class Frontend:
        def encode(self, text):
            return torch.tensor([len(text)]).cuda()

        def normalize(self, text):
            return text.split(".")

        def save(self, out):
            return out.cpu()

    class TTS:
        def __init__(self, lm: LM):
            self.lm = lm
            self.frontend = Frontend()

        def speak(self, ids):
            return self.lm.generate(ids, 8)

        def run_all(self, text):
            for sentence in self.frontend.normalize(text):
                ids = self.frontend.encode(sentence)
                yield self.speak(ids)

        def report(self, outs):
            for out in outs:
                self.frontend.save(out)
"""


def test_the_calls_next_to_a_request_in_a_loop_over_requests_run_once_per_request():
    """CosyVoice's `inference_zero_shot`: `for i in text_normalize(text): model_input =
    self.frontend.frontend_zero_shot(i, ...); for out in self.model.tts(**model_input)`. The loop runs one request
    per sentence, so what its body calls next to the request prepares each one: the `forward` tier."""
    found = hot({"pkg.tts": REQUESTS_IN_A_LOOP})
    assert found["TTS.speak"] == ("forward", ("TTS.speak (request: runs LM.generate once)",))
    assert found["Frontend.encode"] == (
        "forward", ("Frontend.encode (request: runs next to TTS.speak in TTS.run_all's loop)",))
    # Decoys: the loop over requests is no request itself; its header (`normalize`, once per loop) and a loop
    # elsewhere that runs no request (`report`) stay cold.
    assert "TTS.run_all" not in found and "Frontend.normalize" not in found
    assert "Frontend.save" not in found and "TTS.report" not in found


STATEFUL = """
    import torch

    class Interface:
        def __init__(self, model):
            self.model = model
            self.model.eval()

        def decode_one_token(self):
            logits = self.model(self.ids)
            return logits.argmax(-1)

        def generate(self, n):
            for _ in range(n):
                token = self.decode_one_token()
                if token == self.eos:
                    break
                yield token

        def score_chunks(self, chunks):
            for chunk in chunks:
                result = self.decode_one_token()
                if chunk is None:
                    break
                yield result

        def tokenize(self, text):
            return torch.tensor(self.tok(text)).cuda()

        def inference(self, text):
            self.ids = self.tokenize(text)
            for token in self.generate(16):
                yield token

        def evaluate(self, text):
            self.ids = self.tokenize(text)
            return list(self.score_chunks(text.split()))
"""


def test_a_loop_that_stops_on_what_its_step_returned_is_a_generation():
    """ktransformers' `TransformersInterface.generate`: `next_token = self.decode_one_tokens()`, then `if
    next_token == eos: break`; the token goes back through `self`, so no value is fed back, but the loop stops on
    what its step produced: a generation, and `inference`, which runs it once, is its request."""
    found = hot({"pkg.iface": STATEFUL})
    assert found["Interface.generate"][0] == "step"
    assert found["Interface.inference"] == (
        "forward", ("Interface.inference (request: runs Interface.generate once)",))
    assert found["Interface.tokenize"][0] == "forward"
    # Decoy: a loop over chunks that stops on its own items, not on the step's result, runs no generation, so
    # the function running it is no request (it is the class's inference API: it runs the model it holds and nothing
    # in the project calls it).
    assert found["Interface.score_chunks"][0] == "step"
    assert found["Interface.evaluate"][1][0].startswith("Interface.evaluate (inference API: ")


DENOISE = """
    class Pipeline:
        def __init__(self, transformer, scheduler):
            self.transformer = transformer
            self.scheduler = scheduler

        def prepare(self, latents):
            return latents.cpu()

        def guidance(self, noise):
            return noise.sum().item()

        def __call__(self, latents, timesteps):
            latents = self.prepare(latents)
            for t in timesteps:
                {body}
            return latents

        def describe(self, latents):
            return latents.tolist()
"""


def test_a_loop_feeding_a_held_objects_output_back_into_it_is_a_step_loop():
    # a diffusion pipeline's denoising loop over timesteps: the transformer's output is fed back every step
    body = "noise = self.transformer(latents, t); latents = latents - self.guidance(noise)"
    found = hot({"pkg.pipe": DENOISE.replace("{body}", body)})
    assert found["Pipeline.__call__"][0] == "step" and "Pipeline.guidance" in found
    assert "Pipeline.describe" not in found  # decoy: a method the loop never calls
    # also through a local alias of the attribute
    aliased = "model = self.transformer; noise = model(latents, t); latents = latents - self.guidance(noise)"
    assert "Pipeline.guidance" in hot({"pkg.pipe": DENOISE.replace("{body}", aliased)})


def test_a_loop_calling_a_held_object_without_feeding_it_back_stays_cold():
    # decoys: the object's output never reaches its next input (a loop over independent prompts), and a
    # loop carrying a value through the class's own methods only (no object of unknown class runs)
    independent = "noise = self.transformer(t); print(self.guidance(noise))"
    assert not hot({"pkg.pipe": DENOISE.replace("{body}", independent)})
    own = "latents = latents - self.guidance(latents)"
    assert not hot({"pkg.pipe": DENOISE.replace("{body}", own)})


def test_a_loop_through_a_local_alias_of_an_external_function_is_no_step_loop():
    # decoy (transformers' DataCollatorWithFlattening): `data_cls = torch.tensor`, then a loop rewriting a dict
    src = DENOISE.replace("{body}", "latents = self.guidance(latents)")
    src += """
    class Collator:
        def __call__(self, batch):
            import torch
            data_cls = torch.tensor
            for k, v in batch.items():
                batch[k] = data_cls(v)
            return batch
"""
    assert "Collator.__call__" not in hot({"pkg.c": src})


BENCHED = """
    import torch
    from torch import nn

    class Engine(nn.Module):
        def forward(self, ids):
            return self.head(ids)

    class Tree:
        def __init__(self, engine: Engine):
            self.engine = engine

        def verify(self):
            logits = self.engine(self.ids)
            return logits.argmax(-1), bool(logits.sum() > 0)

    def simulation_benchmark(engine, prompts):
        for prompt in prompts:
            tree = Tree(engine=engine)
            terminate = False
            while not terminate:
                torch.cuda.synchronize()
                tokens, terminate = tree.verify()

    def kernel_benchmark(engine, sizes):
        for size in sizes:
            torch.cuda.synchronize()
            tree = Tree(engine=engine)
            tree.verify()
            torch.cuda.synchronize()
"""


def test_a_benchmark_whose_loop_stops_on_its_steps_result_is_a_decode_loop():
    """Sequoia's `simulation_benchmark` times the real decode loop: `terminate` from `spectree.verify()` ends it,
    so it is a generation whatever its name (its `torch.cuda.synchronize()` runs every step)."""
    found = hot({"pkg.tree": BENCHED})
    assert found["simulation_benchmark"] == ("step", ("simulation_benchmark (step: decode loop)",))
    # Decoy: a benchmark loop over sizes that never stops on what its step returned stays warm-up.
    assert "kernel_benchmark" not in found


LAZY = """
    import torch
    from torch import nn

    class Decoder(nn.Module):
        def forward(self, ids):
            return self.head(ids)

        def _decode_one_token(self, ids):
            if self.graph is None:
                self.graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(self.graph):
                    self.out = self(self.static_ids)
            self.static_ids.copy_(ids)
            self.graph.replay()
            return self.out

        def _capture_one(self, ids):
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.out = self(self.static_ids)

        @torch.inference_mode()
        def generate(self, ids, steps):
            decode_one_token = torch.compile(self._decode_one_token, dynamic=True)
            remaining = torch.full((1,), steps, device=ids.device)
            codes = torch.zeros(steps, dtype=torch.long, device=ids.device)
            i = 0
            while torch.max(remaining) > 0:
                logits = decode_one_token(codes[i:i + 1])
                codes[i + 1] = logits.argmax(-1)
                remaining -= 1
                i += 1
            return codes

        def compile_only(self):
            decode = torch.compile(self._decode_one_token, mode="reduce-overhead")
            self.compiled = decode

        @torch.inference_mode()
        def warm(self, ids, sizes):
            for n in sizes:
                self._capture_one(ids[:n])
                torch.cuda.synchronize()
"""


def test_a_loop_over_a_function_that_captures_once_and_replays_after_is_no_warm_up():
    """Zonos' `generate` calls `_decode_one_token`, which captures its graph on the first call and replays it on
    every call: each call is a step, so the loop around it is a decode loop, not graph capture."""
    found = hot({"pkg.model": LAZY})
    assert found["Decoder.generate"] == ("step", ("Decoder.generate (step: decode loop)",))
    # Decoys: a loop calling a function that only captures (no replay) is warm-up, however gradless; a compiled
    # local that is stored, never called, drives nothing.
    assert "Decoder.warm" not in found and "Decoder.compile_only" not in found


# Fast-dLLM's shape: a generation mixin's decode loop calls `self(x)`, a model the index cannot see (the mixin is
# no nn.Module), so nothing says the loop runs a model; the method that calls it once with autograd off is its
# request.
GATED = """
    import torch

    class DreamMixin:
        def _sample(self, x, steps):
            for _ in range(steps):
                logits = self(x).logits
                x = torch.cat([x, logits.argmax(-1)], dim=-1)
            return x

        def _prepare(self, ids):
            return torch.tensor(ids).cuda()

        @torch.no_grad()
        def diffusion_generate(self, ids, steps):
            return self._sample(self._prepare(ids), steps)

        def sample_with_grad(self, ids, steps):
            return self._sample(self._embed(ids), steps)

        def _embed(self, ids):
            return torch.tensor(ids).cuda()
"""


def test_a_gradless_caller_of_a_decode_loop_that_runs_no_visible_model_is_its_request():
    found = hot({"pkg.gen": GATED})
    assert found["DreamMixin._sample"][0] == "step"
    assert found["DreamMixin.diffusion_generate"] == (
        "forward", ("DreamMixin.diffusion_generate (request: runs DreamMixin._sample once)",))
    assert found["DreamMixin._prepare"][0] == "forward"
    # Decoy: with autograd on nothing says the call is inference (a training rollout calls such loops too).
    assert "DreamMixin.sample_with_grad" not in found and "DreamMixin._embed" not in found


# UMbreLLa's shape: the request's own loop calls the draft decode loop and stops on what the verification step
# returns: that loop is the request's step loop, not a loop over requests.
SPECULATION = """
    import torch

    class Engine:
        def __init__(self, draft, target):
            self.draft = draft
            self.target = target

        def build_tree(self, ids):
            for _ in range(self.depth):
                logits = self.draft.inference(ids)
                ids = torch.cat([ids, logits.argmax(-1)], dim=-1)
            self.ids = ids

        def verify(self):
            logits = self.target.inference(self.ids)
            return (logits.argmax(-1) == self.ids).all()

        def encode(self, text):
            return torch.tensor(self.tok(text)).cuda()

        @torch.inference_mode()
        def generate(self, text):
            ids = self.encode(text)
            decode = True
            while decode:
                self.build_tree(ids)
                decode = self.verify()
            return self.ids.tolist()

        @torch.inference_mode()
        def run_prompts(self, prompts):
            for text in prompts:
                self.build_tree(self.tokenize(text))

        def tokenize(self, text):
            return torch.tensor(self.tok(text)).cuda()

        def train(self, batches):
            done = False
            while not done:
                self.build_tree(batches)
                done = self.update()

        def update(self):
            return self.opt.step()
"""


def test_a_gradless_loop_stopping_on_a_step_around_a_decode_loop_is_the_request_step_loop():
    found = hot({"pkg.spec": SPECULATION})
    assert found["Engine.build_tree"][0] == "step"
    assert found["Engine.generate"][0] == "forward"
    assert found["Engine.generate"][1][0] == \
        "Engine.generate (request: runs a step loop around Engine.build_tree once)"
    assert found["Engine.verify"][0] == "step"  # the step loop's body runs per step
    assert found["Engine.encode"][0] == "forward"
    # Decoys: a gradless loop over prompts is no request (it runs many); a loop with autograd on that stops on an
    # optimiser's step is training.
    for cold in ("Engine.run_prompts", "Engine.train", "Engine.update"):
        assert cold not in found, cold


# LeanRL's compiled SAC: a `__main__` block whose loop feeds the policy's action into the environment and the
# observation back into the policy (a cycle with no pick by name).
ROLLOUT = """
import torch
from envs import make_envs
from nets import Actor

if __name__ == "__main__":
    device = torch.device("cuda")
    actor = Actor().to(device)
    envs = make_envs()
    obs = torch.tensor(envs.reset()).to(device)
    for step in range(1000):
        actions = actor(obs)
        next_obs, rewards, dones, infos = envs.step(actions.cpu().numpy())
        next_obs = torch.tensor(next_obs).to(device)
        obs = next_obs
"""

# The same program over a list of files: each iteration starts afresh, nothing is carried through its calls.
FILES = """
import torch
from envs import load
from nets import Actor

if __name__ == "__main__":
    device = torch.device("cuda")
    actor = Actor().to(device)
    first = torch.tensor(load("a")).to(device)
    for path in ["a", "b"]:
        obs = torch.tensor(load(path)).to(device)
        actions = actor(obs)
        print(actions.cpu().numpy())
"""


def _contexts(src: str) -> dict[int, str | None]:
    from graphlint.pipeline.config import Config
    from graphlint.pipeline.engine import Linter
    found = Linter(Config()).lint_text(textwrap.dedent(src).lstrip("\n"), "run.py").findings
    return {f.line: f.context for f in found if f.code in ("GL131", "GL103")}


def test_a_main_rollout_loop_runs_its_body_every_step():
    """An environment loop at top level (`actions = actor(obs)`, `envs.step(actions)`, `obs = next_obs`) is a
    rollout: its body is the `step` tier, as a decode loop's is; the set-up before it stays `forward`. Decoy: a loop
    over files, whose iterations share nothing, stays `forward` as a request loop does."""
    assert _contexts(ROLLOUT) == {9: "forward", 12: "step", 13: "step"}
    assert _contexts(FILES) == {8: "forward", 10: "forward", 12: "forward"}


# vortex' `generate(model, batch)`: a module-level function nothing in the project calls prepares the batch, runs the
# generator's loop over the model and hands back its output.
STEP_LOOP_CALLERS = """
    import torch
    from torch import nn

    class Net(nn.Module):
        def forward(self, x):
            return x * 2

    class Generator:
        def __init__(self):
            self.model = Net()

        @torch.no_grad()
        def generate(self, batch, n):
            out = []
            for _ in range(n):
                out.append(self.model(batch))
            return out

        def step_once(self, batch):
            return self.model(batch)

    def prepare_batch(batch):
        return batch.cuda()

    def collect(outs):
        return [o.cpu() for o in outs]

    def generate(gen: Generator, batch):
        return collect(gen.generate(prepare_batch(batch), 4))

    def check(gen: Generator, batch):
        return gen.step_once(prepare_check(batch))

    def prepare_check(batch):
        return batch.cuda()

    def train(gen: Generator, batches, opt):
        for batch in batches:
            loss = gen.generate(batch, 2)[-1].mean()
            loss.backward()
            opt.step()
        report(gen)

    def report(gen):
        return torch.zeros(1).cuda()
"""


def test_the_caller_of_a_step_loop_and_what_it_calls_are_forward():
    """A step root that loops over the model runs many steps per call, so its direct caller runs once per
    generation: a `forward` root whose callees (preparing the batch, collecting the output) are linted with it,
    though nothing in the project calls it (a script's function, `_request_roots` leaves such entry points out)."""
    found = hot({"pkg.gen": STEP_LOOP_CALLERS})
    assert found["Generator.generate"][0] == "step"
    assert found["generate"] == ("forward", ("generate (request: calls the step loop Generator.generate)",))
    assert "generate" not in hot({"pkg.gen": STEP_LOOP_CALLERS.replace("gen.generate(", "gen.step_once(")})
    assert found["prepare_batch"][0] == "forward" and found["collect"][0] == "forward"
    # Decoys: a one-step driver's caller (`step_once` loops over nothing: its caller is a check, not a generation),
    # and a training loop around the step loop (its set-up and logging run beside training). The caller of a loop
    # the index sees no model in stays cold too (`Interface.evaluate` above `score_chunks`, the decoy above).
    assert "check" not in found and "prepare_check" not in found
    assert "train" not in found and "report" not in found


# A library's sampler and solver that nothing in the tree calls (the callers are the library's users), each loop
# carrying its state back through the callable a parameter hands it; and look-alikes that stay cold.
HANDED_STEP_LOOPS = """
    import torch

    def to_d(x, sigma, denoised):
        return (x - denoised) / sigma

    def sample_euler(model, x, sigmas):
        s_in = x.new_ones([x.shape[0]])
        for i in range(len(sigmas) - 1):
            denoised = model(x, sigmas[i] * s_in)
            x = x + to_d(x, sigmas[i], denoised) * (sigmas[i + 1] - sigmas[i])
        return x

    def odeint(f, y, ts):
        for t0, t1 in zip(ts[:-1], ts[1:]):
            y = y + (t1 - t0) * f(t0, y)
        return torch.stack([y])

    def apply_all(fn, items):
        outs = []
        for item in items:
            outs.append(fn(item.detach()))
        return torch.cat(outs)

    def fold(combine, values, acc):
        for v in values:
            acc = combine(acc, v)
        return acc

    def retry(fn, n):
        for _ in range(n):
            ok = fn()
            if ok:
                return ok

    def check(model, x):
        y = model(x)
        return y.detach().cpu()

    def train(model, x, opt, steps):
        for _ in range(steps):
            x = model(x)
            x.sum().backward()
            opt.step()
"""


def test_a_loop_carrying_tensors_through_a_handed_callable_is_a_step_loop():
    """A function whose loop feeds what a parameter's call returned back into that call, on tensors (a sampler's
    `denoised = model(x, sigma)`, a solver's `y = y + dt * f(t, y)`), runs that call every step, whoever calls it:
    the loop's body is `step` (and what it calls), the rest of the function `forward`."""
    found = hot({"pkg.sampling": HANDED_STEP_LOOPS})
    assert found["sample_euler"][0] == "forward" and found["to_d"][0] == "step"
    assert found["odeint"][0] == "forward"
    # Decoys: a map over items filling a list, a Python fold (no tensor work), a retry calling `fn()` with nothing,
    # a one-shot call outside any loop, and a training loop.
    for name in ("apply_all", "fold", "retry", "check", "train"):
        assert name not in found, name


# dreamer's shape: a rollout loop handed the agent, which `main` builds as a module moved to the device (and wraps in
# `functools.partial` for evaluation); the agent's class defines its own `__call__`, which replaces `Module.__call__`.
HANDED_AGENT = """
    import functools
    import numpy as np
    import torch
    from torch import nn

    class Logger:
        def scalar(self, name, value):
            print(name, float(value))

        def __call__(self, name, value):
            self.scalar(name, value)
            return value

    class AgentCall(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 4)

        def __call__(self, obs, done, state=None, training=True):
            return self._policy(obs, state)

        def _policy(self, obs, state):
            out = self.net(torch.as_tensor(obs, device="cuda"))
            return {"action": out, "mean": out.cpu()}, state

    class AgentFwd(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(4, 4)

        def forward(self, obs, done, state=None):
            return {"action": self.net(torch.as_tensor(obs, device="cuda"))}, state

    class Wrapped(nn.Module):
        def __call__(self, obs, done, state=None):
            return super().__call__(obs, done, state)

        def forward(self, obs, done, state=None):
            return {"action": torch.as_tensor(obs)}, state

    def random_policy(obs, done, state=None):
        return {"action": np.zeros(4)}, state

    def simulate(agent, env, logger, steps, state=None):
        if state is None:
            step, done, agent_state = 0, np.ones(1, bool), None
        else:
            step, done, agent_state = state
        obs = env.reset()
        while step < steps:
            if done.any():
                obs = env.reset()
            action, agent_state = agent(obs, done, agent_state)
            action = {k: np.array(v.detach().cpu()) for k, v in action.items()}
            obs, reward, done = env.step(action)
            logger.scalar("reward", step)
            step += 1
        return step, done, agent_state

    def evaluate(policy, env, episodes):
        obs, done = env.reset(), np.ones(1, bool)
        for _ in range(episodes):
            action, state = policy(obs, done)
            obs, reward, done = env.step({k: v.detach().cpu().numpy() for k, v in action.items()})
        return obs

    def watch(record, env, steps):
        obs = env.reset()
        for _ in range(steps):
            obs = env.step(record("obs", torch.as_tensor(obs)))
        return obs

    def main(env, device):
        logger = Logger()
        agent = AgentCall().to(device)
        state = simulate(agent, env, logger, 10)
        simulate(functools.partial(agent, training=False), env, logger, 10, state=state)
        evaluate(functools.partial(AgentFwd().to(device)), env, 5)
        simulate(Wrapped().to(device), env, logger, 10)
        simulate(random_policy, env, logger, 10)
        watch(functools.partial(logger, prefix="eval"), env, 10)
"""


def test_a_handed_callable_runs_the_class_its_callers_pass():
    """The rollout's `agent(obs, ..)` runs what `main` hands it: a module moved to the device (`Module.to` returns
    the module) or a `functools.partial` of one. A module class of the project that defines `__call__` runs that,
    not `forward`; one whose `__call__` hands on to `super().__call__` runs both."""
    found = hot({"pkg.sim": HANDED_AGENT})
    assert found["simulate"][0] == "forward"
    assert found["AgentCall.__call__"] == ("step", ("simulate (step: its loop runs the callable it is handed)",
                                                    "AgentCall.__call__ [agent = AgentCall by main]"))
    assert found["AgentCall._policy"][0] == "step"
    assert found["Wrapped.__call__"][0] == "step" and found["Wrapped.forward"][0] == "step"
    # (a partial of a moved module, handed to a loop of its own)
    assert found["AgentFwd.forward"] == ("step", ("evaluate (step: its loop runs the callable it is handed)",
                                                  "AgentFwd.forward [policy = AgentFwd by main]"))


def test_a_handed_plain_function_or_partial_of_a_logger_is_no_model():
    """Decoys: a plain function with no tensor work handed for the same parameter, and a loop handed a `partial` of a
    logger object (no module: calling it runs no model), add nothing to the hot path."""
    found = hot({"pkg.sim": HANDED_AGENT})
    assert "random_policy" not in found
    assert "Logger.__call__" not in found


def test_only_a_handed_loops_own_code_is_weak_reach():
    """`handed_only`: the rollout and the logger it calls are reached through the loop's own lines alone (weak
    evidence of the device); the handed module's code (`AgentCall._policy`, and `Wrapped.forward` behind its
    `super().__call__`) is model code. `watch`, every call of which hands it a `partial` of a plain `Logger`
    object, calls that object's `__call__` (`_handed_callable_objects`): no unknown callable, no handed step loop."""
    index = project_index({"pkg.sim": HANDED_AGENT})
    found = index.hot_functions()
    weak = {index.functions[k].qualname for k in index.handed_only}
    assert {"simulate", "evaluate", "Logger.scalar"} <= weak
    assert "watch" not in {index.functions[k].qualname for k in found}
    assert not weak & {"AgentCall.__call__", "AgentCall._policy", "Wrapped.forward", "AgentFwd.forward"}


# A library's sampler class built around the model its caller hands the constructor (`self.model = model`), whose
# loop carries its state back through that stored callable, directly or through a method of its own; and look-alikes.
STORED_STEP_LOOPS = """
    import torch

    class UniSampler:
        def __init__(self, model, extra_args):
            self.model = model
            self.extra_args = extra_args

        def model_fn(self, x, t):
            return self.model(x, t, **self.extra_args)

        def step_fn(self, x, prev, t):
            rks = torch.tensor([1.0, (t - prev[-1])[0]], device=x.device)
            return x + rks[0] * self.model_fn(x, t)

        def sample(self, x, sigmas):
            prev = [sigmas[0]]
            for i in range(len(sigmas) - 1):
                vec_t = sigmas[i].expand(x.shape[0])
                x = self.step_fn(x, prev, vec_t)
                prev.append(vec_t)
            return x

    class Euler:
        def __init__(self, denoiser):
            self.denoiser = denoiser

        def run(self, x, sigmas):
            for s in sigmas:
                x = x - s * self.denoiser.forward(x, s) + torch.randn_like(x)
            return x

    class Reporter:
        def __init__(self, log, model):
            self.log = log
            self.model = model

        def report(self, values):
            total = 0
            for v in values:
                total += len(v)
                self.log(v)
            return total

        def once(self, x):
            return self.model(x).cpu()

    class Late:
        def __init__(self):
            self.model = None

        def bind(self, model):
            self.model = model

        def run(self, x, sigmas):
            for s in sigmas:
                x = x - s * self.model.forward(x, s) + torch.randn_like(x)
            return x.cpu()
"""


def test_a_loop_carrying_tensors_through_a_constructor_stored_callable_is_a_step_loop():
    """A class whose constructor stores the callable it is handed (`self.model = model`) and whose loop carries its
    tensors back through it, called directly (`self.denoiser.forward(x, s)`) or through a method of its own
    (`self.step_fn -> self.model_fn -> self.model(x, t)`), runs it every step, as a loop over a handed parameter does:
    the loop's body is `step` (and what it calls), the rest of the method `forward`."""
    found = hot({"pkg.sampling": STORED_STEP_LOOPS})
    assert found["UniSampler.sample"] == (
        "forward", ("UniSampler.sample (step: its loop runs the callable it is handed)",))
    assert found["UniSampler.step_fn"][0] == "step" and found["UniSampler.model_fn"][0] == "step"
    assert found["Euler.run"][0] == "forward"


def test_a_stored_host_callable_or_a_field_set_after_construction_roots_no_loop():
    """Decoys: a stored logger called per item (nothing carried back through it), a stored model
    called once outside any loop, and a field that a setter, not the constructor, fills (`Late.bind`: the
    constructor stores None)."""
    found = hot({"pkg.sampling": STORED_STEP_LOOPS})
    for name in ("Reporter.report", "Reporter.once", "Late.run"):
        assert name not in found, name


# SiT's integrators: a solver's loop hands the callable it is handed one hop down, to a step method of its own
# (`self._em_step(x, t, model)`) or to one a method returns picked from a dict by a run-time key (`sampler =
# self._forward_fn()`, named like a token pick), whose body calls it or hands it to a callable the constructor
# stored (`self.drift(x, t, model)`); and look-alikes that hand the callable to a helper that never runs it.
HANDED_ON_STEP_LOOPS = """
    import torch

    class Ode:
        def __init__(self, n):
            self.t = torch.linspace(0, 1, n)

        def _em_step(self, x, ti, model):
            t = torch.ones(x.size(0)).to(x) * ti
            return x + model(x, t)

        def sample(self, x, model):
            for ti in self.t[:-1]:
                x = self._em_step(x, ti, model)
            return x

    class Sde:
        def __init__(self, drift, kind, n):
            self.drift = drift
            self.kind = kind
            self.t = torch.linspace(0, 1, n)

        def _euler(self, x, mean_x, ti, model):
            t = torch.ones(x.size(0)).to(x) * ti
            mean_x = x + self.drift(x, t, model)
            return mean_x + torch.randn_like(x), mean_x

        def _heun(self, x, mean_x, ti, model):
            t = torch.ones(x.size(0)).to(x) * ti
            return x + self.drift(x, t, model), x

        def _forward_fn(self):
            steps = {"Euler": self._euler, "Heun": self._heun}
            return steps[self.kind]

        def sample(self, init, model):
            x = mean_x = init
            sampler = self._forward_fn()
            for ti in self.t[:-1]:
                with torch.no_grad():
                    x, mean_x = sampler(x, mean_x, ti, model)
            return x

    class Keep:
        def __init__(self, n):
            self.t = torch.linspace(0, 1, n)
            self.seen = []

        def _note(self, x, ti, model):
            self.seen.append(model)
            print(type(model).__name__)
            return x + torch.ones(x.size(0)).to(x) * ti

        def _params(self, x, ti, params):
            return x + torch.ones(x.size(0)).to(x) * ti + sum(p.sum() for p in params)

        def sample(self, x, model):
            for ti in self.t[:-1]:
                x = self._note(x, ti, model)
            return x

        def sample_params(self, x, model):
            for ti in self.t[:-1]:
                x = self._params(x, ti, model.parameters())
            return x

        def _pick(self):
            return {"a": self.seen, "b": self.t}[str(len(self.seen))]

        def fold(self, values, model):
            pick = self._pick()
            for v in values:
                pick = pick(v, model)
            return pick
"""


def test_a_loop_handing_its_callable_to_a_step_method_that_runs_it_is_a_step_loop():
    """A solver's loop that carries its tensors through a step method of its own, handing it the callable it is
    handed (`self._em_step(x, t, model)`, which calls `model(x, t)`), runs that callable every step as a loop calling
    it itself does; so does one through a bound method picked from a dict by a run-time key (`sampler =
    self._forward_fn()`, the local named like a token pick), whose body hands the callable to a callable the
    constructor stored (`self.drift(x, t, model)`)."""
    found = hot({"pkg.integrators": HANDED_ON_STEP_LOOPS})
    assert found["Ode.sample"] == ("forward", ("Ode.sample (step: its loop runs the callable it is handed)",))
    assert found["Ode._em_step"][0] == "step"
    assert found["Sde.sample"][0] == "forward"
    assert found["Sde._euler"] == ("step", ("Sde.sample (step: its loop runs the callable it is handed)",
                                            "Sde._euler [returned by Sde._forward_fn]"))
    assert found["Sde._heun"][0] == "step"


def test_a_loop_handing_its_callable_to_a_helper_that_never_runs_it_stays_cold():
    """Decoys: a step helper that only keeps and prints the handed callable, one handed `model.parameters()` (a
    read of the model, no call of it), and a loop through what a method picks from a dict of data fields (no bound
    method: nothing reached) run no handed callable."""
    found = hot({"pkg.integrators": HANDED_ON_STEP_LOOPS})
    for name in ("Keep.sample", "Keep.sample_params", "Keep._note", "Keep._params", "Keep.fold"):
        assert name not in found, name
