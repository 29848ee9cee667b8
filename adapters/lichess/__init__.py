"""Quantum as a Lichess bot: a thin bridge over the Bot API, built on berserk.

``python -m adapters.lichess --token-file F --url URL`` (see docs/lichess.md). ``policy``
holds the decisions (challenges, draw offers, the ``go`` command) as pure functions;
``bot`` holds the streams, the threads and the engine processes.
"""
