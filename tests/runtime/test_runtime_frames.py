"""Stack mapping: the first user frame, not torch, not graphlint.runtime, not the stdlib."""

from __future__ import annotations

import contextlib
import os
import traceback

import torch

from graphlint.runtime import frames
from graphlint.runtime.frames import (
    current_stack,
    display_path,
    is_user_file,
    map_stack,
    original_exception,
    traceback_frames,
)


def test_user_file_classification():
    assert is_user_file(__file__)
    assert not is_user_file(torch.__file__)
    assert not is_user_file(os.path.join(os.path.dirname(torch.__file__), "nn", "functional.py"))
    assert not is_user_file(frames.__file__)
    assert not is_user_file(contextlib.__file__)
    assert not is_user_file("<frozen importlib._bootstrap>")
    assert is_user_file("<string>")


def _fs(path: str, line: int, name: str) -> traceback.FrameSummary:
    return traceback.FrameSummary(path, line, name, lookup_line=False)


def test_map_stack_picks_innermost_user_frame_and_short_via():
    torch_file = torch.__file__
    stack = [
        _fs("/proj/run.py", 10, "<module>"),
        _fs("/proj/model.py", 20, "forward"),
        _fs("/proj/model.py", 33, "step"),
        _fs(torch_file, 400, "__torch_function__"),
        _fs(frames.__file__, 50, "on_torch_call"),
        _fs(contextlib.__file__, 5, "inner"),
    ]
    mapped = map_stack(stack)
    assert mapped is not None and mapped.in_user_code
    assert (mapped.where.path, mapped.where.line, mapped.where.function) == ("/proj/model.py", 33, "step")
    assert mapped.via == ("/proj/run.py:10 <module>", "/proj/model.py:20 forward", "/proj/model.py:33 step")


def test_via_drops_outer_installed_frames_but_keeps_an_installed_where():
    stack = [
        _fs("/venv/lib/python3.12/site-packages/pluggy/_callers.py", 121, "_multicall"),
        _fs(os.path.join(os.path.dirname(os.path.dirname(frames.__file__)), "cli.py"), 712, "_capture"),
        _fs("/proj/test_model.py", 5, "test_step"),
        _fs("/venv/lib/python3.12/site-packages/transformers/model.py", 77, "forward"),
    ]
    mapped = map_stack(stack)
    assert mapped.where.function == "forward"  # third-party code is user code for `where`
    assert mapped.via == ("/proj/test_model.py:5 test_step", "/venv/lib/python3.12/site-packages/transformers/model.py:77 forward")


def test_map_stack_without_user_frames_falls_back_to_innermost():
    mapped = map_stack([_fs(torch.__file__, 1, "a"), _fs(contextlib.__file__, 2, "b")])
    assert mapped is not None and not mapped.in_user_code
    assert mapped.where.function == "b"
    assert map_stack([]) is None


def test_via_is_limited_to_the_innermost_user_frames():
    stack = [_fs(f"/p/f{i}.py", i + 1, f"f{i}") for i in range(frames.VIA_DEPTH + 4)]
    mapped = map_stack(stack)
    assert len(mapped.via) == frames.VIA_DEPTH
    assert mapped.via[-1].startswith(f"/p/f{frames.VIA_DEPTH + 3}.py")


def _two_calls_on_one_line():
    return current_stack(skip=1), current_stack(skip=1)


def test_current_stack_has_this_line_and_columns():
    a, b = _two_calls_on_one_line()
    assert a[-1].name == "_two_calls_on_one_line" and a[-1].filename == __file__
    assert a[-1].lineno == b[-1].lineno
    loc_a, loc_b = frames.location_of(a[-1]), frames.location_of(b[-1])
    assert loc_a.column < loc_b.column  # two calls on one line stay apart
    assert loc_a.source.startswith("return current_stack")


def test_original_exception_follows_the_chain_to_the_user_error():
    def user_line():
        raise RuntimeError("operation not permitted when stream is capturing")

    try:
        try:
            user_line()
        finally:
            raise RuntimeError("capture_end failed")
    except RuntimeError as e:
        outer = e
    origin = original_exception(outer)
    assert str(origin).startswith("operation not permitted")
    mapped = map_stack(traceback_frames(origin))
    assert mapped.where.function == "user_line"


def test_display_path_is_relative_under_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert display_path(str(tmp_path / "a" / "b.py")) == os.path.join("a", "b.py")
    assert display_path("/elsewhere/x.py") == "/elsewhere/x.py"
    assert display_path("<string>") == "<string>"
