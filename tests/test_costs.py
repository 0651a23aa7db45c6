"""MONET must cost less than sending the whole history every turn, on multi-day history."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, TRACES

pytestmark = pytest.mark.slow


def _bench():
    path = REPO / "benchmarks" / "cost_compare.py"
    spec = importlib.util.spec_from_file_location("cost_compare", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["cost_compare"] = module
    spec.loader.exec_module(module)
    return module


def test_monet_costs_less_than_the_naive_way_on_a_multi_day_trace() -> None:
    bench = _bench()
    trace = TRACES / "rpc-pair-ja.jsonl"
    assert bench.days_of(trace) > 1
    monet, monet_hit, monet_requests = bench.monet_cost(trace, sunset_model=True)
    naive, naive_hit, naive_requests = bench.naive_cost(trace)
    assert monet_requests == naive_requests
    assert 0 < monet < naive
    assert 0 < monet_hit <= 1 and 0 < naive_hit <= 1


def test_benchmark_module_is_importable_from_anywhere() -> None:
    assert Path(_bench().__file__).name == "cost_compare.py"
