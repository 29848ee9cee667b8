#!/usr/bin/env python3
"""A spying UCI engine for the Alea arbiter tests: writes every line it receives to a log
file, and answers ``go`` by its MODE from the state and dice of the last ``position alea``
line (read with adapters.alea_referee.parse_alea_position).

    python3 alea_spy.py MODE LOGFILE [SEED]

MODE:
    good      a random legal action, never two rerolls in one turn; ``draw decline``
    accept    as good, but ``draw accept``
    deaf      as good, but never answers ``draw offer``
    joker     always ``joker:<a chess-legal move>`` (whether it has jokers or not)
    reroll    always ``reroll`` (whether it has rerolls or not)
    offdice   a move of a piece type that is not on the dice (nor on cooldown), when
              one exists, else a legal action
    promote   a promotion move when one is legal (without its piece), else a legal action
    letter    a promotion move WITH a piece letter (``a7a8q``) when one is legal
    first     the first legal action (the same answer to the same position)
    guide     as good, but a guide too: fixed ``info string guide`` lines before each
              ``bestmove`` and for ``guide review <token>`` (docs/protocol.md)
"""
from __future__ import annotations

import random
import sys

from spykit import say, serve  # first: puts the repository on sys.path

from adapters.alea_referee import format_token, parse_alea_position
from engine import alea
from engine.alea import REROLL


def answer(mode: str, pos, rng: random.Random) -> str:
    state = pos.state
    chess_moves = sorted({m[:4] for m in state.board.legal_moves()})
    if mode == "joker" and chess_moves:
        return f"joker:{chess_moves[0]}"
    if mode == "reroll":
        return "reroll"
    if mode in ("promote", "letter"):
        promos = [m for m in chess_moves if alea.is_promotion(state, m)]
        if promos:
            return promos[0] + ("q" if mode == "letter" else "")
    if mode == "offdice" and state.dice:
        for m in chess_moves:
            t = state.board.piece_at(m[:2]).lower()
            if (t in alea.DICE_TYPES and t not in state.dice
                    and t != state.last_type[state.side]):
                return m
    actions = alea.legal_actions(state)
    if mode == "first":
        return format_token(actions[0]) if actions else "(none)"
    if pos.tokens and pos.tokens[-1] == REROLL:
        actions = [a for a in actions if a.kind != REROLL]
    return format_token(rng.choice(actions)) if actions else "(none)"


def main(argv: list[str]) -> int:
    mode = argv[1]
    rng = random.Random(int(argv[3]) if len(argv) > 3 else None)
    pos = None

    def handle(words: list[str], line: str) -> None:
        nonlocal pos
        if words[0] == "position":
            pos = parse_alea_position(line, pos)
        elif words[0] == "go":
            if mode == "guide":
                say("info string guide threat your knight on f3 is attacked by the pawn on g4")
                say("info string guide best f3e5 reason wins a pawn")
            say(f"bestmove {answer(mode, pos, rng)}")
        elif words[:2] == ["guide", "review"] and mode == "guide":
            say(f"info string guide review played {words[2]} best d4e5 loss 120 "
                "joker not worth")
        elif words[:2] == ["draw", "offer"]:
            if mode != "deaf":
                say("draw accept" if mode == "accept" else "draw decline")

    return serve(argv[2], "AleaSpy", ("alea",), handle)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
