"""Confidence intervals for the study: Wilson for proportions, Student's t for means.

>>> lo, hi = wilson(9, 100)
>>> round(lo, 3), round(hi, 3)
(0.048, 0.162)
>>> wilson(0, 0)
(0.0, 1.0)
>>> m = mean_interval({-1: 2, 1: 2})
>>> m.mean, round(m.low, 2), round(m.high, 2)
(0.0, -1.84, 1.84)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from statistics import NormalDist

import attrs

#: Two-sided confidence level of every interval.
LEVEL = 0.95
_Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)


def wilson(successes: float, trials: int, z: float = _Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` without trials); ``successes`` may be
    fractional (a shared win counted in part)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    return low, 1.0 if successes == trials else min(1.0, centre + half)


# Student's t quantiles for 95 % and few degrees of freedom, where the series below is poor.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228)


def t_quantile(df: int) -> float:
    """The two-sided 95 % quantile of Student's t (a table to 10 df, then the Cornish-Fisher series)."""
    if df <= 0:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z
    z3, z5, z7 = z ** 3, z ** 5, z ** 7
    return (z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3))


@attrs.frozen
class Estimate:
    """A mean (or a proportion) with its confidence interval and sample size."""

    mean: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        """As plain data, rounded to 6 digits."""
        return {"mean": round(self.mean, 6), "low": round(self.low, 6), "high": round(self.high, 6), "n": self.n}


def proportion(successes: int, trials: int) -> Estimate:
    """A proportion with its Wilson interval."""
    low, high = wilson(successes, trials)
    return Estimate(successes / trials if trials else 0.0, low, high, trials)


def mean_interval(counts: Mapping[int, int]) -> Estimate:
    """The mean of values given as ``{value: how often}``, with its t interval."""
    n = sum(counts.values())
    if n == 0:
        return Estimate(0.0, -math.inf, math.inf, 0)
    mean = sum(v * c for v, c in counts.items()) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)
