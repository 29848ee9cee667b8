"""Quantum's core: rules, move generation, search and evaluation (docs/architecture.md)."""

__version__ = "0.2.0"
