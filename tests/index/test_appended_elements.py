"""A list field the class fills with instances of one project class (`self.pending_jobs.append(job)` with `job: Job`,
`self.items.append(Item(..))`, or the elements of another such list: `for job in self.pending_jobs.copy():
self.active_jobs.append(job)`) holds instances of that class: a method call on its element (`for job in
self.active_jobs: job.receive_sample(..)`) runs that class's method. Decoys: a list filled with two unrelated classes'
instances, or with values of no known class, picks no class."""

from __future__ import annotations

from index_projects import project_index

JOBS = """
class Job:
    def receive_sample(self, t):
        return t.cpu()


class Other:
    def receive_sample(self, t):
        return t.item()
"""


def _edges(source: str, qual: str) -> dict[str, list[str]]:
    index = project_index({"pkg.job": JOBS, "pkg.gen": source})
    fn = index.functions[f"pkg.gen:{qual}"]
    return {callee: sorted(t.qualname for t, _how in index.call_edges(fn, fn.module, callee)) for callee, _ in fn.calls}


def test_an_element_of_a_list_filled_from_another_list_of_an_annotated_parameter_runs_its_method() -> None:
    edges = _edges("""
from pkg.job import Job


class Generator:
    def __init__(self):
        self.pending_jobs = []
        self.active_jobs = []

    def enqueue(self, job: Job | list[Job]):
        if isinstance(job, list):
            for j in job:
                self.enqueue(j)
            return
        self.pending_jobs.append(job)

    def start(self):
        for job in self.pending_jobs.copy():
            self.pending_jobs.remove(job)
            self.active_jobs.append(job)

    def iterate(self, logits):
        for job, row in zip(self.active_jobs, logits):
            job.receive_sample(row)
""", "Generator.iterate")
    assert edges["self.active_jobs[].receive_sample"] == ["Job.receive_sample"]


def test_an_element_of_a_list_of_class_calls_runs_its_method() -> None:
    edges = _edges("""
from pkg.job import Job


class Generator:
    def __init__(self):
        self.jobs = []

    def add(self, n):
        job = Job()
        self.jobs.insert(0, job)

    def iterate(self, t):
        for job in self.jobs:
            job.receive_sample(t)
""", "Generator.iterate")
    assert edges["self.jobs[].receive_sample"] == ["Job.receive_sample"]


def test_a_list_of_two_unrelated_classes_picks_neither() -> None:
    edges = _edges("""
from pkg.job import Job, Other


class Generator:
    def __init__(self):
        self.jobs = []

    def add(self, job: Job, other: Other):
        self.jobs.append(job)
        self.jobs.append(other)

    def iterate(self, t):
        for job in self.jobs:
            job.receive_sample(t)
""", "Generator.iterate")
    assert edges["self.jobs[].receive_sample"] == []


def test_a_list_of_values_of_no_known_class_picks_none() -> None:
    edges = _edges("""
class Generator:
    def __init__(self):
        self.jobs = []

    def add(self, job, make):
        self.jobs.append(job)
        self.jobs.append(make())

    def iterate(self, t):
        for job in self.jobs:
            job.receive_sample(t)
""", "Generator.iterate")
    assert edges["self.jobs[].receive_sample"] == []
