"""The data files the engine reads, and the start-up check that every one is there.

The variant descriptions (``variants/<name>.toml``) and each variant's evaluation weights
(``params/<name>.toml``) ship inside the package. A missing or unreadable file means an
incomplete installation: ``check`` names it and ``quantum`` refuses to start, instead of
playing on a default (an install without its params once evaluated every position as 0).
"""
from __future__ import annotations


class DataFileError(RuntimeError):
    """A shipped data file is missing or cannot be read: the installation is broken."""


def check() -> list[str]:
    """Read every shipped data file once; the variants found, or DataFileError naming
    the first file that is missing, unreadable or malformed."""
    from engine.engine import DEFAULT_VARIANT
    from engine.eval_tables import load_params
    from engine.variant import VARIANT_DIR, load_spec, variant_names

    names = variant_names()
    if DEFAULT_VARIANT not in names:
        raise DataFileError(f"{VARIANT_DIR / (DEFAULT_VARIANT + '.toml')} is missing: the "
                            "installation is incomplete (reinstall Quantum)")
    for name in names:
        try:
            load_spec(name)
            load_params(name)
        except DataFileError:
            raise
        except (OSError, ValueError) as exc:    # tomllib's errors are ValueErrors
            raise DataFileError(f"{name}: a shipped data file cannot be read: {exc}") from None
    return names
