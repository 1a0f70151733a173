"""Slow, obviously-correct twins of the fast kernels, used only to test them."""

from golfstats.reference.solver import reference_solve

__all__ = ["reference_solve"]
