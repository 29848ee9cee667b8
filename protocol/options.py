"""UCI options: a small registry of typed options whose callbacks drive the Engine facade.

Each option is declared once (name, type, default, bounds or choices, callback); ``uci``
prints the declarations and ``setoption`` validates a value against them before the
callback runs. Callbacks change the engine only and never print protocol lines (unlike
Fairy-Stockfish's ``on_variant_change``): the protocol decides what to say.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.notation import quote

OPTION_TYPES = ("check", "spin", "combo", "button", "string")
_INTEGER = re.compile(r"[+-]?[0-9]+")
# Every integer the protocol takes lies within +-INT_BOUND: far beyond any clock, depth or
# node count, and still exact as a float and within C's 64-bit fields (a larger wtime
# overflowed the time budget's float arithmetic).
INT_BOUND = 10 ** 18


def parse_int(token: str, what: str, lo: int = -INT_BOUND, hi: int = INT_BOUND) -> int:
    """An ASCII decimal integer (a sign allowed) within lo..hi; ValueError naming ``what``
    otherwise. ``int()`` alone would also take ``1_000`` or non-ASCII digits, and refuse
    more than 4300 digits with a message of its own: the digits are counted first."""
    if not _INTEGER.fullmatch(token):
        raise ValueError(f"{what} needs an integer, not {quote(token)}")
    digits = token.lstrip("+-").lstrip("0") or "0"
    if len(digits) > len(str(INT_BOUND)):
        raise ValueError(f"{what} must be {lo}..{hi}, not {quote(token)}")
    value = -int(digits) if token[0] == "-" else int(digits)
    if not lo <= value <= hi:
        raise ValueError(f"{what} must be {lo}..{hi}, not {value}")
    return value


@dataclass(frozen=True)
class Option:
    """One UCI option as the 2006 spec defines it.

    ``normalize`` maps a combo value to one of ``vars`` (for aliases) or raises
    ValueError; by default a combo value matches ``vars`` case-insensitively.
    ``on_change(engine, value)`` applies a new value; if it raises ValueError the value
    is not stored.
    """

    name: str
    type: str
    default: bool | int | str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()
    on_change: Callable[[Any, Any], None] | None = None
    normalize: Callable[[str], str] | None = None

    def __post_init__(self):
        if self.type not in OPTION_TYPES:
            raise ValueError(f"option {self.name!r}: unknown type {self.type!r}")
        if self.type == "spin" and (self.min is None or self.max is None):
            raise ValueError(f"option {self.name!r}: a spin needs min and max")
        if self.type == "combo" and self.default not in self.vars:
            raise ValueError(f"option {self.name!r}: default must be one of its vars")

    def uci_line(self) -> str:
        """The ``option name ... type ...`` line that ``uci`` prints."""
        parts = [f"option name {self.name} type {self.type}"]
        if self.type == "check":
            parts.append(f"default {'true' if self.default else 'false'}")
        elif self.type == "spin":
            parts.append(f"default {self.default} min {self.min} max {self.max}")
        elif self.type == "combo":
            parts.append(f"default {self.default}")
            parts += [f"var {v}" for v in self.vars]
        elif self.type == "string":
            parts.append(f"default {self.default or '<empty>'}")
        return " ".join(parts)

    def parse(self, text: str | None) -> bool | int | str | None:
        """The typed value for a ``setoption ... value <text>``; ValueError if it is bad."""
        if self.type == "button":
            if text is not None:
                raise ValueError(f"option {quote(self.name)} is a button and takes no value")
            return None
        if text is None:
            raise ValueError(f"option {quote(self.name)} needs a value")
        if self.type == "string":
            return "" if text == "<empty>" else text
        if self.type == "check":
            if text.lower() not in ("true", "false"):
                raise ValueError(f"option {quote(self.name)} takes true or false, not "
                                 f"{quote(text)}")
            return text.lower() == "true"
        if self.type == "spin":
            return parse_int(text, f"option {quote(self.name)}", self.min, self.max)
        if self.normalize is not None:
            return self.normalize(text)
        for var in self.vars:
            if var.lower() == text.lower():
                return var
        raise ValueError(f"option {quote(self.name)} takes one of {', '.join(self.vars)}, "
                         f"not {quote(text)}")

    @property
    def initial(self):
        """The value the option holds before any ``setoption``."""
        return self.default if self.type != "button" else None


class OptionRegistry:
    """Options by case-insensitive name, in declaration order, with their current values."""

    def __init__(self, options=()):
        self._options: dict[str, Option] = {}
        self._values: dict[str, Any] = {}
        for option in options:
            self.add(option)

    def add(self, option: Option) -> None:
        key = option.name.lower()
        if key in self._options:
            raise ValueError(f"option {option.name!r} declared twice")
        self._options[key] = option
        self._values[key] = option.initial

    def __iter__(self) -> Iterator[Option]:
        return iter(self._options.values())

    def find(self, name: str) -> Option | None:
        return self._options.get(name.lower())

    def value(self, name: str):
        """Current value of a declared option (KeyError if there is none)."""
        return self._values[name.lower()]

    def values(self) -> dict[str, Any]:
        """Current values by declared name (a copy)."""
        return {opt.name: self._values[key] for key, opt in self._options.items()}

    def set(self, engine, name: str, text: str | None):
        """Validate ``text``, run the callback on ``engine``, then store the value.

        Raises ValueError for an unknown option, a bad value or a refusing callback; the
        stored value and the engine then stay as they were.
        """
        option = self.find(name)
        if option is None:
            raise ValueError(f"unknown option {quote(name)}")
        value = option.parse(text)
        if option.on_change is not None:
            option.on_change(engine, value)
        if option.type != "button":
            self._values[option.name.lower()] = value
        return value
