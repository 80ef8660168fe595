"""A game's "How to play": its rules as a player reads them, in our own words.

Each game keeps them beside its rules, in `HOW_TO_PLAY.md`, written in a small subset of
Markdown that is read here, once, for every front-end: the terminal prints it (`tavernkeep
rules GAME`, `?` at a prompt), the server sends it as JSON (`/api/games/{name}/rules`) and
the browser draws that as text. Nothing in it is ever markup to a page.

The subset: `# Title` on the first line, then a paragraph or two; sections `## Heading
{#id}`, each optionally followed by a line `Choices: quest, brag` naming the kinds of
choice it explains (a page links each choice of those kinds to the section; the line is
not shown), subheadings `### Heading`; paragraphs; `- ` and `1. ` lists (a line indented
under an item continues it); `**bold**`, `*italic*`, `` `code` `` and links to this file's
own sections, `[words](#id)`; and pictures: a line `Picture: name: Caption.`, which the
game's own renderers draw (`pictures` in its `web/renderer.js`, `PICTURES` in its
`terminal.py`), and, right under it, a `1. ` list of notes, one for each part of the
drawing the renderer numbers; and `{browser: words}` / `{terminal: words}`, words for one
screen only (`for_screen`). Anything else (HTML, images, tables, outside links, quotes,
code blocks) is refused with the line it is on, when the game is first asked for its rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tavernkeep.engine.errors import ContentError

FILE = "HOW_TO_PLAY.md"
REQUIRED = ("goal", "table", "turn", "dice", "end", "tips", "readings")
"""Sections every game has: how to win, what is on the table, a turn, how dice decide,
how it ends, tips for a first game, and our readings of the rulebook's gaps."""


@dataclass(frozen=True)
class Span:
    """A run of text, plain or styled (`b`, `i`, `code`), or a link to a section."""

    text: str
    style: str | None = None
    link: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.style:
            out["style"] = self.style
        if self.link:
            out["link"] = self.link
        return out


@dataclass(frozen=True)
class Block:
    """A paragraph or subheading (`p`, `h3`: `spans`), a list (`ul`, `ol`: `items`), or a
    picture (`picture`: the drawing's `name`, its caption in `spans`, its numbered notes
    in `items`)."""

    kind: str
    spans: tuple[Span, ...] = ()
    items: tuple[tuple[Span, ...], ...] = ()
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        items = [[s.to_json() for s in i] for i in self.items]
        if self.kind in ("ul", "ol"):
            return {"kind": self.kind, "items": items}
        out: dict[str, Any] = {"kind": self.kind, "spans": [s.to_json() for s in self.spans]}
        if self.kind == "picture":
            out.update(name=self.name, items=items)
        return out


@dataclass
class Section:
    id: str
    title: str
    blocks: list[Block] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    """The kinds of choice (an action's text before its ':') this section explains."""


@dataclass
class HowToPlay:
    title: str
    intro: list[Block]
    sections: list[Section]

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def explaining(self, kind: str) -> Section | None:
        """The section that explains choices of `kind` (`quest` for `quest:1`), if any."""
        return next((s for s in self.sections if kind in s.choices), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "intro": [b.to_json() for b in self.intro],
            "sections": [
                {
                    "id": s.id,
                    "title": s.title,
                    "choices": s.choices,
                    "blocks": [b.to_json() for b in s.blocks],
                }
                for s in self.sections
            ],
        }

    def _pieces(self, only: str | None) -> Iterator[str | Block]:
        """The headings (as Markdown) and blocks, in order, of all or one section."""
        if only is None:
            yield f"# {self.title}"
            yield from self.intro
        for section in self.sections:
            if only is None or section.id == only:
                yield f"## {section.title}"
                yield from section.blocks

    def markdown(self, only: str | None = None) -> str:
        """The rules as plain Markdown (no section ids), all or one section's, for a
        terminal's Markdown renderer; links become their words."""
        pieces = self._pieces(only)
        return "\n\n".join(p if isinstance(p, str) else block_markdown(p) for p in pieces) + "\n"

    def parts(self, only: str | None = None) -> list[str | Block]:
        """The rules as Markdown between their pictures, all or one section's: a terminal
        prints the text and draws each picture between (terminal/rules.py)."""
        parts: list[str | Block] = []
        text: list[str] = []
        for piece in self._pieces(only):
            if isinstance(piece, Block) and piece.kind == "picture":
                parts.append("\n\n".join(text) + "\n")
                parts.append(piece)
                text = []
            else:
                text.append(piece if isinstance(piece, str) else block_markdown(piece))
        if text:
            parts.append("\n\n".join(text) + "\n")
        return parts

    def pictures(self) -> list[Block]:
        return [b for s in self.sections for b in s.blocks if b.kind == "picture"]

    def words(self) -> int:
        return len(self.markdown().split())


def _span_markdown(spans: tuple[Span, ...]) -> str:
    out = []
    for span in spans:
        text = span.text
        if span.style == "b":
            text = f"**{text}**"
        elif span.style == "i":
            text = f"*{text}*"
        elif span.style == "code":
            text = f"`{text}`"
        out.append(text)
    return "".join(out)


def block_markdown(block: Block) -> str:
    if block.kind == "ul":
        return "\n".join(f"- {_span_markdown(item)}" for item in block.items)
    if block.kind == "ol":
        return "\n".join(f"{n}. {_span_markdown(item)}" for n, item in enumerate(block.items, 1))
    if block.kind == "h3":
        return f"### {_span_markdown(block.spans)}"
    if block.kind == "picture":
        notes = "".join(f"\n{n}. {_span_markdown(i)}" for n, i in enumerate(block.items, 1))
        return f"*Picture: {_span_markdown(block.spans)}*{notes}"
    return _span_markdown(block.spans)


# -- reading -----------------------------------------------------------------------------

_SECTION = re.compile(r"## (.+?) \{#([a-z0-9][a-z0-9-]*)\}\Z")
_CHOICES = re.compile(r"Choices: ([a-z_]+(?:, [a-z_]+)*)\Z")
_PICTURE = re.compile(r"Picture: ([a-z0-9][a-z0-9-]*): (\S.*)\Z")
_ITEM = re.compile(r"(?:- |(\d+)\. )(.*)\Z")
_INLINE = re.compile(
    r"\*\*(?P<b>[^*]+)\*\*|\*(?P<i>[^*]+)\*|`(?P<code>[^`]+)`|\[(?P<words>[^\]]+)\]\(#(?P<to>[a-z0-9-]+)\)"
)
_REFUSED = [
    (re.compile(r"<[A-Za-z/!]"), "HTML"),
    (re.compile(r"!\["), "an image"),
    (re.compile(r"\]\((?!#)"), "a link outside the rules (only [words](#section))"),
    (re.compile(r"\A\s*\|"), "a table"),
    (re.compile(r"\A\s*>"), "a quote"),
    (re.compile(r"\A\s*(```|~~~)"), "a code block"),
    (re.compile(r"\A####"), "a heading deeper than ###"),
]


def spans(text: str, where: str) -> tuple[Span, ...]:
    """The inline parts of a line: styled runs and links; a stray `*` or `` ` `` is refused,
    since it would show as the character where the writer meant a style."""
    out: list[Span] = []
    at = 0
    for match in _INLINE.finditer(text):
        if match.start() > at:
            out.append(Span(text[at : match.start()]))
        if match["b"] is not None:
            out.append(Span(match["b"], "b"))
        elif match["i"] is not None:
            out.append(Span(match["i"], "i"))
        elif match["code"] is not None:
            out.append(Span(match["code"], "code"))
        else:
            out.append(Span(match["words"], link=match["to"]))
        at = match.end()
    if at < len(text):
        out.append(Span(text[at:]))
    for span in out:
        if span.style is None and span.link is None and ("*" in span.text or "`" in span.text):
            raise ContentError(f"{where}: an unclosed * or ` (styles are **b**, *i*, `code`)")
    return tuple(out)


def parse(text: str, source: str) -> HowToPlay:
    """Read a How to play; ContentError names the file and line of the first mistake."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ContentError(f"{source}:1: the first line must be the title, '# How to play ...'")
    title = lines[0][2:].strip()
    intro: list[Block] = []
    sections: list[Section] = []
    blocks = intro
    paragraph: list[str] = []
    items: list[list[str]] = []
    kind = ""
    para_line = 0
    picture: Block | None = None
    """The picture just read, until its notes (a `1. ` list right under it) are."""

    def flush(number: int) -> None:
        nonlocal paragraph, items, kind, picture
        if paragraph:
            blocks.append(Block("p", spans(" ".join(paragraph), f"{source}:{para_line}")))
        if items:
            where = f"{source}:{number}"
            read = tuple(spans(" ".join(i), where) for i in items)
            if picture is not None and kind == "ol" and blocks[-1] is picture:
                blocks[-1] = Block("picture", picture.spans, read, picture.name)
            else:
                blocks.append(Block(kind, items=read))
        paragraph, items, kind, picture = [], [], "", None

    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        where = f"{source}:{number}"
        for pattern, what in _REFUSED:
            if pattern.search(line):
                raise ContentError(f"{where}: {what} is not part of a How to play")
        stripped = line.strip()
        if not stripped:
            flush(number)
            continue
        if line.startswith("# "):
            raise ContentError(f"{where}: only the first line is a '# ' title")
        if line.startswith("## "):
            flush(number)
            heading = _SECTION.match(line)
            if heading is None:
                raise ContentError(f"{where}: a section is '## Heading {{#id}}'")
            if any(s.id == heading[2] for s in sections):
                raise ContentError(f"{where}: a second section #{heading[2]}")
            sections.append(Section(heading[2], heading[1].strip()))
            blocks = sections[-1].blocks
            continue
        if line.startswith("Choices:"):
            listed = _CHOICES.match(line)
            if listed is None or not sections or blocks or paragraph or items:
                raise ContentError(
                    f"{where}: 'Choices: kind, kind' comes right under a section's heading"
                )
            for kind in listed[1].split(", "):
                if any(kind in s.choices for s in sections):
                    raise ContentError(f"{where}: choices of kind '{kind}' are explained twice")
                sections[-1].choices.append(kind)
            continue
        if line.startswith("Picture:"):
            drawn = _PICTURE.match(line)
            if drawn is None or not sections:
                raise ContentError(
                    f"{where}: a picture is 'Picture: name: Caption.', inside a section"
                )
            flush(number)
            picture = Block("picture", spans(drawn[2], where), name=drawn[1])
            blocks.append(picture)
            continue
        if line.startswith("### "):
            flush(number)
            blocks.append(Block("h3", spans(line[4:].strip(), where)))
            continue
        item = _ITEM.match(line)
        if item is not None:
            if paragraph:
                flush(number)
            new_kind = "ol" if item[1] else "ul"
            if items and new_kind != kind:
                flush(number)
            kind = new_kind
            items.append([item[2].strip()])
            continue
        if items and raw.startswith("  "):
            items[-1].append(stripped)  # the item goes on, indented under it
            continue
        if items:
            flush(number)
        if not paragraph:
            para_line = number
        paragraph.append(stripped)
    flush(len(lines))

    ids = {s.id for s in sections}
    missing = [r for r in REQUIRED if r not in ids]
    if missing:
        raise ContentError(f"{source}: no section {', '.join('#' + m for m in missing)}")
    for section in [Section("", "", intro), *sections]:
        for block in section.blocks:
            for run in [block.spans, *block.items]:
                for span in run:
                    if span.link is not None and span.link not in ids:
                        raise ContentError(
                            f"{source}: section #{section.id or 'intro'} links to "
                            f"#{span.link}, which is no section"
                        )
    return HowToPlay(title, intro, sections)


_LOADED: dict[tuple[Path, str], tuple[int, HowToPlay]] = {}
"""Each file's How to play as last read, with the modification it was read at: a file
saved again replaces its entry, so a long-running server keeps one a game."""


SCREENS = ("terminal", "browser")
_SCREEN = re.compile(r"\{(?P<screen>[a-z]+): (?P<words>[^{}]*)\}")


def for_screen(text: str, screen: str, source: str) -> str:
    """The file's text as one screen shows it: `{browser: click a card}` is kept (without
    its braces) on the browser's and dropped on the terminal's, and `{terminal: ...}` the
    other way round, so that a reader of the page is never told of the terminal's slot
    column. A brace that is not such a mark is refused."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _SCREEN.finditer(line):
            if match["screen"] not in SCREENS:
                raise ContentError(
                    f"{source}:{number}: '{{{match['screen']}: ...}}' names no screen "
                    f"(one of {', '.join(SCREENS)})"
                )
        kept = _SCREEN.sub(lambda m: m["words"] if m["screen"] == screen else "", line)
        if re.search(r"[{}]", re.sub(r"\{#[a-z0-9-]+\}\Z", "", kept)):
            raise ContentError(f"{source}:{number}: a brace that marks no screen")
        # A mark dropped mid-sentence leaves two spaces or a space before a stop.
        if kept != line:
            kept = re.sub(r" +([.,;:)])", r"\1", re.sub(r"(?<=\S)  +", " ", kept)).rstrip()
        lines.append(kept)
    return "\n".join(lines)


def load(folder: Path, screen: str = "terminal") -> HowToPlay | None:
    """The How to play in `folder` as `screen` shows it, read once until the file changes;
    None if it has none."""
    path = folder / FILE
    try:
        changed = path.stat().st_mtime_ns
    except OSError:
        return None
    known = _LOADED.get((path, screen))
    if known is None or known[0] != changed:
        text = for_screen(path.read_text(encoding="utf-8"), screen, str(path))
        known = _LOADED[(path, screen)] = (changed, parse(text, str(path)))
    return known[1]
