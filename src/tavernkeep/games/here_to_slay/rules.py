"""Here to Slay: Heroes, Items, Magic, Modifiers, Challenges and Monsters for 2-6.

The rules object: the protocol (setup, actor, legal actions, apply, view, determinize,
result) over `HereToSlayState`. How the game moves, frame by frame: `turn.py` (turns,
playing a card, the Challenge window, the loop), `rolls.py` (Modifier windows, Hero
rolls, attacks), `effects.py` (the content's steps), `table.py` (what each seat has).
The readings the rulebook leaves open are in RULES.md, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from tavernkeep.engine.actions import PASS, Action
from tavernkeep.engine.content import Derived, Pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.records import shift_arguments
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import new_tally, tally_facts
from tavernkeep.games.here_to_slay import effects, evaluation, rolls, table, turn
from tavernkeep.games.here_to_slay.cards import (
    CHALLENGE,
    CURSED,
    HERO,
    MODIFIER,
    Card,
    Catalog,
    build,
)
from tavernkeep.games.here_to_slay.config import HereToSlayConfig
from tavernkeep.games.here_to_slay.content import (
    NAMED_EFFECTS,
    HereToSlayPack,
    Monster,
    Step,
    load,
)
from tavernkeep.games.here_to_slay.heuristic import HeuristicBot
from tavernkeep.games.here_to_slay.state import NONE, HereToSlayState
from tavernkeep.games.here_to_slay.table import (
    ATTACK_ROLL,
    CHALLENGE_ACTION,
    CHALLENGE_ROLL,
    ENDINGS,
    HAND,
    HERO_ROLL,
    ROLL,
    SKIP,
    USE,
    number_of,
    player,
    position_of,
)

__all__ = ["HereToSlay", "HereToSlayState"]

FACE_UP = 3
"""Monsters face up at the start (rulebook)."""
FROM_VERSION_1 = shift_arguments({"target": (0,), "leader": (0,), "skill": (0,)})
"""Version-1 records counted players, Party Leaders and a seat's skills from 0:
`target:1` was Player 2, now `target:2` (the numbering: table.py, `number_of`)."""


def step_text(step: Step) -> str:
    """A step in the cards' words ("SACRIFICE a Hero", "DISCARD 2 cards"): the pack gives
    Monster punishments and optional steps as data, not text."""
    if step.named is not None:
        return NAMED_EFFECTS.get(step.named, step.named.replace("_", " "))
    assert step.verb is not None
    what = step.kind.replace("_", " ")
    what = what if what == "card" else what.title()
    count = "an" if what[0] in "AEIOU" else "a"
    if step.count > 1:
        count, what = str(step.count), f"{what}s"
    return f"{step.verb.upper()} {count} {what}"


def offer_text(state: HereToSlayState, top: Decision) -> str:
    """What a "may" (an optional skill) or "may_step" (an optional step) offers."""
    if top.kind == "may":
        eid = top.args[0]
        return next((sk.text for sk, e, _ in table.skills(state, top.seat) if e == eid), "")
    eid, index = top.args
    return step_text(state.catalog.effects[eid][index])


def monster_face(monster: Monster, m: int) -> dict[str, Any]:
    need = monster.requirement
    return {
        "id": m,
        "name": monster.name,
        "heroes": need.heroes,
        "classes": list(need.classes),
        "slay": monster.slay_text,
        "punishment": monster.punishment_text,
        "skill": monster.skill.text,
    }


CARD_NOTES = {
    MODIFIER: "Played on any roll once its dice are down, yours or another's; "
    "no action point.",
    CHALLENGE: "When another player plays a Hero, Item or Magic card on their turn: you "
    "both roll 2d6 with your CHALLENGE bonuses, and equal or higher for you stops the "
    "card. No action point.",
}
"""What a card of a kind is for, where its own text does not say it: shown with it."""


def card_face(c: int, info: Card) -> dict[str, Any]:
    """What every seat that sees a card sees of it: a Hero's class and the roll its
    effect needs, as printed (a mask changes the class of a Hero in a Party, see
    `view`), and for Modifiers and Challenges how they are played."""
    face: dict[str, Any] = {"id": c, "name": info.name, "kind": info.kind, "text": info.text}
    if info.kind == HERO:
        face["class"] = info.hero_class
        face["roll"] = info.roll
    note = CARD_NOTES.get(info.kind)
    if note:
        face["note"] = note
    return face


def faces(cat: Catalog) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What a view shows of each card and Monster, which never changes."""
    cards = [card_face(c, info) for c, info in enumerate(cat.cards)]
    monsters = [
        {
            **monster_face(info, m),
            "punishes": ", then ".join(step_text(step) for step in info.punishment),
            "draws": info.draw_on_slay,
        }
        for m, info in enumerate(cat.monsters)
    ]
    return cards, monsters


def roll_purposes(state: HereToSlayState) -> list[tuple[str, int]]:
    """What each roll on the table is for, as (purpose, card or Monster): ("challenge",
    the card challenged) and ("defence", the same card) for a Challenge's two rolls,
    ("hero", the Hero), ("attack", the Monster). The frame that resolves a roll is pushed
    just before the roll is made and both are taken off together, so in stack order they
    pair up; ("", NONE) for each roll when they do not."""
    out: list[tuple[str, int]] = []
    for f in state.stack:
        if f.kind == "challenged":
            out += [("challenge", f.args[0]), ("defence", f.args[0])]
        elif f.kind == "hero_result":
            out.append(("hero", f.args[0]))
        elif f.kind == "attack_result":
            out.append(("attack", f.args[0]))
    if len(out) != len(state.rolls):
        return [("", NONE)] * len(state.rolls)
    return out


def roll_outcome(
    state: HereToSlayState, purposes: list[tuple[str, int]], totals: list[int], index: int
) -> str:
    """What roll `index` would do with the rolls at `totals`, if nothing else changed:
    "meets 8+", "slays", "the challenge fails"; "" when the roll's purpose is unknown."""
    purpose, what = purposes[index]
    total = totals[index]
    cat = state.catalog
    if purpose == "hero":
        need = cat.cards[what].roll
        return f"meets {need}+" if total >= need else f"misses {need}+"
    if purpose == "attack":
        m = cat.monsters[what]
        return "slays" if m.slays(total) else "punished" if m.punishes(total) else "nothing happens"
    # The challenge roll comes first, its defence right after; ties go to the challenger.
    if purpose == "challenge" and index + 1 < len(totals):
        return "the challenge succeeds" if total >= totals[index + 1] else "the challenge fails"
    if purpose == "defence" and index >= 1:
        return "the challenge succeeds" if totals[index - 1] >= total else "the challenge fails"
    return ""


def skill_sources(state: HereToSlayState, seat: int, trigger: str) -> list[tuple[str, str]]:
    """(name, skill text) of each of `seat`'s Party Leader and slain Monsters whose skill
    `trigger` sets off: public, like every Party."""
    cat = state.catalog
    found = []
    leader = state.leaders[seat]
    if leader != NONE and cat.leaders[leader].skill.trigger == trigger:
        found.append((cat.leaders[leader].name, cat.leaders[leader].skill.text))
    for m in state.slain[seat]:
        if cat.monsters[m].skill.trigger == trigger:
            found.append((cat.monsters[m].name, cat.monsters[m].skill.text))
    return found


def effect_source(state: HereToSlayState, seat: int, eid: int) -> dict[str, str] | None:
    """The card or skill whose effect `eid` is, for a "target" decision on top of the
    stack: the Hero rolled for, the Hero or Magic card whose effect runs, or the Party
    Leader or slain Monster of `seat` whose skill it is; as {"name", "text"}. All public:
    the Hero is in a Party, the Magic card is being played, skills are face up."""
    cat = state.catalog
    below = state.stack[-2] if len(state.stack) > 1 else None
    if below is not None and below.kind == "hero_roll":
        hero = cat.cards[below.args[0]]
        return {"name": hero.name, "text": hero.text}
    if below is not None and below.kind == "effect":
        source = below.args[5]
        if source != NONE and cat.cards[source].effect == eid:
            return {"name": cat.cards[source].name, "text": cat.cards[source].text}
    leader = state.leaders[seat]
    if leader != NONE and cat.leader_effect[leader] == eid:
        return {"name": cat.leaders[leader].name, "text": cat.leaders[leader].skill.text}
    for m in state.slain[seat]:
        if cat.monster_effect[m] == eid:
            return {"name": cat.monsters[m].name, "text": cat.monsters[m].skill.text}
    return None


def attack_text(m: Monster) -> str:
    """'ATTACK Grimtooth Ogre: 8+ slays, 5- punishes'."""
    return f"ATTACK {m.name}: {m.slay_text} slays, {m.punishment_text} punishes"


def with_dice(bonus: int) -> str:
    """'2d6', '2d6 +2': a roll with its bonus."""
    return f"2d6 {bonus:+d}" if bonus else "2d6"


CATALOGS: Derived[HereToSlayPack, Catalog] = Derived(build)
"""Each pack's catalog: a batch sets up thousands of games on one pack."""
FACES: Derived[Catalog, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = Derived(faces)
"""Each catalog's faces (a view used to rebuild every Monster's punishment text each
call). A view copies the faces it shows."""


def lean_parts(
    cat: Catalog,
) -> tuple[list[dict[str, Any]], dict[tuple[int, str, int], dict[str, Any]]]:
    """What the bot's view (`observe`) shares between calls rather than builds: each
    Leader as it is shown, and each Hero in a Party as the bot reads it, kept by its
    card, its class now and its Item (NONE without). Read only, like the faces: a bot
    decides a thousand times a game, and these dicts were a fifth of its time."""
    leaders = [
        {"id": i, "name": info.name, "class": info.hero_class, "skill": info.skill.text}
        for i, info in enumerate(cat.leaders)
    ]
    return leaders, {}


LEAN: Derived[
    Catalog, tuple[list[dict[str, Any]], dict[tuple[int, str, int], dict[str, Any]]]
] = Derived(lean_parts)


HAND_CARD_ARG = {"play_now": 0, "may": 1, "effect": 4}
"""Frames that can name a card in a hand, and where: the card to play at once, the card
a skill was set off by, the card an effect's last step gave."""


SPLIT_DECISIONS = frozenset({"pick", "aim", "target"})
"""Decisions named with their verb or scope (`HereToSlay.decision`): taking a card from a
hand one looks at is played out unlike discarding one of one's own."""


def redealt(frame: Decision, dealt: dict[int, int]) -> Decision:
    at = HAND_CARD_ARG.get(frame.kind, -1)
    if at < 0 or frame.args[at] not in dealt:
        return frame
    args = list(frame.args)
    args[at] = dealt[args[at]]
    return Decision(frame.seat, frame.kind, tuple(args))


class HereToSlay(Game[HereToSlayState, HereToSlayConfig]):
    name = "here-to-slay"
    title = "Here to Slay"
    min_players = 2
    max_players = 6
    kind = "competitive"
    config_model = HereToSlayConfig
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"
    summary = "heroes, items, magic and monsters: slay three or gather six classes"
    seat_facts: ClassVar[dict[str, str]] = {"leader": "Party Leader"}
    tally_kinds: ClassVar[dict[str, str]] = {
        "card played": "Cards played",
        "card challenged": "Cards challenged (by their player)",
        "hero rolled": "Heroes rolled for",
        "hero ability used": "Hero effects used (roll met)",
        "monster attacked": "Monsters attacked",
        "monster slain": "Monsters slain",
        "hero lost": "Heroes lost (destroyed, sacrificed, stolen)",
    }
    tally_rates: ClassVar[dict[str, str]] = {
        "monster slain": "monster attacked",
        "hero ability used": "hero rolled",
    }

    def load_pack(self, source: str | Path | None = None) -> Pack[HereToSlayPack]:
        return load(source)

    def catalog(self, content: HereToSlayPack) -> Catalog:
        return CATALOGS(content)

    def opening(self, state: HereToSlayState) -> list[Event]:
        monsters = ", ".join(state.catalog.monsters[m].name for m in state.row)
        events = [
            Event(
                "monster",
                f"Five cards are dealt to each player; the Monsters face up: {monsters}",
                {"monsters": list(state.row)},
            )
        ]
        if state.turn:
            seat = state.current
            events.append(
                Event("turn", f"{player(seat)}'s turn ({state.ap} action points)",
                      {"seat": seat, "turn": state.turn})
            )
        return events

    def content(self, state: HereToSlayState) -> Catalog:
        return state.catalog

    def tally_names(self, content: Any) -> dict[str, list[str]]:
        heroes = [h.name for h in content.hero]
        challengeable = heroes + [c.name for c in (*content.item, *content.magic)]
        played = challengeable + [c.name for c in (*content.modifier, *content.challenge)]
        monsters = [m.name for m in content.monster]
        return {
            "card played": played,
            "card challenged": challengeable,
            "hero rolled": heroes,
            "hero ability used": heroes,
            "monster attacked": monsters,
            "monster slain": monsters,
            "hero lost": heroes,
        }

    def heuristic_agent(self) -> HeuristicBot:
        return HeuristicBot()

    def evaluator(self) -> Callable[[HereToSlayState], list[float]]:
        return evaluation.chances

    # -- setup ---------------------------------------------------------------------

    def setup(
        self, config: HereToSlayConfig, seed: int, pack: Pack[Any] | None = None
    ) -> HereToSlayState:
        content: HereToSlayPack = (pack or self.load_pack()).content
        cat = self.catalog(content)
        n = config.players
        eligible = [i for i, leader in enumerate(cat.leaders) if leader.min_players <= n]
        if len(eligible) < n:
            raise ConfigError(
                f"{self.title}: the pack has {len(eligible)} Party Leaders for {n} players"
            )
        rng = Rng(seed)
        deck = list(range(len(cat.cards)))
        rng.shuffle(deck)
        monsters = list(range(len(cat.monsters)))
        rng.shuffle(monsters)
        hands = [[deck.pop() for _ in range(HAND)] for _ in range(n)]
        row = [monsters.pop() for _ in range(min(FACE_UP, len(monsters)))]
        st = HereToSlayState(
            catalog=cat,
            config=config,
            rng=rng,
            deck=deck,
            discard=[],
            hands=hands,
            parties=[[] for _ in range(n)],
            equipped={},
            playing=[],
            leaders=[NONE] * n,
            slain=[[] for _ in range(n)],
            row=row,
            monster_deck=monsters,
            current=0,
            ap=0,
            turn=0,
            rolled=[],
            skills_used=[],
            boost=[0] * n,
            attack_boost=[0] * n,
            wards={},
            rolls=[],
            stack=[Decision(0, "begin")],
            known={},
            unasked=0,
            winner=NONE,
            ending="",
            tally=new_tally(),
        )
        if config.leaders == "random":
            rng.shuffle(eligible)
            st.leaders = eligible[:n]
        else:
            # Reverse turn order, so seat 0 chooses last and goes first (RULES 1).
            st.stack.extend(Decision(seat, "leader") for seat in range(n))
        turn.advance(st, None)
        return st

    # -- the protocol --------------------------------------------------------------

    def actor(self, state: HereToSlayState) -> int | None:
        stack = state.stack
        return stack[-1].seat if stack else None

    def legal_actions(self, state: HereToSlayState) -> list[Action]:
        if not state.stack:
            return []
        top = state.stack[-1]
        kind = top.kind
        if kind == "turn":
            return turn.turn_actions(state)
        if kind == "modifier":
            return rolls.modifier_actions(state, top.seat, top.args[0])
        if kind == "challenge":
            if state.catalog.challenges.isdisjoint(state.hands[top.seat]):
                return [PASS]
            return [CHALLENGE_ACTION, PASS]
        if kind == "pick":
            return table.pick_actions(state, top)
        if kind == "aim":
            return table.aim_actions(state, top)
        if kind == "free_roll":
            return [ROLL, SKIP]
        if kind == "may":
            # A skill set off by a drawn card is asked about every card (RULES 38).
            return [USE, SKIP] if table.may_fits(state, top) else [PASS]
        if kind == "may_step":
            return [USE, SKIP]
        if kind == "target":
            scope, eid = top.args
            return [
                Action("target", number_of(s)) for s in table.choosable(state, top.seat, scope, eid)
            ]
        if kind == "play_now":
            return table.play_now_actions(state, top)
        if kind == "leader":
            taken = set(state.leaders)
            n = state.players
            return [
                Action("leader", number_of(i))
                for i, leader in enumerate(state.catalog.leaders)
                if i not in taken and leader.min_players <= n
            ]
        raise AssertionError(f"no decision '{kind}'")

    def apply(self, state: HereToSlayState, action: Action, record: bool = True) -> list[Event]:
        if not state.stack:
            raise IllegalAction(f"'{action.text}' is not legal: the game is over")
        top = state.stack[-1]
        if not self._is_legal(state, top, action):
            options = ", ".join(a.text for a in self.legal_actions(state))
            raise IllegalAction(f"'{action.text}' is not legal now; choose one of: {options}")
        return self.apply_legal(state, action, record)

    def apply_legal(
        self, state: HereToSlayState, action: Action, record: bool = True
    ) -> list[Event]:
        # `_is_legal` was a tenth of a search's time: the search's actions come from
        # `legal_actions` of this state (Game.apply_legal).
        top = state.stack[-1]
        ev: list[Event] | None = [] if record else None
        seat = top.seat
        kind = top.kind
        if kind == "turn":
            turn.take_turn_action(state, action, ev)
        elif kind == "modifier":
            if action.kind == "pass":
                open_rolls, passes = top.args
                state.stack[-1] = Decision(
                    (seat + 1) % len(state.hands), "modifier", (open_rolls, passes + 1)
                )
            else:
                rolls.modify(state, seat, action, ev)
        elif kind == "challenge":
            if action.kind == "pass":
                player_seat, card, offset = top.args
                state.stack[-1] = Decision(
                    (player_seat + offset + 1) % len(state.hands),
                    "challenge",
                    (player_seat, card, offset + 1),
                )
            else:
                turn.challenge(state, seat, ev)
        elif kind == "pick":
            effects.pick(state, action, ev)
        elif kind == "aim":
            state.stack.pop()
            hero, target, aims = state.stack[-1].args
            named = (*aims, int(action.args[0]))
            state.stack[-1] = Decision(seat, "hero_roll", (hero, target, named))
        elif kind == "free_roll":
            state.stack.pop()
            if action.kind == "roll":
                rolls.begin_hero_roll(state, seat, top.args[0], ev)
        elif kind == "may":
            eid, last, challenger, source, _ = top.args
            state.stack.pop()
            if action.kind == "use":
                table.push_effect(state, seat, eid, last, challenger, source)
        elif kind == "may_step":
            if action.kind == "use":
                state.stack.pop()
                effects.run_effect(state, ev, confirmed=True)
            else:
                effects.skip_step(state)
        elif kind == "target":
            target = position_of(int(action.args[0]))
            table.say(ev, "target", f"{player(seat)} chooses {player(target)}", target=target)
            effects.set_target(state, target)
        elif kind == "play_now":
            state.stack.pop()
            if action.kind == "play":
                hero = int(action.args[1]) if len(action.args) > 1 else NONE
                turn.begin_play(state, seat, int(action.args[0]), hero, ev)
        elif kind == "leader":
            leader = position_of(int(action.args[0]))
            state.leaders[seat] = leader
            state.stack.pop()
            table.say(
                ev,
                "leader",
                f"{player(seat)} chooses {state.catalog.leaders[leader].name}",
                seat=seat,
                leader=leader,
            )
        turn.advance(state, ev)
        return ev if ev is not None else []

    def _is_legal(self, state: HereToSlayState, top: Decision, action: Action) -> bool:
        """`action in legal_actions(state)`, without the list where that is cheap: apply
        checks every action a simulation plays."""
        if top.kind == "turn":
            return turn.is_turn_action(state, action)
        if (top.kind == "modifier" or top.kind == "challenge") and action == PASS:
            return True  # every window lets its seat pass
        return action in self.legal_actions(state)

    def view(self, state: HereToSlayState, seat: int | None) -> dict[str, Any]:
        return self._view(state, seat, True)

    def observe(self, state: HereToSlayState, seat: int) -> dict[str, Any]:
        """The view as the heuristic bot reads it: the same facts, less what it never
        reads (the cards being played, the Hero rolls' aims, the result, the piles' sizes,
        each Hero's roll bonus, the other seats' attack bonuses), and the cards' faces,
        the Leaders and the Heroes in Parties shared rather than built (FACES, LEAN),
        since the bot only reads them: a game's thousand decisions pay for no more. A
        caller that changed what it was given would change the next view: none does."""
        return self._view(state, seat, False)

    def _view(self, state: HereToSlayState, seat: int | None, whole: bool) -> dict[str, Any]:
        cat = state.catalog
        cards = cat.cards
        card_faces, monster_faces = FACES(cat)
        lean_leaders, lean_heroes = LEAN(cat)

        def card(c: int) -> dict[str, Any]:
            # A copy, so that a caller changing a view never changes the next one.
            return dict(card_faces[c]) if whole else card_faces[c]

        def hero(h: int, owner_bonus: int) -> dict[str, Any]:
            item = state.equipped.get(h)
            if not whole:  # what the bot reads of a Hero in a Party, shared (LEAN)
                now = table.hero_class(state, h)
                key = (h, now, item if item is not None else NONE)
                found = lean_heroes.get(key)
                if found is None:
                    found = {
                        **card_faces[h],
                        "class": now,
                        "roll": cards[h].roll,
                        "item": card_faces[item] if item is not None else None,
                    }
                    lean_heroes[key] = found
                return found
            return {
                **card_faces[h],
                "class": table.hero_class(state, h),
                "printed_class": cards[h].hero_class,
                "roll": cards[h].roll,
                # Public bonuses (Leader, slain Monsters, Item, this turn's boosts), as
                # the roll will take them before any Modifier: rolls.roll_bonus, with
                # the owner's part found once a seat.
                "bonus": owner_bonus + rolls.item_bonus(state, h),
                "item": card(item) if item is not None else None,
                "warded": h in state.wards,
                "rolled": h in state.rolled,
            }

        def monster(m: int) -> dict[str, Any]:
            face = monster_faces[m]
            return {**face, "classes": list(face["classes"])} if whole else face

        seats = []
        for s in range(state.players):
            leader = state.leaders[s]
            owner_bonus = rolls.seat_bonus(state, s, HERO_ROLL) if whole else 0
            if leader == NONE:
                shown_leader = None
            else:
                shown_leader = (
                    self._leader_json(state, leader) if whole else lean_leaders[leader]
                )
            seats.append(
                {
                    "seat": s,
                    "leader": shown_leader,
                    "party": [hero(h, owner_bonus) for h in state.parties[s]],
                    "slain": [monster(m) for m in state.slain[s]],
                    "hand_size": len(state.hands[s]),
                    # The bot reads only its own attack bonus.
                    "attack_bonus": rolls.roll_bonus(state, s, ATTACK_ROLL)
                    if whole or s == seat
                    else 0,
                    "challenge_bonus": rolls.roll_bonus(state, s, CHALLENGE_ROLL) if whole else 0,
                    "hand": [card(c) for c in state.hands[s]] if s == seat else None,
                }
            )
        decision: dict[str, Any] | None = None
        if state.stack:
            top = state.stack[-1]
            decision = top.to_json()
            if top.kind in ("pick", "aim"):
                decision["verb"] = top.args[0]
                decision["what"] = top.args[1]
            if top.kind == "pick" and top.args[0] == "take" and top.seat == seat:
                # Looking at an opponent's hand is what this decision is (look_and_take).
                decision["looking_at"] = [card(c) for c in state.hands[top.args[2]]]
            # What a reaction window is about, so a seat can be asked in words ("Player 1
            # plays X: challenge?") and the others can see what is being waited for.
            if top.kind == "challenge":
                played_by, played, _ = top.args
                onto = next(
                    (f.args[1] for f in state.stack if f.kind == "play" and f.args[0] == played),
                    NONE,
                )
                decision["player"] = played_by
                decision["card"] = card(played)
                decision["onto"] = card(onto) if onto != NONE else None
            elif top.kind == "modifier":
                decision["rolls"] = top.args[0]  # the window is over the last this many rolls
            elif top.kind == "free_roll":
                decision["card"] = card(top.args[0])
            elif top.kind == "play_now":
                # Still in its player's hand: named to the others only if it was shown to
                # them (taken from the face-up discard pile), never when drawn (RULES 38).
                shown = top.args[0]
                if top.seat == seat or self._shown(state, shown, seat):
                    decision["card"] = card(shown)
            elif top.kind in ("may", "may_step"):
                decision["offer"] = offer_text(state, top)
            elif top.kind == "target":
                # The effect the chosen player is for (an id into the pack's effects),
                # and the card or skill whose effect it is, in words.
                decision["effect"] = top.args[1]
                about = effect_source(state, top.seat, top.args[1])
                if about is not None:
                    decision["about"] = about
        # What each open roll is for. The frame that resolves a roll is pushed just before
        # the roll is made and both are taken off together, so in stack order they pair up.
        purposes: list[dict[str, Any]] = []
        for purpose, what in roll_purposes(state):
            if purpose in ("challenge", "defence"):
                purposes.append({"for": purpose, "card": card(what)})
            elif purpose == "hero":
                purposes.append({"for": "hero", "card": card(what), "need": cards[what].roll})
            elif purpose == "attack":
                purposes.append({"for": "attack", "monster": monster(what)})
            else:
                purposes.append({})
        if not whole:
            return {
                "seat": seat,
                "players": state.players,
                "action_points": state.ap,
                "decision": decision,
                "discard": [card_faces[c] for c in state.discard],
                "monsters": [monster_faces[m] for m in state.row],
                "table": seats,
                "rolls": [
                    {"seat": r[0], "total": state.total(r), **purpose}
                    for r, purpose in zip(state.rolls, purposes, strict=True)
                ],
            }
        result = self.result(state)
        return {
            "game": self.name,
            "seat": seat,
            "players": state.players,
            "current": state.current,
            "turn": state.turn,
            "action_points": state.ap,
            "decision": decision,
            "deck": len(state.deck),
            "discard": [card(c) for c in state.discard],
            "monster_deck": len(state.monster_deck),
            "monsters": [monster(m) for m in state.row],
            "table": seats,
            # Each card being played, with who plays it.
            "playing": [
                {**card_faces[f.args[0]], "by": f.seat}
                for f in state.stack
                if f.kind == "play" or f.kind == "cast"
            ],
            # A Hero's roll waiting for its window: its chosen player and every card it
            # names are public, so others may wait for them before modifying (RULES 16).
            "hero_rolls": [self._hero_roll_json(f) for f in state.stack if f.kind == "hero_result"],
            "rolls": [
                {
                    "seat": r[0],
                    "dice": [r[1], r[2]],
                    "bonus": r[3],
                    "modifiers": r[4],
                    "total": state.total(r),
                    # What the roll gains each time an opponent plays a Modifier on it
                    # (Grimtooth Ogre), so that a Modifier's button can say the total.
                    "opponent_modifier_bonus": rolls.opposed_bonus(state, r[0]),
                    **purpose,
                }
                for r, purpose in zip(state.rolls, purposes, strict=True)
            ],
            "ending": state.ending or None,
            "winner": state.winner if state.winner != NONE else None,
            "result": result.to_json() if result else None,
        }

    @staticmethod
    def _hero_roll_json(frame: Decision) -> dict[str, Any]:
        hero, target, aims = frame.args
        named = [c for c in aims if c != NONE]
        return {
            "seat": frame.seat,
            "hero": hero,
            "target": target if target != NONE else None,
            # The first card named, for readers of one target; `aims` names them all.
            "aimed": named[0] if named else None,
            "aims": named,
        }

    @staticmethod
    def _shown(state: HereToSlayState, card: int, seat: int | None) -> bool:
        """Whether a card in a hand was shown to `seat` (None: a spectator, who sees only
        what was shown to everyone)."""
        mask = state.known.get(card, 0)
        return mask == effects.EVERYONE if seat is None else bool(mask & (1 << seat))

    @staticmethod
    def _leader_json(state: HereToSlayState, leader: int) -> dict[str, Any]:
        # The bot's shared one (LEAN), copied: a view's caller may change what it gets.
        return dict(LEAN(state.catalog)[0][leader])

    reaction_kinds: ClassVar[dict[str, str]] = {
        "modifier": "Modifiers",
        "challenge": "Challenges",
    }
    decision_kinds = (
        "leader", "turn", "challenge", "modifier", "free_roll", "may", "play_now",
        "target:chosen_player", "target:chosen_opponent",
        "aim:destroy", "aim:steal", "aim:return",
        "pick:discard", "pick:sacrifice", "pick:destroy", "pick:steal", "pick:return",
        "pick:search", "pick:take", "pick:ward", "pick:encore", "pick:replace",
        "pick:attack",
    )

    def decision(self, state: HereToSlayState) -> str | None:
        if not state.stack:
            return None
        top = state.stack[-1]
        if top.kind in SPLIT_DECISIONS:
            return f"{top.kind}:{top.args[0]}"  # its verb or scope: pick:take, target:...
        return top.kind

    def reveals(self, state: HereToSlayState, action: Action, after: HereToSlayState) -> bool:
        # Hidden: the dice to come, the decks' order, and what a hand holds that its
        # seat alone knows. A decision that rolled, drew or shuffled moved the stream or a
        # deck; one that moved a card between other seats' hands, showed the chooser a
        # card of one (a look into a hand: `known`), or had the rules settle something
        # from a hand without asking its holder (HereToSlayState.unasked) may have told
        # its chooser what a hand holds. Anything else ran on what the chooser sees: its
        # own hand, the Parties, the discard pile, the Monsters.
        seat = state.stack[-1].seat
        bit = 1 << seat
        was, now = state.known, after.known
        return (
            after.rng != state.rng
            or after.unasked != state.unasked
            or after.deck != state.deck
            or after.monster_deck != state.monster_deck
            or any(
                after.hands[s] != state.hands[s]
                or any(now.get(c, 0) & bit and not was.get(c, 0) & bit for c in after.hands[s])
                for s in range(state.players)
                if s != seat
            )
        )

    def determinize(self, state: HereToSlayState, seat: int, rng: Rng) -> HereToSlayState:
        # Hidden: the deck's order and the other seats' hands. Re-deal them together,
        # keeping every count, so the sample agrees with everything `seat` has seen.
        # Cards `seat` knows to be in a hand (pulled, taken, looked at, returned, shown)
        # stay there; only the rest are dealt again.
        twin = state.clone()
        others = [s for s in range(twin.players) if s != seat]
        hidden = twin.deck[:]
        bit = 1 << seat
        known = twin.known
        kept: list[list[int]] = []
        unseen: list[list[int]] = []
        for s in others:
            hand = twin.hands[s]
            kept.append([c for c in hand if known.get(c, 0) & bit])
            unseen.append([c for c in hand if not known.get(c, 0) & bit])
            hidden.extend(unseen[-1])
        # Sorted before it is shuffled: the sample is a function of what `seat` knows and
        # the stream alone, never of the true deck order or hands (the tutor's leak test).
        hidden.sort()
        rng.shuffle(hidden)
        dealt: dict[int, int] = {}
        for s, mine, old in zip(others, kept, unseen, strict=True):
            new = hidden[len(hidden) - len(old) :]
            del hidden[len(hidden) - len(old) :]
            twin.hands[s] = mine + new
            dealt.update(zip(old, new, strict=True))
        twin.deck = hidden
        if dealt:
            # Who else knows the card in a place (a PULL's two players) is public: the
            # card dealt there takes its mark, and a mark a card kept from a hand it has
            # since left (it was shown, discarded, shuffled back) goes with it.
            masks = {was: known.pop(was, 0) for was in dealt}
            for was, now in dealt.items():
                known.pop(now, None)
                if masks[was]:
                    known[now] = masks[was]
            # A pending frame may name a card of another hand (a card just drawn, waiting
            # for its "play it at once?"): it names the card dealt in its place, so the
            # stack tells the searcher no more than its view does.
            twin.stack = [redealt(f, dealt) for f in twin.stack]
        twin.rng = Rng(rng.next64())
        # The Monster deck is face down: which Monster turns up next is hidden too.
        twin.monster_deck.sort()
        rng.shuffle(twin.monster_deck)
        return twin

    def result(self, state: HereToSlayState) -> Result | None:
        if not state.ending:
            return None
        n = state.players
        winner = state.winner
        if winner == NONE:
            winners: tuple[int, ...] = ()
            ranks = tuple([1] * n)
            reason = f"Nobody wins: {ENDINGS[state.ending]}"
        else:
            winners = (winner,)
            ranks = tuple(1 if s == winner else 2 for s in range(n))
            reason = f"{player(winner)} wins: {ENDINGS[state.ending]}"
        return Result(
            scores=tuple(1.0 if s == winner else 0.0 for s in range(n)),
            ranks=ranks,
            winners=winners,
            ending=state.ending,
            reason=reason,
            turns=state.turn,
            facts={
                "leader": [
                    state.catalog.leaders[leader].name if leader != NONE else ""
                    for leader in state.leaders
                ],
                "monsters_slain": [len(s) for s in state.slain],
                "heroes": [len(p) for p in state.parties],
                "tally": tally_facts(state.tally, state.players, self.tally_kinds),
            },
        )

    def clone(self, state: HereToSlayState) -> HereToSlayState:
        return state.clone()

    def upgrade_text(self, version: int, state: HereToSlayState, text: str) -> str:
        """`text`, from a `version` record, as this version writes it. Version 1 counted
        players, Party Leaders and skills from 0 (`target:1` is `target:2` now), and a
        Modifier's roll from 0 among the rolls its window was open over: `modify:c,4,1`
        in a Challenge's window is the defender's roll, the second on the table, now
        `modify:c,4,2`. Which rolls a window was over only the state can say (a window
        opened while another waits is over the later rolls alone), so it is read from
        `state`, the game just before the action. A text that cannot be read so is left
        as written, for the replay to report by its number."""
        if version >= 2:
            return text
        text = FROM_VERSION_1(text)
        try:
            action = Action.parse(text)
        except IllegalAction:
            return text
        args = action.args
        if action.kind != "modify" or len(args) < 3 or not state.stack:
            return text
        if not all(isinstance(a, int) for a in args) or state.stack[-1].kind != "modifier":
            return text
        first = len(state.rolls) - int(state.stack[-1].args[0])
        roll = number_of(first + int(args[2]))
        return Action("modify", args[0], args[1], roll, *args[3:]).text

    def label(self, state: HereToSlayState, action: Action) -> str:
        cat = state.catalog
        kind, args = action.kind, action.args
        top = state.stack[-1] if state.stack else None

        def card(i: int | str) -> str:
            return cat.cards[int(i)].name

        if kind == "draw":
            return "DRAW a card (1 action point)"
        if kind == "redraw":
            return "DISCARD your hand and DRAW five (3 action points)"
        if kind == "end":
            return "End your turn"
        if kind == "play":
            onto = ""
            if len(args) > 1:
                onto = f" onto {card(args[1])}"
                if cat.cards[int(args[0])].kind == CURSED:
                    # A Cursed Item may go on any Party's Hero: say whose.
                    owner = table.owner_of(state, int(args[1]))
                    mine = top is not None and owner == top.seat
                    whose = "your" if mine else f"{player(owner)}'s"
                    onto = f" onto {whose} {card(args[1])}"
            cost = "" if top is not None and top.kind == "play_now" else " (1 action point)"
            return f"Play {card(args[0])}{onto}{cost}"
        if kind == "roll" and args:
            return f"Roll for {card(args[0])} ({cat.cards[int(args[0])].roll}+, 1 action point)"
        if kind == "roll":
            hero = top.args[0] if top is not None else NONE
            if hero == NONE:
                return "Roll for the Hero's effect now, free"
            return f"Roll for {card(hero)}'s effect now, free ({cat.cards[hero].roll}+)"
        if kind == "attack":
            return f"{attack_text(cat.monsters[int(args[0])])} (2 action points)"
        if kind == "skill":
            skill, _, _ = table.skills(state, state.current)[position_of(int(args[0]))]
            return f"Use: {skill.text}"
        if kind == "modify":
            return self._modify_label(state, action)
        if kind == "challenge":
            return self._challenge_label(state)
        if kind == "pass":
            return "Pass"
        if kind == "skip":
            return "Skip"
        if kind == "use":
            if top is not None and top.kind in ("may", "may_step"):
                return f"Yes: {offer_text(state, top)}"
            return "Yes"
        if kind == "target":
            return f"Choose {player(position_of(int(args[0])))}"
        if kind == "leader":
            # By its name alone: the list a person chooses from numbers its choices (the
            # keys 1, 2, ...), and a second numbering, the pack's, read as another key
            # (issue 39). The action's text keeps the pack's number.
            leader = cat.leaders[position_of(int(args[0]))]
            return f"{leader.name} ({leader.hero_class}): {leader.skill.text}"
        if kind == "pick" and top is not None and top.kind == "aim":
            return f"Aim at {card(args[0])} (chosen before the roll)"
        if kind in ("pick", "steal") and top is not None:
            verb = top.args[0]
            if verb == "attack":
                # An effect's ATTACK (Hunter's Moon) is a roll like any other.
                return f"{attack_text(cat.monsters[int(args[0])])} (no action point)"
            if verb in ("replace", "slay"):
                return f"{verb.capitalize()}: {cat.monsters[int(args[0])].name}"
            if verb == "encore":
                hero = cat.cards[int(args[0])]
                return f"Encore: roll for {hero.name} ({hero.roll}+), free"
            onto = f" onto {card(args[1])}" if len(args) > 1 else ""
            verb = "steal (instead of destroy)" if kind == "steal" else verb
            return f"{verb.capitalize()}: {card(args[0])}{onto}"
        return action.text

    def _modify_label(self, state: HereToSlayState, action: Action) -> str:
        """'Play Trick of Fate as +3 on Player 2's roll: 6 → 9, meets 8+' ("your roll" for
        the deciding seat's own): whose roll (a
        Challenge's window has two), the total it makes and what that total would do,
        with the other rolls as they stand."""
        cat = state.catalog
        args = action.args
        name = cat.cards[int(args[0])].name
        amount = int(args[1])
        extra = int(args[3]) if len(args) > 3 else 0
        shown = f"{amount:+d}" + (f" and {extra:+d} from your Party Leader" if extra else "")
        index = position_of(int(args[2]))
        if not 0 <= index < len(state.rolls):
            return f"Play {name} as {shown} on the roll"
        roll = state.rolls[index]
        roller = roll[0]
        seat = state.stack[-1].seat if state.stack else roller
        change = amount + extra
        answer = ""
        if roller != seat:
            # The roller's Grimtooth Ogre answers every Modifier an opponent plays on it.
            ogre = rolls.opposed_bonus(state, roller)
            if ogre:
                change += ogre
                names = " and ".join(n for n, _ in skill_sources(
                    state, roller, "on_opponent_modifies_your_roll"
                ))
                answer = f" ({ogre:+d} from their {names})"
        totals = [state.total(r) for r in state.rolls]
        before = totals[index]
        totals[index] = before + change
        result = roll_outcome(state, roll_purposes(state), totals, index)
        after = f"{before} → {totals[index]}{answer}" + (f", {result}" if result else "")
        # A label is read by the seat deciding: its own roll is "your roll".
        whose = "your" if roller == seat else f"{player(roller)}'s"
        return f"Play {name} as {shown} on {whose} roll: {after}"

    def _challenge_label(self, state: HereToSlayState) -> str:
        """'CHALLENGE Player 1's Fireball: your 2d6 +2 against their 2d6, ties yours':
        the card, both rolls with their bonuses, and what the player challenged has that
        answers a Challenge (Mirefang Basilisk)."""
        if not state.stack or state.stack[-1].kind != "challenge":
            return "CHALLENGE the card being played"
        top = state.stack[-1]
        defender, played, _ = top.args
        cards = state.catalog.cards
        onto = next(
            (f.args[1] for f in state.stack if f.kind == "play" and f.args[0] == played), NONE
        )
        what = cards[played].name + (f" onto {cards[onto].name}" if onto != NONE else "")
        mine = rolls.roll_bonus(state, top.seat, CHALLENGE_ROLL)
        theirs = rolls.roll_bonus(state, defender, CHALLENGE_ROLL)
        text = (
            f"CHALLENGE {player(defender)}'s {what}: your {with_dice(mine)} against their "
            f"{with_dice(theirs)}, ties yours"
        )
        for name, skill in skill_sources(state, defender, "on_challenged"):
            text += f" ({player(defender)}'s {name}: {skill})"
        return text

    def odds(self, state: HereToSlayState, action: Action) -> dict[str, float]:
        """The exact chance of each roll a choice makes, with every bonus the rules will
        add (the seat's Leader and slain Monsters, the Hero's Item, this turn's boosts:
        `rolls.roll_bonus`, public). Where the Modifiers in the seat's own hand could
        change it, a second figure, "with your +4": the chance if it plays them as the
        roll needs and nobody else plays one (`rolls.hand_help`); what the others hold
        is never counted. "success" is the chance alone, as bots read it."""
        seat = self.actor(state)
        if seat is None:
            return {}
        cat = state.catalog
        top = state.stack[-1]
        kind = action.kind
        hero = NONE
        if kind == "roll" and action.args:
            hero = int(action.args[0])
        elif kind == "roll" and top.kind == "free_roll":
            hero = top.args[0]
        elif kind == "pick" and top.kind == "pick" and top.args[0] == "encore":
            hero = int(action.args[0])
        if hero != NONE:
            return self._hero_roll_odds(state, seat, hero)
        under = state.stack[-2] if len(state.stack) > 1 else None
        if (kind == "target" or (kind == "pick" and top.kind == "aim")) and (
            under is not None and under.kind == "hero_roll"
        ):
            # The player or card a Hero's effect will take is named before its roll: the
            # choice does not move the roll, but the person choosing wants its chance.
            # Not "success": this choice itself succeeds at nothing.
            chances = self._hero_roll_odds(state, seat, under.args[0])
            return {
                "on the roll" if name == "success" else f"on the roll {name}": p
                for name, p in chances.items()
            }
        if kind == "challenge":
            # Both roll 2d6 with their bonuses; equal or higher stops the card (RULES 13).
            defender = top.args[0]
            edge = rolls.roll_bonus(state, seat, CHALLENGE_ROLL) - rolls.roll_bonus(
                state, defender, CHALLENGE_ROLL
            )
            out = {"success": rolls.chance_at_least_other(edge)}
            helped = rolls.hand_help(state, seat, against=defender)
            if helped:
                better = rolls.chance_at_least_other(edge + helped)
                if better != out["success"]:
                    out[f"with your {helped:+d}"] = better
            return out
        if kind == "attack" or (kind == "pick" and top.kind == "pick" and top.args[0] == "attack"):
            m = cat.monsters[int(action.args[0])]
            bonus = rolls.roll_bonus(state, seat, ATTACK_ROLL)
            slay, punishment = rolls.attack_chances(m, bonus)
            out = {"slay": slay, "punishment": punishment}
            # The Gloom Wisp slays low: Modifiers down help there.
            helped = rolls.hand_help(state, seat, up=not m.inverted)
            if helped:
                slay_helped, punishment_helped = rolls.attack_chances(m, bonus + helped)
                if (slay_helped, punishment_helped) != (slay, punishment):
                    out[f"slay with your {helped:+d}"] = slay_helped
                    out[f"punishment with your {helped:+d}"] = punishment_helped
            return out
        return {}

    @staticmethod
    def _hero_roll_odds(state: HereToSlayState, seat: int, hero: int) -> dict[str, float]:
        need = state.catalog.cards[hero].roll - rolls.roll_bonus(state, seat, HERO_ROLL, hero)
        out = {"success": rolls.chance_at_least(need)}
        helped = rolls.hand_help(state, seat)
        if helped:
            better = rolls.chance_at_least(need - helped)
            if better != out["success"]:
                out[f"with your {helped:+d}"] = better
        return out
