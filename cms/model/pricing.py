"""What a request costs, from a configurable price table.

Prices are dollars per million tokens: the model's base input and output price, and
multiples of the base input price for cache writes (5 minutes 1.25x, 1 hour 2x) and
cache reads (0.1x). Keep numbers here or in settings, never scattered in code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cms.model.protocol import Usage


@dataclass(frozen=True)
class Price:
    input: float  # $ per million uncached input tokens
    output: float  # $ per million output tokens
    write_5m: float = 1.25  # multiples of the input price
    write_1h: float = 2.0
    read: float = 0.1


DEFAULT_PRICES: dict[str, Price] = {
    "claude-sonnet-4-5": Price(3, 15),
    "claude-sonnet-4-6": Price(3, 15),
    "claude-sonnet-5": Price(2, 10),
    "claude-haiku-4-5": Price(1, 5),
    "claude-opus-4-5": Price(5, 25),
    "claude-opus-4-6": Price(5, 25),
    "claude-opus-4-7": Price(5, 25),
    "claude-opus-4-8": Price(5, 25),
    "claude-opus-5": Price(5, 25),
}
FALLBACK_PRICE = Price(3, 15)


def price_for(model: str, table: Mapping[str, Price] | None = None) -> Price:
    table = table or DEFAULT_PRICES
    best = ""
    for prefix in table:
        if model.startswith(prefix) and len(prefix) > len(best):
            best = prefix
    return table[best] if best else FALLBACK_PRICE


def dollars(usage: Usage, model: str, table: Mapping[str, Price] | None = None) -> float:
    p = price_for(model, table)
    write_5m = usage.cache_creation_5m
    write_1h = usage.cache_creation_1h
    unsplit = usage.cache_creation_input_tokens - write_5m - write_1h
    write_5m += max(0, unsplit)  # a write without the breakdown is priced as 5-minute
    total = (
        usage.input_tokens * p.input
        + write_5m * p.input * p.write_5m
        + write_1h * p.input * p.write_1h
        + usage.cache_read_input_tokens * p.input * p.read
        + usage.output_tokens * p.output
    )
    return total / 1_000_000


def prices_from_settings(raw: Mapping[str, Mapping[str, float]]) -> dict[str, Price]:
    """A settings override: ``{"model-prefix": {"input": 3, "output": 15, ...}}``."""
    table = dict(DEFAULT_PRICES)
    for model, fields in raw.items():
        table[model] = Price(**{k: float(v) for k, v in fields.items()})
    return table
