"""compare's card users read straight from Arrow (lab/uses.py): the counts a seat each,
the same from a slice of a longer column (how compare reads its two arms out of one
file) as from the column itself, and a game without a tally (null) as no use."""

from __future__ import annotations

import pyarrow as pa

from tavernkeep.lab.uses import read_uses

CELLS = pa.list_(pa.map_(pa.string(), pa.int32()))


def test_each_seats_count_of_each_card_is_read_from_a_slice_of_a_column() -> None:
    games = pa.array(
        [
            [{"Owl": 1}, {"Bear": 2, "Owl": 3}],  # base, game 0
            None,  # base, game 1: nothing tallied
            [{}, {"Cat": 4}],  # changed, game 0
            [{"Owl": 5}, None],  # changed, game 1
        ],
        CELLS,
    )
    uses = read_uses(games.slice(0, 2), pa.chunked_array([games]).slice(2), seats=2)
    assert uses.names == ["Bear", "Cat", "Owl"]
    assert uses.before.tolist() == [[[0, 0, 1], [2, 0, 3]], [[0, 0, 0], [0, 0, 0]]]
    assert uses.after.tolist() == [[[0, 0, 0], [0, 4, 0]], [[0, 0, 5], [0, 0, 0]]]
    owl_before, owl_after = uses.users(2)
    assert owl_before.tolist() == [[True, True], [False, False]]
    assert owl_after.tolist() == [[False, False], [True, False]]
    assert uses.differs().tolist() == [True, True]
    same = read_uses(games.slice(0, 2), games.slice(0, 2), seats=2)
    assert same.differs().tolist() == [False, False]
