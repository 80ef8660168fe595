"""Side Quest: a co-operative dungeon crawl for 1-4 heroes, three levels and a Boss.

The rules object: the protocol (setup, actor, legal actions, apply, view, determinize,
result) over `SideQuestState`, following RULES.md: setup (heroes and Basic weapons, the
row of face-down Locations, entering, the level's decks; readings 1-5) is here. How the
game moves: `turn.py` (the game turn and every hero action; 6-19), `rolls.py` (Mighty
Boost and re-rolls; 18, 25), `effects.py` (cards a hero uses; 14), `combat.py` (hit
allocation and slaying; 11, 29), `monsters.py` (the Monster phase and the damage heroes
take; 22-24), `locations.py` (entering and Location effects; 3-4), `heroes.py` (passive
bonuses and equipment; 12, 15, 20-21), `dungeon.py` (the row, the decks and travel; 2, 5,
6, 31) and `cards.py` (what a card id is); what a choice shows beside its name,
`chances.py` (the exact chances of its dice, `odds`) and `labels.py` (what it will do,
in its `label`). The readings the rulebook leaves open are in
RULES.md, not here. Action texts name a Location or a seat by the number the screens show
(`move:2` is Location 2, `wound:1` is Player 1; cards.shown), a card by its id; RULES.md,
"Action texts".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Derived, Pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Agent, Game, Result
from tavernkeep.engine.records import shift_arguments
from tavernkeep.engine.rng import Rng
from tavernkeep.engine.tally import tally_facts
from tavernkeep.games.side_quest import evaluation
from tavernkeep.games.side_quest.cards import (
    LOOT_KINDS,
    card_name,
    card_numbers,
    index_of,
    location_name,
    shown,
    who,
)
from tavernkeep.games.side_quest.chances import action_odds
from tavernkeep.games.side_quest.combat import allocate_hits, hearts_standing, hit_targets
from tavernkeep.games.side_quest.config import SideQuestConfig
from tavernkeep.games.side_quest.content import HERO_HEALTH, SideQuestPack, load
from tavernkeep.games.side_quest.dungeon import basic_weapons, build_level, say, seat_order
from tavernkeep.games.side_quest.effects import (
    answer_target,
    card_effects,
    chooses,
    target_actions,
    walk,
)
from tavernkeep.games.side_quest.heroes import (
    ABILITY,
    DONE,
    LOOT_ROLL,
    bonus,
    equip_choices,
    give,
    item_limit,
    overburdened,
    re_equip,
    take_weapon,
    trade_actions,
)
from tavernkeep.games.side_quest.heuristic import TeamBot
from tavernkeep.games.side_quest.labels import (
    attack_weapons,
    hit_detail,
    move_detail,
    need_text,
    roll_outcome,
    target_detail,
    weapon_numbers,
    wound_detail,
)
from tavernkeep.games.side_quest.locations import enter
from tavernkeep.games.side_quest.monsters import give_wounds, location_of, wound
from tavernkeep.games.side_quest.rolls import KEEP, after_roll, boostable, rerollers, resolve_roll
from tavernkeep.games.side_quest.state import NONE, SideQuestState
from tavernkeep.games.side_quest.turn import (
    ENDINGS,
    advance,
    hero_action,
    offered,
    turn_actions,
)

__all__ = ["SideQuest", "SideQuestState"]

FROM_VERSION_1 = shift_arguments(
    {
        "enter": (0,),
        "move": (0,),
        "attack": (0,),
        "push": (0,),
        "step": (0,),
        "wound": (0,),
        "give": (1,),
    }
)
"""Version 1's numbers of Locations and seats, counted from 0, as shown now (from 1)."""
TARGET_FROM_VERSION_1 = shift_arguments({"target": (0,)})
"""Version 1's `target:N` where it named a Location or a hero."""

FACES: Derived[SideQuestPack, dict[tuple[str, int], dict[str, Any]]] = Derived(lambda _: {})
"""What a view shows of each card (its kind, name and numbers), which depends only on
the pack: filled in once a card, (kind, ref) by (kind, ref), as views ask for them."""


class SideQuest(Game[SideQuestState, SideQuestConfig]):
    name = "side-quest"
    title = "Side Quest"
    min_players = 1
    max_players = 4
    kind = "cooperative"
    config_model = SideQuestConfig
    content_dir: ClassVar[Path] = Path(__file__).parent / "content"
    summary = "co-operative dungeon crawl: heroes against monsters"
    report_grid = ("scenario", "players")
    # Random rollouts value the wrong things here (RULES.md, "The search bot").
    search_rollout = "heuristic"
    # The decks and the face-down Locations are every hero's secret alike.
    secrets_shared = True
    tally_kinds: ClassVar[dict[str, str]] = {
        "hero played": "Heroes played",
        "ability used": "Hero abilities used",
        "item used": "Items used",
        "spell cast": "Spells cast",
        "loot found": "Loot found",
        "monster slain": "Monsters slain",
        "dungeon card destroyed": "Runes, Portals and Hearts destroyed",
        "boss slain": "Bosses slain",
        "damage taken": "Damage taken, by what dealt it",
        "hero fallen": "Heroes fallen",
    }

    def grid_values(self, option: str, content: Any) -> list[Any]:
        if option == "scenario":
            return [s.name for s in content.scenario]
        return super().grid_values(option, content)

    def tally_names(self, content: Any) -> dict[str, list[str]]:
        heroes = [h.name for h in content.hero]
        return {
            "hero played": heroes,
            "hero fallen": heroes,
            "spell cast": [s.name for s in content.spell],
            "item used": [i.name for i in content.item],
            "monster slain": [m.name for m in content.monster],
            "boss slain": [b.name for b in content.boss],
        }

    def heuristic_agent(self) -> Agent:
        return TeamBot()

    def evaluator(self) -> Callable[[SideQuestState], list[float]]:
        return evaluation.chances

    def load_pack(self, source: str | Path | None = None) -> Pack[SideQuestPack]:
        return load(source)

    def content(self, state: SideQuestState) -> SideQuestPack:
        return state.content

    def opening(self, state: SideQuestState) -> list[Event]:
        scenario = state.content.scenario[state.scenario]
        return [
            Event("scenario", f"{scenario.name}: {scenario.text}", {"scenario": scenario.name}),
            Event(
                "row",
                f"Level 1: {len(state.row)} Locations lie face down",
                {"locations": len(state.row)},
            ),
        ]

    # -- setup ---------------------------------------------------------------------

    def setup(
        self, config: SideQuestConfig, seed: int, pack: Pack[Any] | None = None
    ) -> SideQuestState:
        content: SideQuestPack = (pack or self.load_pack()).content
        names = [s.name for s in content.scenario]
        if config.scenario and config.scenario not in names:
            raise ConfigError(
                f"{self.title}: option 'scenario': no scenario named '{config.scenario}' "
                f"(scenarios: {', '.join(names)})"
            )
        scenario = names.index(config.scenario) if config.scenario else 0
        n = config.players
        rng = Rng(seed)
        kinds: list[str] = []
        refs: list[int] = []

        def cards(kind: str, indexes: list[int]) -> list[int]:
            first = len(kinds)
            kinds.extend([kind] * len(indexes))
            refs.extend(indexes)
            return list(range(first, len(kinds)))

        monsters = cards("monster", list(range(len(content.monster))))
        weapon_index = {w.name: i for i, w in enumerate(content.weapon)}
        loot = cards("weapon", [weapon_index[w.name] for w in content.elite_weapons()])
        loot += cards("item", list(range(len(content.item))))
        loot += cards("spell", list(range(len(content.spell))))
        basics = cards("weapon", [weapon_index[w.name] for w in content.basic_weapons()])
        levels = content.scenario[scenario].levels
        boss = next(
            i for i, b in enumerate(content.boss) if b.name == content.scenario[scenario].boss
        )
        specials = cards("damsel", [NONE] * sum(lv.damsels for lv in levels))
        specials += cards("rune", [NONE] * sum(lv.runes for lv in levels))
        specials += cards("portal", [NONE] * sum(lv.portal for lv in levels))
        specials += cards("heart", [NONE] * content.boss[boss].hearts)
        specials += cards("boss", [boss])
        specials += cards("key", [NONE])
        rng.shuffle(monsters)
        rng.shuffle(loot)

        st = SideQuestState(
            content=content,
            config=config,
            card_kind=tuple(kinds),
            card_ref=tuple(refs),
            scenario=scenario,
            rng=rng,
            players=n,
            level=0,
            row=[],
            revealed=[],
            here=[],
            position=[NONE] * n,
            hero=[NONE] * n,
            health=[HERO_HEALTH] * n,
            weapons=[[] for _ in range(n)],
            equipped=[[] for _ in range(n)],
            items=[[] for _ in range(n)],
            spells=[[] for _ in range(n)],
            box=basics + specials,
            monster_deck=monsters,
            monster_discard=[],
            loot_deck=loot,
            dungeon_deck=[],
            removed=[],
            stunned=set(),
            depth={},
            hero_stun=[NONE] * n,
            blocked=set(),
            sealed=set(),
            used=[],
            temporary=[],
            leader=0,
            current=NONE,
            actions=0,
            looted=False,
            turns=0,
            level_turns=0,
            queue=[],
            stack=[],
        )
        build_level(st, 1)
        if config.heroes == "random":
            heroes = list(range(len(content.hero)))
            rng.shuffle(heroes)
            weapons = basics[:]
            rng.shuffle(weapons)
            for seat in range(n):
                st.hero[seat] = heroes[seat]
                st.tally[seat, "hero played", content.hero[heroes[seat]].name] += 1
                take_weapon(st, seat, weapons[seat])
        # The roll-off for the Leader (RULES 4), then entering in seat order from there.
        st.leader = rng.below(n)
        st.stack.append(Decision(st.leader, "round"))
        for seat in reversed(seat_order(st)):
            st.stack.append(Decision(seat, "enter"))
        if config.heroes == "choose":
            for seat in reversed(range(n)):
                st.stack.append(Decision(seat, "weapon"))
                st.stack.append(Decision(seat, "hero"))
        return st

    # -- the protocol --------------------------------------------------------------

    def actor(self, state: SideQuestState) -> int | None:
        return state.stack[-1].seat if state.stack and not state.ending else None

    def legal_actions(self, state: SideQuestState) -> list[Action]:
        if not state.stack or state.ending:
            return []
        top = state.stack[-1]
        seat, kind = top.seat, top.kind
        if kind == "hero":
            taken = set(state.hero)
            return [Action("hero", h) for h in range(len(state.content.hero)) if h not in taken]
        if kind == "weapon":
            return [Action("weapon", w) for w in basic_weapons(state)]
        if kind == "enter":
            return [Action("enter", shown(loc)) for loc in range(len(state.row))]
        if kind == "turn":
            return turn_actions(state, seat)
        if kind == "equip":
            return [Action("equip", *choice) for choice in equip_choices(state, seat)]
        if kind == "hit":
            return [Action("hit", t) for t in hit_targets(state, top.args[0], seat)]
        if kind == "boost":
            what, _, dice = top.args
            return [
                *(Action("boost", i) for i in boostable(state, dice)),
                *(Action("reroll", r) for r in rerollers(state, seat, what, dice)),
                KEEP,
            ]
        if kind == "trade":
            return [*trade_actions(state, seat, top.args), DONE]
        if kind == "target":
            return target_actions(state, seat, top.args[0], top.args[1])
        if kind == "push":
            loc = location_of(state, top.args[0])
            return [Action("push", shown(p)) for p in (loc - 1, loc + 1) if 0 <= p < len(state.row)]
        if kind == "walk":
            pos = state.position[seat]
            steps = [p for p in (pos - 1, pos + 1) if 0 <= p < len(state.row)]
            return [*(Action("step", shown(p)) for p in steps), DONE]
        if kind == "wound":
            loc = top.args[0]
            return [
                Action("wound", shown(s)) for s in seat_order(state) if state.position[s] == loc
            ]
        raise AssertionError(f"no decision '{kind}'")

    def apply(self, state: SideQuestState, action: Action, record: bool = True) -> list[Event]:
        if self.actor(state) is None:
            raise IllegalAction(f"'{action.text}' is not legal: the game is over")
        top = state.stack[-1]
        if not (
            offered(state, top.seat, action)
            if top.kind == "turn"
            else action in self.legal_actions(state)
        ):
            options = ", ".join(a.text for a in self.legal_actions(state))
            raise IllegalAction(f"'{action.text}' is not legal now; choose one of: {options}")
        return self.apply_legal(state, action, record)

    def apply_legal(
        self, state: SideQuestState, action: Action, record: bool = True
    ) -> list[Event]:
        # The check above works out the offers again: the search's actions come from
        # `legal_actions` of this state (Game.apply_legal).
        ev: list[Event] | None = [] if record else None
        top = state.stack.pop()
        seat, kind = top.seat, top.kind
        if kind == "hero":
            state.hero[seat] = int(action.args[0])
            state.tally[seat, "hero played", state.content.hero[state.hero[seat]].name] += 1
            say(ev, "hero", f"{who(state, seat)} joins the party", seat=seat)
        elif kind == "weapon":
            card = int(action.args[0])
            take_weapon(state, seat, card)
            say(ev, "weapon", f"{who(state, seat)} takes {card_name(state, card)}", seat=seat)
        elif kind == "enter":
            enter(state, seat, index_of(action.args[0]), ev)
        elif kind == "turn":
            hero_action(state, seat, action, ev)
        elif kind == "equip":
            state.equipped[seat] = [int(a) for a in action.args]
            names = " and ".join(card_name(state, w) for w in state.equipped[seat])
            say(ev, "equip", f"{who(state, seat)} takes up {names}", seat=seat)
        elif kind == "hit":
            loc, hits, given = top.args
            given = (*given, (int(action.args[0]), hits[0]))
            allocate_hits(state, seat, loc, hits[1:], given, ev)
        elif kind == "boost":
            what, target, dice = top.args
            if action == KEEP:
                resolve_roll(state, seat, what, target, dice, ev)
            elif action.kind == "reroll":
                source = int(action.args[0])
                state.used.append(source)
                if source == ABILITY:
                    used = state.content.hero[state.hero[seat]].name
                    state.tally[seat, "ability used", used] += 1
                    using = f"{used}'s ability"
                else:
                    using = used = state.content.item[state.card_ref[source]].name
                    state.tally[seat, "item used", used] += 1
                if source != ABILITY and state.content.item[state.card_ref[source]].consumed:
                    state.items[seat].remove(source)
                    state.removed.append(source)
                rolled = state.rng.dice(len(dice))
                dice = tuple(
                    (r + extra, need, damage, extra)
                    for r, (_, need, damage, extra) in zip(rolled, dice, strict=True)
                )
                say(
                    ev,
                    "reroll",
                    f"{who(state, seat)} re-rolls with {using}: {'+'.join(map(str, rolled))}",
                    seat=seat,
                    dice=rolled,
                    using=used,
                )
                after_roll(state, seat, what, target, dice, ev)
            else:
                i = int(action.args[0])
                value, need, damage, extra = dice[i]
                dice = (*dice[:i], (value + 1, need, damage, extra), *dice[i + 1 :])
                state.actions -= 1
                say(
                    ev,
                    "boost",
                    f"{who(state, seat)} gives up an action: Mighty Boost, "
                    f"{value} becomes {value + 1}",
                    seat=seat,
                )
                after_roll(state, seat, what, target, dice, ev)
        elif kind == "push":
            monster, to = top.args[0], index_of(action.args[0])
            state.here[location_of(state, monster)].remove(monster)
            state.here[to].append(monster)
            say(
                ev,
                "push",
                f"{card_name(state, monster)} is pushed to {location_name(state, to)}",
                card=monster,
                location=to,
            )
        elif kind == "walk":
            if action != DONE:
                walk(state, seat, index_of(action.args[0]), top.args[0] - 1, ev)
        elif kind == "target":
            answer_target(state, seat, top.args[0], top.args[1], int(action.args[0]), ev)
        elif kind == "trade":
            if action == DONE:
                pos = state.position[seat]
                there = [(seat + i) % state.players for i in range(state.players)]
                for s in reversed(there):
                    if state.position[s] == pos:
                        re_equip(state, s)
            else:
                card, taker = int(action.args[0]), index_of(action.args[1])
                give(state, card, taker, ev)
                state.stack.append(Decision(seat, "trade", (*top.args, card)))
        elif kind == "wound":
            loc, hits, monster, absorbed = top.args
            taker = index_of(action.args[0])
            took = wound(state, taker, hits[0], monster, ev, absorbed[taker])
            absorbed = (*absorbed[:taker], took, *absorbed[taker + 1 :])
            if len(hits) > 1 and not state.ending:
                give_wounds(state, loc, hits[1:], monster, ev, absorbed)
        advance(state, ev)
        return ev if ev is not None else []

    def view(self, state: SideQuestState, seat: int | None) -> dict[str, Any]:
        content = state.content
        faces = FACES(content)
        kinds, refs = state.card_kind, state.card_ref

        def card(c: int) -> dict[str, Any]:
            face = faces.get((kinds[c], refs[c]))
            if face is None:
                face = {"kind": kinds[c], "name": card_name(state, c), **card_numbers(state, c)}
                faces[kinds[c], refs[c]] = face
            # A new dict, so that a caller changing a view never changes the next one.
            out: dict[str, Any] = {"id": c, **face}
            if c in state.stunned:
                out["stunned"] = True
            if c in state.depth:
                out["depth"] = state.depth[c]
            return out

        locations = []
        for i, loc in enumerate(state.row):
            shown = content.location[loc] if state.revealed[i] else None
            locations.append(
                {
                    "index": i,
                    "revealed": state.revealed[i],
                    "name": shown.name if shown else None,
                    "text": shown.text if shown else None,
                    "locked_door": shown.locked_door if shown else None,
                    "cards": [card(c) for c in state.here[i]],
                    "heroes": [s for s in range(state.players) if state.position[s] == i],
                }
            )
        heroes = []
        for s in range(state.players):
            hero = content.hero[state.hero[s]] if state.hero[s] != NONE else None
            limit = item_limit(state, s) if hero else None
            heroes.append(
                {
                    "seat": s,
                    "hero": hero.name if hero else None,
                    "text": hero.text if hero else None,
                    "item_limit": limit,
                    "spell_limit": hero.spell_limit if hero else None,
                    "health": state.health[s],
                    "stunned": state.hero_stun[s] != NONE,
                    "location": state.position[s] if state.position[s] != NONE else None,
                    "weapons": [card(w) for w in state.weapons[s]],
                    "equipped": state.equipped[s][:],
                    "items": [card(i) for i in state.items[s]],
                    "spells": [card(i) for i in state.spells[s]],
                    "overburdened": overburdened(state, s, limit) if hero else False,
                }
            )
        decision: dict[str, Any] | None = None
        if state.stack and not state.ending:
            top = state.stack[-1]
            decision = top.to_json()
            if top.kind in ("hit", "wound"):
                decision["hits"] = list(top.args[1])
            if top.kind == "target":
                # What `target:N` names here: a Location, a hero (N as shown) or a Monster.
                effect = card_effects(state, top.seat, top.args[0])[top.args[1]]
                decision["chooses"] = chooses(effect)
            if top.kind == "boost":
                decision["roll"] = top.args[0]
                decision["dice"] = [list(d) for d in top.args[2]]
        result = self.result(state)
        levels = content.scenario[state.scenario].levels
        boss = state.card_kind.index("boss")
        return {
            "game": self.name,
            "seat": seat,
            "players": state.players,
            "scenario": content.scenario[state.scenario].name,
            "level": state.level,
            # The turn under way; once the limit has run out, the last one (never "61 of 60").
            "turn": min(state.level_turns + 1, state.config.turn_limit),
            "turn_limit": state.config.turn_limit,
            "leader": state.leader,
            "current": state.current if state.current != NONE else None,
            "actions": state.actions,
            "looted": state.looted,
            "locations": locations,
            "heroes": heroes,
            "available_heroes": [h.name for i, h in enumerate(content.hero) if i not in state.hero],
            "available_weapons": [card(w) for w in basic_weapons(state)],
            "damsel_depth": content.specials.damsel_depth,
            "hearts": hearts_standing(state) if state.level == len(levels) else None,
            "boss": card(boss) if state.level == len(levels) else None,
            "dungeon_deck": len(state.dungeon_deck),
            "monster_deck": len(state.monster_deck),
            "monster_discard": [card(c) for c in state.monster_discard],
            "loot_deck": len(state.loot_deck),
            "decision": decision,
            "ending": state.ending or None,
            "result": result.to_json() if result else None,
        }

    decision_kinds = (
        "hero", "weapon", "enter", "turn", "equip", "trade", "boost", "target", "push",
        "hit", "wound",
    )
    """A free move of more than one step ("walk") is in the rules but in no card of the
    standard pack."""

    def decision(self, state: SideQuestState) -> str | None:
        return state.stack[-1].kind if state.stack and not state.ending else None

    def reveals(self, state: SideQuestState, action: Action, after: SideQuestState) -> bool:
        # Hidden from every hero alike: the dice to come, the face-down Locations and
        # the Dungeon, Monster and Loot decks, which the rules only ever draw from the
        # top, and a Location only once it is turned face up. A decision that rolled, drew
        # or turned a Location moved one of them; any other ran on what the party sees.
        return (
            after.rng != state.rng
            or after.revealed != state.revealed
            or after.dungeon_deck != state.dungeon_deck
            or after.monster_deck != state.monster_deck
            or after.loot_deck != state.loot_deck
        )

    def determinize(self, state: SideQuestState, seat: int, rng: Rng) -> SideQuestState:
        """Re-sample what no seat can see: the face-down Locations (among those not
        revealed and those not in the row), and what the Dungeon, Monster and Loot decks
        hold and in which order (the Key or the Boss stays at the bottom)."""
        twin = state.clone()
        shown = {twin.row[i] for i in range(len(twin.row)) if twin.revealed[i]}
        door = next(i for i, loc in enumerate(twin.content.location) if loc.locked_door)
        hidden = [i for i in range(len(twin.row)) if not twin.revealed[i]]
        if door in twin.row and door not in shown:
            rng.shuffle(hidden)
            twin.row[hidden.pop()] = door
        pool = [i for i in range(len(twin.content.location)) if i not in shown and i != door]
        rng.shuffle(pool)
        for i in hidden:
            twin.row[i] = pool.pop()
        deck = twin.dungeon_deck
        bottom = [c for c in deck[:1] if twin.card_kind[c] in ("key", "boss")]
        rest = deck[len(bottom) :]
        # Sorted before they are shuffled, here and below: the sample is a function of what
        # the seat knows and the stream alone, never of the decks' true order (the tutor's
        # leak test). The row's hidden places and the pool are built in order already.
        monsters = sorted([c for c in rest if twin.card_kind[c] == "monster"] + twin.monster_deck)
        loot = sorted([c for c in rest if twin.card_kind[c] in LOOT_KINDS] + twin.loot_deck)
        rng.shuffle(monsters)
        rng.shuffle(loot)
        dealt: list[int] = []
        for c in rest:
            kind = twin.card_kind[c]
            if kind == "monster":
                dealt.append(monsters.pop())
            elif kind in LOOT_KINDS:
                dealt.append(loot.pop())
            else:
                dealt.append(c)
        dealt.sort()
        rng.shuffle(dealt)
        twin.dungeon_deck = bottom + dealt
        twin.monster_deck = monsters
        twin.loot_deck = loot
        twin.rng = Rng(rng.next64())
        return twin

    def result(self, state: SideQuestState) -> Result | None:
        if not state.ending:
            return None
        n = state.players
        won = state.ending == "boss-slain"
        return Result(
            scores=(float(won),) * n,
            ranks=(1,) * n,
            winners=tuple(range(n)) if won else (),
            ending=state.ending,
            reason=f"The heroes {'win' if won else 'lose'}: {ENDINGS[state.ending]}",
            won=won,
            turns=state.turns,
            facts={
                "level": state.level,
                "health": state.health[:],
                "tally": tally_facts(state.tally, n, self.tally_kinds),
            },
        )

    def clone(self, state: SideQuestState) -> SideQuestState:
        return state.clone()

    def label(self, state: SideQuestState, action: Action) -> str:
        """A choice's name, then what follows from it where every seat can tell (in
        brackets, last: labels.py); the chances of its dice are `odds`."""
        kind, args = action.kind, action.args
        seat = state.stack[-1].seat if state.stack else 0
        specials = state.content.specials
        if kind == "hero":
            h = state.content.hero[int(args[0])]
            # "Choose", not the card game's "Play": a person picks the hero to be.
            return f"Choose {h.name}: {h.text} (items {h.item_limit}, spells {h.spell_limit})"
        if kind == "weapon":
            card = int(args[0])
            return f"Take {card_name(state, card)} ({weapon_numbers(state, card)})"
        if kind == "enter":
            return f"Enter {location_name(state, index_of(args[0]))}"
        if kind == "move":
            return f"Move to {location_name(state, index_of(args[0]))}{move_detail(state, seat)}"
        if kind == "attack":
            loc = index_of(args[0])
            return f"Attack {location_name(state, loc)}{attack_weapons(state, seat, loc)}"
        if kind in ("pickup", "drop"):
            verb = {"pickup": "Pick up", "drop": "Drop"}[kind]
            return f"{verb} {card_name(state, int(args[0]))}"
        if kind == "rescue":
            plus = bonus(state, seat, "boost", "rescue")
            thanks = "; her thanks: a Loot card" if state.loot_deck else ""
            need = need_text(specials.rescue_roll, plus)
            return f"Rescue {card_name(state, int(args[0]))} ({need}{thanks})"
        if kind == "loot":
            need = need_text(LOOT_ROLL, bonus(state, seat, "boost", "loot"))
            if not state.loot_deck:
                return f"Loot ({need}, but the Loot deck is empty)"
            return f"Loot ({need} draws a Loot card)"
        if kind == "key":
            need = need_text(specials.key_roll, bonus(state, seat, "boost", "key"))
            return f"Use the Dungeon Key ({need} opens the Locked Door)"
        if kind == "end":
            return "End your turn"
        if kind == "equip":
            held = [f"{card_name(state, int(a))} ({weapon_numbers(state, int(a))})" for a in args]
            return "Hold " + " and ".join(held)
        if kind == "hit":
            # Read by place, not unpacked into `_`: compiled (mypyc), a name keeps one type
            # in a function, and these frames hold a word, a count or a list there.
            frame = state.stack[-1].args
            hits, given = frame[1], frame[2]
            target = int(args[0])
            detail = hit_detail(state, target, hits[0], given)
            return f"Give the hit to {card_name(state, target)}{detail}"
        if kind == "wound":
            frame = state.stack[-1].args
            hits, monster, absorbed = frame[1], frame[2], frame[3]
            taker = index_of(args[0])
            detail = wound_detail(state, taker, hits[0], monster, absorbed[taker])
            return f"{who(state, taker)} takes the hit{detail}"
        if kind == "ability":
            h = state.content.hero[state.hero[seat]]
            return f"Use your ability: {h.text}"
        if kind in ("use", "cast"):
            c = int(args[0])
            ref = state.card_ref[c]
            if kind == "use":
                return f"Use {card_name(state, c)}: {state.content.item[ref].text}"
            spell = state.content.spell[ref]
            plus = bonus(state, seat, "boost", "spell")
            mine = f" ({need_text(spell.roll, plus)})" if plus else ""
            return f"Cast {card_name(state, c)}: {spell.text}{mine}"
        if kind == "target":
            top = state.stack[-1]
            effect = card_effects(state, top.seat, top.args[0])[top.args[1]]
            what = chooses(effect)
            chosen = int(args[0]) if what == "monster" else index_of(args[0])
            detail = target_detail(state, top.seat, effect, chosen, what)
            if what == "monster":
                return f"Choose {card_name(state, chosen)}{detail}"
            if what == "hero":
                return f"Choose {who(state, chosen)}{detail}"
            return f"Choose {location_name(state, chosen)}{detail}"
        if kind == "trade":
            return "Trade equipment with the heroes here (one action)"
        if kind == "give":
            return f"Give {card_name(state, int(args[0]))} to {who(state, index_of(args[1]))}"
        if kind == "done":
            return "Finish trading"
        if kind == "boost":
            frame = state.stack[-1].args
            what, dice = frame[0], frame[2]
            # Names of their own: `need` is a text in the branches above, and compiled, a
            # name keeps one type in a function.
            face, goal = dice[int(args[0])][0], dice[int(args[0])][1]
            verb = "hits" if what == "attack" else "succeeds"
            more = goal - face - 1
            then = f"it {verb}" if more <= 0 else f"{more} more and it {verb}"
            return f"Mighty Boost: give up an action for +1 on the {face} (needs {goal}): {then}"
        if kind == "keep":
            frame = state.stack[-1].args
            return f"Let the roll stand{roll_outcome(frame[0], frame[2])}"
        if kind == "push":
            return f"Push it to {location_name(state, index_of(args[0]))}"
        if kind == "step":
            return f"Move on to {location_name(state, index_of(args[0]))}"
        if kind == "reroll":
            source = int(args[0])
            if source == ABILITY:
                return "Re-roll every die with your ability"
            spent = (
                " (then discarded)" if state.content.item[state.card_ref[source]].consumed else ""
            )
            return f"Re-roll every die with {card_name(state, source)}{spent}"
        return action.text

    def upgrade_text(self, version: int, state: SideQuestState, text: str) -> str:
        """`text`, from a `version` record, as this version writes it; `state` is the game
        just before it. Version 1 counted Locations and seats from 0 (`move:0` is
        `move:1` now, `give:c,0` is `give:c,1`), and its `target:N` named a Location, a
        hero or a Monster's card id alike: only the card being used tells which, so the
        state is read, and a card id, which never moved, stays."""
        if version >= 2:
            return text
        text = FROM_VERSION_1(text)
        if not state.stack or state.stack[-1].kind != "target":
            return text
        top = state.stack[-1]
        if chooses(card_effects(state, top.seat, top.args[0])[top.args[1]]) == "monster":
            return text
        return TARGET_FROM_VERSION_1(text)

    def odds(self, state: SideQuestState, action: Action) -> dict[str, float]:
        """Exact chances of the dice behind `action` (chances.py): one die's `success`
        and with the hero's help, an attack's `N+ damage`, a move's Grab Attacks."""
        return action_odds(state, action)
