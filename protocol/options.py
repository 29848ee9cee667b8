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

OPTION_TYPES = ("check", "spin", "combo", "button", "string")
_INTEGER = re.compile(r"[+-]?[0-9]+")


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
                raise ValueError(f"option {self.name!r} is a button and takes no value")
            return None
        if text is None:
            raise ValueError(f"option {self.name!r} needs a value")
        if self.type == "string":
            return "" if text == "<empty>" else text
        if self.type == "check":
            if text.lower() not in ("true", "false"):
                raise ValueError(f"option {self.name!r} takes true or false, not {text!r}")
            return text.lower() == "true"
        if self.type == "spin":
            if not _INTEGER.fullmatch(text):
                raise ValueError(f"option {self.name!r} takes an integer, not {text!r}")
            value = int(text)
            if not self.min <= value <= self.max:
                raise ValueError(f"option {self.name!r} must be {self.min}..{self.max}, "
                                 f"not {value}")
            return value
        if self.normalize is not None:
            return self.normalize(text)
        for var in self.vars:
            if var.lower() == text.lower():
                return var
        raise ValueError(f"option {self.name!r} takes one of {', '.join(self.vars)}, "
                         f"not {text!r}")

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
            raise ValueError(f"unknown option {name!r}")
        value = option.parse(text)
        if option.on_change is not None:
            option.on_change(engine, value)
        if option.type != "button":
            self._values[option.name.lower()] = value
        return value
