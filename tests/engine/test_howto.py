"""How to play (issue 25, item 1): every game's rules for players, in a Markdown subset read
once for the terminal, the server and the browser. A mistake in one is a line naming the
file and the line; what a page draws is text, never markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavernkeep.engine.errors import ContentError
from tavernkeep.engine.howto import REQUIRED, load, parse
from tavernkeep.games import all_games

SECTIONS = "\n".join(f"## {name.title()} {{#{name}}}\n\nAbout {name}.\n" for name in REQUIRED)
GOOD = f"""# How to play Test

A **short** game: see [the dice](#dice).

{SECTIONS}
## Quests {{#quests}}

### A quest card

- its name, in *italic*
  and more about it
- its `goal`

1. first
2. second
"""


def test_the_subset_reads_into_sections_blocks_and_runs() -> None:
    how = parse(GOOD, "test.md")
    assert how.title == "How to play Test"
    assert [s.id for s in how.sections] == [*REQUIRED, "quests"]
    intro = how.to_json()["intro"][0]["spans"]
    assert intro == [
        {"text": "A "},
        {"text": "short", "style": "b"},
        {"text": " game: see "},
        {"text": "the dice", "link": "dice"},
        {"text": "."},
    ]
    quests = how.section("quests")
    assert quests is not None
    kinds = [b.kind for b in quests.blocks]
    assert kinds == ["h3", "ul", "ol"]
    first = quests.blocks[1].items[0]
    assert "".join(s.text for s in first) == "its name, in italic and more about it"
    assert "{#" not in how.markdown() and "## Quests" in how.markdown()
    assert how.markdown("dice").startswith("## Dice")


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("<script>alert(1)</script>", "HTML is not part"),
        ("![a map](map.png)", "an image"),
        ("see [the site](https://example.com)", "a link outside the rules"),
        ("| a | table |", "a table"),
        ("> a quote", "a quote"),
        ("```", "a code block"),
        ("#### deep", "a heading deeper"),
        ("an *unclosed style", "an unclosed"),
        ("## No id here", "a section is '## Heading {#id}'"),
        ("# Another title", "only the first line"),
    ],
)
def test_what_is_not_in_the_subset_is_named_with_its_line(line: str, said: str) -> None:
    text = GOOD.replace("About goal.", line, 1)
    with pytest.raises(ContentError, match=said) as caught:
        parse(text, "rules.md")
    assert str(caught.value).startswith("rules.md:"), caught.value


def test_a_section_names_the_choices_it_explains_unseen_by_readers() -> None:
    text = GOOD.replace("## Quests {#quests}\n", "## Quests {#quests}\nChoices: quest, brag\n")
    how = parse(text, "rules.md")
    quests = how.section("quests")
    assert quests is not None and quests.choices == ["quest", "brag"]
    assert how.explaining("brag") is quests and how.explaining("rescue") is None
    assert "Choices" not in how.markdown()
    assert how.to_json()["sections"][-1]["choices"] == ["quest", "brag"]
    late = GOOD.replace("### A quest card", "### A quest card\n\nChoices: quest")
    with pytest.raises(ContentError, match="comes right under a section's heading"):
        parse(late, "rules.md")
    twice = text.replace("## Dice {#dice}\n", "## Dice {#dice}\nChoices: quest\n")
    with pytest.raises(ContentError, match="choices of kind 'quest' are explained twice"):
        parse(twice, "rules.md")


def test_a_picture_is_named_for_its_renderers_with_a_caption_and_notes() -> None:
    drawn = GOOD.replace(
        "About dice.\n",
        "About dice.\n\nPicture: two-dice: Two dice, **added**.\n1. The first.\n2. The second.\n"
        "\nAfter it.\n",
    )
    how = parse(drawn, "rules.md")
    [picture] = how.pictures()
    assert picture.to_json() == {
        "kind": "picture",
        "name": "two-dice",
        "spans": [{"text": "Two dice, "}, {"text": "added", "style": "b"}, {"text": "."}],
        "items": [[{"text": "The first."}], [{"text": "The second."}]],
    }
    dice = how.section("dice")
    assert dice is not None and [b.kind for b in dice.blocks] == ["p", "picture", "p"]
    # At a terminal: the text up to it, the picture (drawn there), then the rest.
    parts = how.parts("dice")
    assert [type(p).__name__ for p in parts] == ["str", "Block", "str"]
    assert "*Picture: Two dice, **added**.*\n1. The first." in how.markdown("dice")
    # A list after a blank line is a list of its own, not the picture's notes.
    apart = parse(drawn.replace("added**.\n1.", "added**.\n\n1."), "rules.md")
    assert apart.pictures()[0].items == ()
    for bad in ("Picture: Two Dice: caps", "Picture: two-dice", "Picture: two-dice:"):
        with pytest.raises(ContentError, match=r"a picture is 'Picture: name: Caption\.'"):
            parse(GOOD.replace("About dice.", bad), "rules.md")


def test_every_section_players_need_is_there_and_every_link_lands() -> None:
    without_dice = GOOD.replace("## Dice {#dice}", "## Luck {#luck}")
    with pytest.raises(ContentError, match="no section #dice"):
        parse(without_dice.replace("(#dice)", "(#luck)"), "rules.md")
    with pytest.raises(ContentError, match="links to #nowhere, which is no section"):
        parse(GOOD.replace("(#dice)", "(#nowhere)"), "rules.md")
    with pytest.raises(ContentError, match="a second section #quests"):
        parse(GOOD + "\n## Again {#quests}\n", "rules.md")


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "HOW_TO_PLAY.md"
    assert load(tmp_path) is None
    path.write_text(GOOD)
    first = load(tmp_path)
    assert first is not None and load(tmp_path) is first
    path.write_text(GOOD.replace("A **short** game", "A long game"))
    import os

    stamp = path.stat().st_mtime_ns + 1_000_000
    os.utime(path, ns=(stamp, stamp))
    again = load(tmp_path)
    assert again is not None and again is not first
    assert again.intro[0].spans[0].text.startswith("A long game")


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_has_a_how_to_play_a_person_can_read(game: object) -> None:
    from tavernkeep.engine.game import Game

    assert isinstance(game, Game)
    how = game.how_to_play()
    assert how is not None, f"{game.name} has no HOW_TO_PLAY.md"
    assert how.title == f"How to play {game.title}"
    ids = [s.id for s in how.sections]
    assert [i for i in ids if i in REQUIRED] == list(REQUIRED), "the sections in their order"
    assert len(ids) > len(REQUIRED), "a section for each kind of card or piece"
    assert 600 <= how.words() <= 2200, how.words()
    # Never the design notes: a player's page does not send them to RULES.md.
    assert "RULES.md" not in how.markdown()


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_picture_is_drawn_at_the_terminal_and_in_the_browser(game: object) -> None:
    """A picture the rules ask for is one both renderers draw: the terminal's `PICTURES`
    (drawn here) and the browser's `pictures` in renderer.js (drawn by the browser test
    test_the_rules_pictures_are_drawn_by_the_games_renderer)."""
    from rich.console import Console

    from tavernkeep.engine.game import Game
    from tavernkeep.terminal.render import pictures_for

    assert isinstance(game, Game)
    how = game.how_to_play()
    assert how is not None
    names = [p.name for p in how.pictures()]
    assert names, f"{game.name}: no picture in its How to play"
    drawn = pictures_for(game)
    assert set(drawn) == set(names), "every picture drawn, and no drawing left unused"
    web = game.web_dir()
    assert web is not None
    script = (web / "renderer.js").read_text()
    console = Console(width=80, record=True)
    for picture in how.pictures():
        assert picture.items, f"{picture.name}: a picture's notes say what it shows"
        assert f'"{picture.name}"' in script or f"  {picture.name}: " in script
        console.print(drawn[picture.name]())
        text = console.export_text()
        for n in range(1, len(picture.items) + 1):
            assert f"({n})" in text, f"{picture.name}: no ({n}) for note {n} at the terminal"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_browsers_rules_never_speak_of_the_terminal(game: object) -> None:
    """The rules drawer is read by a person at a page (issue 39, item 6): it is told where
    to click, not of 'the slot column in the terminal', and the terminal of what to type."""
    from tavernkeep.engine.game import Game

    assert isinstance(game, Game)
    browser, terminal = game.how_to_play("browser"), game.how_to_play("terminal")
    assert browser is not None and terminal is not None
    assert "terminal" not in browser.markdown().lower()
    assert "in the browser" not in terminal.markdown().lower()


def test_a_screen_mark_keeps_its_words_on_its_screen_only() -> None:
    from tavernkeep.engine.howto import for_screen

    text = "Choose a quest. {browser: Click its card.}{terminal: Type its number.} Then roll."
    assert for_screen(text, "browser", "x") == "Choose a quest. Click its card. Then roll."
    assert for_screen(text, "terminal", "x") == "Choose a quest. Type its number. Then roll."
    assert for_screen("A key{browser: (click it)}.", "terminal", "x") == "A key."
    assert for_screen("## Tips {#tips}", "browser", "x") == "## Tips {#tips}"
    with pytest.raises(ContentError, match=r"x:2: '\{phone: \.\.\.\}' names no screen"):
        for_screen("fine\nsee {phone: tap it}", "browser", "x")
    with pytest.raises(ContentError, match=r"x:1: a brace that marks no screen"):
        for_screen("a {browser: half", "browser", "x")
