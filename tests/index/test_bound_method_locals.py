"""A local bound to a method of the instance another local holds (`policy = actor.explore`, FastTD3's `train.py`), then
to its compiled wrapper (`policy = torch.compile(policy, mode=None)`), calls that method: `policy(obs=x)` runs
`Actor.explore`, also where the arms of an `if` chose the class (`actor_cls = MultiTaskActor` / `Actor`) and bound
the method of either of two instances. Decoys: a local bound to another instance's method calls that one, and a bound
method rebound to an unknown value (`policy = make_policy()`) calls nothing known."""

from __future__ import annotations

from index_projects import project_index

NETS = """
import torch
from torch import nn


class Actor(nn.Module):
    def forward(self, x):
        return x * 2

    def explore(self, obs, dones=None):
        if dones is not None and dones.sum() > 0:
            obs = obs + 1
        return self(obs)


class Planner:
    def plan(self, obs):
        return obs
"""

TRAIN = """
import torch
from nets import Actor, Planner
from lib import OtherActor


def make_policy():
    return None


def main(compile, multi):
    if multi:
        actor_cls = Actor
    else:
        actor_cls = OtherActor
    actor = actor_cls()
    if multi:
        policy = actor.explore
    else:
        detached = actor_cls()
        policy = detached.explore
    if compile:
        policy = torch.compile(policy, mode=None)
    planner = Planner()
    act = planner.plan
    other = actor.explore
    other = make_policy()
    obs = torch.zeros(2)
    for _ in range(3):
        obs = policy(obs=obs, dones=None)
        plan = act(obs)
        done = other(obs)
"""


def _targets(line_of: str) -> set[str]:
    index = project_index({"nets": NETS, "train": TRAIN})
    fn = index.functions["train:main"]
    line = next(i for i, text in enumerate(TRAIN.splitlines(), start=1) if line_of in text)
    return {t.key for callee, ln in fn.calls if ln == line for t, _how in index.call_edges(fn, fn.module, callee)}


def test_a_local_bound_to_a_bound_method_then_compiled_calls_the_method():
    assert _targets("obs = policy(obs=obs") == {"nets:Actor.explore"}


def test_a_local_bound_to_another_method_or_rebound_to_an_unknown_value_calls_no_actor_method():
    assert _targets("plan = act(obs)") == {"nets:Planner.plan"}
    assert _targets("done = other(obs)") == set()
