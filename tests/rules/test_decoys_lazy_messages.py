"""Hits and decoys for messages that run only on failure (graphlint.facts.lazy_messages): a project wrapper that
hands its message parameter to a torch check (`torch._check_with(error_type, cond, msg_callable)`, through an alias
or a nested def that returns it) calls it only when the check fails, so a lambda passed there reads nothing on the
way. transformers 5.17's `torch_compilable_check(cond, lambda: f"... {int(num_image_tokens)} ...")` (neomme) was the
false finding of the precision sample (docs/notes). The decoys are the same call shapes where the read does run: a
wrapper that calls its message first, an f-string message built before the call, and a wrapper that logs it.
"""

from __future__ import annotations

from snippets import findings

WRAPPERS = """
    import logging
    import os
    import torch


    def checked(cond, msg, error_type=ValueError):
        if os.getenv("OFF") == "1":
            return
        if not callable(msg):
            def msg_callable():
                return msg
        else:
            msg_callable = msg
        if callable(cond):
            cond = cond()
        if isinstance(cond, torch.Tensor):
            torch._check_tensor_all_with(error_type, cond, msg_callable)
        else:
            torch._check_with(error_type, cond, msg_callable)


    def keyword_checked(cond, msg):
        torch._check(cond, message=msg)


    def eager(cond, msg):
        text = msg()
        torch._check(cond, lambda: text)


    def logged(cond, msg):
        logging.info("%s", msg)
        torch._check(cond, msg)
"""


def test_a_lambda_a_wrapper_hands_to_a_torch_check_is_not_read():
    """`checked(n == x.shape[0], lambda: f"{int(n)}")` and the keyword form: the wrapper's parameter only reaches the
    message slot of `torch._check_with` / `torch._check`, through `msg_callable = msg` or `def msg_callable(): return
    msg`. The condition itself is still read where it is built (`n == ...` is a device tensor the check reads)."""
    src = WRAPPERS + """

    def step(x: torch.Tensor, ids: torch.Tensor):
        n = (ids == 3).sum()
        checked(n == x.shape[0], lambda: f"got {int(n)} tokens")
        keyword_checked(n == x.shape[0], msg=lambda: f"got {int(n)} tokens")
        checked(lambda: bool(n > 0), "no tokens")
        return x * 2
    """
    found = findings(src, scope="all")
    lines = src.lstrip("\n").splitlines()
    at = {i + 1 for i, text in enumerate(lines) if "got {int(n)}" in text}
    assert not {line for line, _code in found} & at
    # decoy: the same wrapper given the lambda as its condition (`cond`, which no torch check treats as a message)
    cond_line = next(i + 1 for i, text in enumerate(lines) if "bool(n > 0)" in text)
    assert (cond_line, "GL105") in found


def test_the_read_stays_where_the_message_is_built_or_called():
    """Decoys: a wrapper that calls its message before the check (`text = msg()`), one that hands it to a logger,
    and an f-string message: each reads `int(n)` whether or not the check fails."""
    src = WRAPPERS + """

    def step(x: torch.Tensor, ids: torch.Tensor):
        n = (ids == 3).sum()
        eager(n == x.shape[0], lambda: f"got {int(n)} eager")
        logged(n == x.shape[0], lambda: f"got {int(n)} logged")
        checked(n == x.shape[0], f"got {int(n)} built")
        return x * 2
    """
    found = findings(src, scope="all")
    lines = src.lstrip("\n").splitlines()
    for tag in ("eager", "logged", "built"):
        line = next(i + 1 for i, text in enumerate(lines) if f"{{int(n)}} {tag}" in text)
        assert (line, "GL105") in found, tag


def test_a_torch_check_reads_its_condition_and_a_built_message():
    """`torch._check_with(error_type, cond, message)` takes the condition second: it is read, while a lambda message
    is not. An f-string message (`torch._check(cond, f"{int(n)}")`) is built before the call: read. Decoys: the
    lambda messages of `torch._check`, `torch._check_with` and `torch._assert`."""
    src = """
        import torch


        def step(x: torch.Tensor, ids: torch.Tensor):
            n = (ids == 3).sum()
            torch._check_with(ValueError, bool(n > 0), lambda: f"{int(n)} lazy")
            torch._check(x.shape[0] > 0, f"{int(n)} built")
            torch._check(x.shape[0] > 0, lambda: f"{int(n)} lazy")
            torch._assert(x.shape[0] > 0, lambda: f"{int(n)} lazy")
            return x * 2
    """
    found = findings(src, scope="all")
    assert {(6, "GL105"), (7, "GL105")} <= found
    assert not {line for line, _code in found} & {8, 9}
