"""The workbench's history: every comparison is kept (storage/workbench.py), each with its
packs' digests and its headline finding, and any two are read side by side.

Side by side is each comparison's figures (workbench_compare.py `figures`: a seat's win
rate, a card's use and its users' wins, a Party Leader's, the game's length, each in the
words `tavernkeep compare` prints), set in one row wherever the two say something of the
same thing, and left empty where only one does (a card only one change touched, a seat
only one table had). The page draws each one's charts beside the other's.
"""

from __future__ import annotations

from typing import Any

from tavernkeep.server.storage.workbench import Run


def beside(first: Run, second: Run) -> dict[str, Any]:
    """`{runs: [first, second] (each whole, with its result), rows: [{what, cells: [the
    first's text or None, the second's]}]}`, the rows in the first's order, then those
    only the second has. A comparison with no games in yet has no figures."""
    texts: list[dict[str, str]] = []
    order: list[str] = []
    for run in (first, second):
        said: dict[str, str] = {}
        for row in (run.result or {}).get("figures", []):
            said.setdefault(row["what"], row["text"])
            if row["what"] not in order:
                order.append(row["what"])
        texts.append(said)
    return {
        "runs": [first.to_json(), second.to_json()],
        "rows": [{"what": what, "cells": [said.get(what) for said in texts]} for what in order],
    }
