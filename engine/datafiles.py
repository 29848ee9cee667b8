"""The data files the engine reads, and the start-up check that every one is there.

The variant descriptions (``variants/<name>.toml``), each variant's evaluation weights
(``params/<name>.toml``) with the nets they name (``nets/``), the Quantum Book and the
opening names (``books/``) ship inside
the package. A missing or unreadable file means an
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
    from engine.eval_tables import load_net, load_params, shipped_net
    from engine.net import NetError
    from engine.variant import VARIANT_DIR, load_spec, variant_names

    names = variant_names()
    if DEFAULT_VARIANT not in names:
        raise DataFileError(f"{VARIANT_DIR / (DEFAULT_VARIANT + '.toml')} is missing: the "
                            "installation is incomplete (reinstall Quantum)")
    for name in names:
        try:
            load_spec(name)
            load_params(name)
            net = shipped_net(name)
            if net is not None:
                load_net(name, str(net))
        except DataFileError:
            raise
        except NetError as exc:
            raise DataFileError(f"{name}: the shipped net cannot be used: {exc}") from None
        except (OSError, ValueError) as exc:    # tomllib's errors are ValueErrors
            raise DataFileError(f"{name}: a shipped data file cannot be read: {exc}") from None
    _check_books()
    return names


def _check_books() -> None:
    """The book files open and start as they should (read whole only when used)."""
    from engine.book import BOOK_PATH, MAGIC
    from engine.openings import OPENINGS_PATH

    for path, start in ((BOOK_PATH, MAGIC), (OPENINGS_PATH, b"# Opening names")):
        try:
            with open(path, "rb") as fh:
                head = fh.read(len(start))
        except OSError as exc:
            raise DataFileError(f"{path} is missing or unreadable ({exc.strerror or exc}): "
                                "the installation is incomplete (reinstall Quantum)") from None
        if head != start:
            raise DataFileError(f"{path} is damaged: reinstall Quantum")
