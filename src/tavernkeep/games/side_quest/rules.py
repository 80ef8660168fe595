"""Side Quest: a co-operative dungeon crawl for 1-4 heroes, three levels and a Boss.

The protocol over `SideQuestState`, following RULES.md: setup (heroes and Basic weapons,
the row of face-down Locations, entering, the level's decks; readings 1-5), the game turn
(Refresh, Hero phase, Monster phase, End phase; 6-9), every hero action (Move with Grab
Attacks, Attack with hit allocation, Pick Up, Loot, Cast Spell, Trade, Rescue, the Dungeon
Key, Mighty Boost, Dropping, re-equipping; 10-21), Monster activation, damage allocated
hit by hit, stun and re-rolls (22-25), the Damsels, Dark Runes, Dark Portal, Dungeon
Hearts and the Boss (26-30), travel (31) and every ending (32).

Cards: passive effects of heroes, items and revealed Locations are read by `bonus`;
Locations' enter and end_phase effects by `location_effects`; a hero's used ability,
items and spells by `use_actions` / `run_effects`, with a `target` frame for each chosen
target; Monster and Boss abilities where they act (grab, attack, activation, slaying,
hit allocation). A used card is offered only when every effect on it is one of USABLE
(free_loot, free_move and push also as its last effect, reroll in the window after a
roll), which the standard pack's cards all are.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar

from tavernkeep.engine.actions import Action
from tavernkeep.engine.content import Pack
from tavernkeep.engine.decisions import Decision
from tavernkeep.engine.errors import ConfigError, IllegalAction
from tavernkeep.engine.events import Event
from tavernkeep.engine.game import Game, Result
from tavernkeep.engine.match import Agent
from tavernkeep.engine.rng import Rng
from tavernkeep.games.side_quest.config import SideQuestConfig
from tavernkeep.games.side_quest.content import (
    HERO_HEALTH,
    Boss,
    Effect,
    Monster,
    SideQuestPack,
    Weapon,
    load,
)
from tavernkeep.games.side_quest.state import NONE, SideQuestState

__all__ = ["SideQuest", "SideQuestState"]

Events = list[Event] | None

ACTIONS_A_TURN = 3
LOOT_ROLL = 5
END = Action("end")
LOOT = Action("loot")
KEEP = Action("keep")
TRADE = Action("trade")
DONE = Action("done")
AUTOMATIC = frozenset({"round", "hero_turn", "monsters", "activate", "end_phase"})
"""Frames the rules resolve by themselves; every other frame is a seat's decision."""
ENDINGS = {
    "boss-slain": "the Boss was slain",
    "hero-fell": "a hero fell",
    "damsel-lost": "a Damsel was lost",
    "turn-limit": "the turn limit ran out",
}
LOOT_KINDS = ("weapon", "item", "spell")
FIGHTERS = ("monster", "boss")
"""What activates and attacks, and counts as an active Monster where one stands."""


def say(ev: Events, kind: str, text: str, **data: object) -> None:
    if ev is not None:
        ev.append(Event(kind, text, dict(data)))


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

    def grid_values(self, option: str, content: Any) -> list[Any]:
        if option == "scenario":
            return [s.name for s in content.scenario]
        return super().grid_values(option, content)

    def heuristic_agent(self) -> Agent:
        # Imported here: the bot reads the rules' helpers, so it imports this module.
        from tavernkeep.games.side_quest.heuristic import TeamBot

        return TeamBot()

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
            return [Action("enter", loc) for loc in range(len(state.row))]
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
            return [Action("push", p) for p in (loc - 1, loc + 1) if 0 <= p < len(state.row)]
        if kind == "walk":
            pos = state.position[seat]
            steps = [p for p in (pos - 1, pos + 1) if 0 <= p < len(state.row)]
            return [*(Action("step", p) for p in steps), DONE]
        if kind == "wound":
            loc = top.args[0]
            return [Action("wound", s) for s in seat_order(state) if state.position[s] == loc]
        raise AssertionError(f"no decision '{kind}'")

    def apply(self, state: SideQuestState, action: Action, record: bool = True) -> list[Event]:
        if self.actor(state) is None:
            raise IllegalAction(f"'{action.text}' is not legal: the game is over")
        legal = self.legal_actions(state)
        if action not in legal:
            options = ", ".join(a.text for a in legal)
            raise IllegalAction(f"'{action.text}' is not legal now; choose one of: {options}")
        ev: list[Event] | None = [] if record else None
        top = state.stack.pop()
        seat, kind = top.seat, top.kind
        if kind == "hero":
            state.hero[seat] = int(action.args[0])
            say(ev, "hero", f"{who(state, seat)} joins the party", seat=seat)
        elif kind == "weapon":
            card = int(action.args[0])
            take_weapon(state, seat, card)
            say(ev, "weapon", f"{who(state, seat)} takes {card_name(state, card)}", seat=seat)
        elif kind == "enter":
            enter(state, seat, int(action.args[0]), ev)
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
                    f"{who(state, seat)} re-rolls: {'+'.join(map(str, rolled))}",
                    seat=seat,
                    dice=rolled,
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
            monster, to = top.args[0], int(action.args[0])
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
                walk(state, seat, int(action.args[0]), top.args[0] - 1, ev)
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
                card, taker = int(action.args[0]), int(action.args[1])
                give(state, card, taker, ev)
                state.stack.append(Decision(seat, "trade", (*top.args, card)))
        elif kind == "wound":
            loc, hits, monster, absorbed = top.args
            taker = int(action.args[0])
            took = wound(state, taker, hits[0], monster, ev, absorbed[taker])
            absorbed = (*absorbed[:taker], took, *absorbed[taker + 1 :])
            if len(hits) > 1 and not state.ending:
                give_wounds(state, loc, hits[1:], monster, ev, absorbed)
        advance(state, ev)
        return ev if ev is not None else []

    def view(self, state: SideQuestState, seat: int | None) -> dict[str, Any]:
        content = state.content

        def card(c: int) -> dict[str, Any]:
            out: dict[str, Any] = {"id": c, "kind": state.card_kind[c], "name": card_name(state, c)}
            out.update(card_numbers(state, c))
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
                    "cards": [card(c) for c in state.here[i]],
                    "heroes": [s for s in range(state.players) if state.position[s] == i],
                }
            )
        heroes = []
        for s in range(state.players):
            hero = content.hero[state.hero[s]] if state.hero[s] != NONE else None
            heroes.append(
                {
                    "seat": s,
                    "hero": hero.name if hero else None,
                    "text": hero.text if hero else None,
                    "item_limit": (hero.item_limit + bonus(state, s, "carry")) if hero else None,
                    "spell_limit": hero.spell_limit if hero else None,
                    "health": state.health[s],
                    "stunned": state.hero_stun[s] != NONE,
                    "location": state.position[s] if state.position[s] != NONE else None,
                    "weapons": [card(w) for w in state.weapons[s]],
                    "equipped": state.equipped[s][:],
                    "items": [card(i) for i in state.items[s]],
                    "spells": [card(i) for i in state.spells[s]],
                    "overburdened": overburdened(state, s) if hero else False,
                }
            )
        decision: dict[str, Any] | None = None
        if state.stack and not state.ending:
            top = state.stack[-1]
            decision = top.to_json()
            if top.kind in ("hit", "wound"):
                decision["hits"] = list(top.args[1])
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
            "turn": state.level_turns + 1,
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
        monsters = [c for c in rest if twin.card_kind[c] == "monster"] + twin.monster_deck
        loot = [c for c in rest if twin.card_kind[c] in LOOT_KINDS] + twin.loot_deck
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
            facts={"level": state.level, "health": state.health[:]},
        )

    def clone(self, state: SideQuestState) -> SideQuestState:
        return state.clone()

    def label(self, state: SideQuestState, action: Action) -> str:
        kind, args = action.kind, action.args
        if kind == "hero":
            h = state.content.hero[int(args[0])]
            return f"Play {h.name}: {h.text}"
        if kind == "weapon":
            return f"Take {card_name(state, int(args[0]))}"
        if kind == "enter":
            return f"Enter {location_name(state, int(args[0]))}"
        if kind == "move":
            return f"Move to {location_name(state, int(args[0]))}"
        if kind == "attack":
            return f"Attack {location_name(state, int(args[0]))}"
        if kind in ("pickup", "drop", "rescue"):
            verb = {"pickup": "Pick up", "drop": "Drop", "rescue": "Rescue"}[kind]
            return f"{verb} {card_name(state, int(args[0]))}"
        if kind == "loot":
            return "Loot (5+ on a die draws a Loot card)"
        if kind == "key":
            need = state.content.specials.key_roll
            return f"Use the Dungeon Key ({need}+ on a die opens the Locked Door)"
        if kind == "end":
            return "End your turn"
        if kind == "equip":
            return "Hold " + " and ".join(card_name(state, int(a)) for a in args)
        if kind == "hit":
            return f"Give the hit to {card_name(state, int(args[0]))}"
        if kind == "wound":
            return f"{who(state, int(args[0]))} takes the hit"
        if kind == "ability":
            h = state.content.hero[state.hero[state.stack[-1].seat]]
            return f"Use your ability: {h.text}"
        if kind in ("use", "cast"):
            c = int(args[0])
            ref = state.card_ref[c]
            text = state.content.item[ref].text if kind == "use" else state.content.spell[ref].text
            return f"{'Use' if kind == 'use' else 'Cast'} {card_name(state, c)}: {text}"
        if kind == "target":
            top = state.stack[-1]
            effect = card_effects(state, top.seat, top.args[0])[top.args[1]]
            t = int(args[0])
            if effect.name in ("teleport", "free_move") or effect.target in (
                "every_monster_in_range",
                "location_in_range",
            ):
                return f"Choose {location_name(state, t)}"
            if effect.target in ("hero_here", "any_hero"):
                return f"Choose {who(state, t)}"
            return f"Choose {card_name(state, t)}"
        if kind == "trade":
            return "Trade equipment with the heroes here (one action)"
        if kind == "give":
            return f"Give {card_name(state, int(args[0]))} to {who(state, int(args[1]))}"
        if kind == "done":
            return "Finish trading"
        if kind == "boost":
            value, need, _, _ = state.stack[-1].args[2][int(args[0])]
            return f"Mighty Boost: give up an action for +1 on the {value} (needs {need})"
        if kind == "keep":
            return "Let the roll stand"
        if kind == "push":
            return f"Push it to {location_name(state, int(args[0]))}"
        if kind == "step":
            return f"Move on to {location_name(state, int(args[0]))}"
        if kind == "reroll":
            source = int(args[0])
            what = "your ability" if source == ABILITY else card_name(state, source)
            return f"Re-roll every die with {what}"
        return action.text

    def odds(self, state: SideQuestState, action: Action) -> dict[str, float]:
        if action == LOOT:
            return {"success": (7 - LOOT_ROLL) / 6}
        if action.kind == "rescue":
            return {"success": (7 - state.content.specials.rescue_roll) / 6}
        if action.kind == "key":
            return {"success": (7 - state.content.specials.key_roll) / 6}
        return {}


# -- helpers --------------------------------------------------------------------------


def seat_order(st: SideQuestState) -> list[int]:
    """Every seat, from the Leader on."""
    return [(st.leader + i) % st.players for i in range(st.players)]


def who(st: SideQuestState, seat: int) -> str:
    h = st.hero[seat]
    return st.content.hero[h].name if h != NONE else f"Player {seat + 1}"


def card_name(st: SideQuestState, card: int) -> str:
    kind, ref = st.card_kind[card], st.card_ref[card]
    c = st.content
    if kind == "monster":
        return c.monster[ref].name
    if kind == "boss":
        return c.boss[ref].name
    if kind == "weapon":
        return c.weapon[ref].name
    if kind == "item":
        return c.item[ref].name
    if kind == "spell":
        return c.spell[ref].name
    return {
        "damsel": "a Damsel",
        "rune": "a Dark Rune",
        "portal": "the Dark Portal",
        "key": "the Dungeon Key",
        "heart": "a Dungeon Heart",
    }[kind]


def card_numbers(st: SideQuestState, card: int) -> dict[str, Any]:
    """What a player reads on a card's face: a fighter's or weapon's numbers, a card's text."""
    kind, ref, c = st.card_kind[card], st.card_ref[card], st.content
    if kind in FIGHTERS:
        f = fighter_of(st, card)
        return {
            "health": health_of(st, card),
            "move": f.move,
            "range": f.range,
            "dice": f.dice,
            "hit": f.hit,
            "damage": f.damage,
            "ability": f.ability,
            "text": f.text,
        }
    if kind == "weapon":
        w = c.weapon[ref]
        return {
            "tier": w.tier,
            "hands": w.hands,
            "range": w.range,
            "dice": w.dice,
            "hit": w.hit,
            "damage": w.damage,
            "text": w.text,
        }
    if kind == "item":
        return {"text": c.item[ref].text, "consumed": c.item[ref].consumed}
    if kind == "spell":
        return {"text": c.spell[ref].text, "roll": c.spell[ref].roll}
    if kind in ("rune", "portal", "heart"):
        return {"health": health_of(st, card)}
    return {}


def location_name(st: SideQuestState, loc: int) -> str:
    if st.revealed[loc]:
        return st.content.location[st.row[loc]].name
    return f"the face-down Location {loc + 1}"


def basic_weapons(st: SideQuestState) -> list[int]:
    """The Basic weapons nobody has taken."""
    return sorted(c for c in st.box if st.card_kind[c] == "weapon")


def build_level(st: SideQuestState, level: int) -> None:
    """RULES 2, 5 and 31: a new row, face down, and the level's Dungeon deck, with the Key
    (levels 1-2) or the Boss (level 3) at the bottom. Monsters and loot come from their
    decks; the level's Damsels, Runes, Portal and Hearts from the box."""
    content, rng, n = st.content, st.rng, st.players
    spec = content.scenario[st.scenario].levels[level - 1]
    boss_level = level == len(content.scenario[st.scenario].levels)
    door = next(i for i, loc in enumerate(content.location) if loc.locked_door)
    size = n + 2
    others = [i for i in range(len(content.location)) if i != door]
    rng.shuffle(others)
    if boss_level and size < len(content.location):
        row = others[:size]
    else:
        row = [door, *others[: size - 1]]
    rng.shuffle(row)
    st.level = level
    st.level_turns = 0
    st.row = row
    st.revealed = [False] * size
    st.here = [[] for _ in row]
    deck: list[int] = []
    for _ in range(spec.monsters):
        card = draw_monster(st)
        if card != NONE:
            deck.append(card)
    for _ in range(min(spec.loot, len(st.loot_deck))):
        deck.append(st.loot_deck.pop())
    wanted = {"damsel": spec.damsels, "rune": spec.runes, "portal": spec.portal}
    if boss_level:
        wanted["heart"] = len(st.card_kind)  # every Heart
    for c in sorted(st.box):
        kind = st.card_kind[c]
        if wanted.get(kind, 0) > 0:
            wanted[kind] -= 1
            st.box.remove(c)
            deck.append(c)
    rng.shuffle(deck)
    bottom = next(
        c for c in (*st.box, *st.removed) if st.card_kind[c] == ("boss" if boss_level else "key")
    )
    (st.box if bottom in st.box else st.removed).remove(bottom)
    st.dungeon_deck = [bottom, *deck]


def take_weapon(st: SideQuestState, seat: int, card: int) -> None:
    if card in st.box:
        st.box.remove(card)
    st.weapons[seat].append(card)
    st.equipped[seat].append(card)


def weapon_of(st: SideQuestState, card: int) -> Weapon:
    return st.content.weapon[st.card_ref[card]]


def overburdened(st: SideQuestState, seat: int) -> bool:
    """Over the hero's item or spell limit (RULES 20-21)."""
    hero = st.content.hero[st.hero[seat]]
    carried = len(st.items[seat]) + len(st.weapons[seat]) - len(st.equipped[seat])
    limit = hero.item_limit + bonus(st, seat, "carry")
    return carried > limit or len(st.spells[seat]) > hero.spell_limit


def active_monster_at(st: SideQuestState, loc: int) -> bool:
    return any(st.card_kind[c] in FIGHTERS and c not in st.stunned for c in st.here[loc])


def hit_targets(st: SideQuestState, loc: int, seat: int) -> list[int]:
    """What an attack on `loc` by `seat` may hit: Monsters, the Boss and Runes, and the
    Portal and Hearts only with no active Monster (nor Boss) there (RULES 11). An active
    bodyguard covers the other Monsters; a shielded Monster is no target from afar."""
    uncovered = not active_monster_at(st, loc)
    guards = [c for c in st.here[loc] if ability(st, c) == "bodyguard" and c not in st.stunned]
    afar = st.position[seat] != loc
    out = []
    for c in st.here[loc]:
        kind = st.card_kind[c]
        if kind in ("portal", "heart") and not uncovered:
            continue
        if kind not in ("monster", "boss", "rune", "portal", "heart"):
            continue
        if kind == "monster" and guards and c not in guards:
            continue
        if afar and ability(st, c) == "shielded":
            continue
        out.append(c)
    return out


def ability(st: SideQuestState, card: int) -> str | None:
    """The Monster or Boss ability of a card (None for any other card)."""
    kind = st.card_kind[card]
    if kind == "monster":
        return st.content.monster[st.card_ref[card]].ability
    if kind == "boss":
        return st.content.boss[st.card_ref[card]].ability
    return None


def hearts_standing(st: SideQuestState) -> int:
    return sum(1 for c in range(len(st.card_kind)) if st.card_kind[c] == "heart") - sum(
        1 for c in st.removed if st.card_kind[c] == "heart"
    )


def fighter_of(st: SideQuestState, card: int) -> Monster | Boss:
    if st.card_kind[card] == "boss":
        return st.content.boss[st.card_ref[card]]
    return st.content.monster[st.card_ref[card]]


def health_of(st: SideQuestState, card: int) -> int:
    kind = st.card_kind[card]
    if kind == "monster":
        return st.content.monster[st.card_ref[card]].health
    if kind == "rune":
        return st.content.specials.rune_health
    if kind == "heart":
        return st.content.specials.heart_health
    if kind == "boss":
        return st.content.boss[st.card_ref[card]].hearts
    return st.content.specials.portal_health


def hero_range(st: SideQuestState, seat: int) -> int:
    """The greatest range of the equipped weapons, plus range_plus; NONE with none."""
    reach = max((weapon_of(st, w).range for w in st.equipped[seat]), default=NONE)
    return reach + bonus(st, seat, "range_plus") if reach != NONE else NONE


def equip_choices(st: SideQuestState, seat: int) -> list[tuple[int, ...]]:
    """Each way to fill two hands from the hero's weapons (at least one weapon held)."""
    weapons = sorted(st.weapons[seat])
    out: list[tuple[int, ...]] = []
    for size in (1, 2):
        for combo in combinations(weapons, size):
            if sum(weapon_of(st, w).hands for w in combo) <= 2:
                out.append(combo)
    return out


def turn_actions(st: SideQuestState, seat: int) -> list[Action]:
    out: list[Action] = []
    pos = st.position[seat]
    if st.actions > 0:
        if not overburdened(st, seat):
            out += [Action("move", loc) for loc in (pos - 1, pos + 1) if 0 <= loc < len(st.row)]
        reach = hero_range(st, seat)
        out += [
            Action("attack", loc)
            for loc in range(len(st.row))
            if abs(loc - pos) <= reach and hit_targets(st, loc, seat)
        ]
        if not active_monster_at(st, pos):
            for c in st.here[pos]:
                if st.card_kind[c] in LOOT_KINDS or st.card_kind[c] == "key":
                    out.append(Action("pickup", c))
            for c in st.here[pos]:
                if st.card_kind[c] == "damsel":
                    out.append(Action("rescue", c))
            if not st.looted:
                out.append(LOOT)
        if any(st.position[s] == pos for s in range(st.players) if s != seat):
            out.append(TRADE)
        key = next((c for c in st.items[seat] if st.card_kind[c] == "key"), NONE)
        door = st.content.location[st.row[pos]].locked_door
        if key != NONE and door and not st.depth:
            out.append(Action("key", key))
    out += use_actions(st, seat)
    for zone in (st.weapons[seat], st.items[seat], st.spells[seat]):
        out += [Action("drop", c) for c in zone]
    out.append(END)
    return out


# -- the flow ---------------------------------------------------------------------------


def advance(st: SideQuestState, ev: Events) -> None:
    """Resolve automatic frames until a seat must decide or the game is over."""
    while not st.ending and st.stack and st.stack[-1].kind in AUTOMATIC:
        top = st.stack.pop()
        kind = top.kind
        if kind == "round":
            refresh(st, ev)
            st.stack.append(Decision(st.leader, "end_phase"))
            st.stack.append(Decision(st.leader, "monsters"))
            for seat in reversed(seat_order(st)):
                st.stack.append(Decision(seat, "hero_turn"))
        elif kind == "hero_turn":
            if st.hero_stun[top.seat] == st.turns:
                say(ev, "stunned", f"{who(st, top.seat)} is stunned and loses the turn")
                continue
            st.current = top.seat
            st.actions = ACTIONS_A_TURN + bonus(st, top.seat, "extra_action")
            st.looted = False
            st.used = []
            st.stack.append(Decision(top.seat, "turn"))
        elif kind == "monsters":
            st.current = NONE
            st.actions = 0
            monster_phase(st, ev)
            st.stack.append(Decision(top.seat, "activate"))
        elif kind == "activate":
            if st.queue:
                st.stack.append(top)
                activate(st, st.queue.pop(0), ev)
        elif kind == "end_phase":
            end_phase(st, ev)
    if st.ending:
        st.stack.clear()
        verb = "win" if st.ending == "boss-slain" else "lose"
        say(ev, "ending", f"The heroes {verb}: {ENDINGS[st.ending]}", ending=st.ending)


def draw_monster(st: SideQuestState) -> int:
    """The top of the Monster deck, refilled from its shuffled discard; NONE if both are empty."""
    if not st.monster_deck and st.monster_discard:
        st.monster_deck = st.monster_discard
        st.monster_discard = []
        st.rng.shuffle(st.monster_deck)
    return st.monster_deck.pop() if st.monster_deck else NONE


def place(st: SideQuestState, card: int, loc: int) -> None:
    st.here[loc].append(card)
    if st.card_kind[card] == "damsel":
        st.depth[card] = 0


def refresh(st: SideQuestState, ev: Events) -> None:
    sealed = st.sealed
    st.sealed = set()
    deal(st, sealed, ev)


def deal(st: SideQuestState, sealed: set[int], ev: Events) -> None:
    """RULES 6: a card over each Location not holding a Monster, Rune or Damsel."""
    for loc in range(len(st.row)):
        if (
            loc in sealed
            or location_has(st, loc, "seal")
            or any(st.card_kind[c] in ("monster", "boss", "rune", "damsel") for c in st.here[loc])
        ):
            continue
        card = st.dungeon_deck.pop() if st.dungeon_deck else draw_monster(st)
        if card == NONE:
            return
        place(st, card, loc)
        say(
            ev,
            "deal",
            f"{card_name(st, card)} appears at {location_name(st, loc)}",
            card=card,
            location=loc,
        )


def enter(st: SideQuestState, seat: int, loc: int, ev: Events) -> None:
    st.position[seat] = loc
    say(ev, "enter", f"{who(st, seat)} enters {location_name(st, loc)}", seat=seat, location=loc)
    reveal(st, loc, ev)
    entered(st, loc, ev, seat)


def reveal(st: SideQuestState, loc: int, ev: Events) -> None:
    if not st.revealed[loc]:
        st.revealed[loc] = True
        say(ev, "reveal", f"It is {location_name(st, loc)}", location=loc)


def hero_action(st: SideQuestState, seat: int, action: Action, ev: Events) -> None:
    kind = action.kind
    if kind == "end":
        say(ev, "end_turn", f"{who(st, seat)} ends the turn", seat=seat)
        st.current = NONE
        return
    st.stack.append(Decision(seat, "turn"))
    if kind == "drop":
        card = int(action.args[0])
        for zone in (st.weapons[seat], st.items[seat], st.spells[seat]):
            if card in zone:
                zone.remove(card)
        if card in st.equipped[seat]:
            st.equipped[seat].remove(card)
        st.here[st.position[seat]].append(card)
        say(ev, "drop", f"{who(st, seat)} drops {card_name(st, card)}", seat=seat, card=card)
        return
    if kind in ("ability", "use", "cast"):
        use_card(st, seat, action, ev)
        return
    st.actions -= 1
    pos = st.position[seat]
    if kind == "move":
        move_hero(st, seat, int(action.args[0]), ev)
    elif kind == "attack":
        attack(st, seat, int(action.args[0]), ev)
    elif kind == "pickup":
        card = int(action.args[0])
        st.here[pos].remove(card)
        say(ev, "pickup", f"{who(st, seat)} picks up {card_name(st, card)}", seat=seat, card=card)
        gain(st, seat, card)
    elif kind == "key":
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to open the Locked Door", seat=seat)
        need = st.content.specials.key_roll
        plus = bonus(st, seat, "boost", "key")
        after_roll(st, seat, "key", int(action.args[0]), ((roll + plus, need, 0, plus),), ev)
    elif kind == "trade":
        say(ev, "trade", f"{who(st, seat)} trades", seat=seat)
        st.stack.append(Decision(seat, "trade", ()))
    elif kind == "loot":
        st.looted = True
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to Loot", seat=seat, dice=[roll])
        plus = bonus(st, seat, "boost", "loot")
        after_roll(st, seat, "loot", NONE, ((roll + plus, LOOT_ROLL, 0, plus),), ev)
    elif kind == "rescue":
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to rescue", seat=seat, dice=[roll])
        need = st.content.specials.rescue_roll
        plus = bonus(st, seat, "boost", "rescue")
        after_roll(st, seat, "rescue", int(action.args[0]), ((roll + plus, need, 0, plus),), ev)


Die = tuple[int, int, int, int]
"""A die of a hero's roll: its value (bonuses and Mighty Boost included), the number it
needs, the damage it deals on a success (attack dice only), and the bonus its cards add
(kept for a re-roll)."""


def boostable(st: SideQuestState, dice: tuple[Die, ...]) -> list[int]:
    """Dice that the hero's unused actions can still lift to a success (RULES 18)."""
    return [i for i, (v, need, _, _) in enumerate(dice) if v < need and need - v <= st.actions]


def rerollers(st: SideQuestState, seat: int, what: str, dice: tuple[Die, ...]) -> list[int]:
    """Unused cards (the ability: ABILITY) that may re-roll this roll, when a die failed."""
    if all(d[0] >= d[1] for d in dice):
        return []
    out = []
    for source in (ABILITY, *st.items[seat]):
        if source != ABILITY and st.card_kind[source] != "item":
            continue
        if source in st.used:
            continue
        if source == ABILITY:
            card = st.content.hero[st.hero[seat]]
            if card.use == "passive":
                continue
            effects = card.effects
        else:
            effects = st.content.item[st.card_ref[source]].effects
        if any(e.name == "reroll" and e.roll in ("any", what) for e in effects):
            out.append(source)
    return out


def after_roll(
    st: SideQuestState, seat: int, what: str, target: int, dice: tuple[Die, ...], ev: Events
) -> None:
    """RULES 18: with actions to spare that could change the outcome, the hero may give
    them up for Mighty Boost before the roll counts."""
    if boostable(st, dice) or rerollers(st, seat, what, dice):
        st.stack.append(Decision(seat, "boost", (what, target, dice)))
    else:
        resolve_roll(st, seat, what, target, dice, ev)


def resolve_roll(
    st: SideQuestState, seat: int, what: str, target: int, dice: tuple[Die, ...], ev: Events
) -> None:
    success = [d for d in dice if d[0] >= d[1]]
    pos = st.position[seat]
    if what == "attack":
        hits = tuple(d[2] for d in success)
        say(ev, "hits", f"{len(hits)} hits", seat=seat, hits=list(hits))
        allocate_hits(st, seat, target, hits, (), ev)
    elif what == "loot":
        if success and st.loot_deck:
            card = st.loot_deck.pop()
            say(ev, "loot", f"{who(st, seat)} finds {card_name(st, card)}", seat=seat, card=card)
            gain(st, seat, card)
        else:
            say(ev, "loot", f"{who(st, seat)} finds nothing", seat=seat)
    elif what == "spell":
        if success:
            run_effects(st, seat, target, 0, ev)
        else:
            say(ev, "cast", f"The spell fails ({dice[0][0]})", seat=seat)
    elif what == "key":
        if success:
            st.items[seat].remove(target)
            st.removed.append(target)
            say(ev, "door", f"{who(st, seat)} opens the Locked Door", seat=seat)
            travel(st, ev)
        else:
            say(ev, "door", "The Locked Door holds", seat=seat)
    elif what == "rescue":
        if success:
            st.here[pos].remove(target)
            del st.depth[target]
            st.removed.append(target)
            say(ev, "rescue", f"{who(st, seat)} rescues a Damsel", seat=seat)
            if st.loot_deck:
                gain(st, seat, st.loot_deck.pop())
        else:
            say(ev, "rescue", f"{who(st, seat)} fails to rescue the Damsel", seat=seat)


def trade_actions(st: SideQuestState, seat: int, moved: tuple[int, ...]) -> list[Action]:
    """RULES 15: any equipment of a hero there to another hero there; each card moves at
    most once a trade, which reaches every way of sharing it out."""
    pos = st.position[seat]
    there = [s for s in range(st.players) if st.position[s] == pos]
    out: list[Action] = []
    for holder in there:
        for zone in (st.weapons[holder], st.items[holder], st.spells[holder]):
            for card in zone:
                if card not in moved:
                    out += [Action("give", card, s) for s in there if s != holder]
    return out


def give(st: SideQuestState, card: int, taker: int, ev: Events) -> None:
    holder = next(
        s for s in range(st.players) if card in (*st.weapons[s], *st.items[s], *st.spells[s])
    )
    for zone in (st.weapons[holder], st.items[holder], st.spells[holder], st.equipped[holder]):
        if card in zone:
            zone.remove(card)
    kind = st.card_kind[card]
    (st.weapons if kind == "weapon" else st.spells if kind == "spell" else st.items)[taker].append(
        card
    )
    say(
        ev,
        "give",
        f"{who(st, holder)} gives {card_name(st, card)} to {who(st, taker)}",
        seat=holder,
        card=card,
        to=taker,
    )


def re_equip(st: SideQuestState, seat: int) -> None:
    """The hero takes up weapons: its choice when there is one."""
    choices = equip_choices(st, seat)
    if len(choices) > 1:
        st.stack.append(Decision(seat, "equip"))
    else:
        st.equipped[seat] = list(choices[0]) if choices else []


def travel(st: SideQuestState, ev: Events) -> None:
    """RULES 31: what is left on the old level goes to its discard pile (loot is gone);
    the heroes keep health and equipment, trade freely and enter the next level's row."""
    for zone in st.here:
        for c in zone:
            (st.monster_discard if st.card_kind[c] == "monster" else st.removed).append(c)
    for c in st.dungeon_deck:
        (st.monster_discard if st.card_kind[c] == "monster" else st.removed).append(c)
    st.dungeon_deck = []
    st.stunned.clear()
    st.queue = []
    st.current, st.actions = NONE, 0
    st.position = [NONE] * st.players
    build_level(st, st.level + 1)
    say(ev, "level", f"The heroes go down to level {st.level}", level=st.level)
    st.stack = [Decision(st.leader, "round")]
    for seat in reversed(seat_order(st)):
        st.stack.append(Decision(seat, "enter"))
    if st.players > 1:
        st.stack.append(Decision(st.leader, "trade", ()))


def gain(st: SideQuestState, seat: int, card: int, equip: bool = True) -> None:
    """A Loot card into the hero's equipment; with a new weapon, the hero may re-equip."""
    kind = st.card_kind[card]
    if kind == "weapon":
        st.weapons[seat].append(card)
        if equip:
            re_equip(st, seat)
    elif kind in ("item", "key"):
        st.items[seat].append(card)
    else:
        st.spells[seat].append(card)


def move_hero(st: SideQuestState, seat: int, loc: int, ev: Events) -> None:
    """RULES 10: every active Monster left behind makes a Grab Attack, -1 on each die."""
    left = st.position[seat]
    evading = bonus(st, seat, "evade") > 0
    for c in list(st.here[left]):
        if st.card_kind[c] in FIGHTERS and c not in st.stunned and not evading:
            grab = 0 if ability(st, c) == "grasping" else -1
            hits = monster_hits(st, c, grab, ev, grab=True)
            took = 0
            for damage in hits:
                took = wound(st, seat, damage, c, ev, took)
                if st.ending:
                    return
    st.position[seat] = loc
    say(ev, "move", f"{who(st, seat)} moves to {location_name(st, loc)}", seat=seat, location=loc)
    reveal(st, loc, ev)
    entered(st, loc, ev, seat)


def attack(st: SideQuestState, seat: int, loc: int, ev: Events) -> None:
    """RULES 11: every equipped weapon that reaches rolls; each success is a hit to allocate."""
    pos = st.position[seat]
    dice: list[Die] = []
    farther = bonus(st, seat, "range_plus")
    plus = bonus(st, seat, "boost", "attack")
    more = bonus(st, seat, "damage_plus")
    for w in st.equipped[seat]:
        weapon = weapon_of(st, w)
        if abs(loc - pos) > weapon.range + farther:
            continue
        rolled = st.rng.dice(weapon.dice)
        dice += [(d + plus, weapon.hit, weapon.damage + more, plus) for d in rolled]
        say(
            ev,
            "attack",
            f"{who(st, seat)} attacks with {weapon.name}: {'+'.join(map(str, rolled))} "
            f"({weapon.hit}+ to hit)",
            seat=seat,
            dice=rolled,
        )
    after_roll(st, seat, "attack", loc, tuple(dice), ev)


def allocate_hits(
    st: SideQuestState,
    seat: int,
    loc: int,
    hits: tuple[int, ...],
    given: tuple[tuple[int, int], ...],
    ev: Events,
) -> None:
    """The attacker gives each hit to a target; with one target there is nothing to choose."""
    targets = hit_targets(st, loc, seat)
    if hits and len(targets) > 1:
        st.stack.append(Decision(seat, "hit", (loc, hits, given)))
        return
    if hits:
        given = (*given, *((targets[0], h) for h in hits))
    total: dict[int, int] = {}
    for target, damage in given:
        total[target] = total.get(target, 0) + damage
    for target, damage in total.items():
        if st.card_kind[target] == "boss" and hearts_standing(st) > 0:
            # RULES 29: no Heart may stand; enough damage only stuns the Boss.
            if damage >= health_of(st, target):
                st.stunned.add(target)
                say(ev, "stun", f"{card_name(st, target)} is stunned", card=target)
            elif target in st.stunned:
                st.stunned.discard(target)
                say(ev, "wake", f"{card_name(st, target)} is woken", card=target)
        elif damage >= health_of(st, target):
            slay(st, target, loc, ev)
        elif target in st.stunned:
            st.stunned.discard(target)
            say(ev, "wake", f"{card_name(st, target)} is woken", card=target)


def slay(st: SideQuestState, card: int, loc: int, ev: Events) -> None:
    st.here[loc].remove(card)
    st.stunned.discard(card)
    if card in st.queue:
        st.queue.remove(card)
    if st.card_kind[card] == "monster":
        st.monster_discard.append(card)
    else:
        st.removed.append(card)
    say(ev, "slay", f"{card_name(st, card)} is destroyed", card=card)
    if st.card_kind[card] == "boss":
        st.ending = "boss-slain"
    elif ability(st, card) == "explodes":
        for seat in seat_order(st):
            if st.position[seat] == loc and not st.ending:
                wound(st, seat, 1, card, ev)


def monster_phase(st: SideQuestState, ev: Events) -> None:
    """RULES 8 and 27: Portals and summoners spawn, then every Monster is queued, left to
    right."""
    spawns = st.content.specials.portal_spawns
    for loc in range(len(st.row)):
        for c in list(st.here[loc]):
            if st.card_kind[c] == "portal" or ability(st, c) == "summoner":
                for _ in range(spawns if st.card_kind[c] == "portal" else 1):
                    spawn = draw_monster(st)
                    if spawn != NONE:
                        place(st, spawn, loc)
                        say(
                            ev,
                            "spawn",
                            f"{card_name(st, spawn)} is called up by {card_name(st, c)}",
                            card=spawn,
                            location=loc,
                        )
    st.queue = [
        c for loc in range(len(st.row)) for c in st.here[loc] if st.card_kind[c] in FIGHTERS
    ]


def location_of(st: SideQuestState, card: int) -> int:
    return next(loc for loc in range(len(st.row)) if card in st.here[loc])


def nearest(st: SideQuestState, loc: int, ev: Events) -> int:
    """The Location of the nearest hero; equally near on both sides, a die decides."""
    best = min(abs(p - loc) for p in st.position)
    sides = {p for p in st.position if abs(p - loc) == best}
    if len(sides) == 1:
        return sides.pop()
    roll = st.rng.die(6)
    say(
        ev,
        "tie",
        f"Heroes are equally near on both sides: {roll} ({'left' if roll <= 3 else 'right'})",
        roll=roll,
    )
    return min(sides) if roll <= 3 else max(sides)


def activate(st: SideQuestState, monster: int, ev: Events) -> None:
    """RULES 22: attack the nearest hero in range, else move toward one first."""
    if monster in st.stunned:
        say(ev, "stunned", f"{card_name(st, monster)} is stunned", card=monster)
        return
    info = fighter_of(st, monster)
    loc = location_of(st, monster)
    distance = min(abs(p - loc) for p in st.position)
    if distance > info.range:
        if info.move == 0 or location_has(st, loc, "block") or monster in st.blocked:
            return
        goal = nearest(st, loc, ev)
        step = 1 if goal > loc else -1
        for _ in range(info.move):
            st.here[loc].remove(monster)
            loc += step
            st.here[loc].append(monster)
            if min(abs(p - loc) for p in st.position) <= info.range:
                break
        say(
            ev,
            "monster_move",
            f"{info.name} moves to {location_name(st, loc)}",
            card=monster,
            location=loc,
        )
        distance = min(abs(p - loc) for p in st.position)
        if distance > info.range:
            return
    target = nearest(st, loc, ev)
    hits = monster_hits(st, monster, 0, ev, grab=False)
    if hits:
        give_wounds(st, target, hits, monster, ev)


def monster_hits(
    st: SideQuestState, monster: int, modifier: int, ev: Events, grab: bool
) -> tuple[int, ...]:
    """A Monster's attack roll: each die at or above its hit number deals its damage.
    Every standing Rune adds its bonus to each die (RULES 28), and so does each other
    rallying Monster in its Location."""
    info = fighter_of(st, monster)
    runes = sum(1 for zone in st.here for c in zone if st.card_kind[c] == "rune")
    rallies = sum(
        1
        for c in st.here[location_of(st, monster)]
        if c != monster and ability(st, c) == "rallying"
    )
    bonus = modifier + runes * st.content.specials.rune_bonus + rallies
    dice = st.rng.dice(info.dice)
    hits = tuple(info.damage for d in dice if d + bonus >= info.hit)
    what = "Grab Attack" if grab else "attack"
    say(
        ev,
        "monster_attack",
        f"{info.name} makes its {what}: {'+'.join(map(str, dice))}"
        f"{f' {bonus:+d}' if bonus else ''} ({len(hits)} hits)",
        card=monster,
        dice=dice,
    )
    return hits


def give_wounds(
    st: SideQuestState,
    loc: int,
    hits: tuple[int, ...],
    monster: int,
    ev: Events,
    absorbed: tuple[int, ...] | None = None,
) -> None:
    """RULES 23: the heroes there choose who takes each hit, the first of them deciding.
    `absorbed` counts, for each seat, the damage its armor has ignored in this attack."""
    there = [s for s in seat_order(st) if st.position[s] == loc]
    absorbed = absorbed or (0,) * st.players
    if len(there) == 1:
        took = absorbed[there[0]]
        for damage in hits:
            took = wound(st, there[0], damage, monster, ev, took)
            if st.ending:
                return
        return
    st.stack.append(Decision(there[0], "wound", (loc, hits, monster, absorbed)))


def wound(
    st: SideQuestState, seat: int, damage: int, monster: int, ev: Events, absorbed: int = 0
) -> int:
    """One hit of an attack; armor ignores the first points of each attack. Returns how
    much armor has ignored in this attack so far."""
    ignored = max(0, min(damage, bonus(st, seat, "armor") - absorbed))
    if ignored:
        say(ev, "armor", f"{who(st, seat)}'s armor ignores {ignored} damage", seat=seat)
    damage -= ignored
    absorbed += ignored
    if damage == 0:
        return absorbed
    st.health[seat] = max(0, st.health[seat] - damage)
    if ability(st, monster) == "stun_on_hit" and st.hero_stun[seat] == NONE:
        # RULES 24: through the hero's next turn, restored in the End phase after it.
        st.hero_stun[seat] = st.turns + 1
    say(
        ev,
        "wound",
        f"{who(st, seat)} takes {damage} damage from "
        f"{card_name(st, monster)} ({st.health[seat]} health left)",
        seat=seat,
        damage=damage,
    )
    if st.health[seat] == 0:
        st.ending = "hero-fell"
    return absorbed


def end_phase(st: SideQuestState, ev: Events) -> None:
    """RULES 9: stuns restored, Damsels lowered, the Leader card passed; then the limit."""
    st.stunned.clear()
    st.temporary.clear()
    st.blocked.clear()
    for seat in range(st.players):
        if st.hero_stun[seat] == st.turns:
            st.hero_stun[seat] = NONE
    lost = False
    for damsel in list(st.depth):
        st.depth[damsel] += 1
        if st.depth[damsel] >= st.content.specials.damsel_depth:
            lost = True
    equip = location_end_phase(st, ev)
    st.leader = (st.leader + 1) % st.players
    st.turns += 1
    st.level_turns += 1
    say(
        ev,
        "end_phase",
        f"End of turn {st.level_turns}; {who(st, st.leader)} leads",
        leader=st.leader,
    )
    if lost:
        st.ending = "damsel-lost"
    elif st.level_turns >= st.config.turn_limit:
        st.ending = "turn-limit"
    else:
        st.stack.append(Decision(st.leader, "round"))
        for seat in reversed(equip):
            re_equip(st, seat)


# -- passive effects: heroes, items and Locations ------------------------------------------


def bonus(st: SideQuestState, seat: int, name: str, roll: str = "") -> int:
    """The sum of the passive effects `name` on this hero (for boost, on rolls of kind
    `roll`): its own hero card and items, every_hero_here effects of the heroes sharing its
    Location, and its revealed Location's own."""
    content = st.content
    total = 0
    pos = st.position[seat]

    def counts(effect: Effect) -> bool:
        return effect.name == name and (name != "boost" or effect.roll in ("any", roll))

    for other in range(st.players):
        if st.hero[other] == NONE:
            continue
        hero = content.hero[st.hero[other]]
        if hero.use != "passive":
            continue
        for effect in hero.effects:
            if not counts(effect):
                continue
            if (effect.target == "self" and other == seat) or (
                effect.target == "every_hero_here" and pos != NONE and st.position[other] == pos
            ):
                total += effect.amount
    names = (name, "boost:any", f"boost:{roll}") if name == "boost" else (name,)
    total += sum(a for s, n, a in st.temporary if s == seat and n in names)
    for c in st.items[seat]:
        if st.card_kind[c] == "item":
            item = content.item[st.card_ref[c]]
            if item.use == "passive":
                total += sum(e.amount for e in item.effects if counts(e))
    if pos != NONE and st.revealed[pos]:
        location = content.location[st.row[pos]]
        if location.when == "passive":
            total += sum(
                e.amount for e in location.effects if counts(e) and e.target == "every_hero_here"
            )
    return total


def location_has(st: SideQuestState, loc: int, name: str) -> bool:
    """A revealed passive Location with this effect on the Monsters there (block)."""
    if not st.revealed[loc]:
        return False
    location = st.content.location[st.row[loc]]
    return location.when == "passive" and any(e.name == name for e in location.effects)


def entered(st: SideQuestState, loc: int, ev: Events, seat: int = NONE) -> None:
    """A Location's enter effects, each time a hero enters it (its first entering too)."""
    if st.content.location[st.row[loc]].when == "enter":
        entering = (
            seat
            if seat != NONE
            else next((s for s in range(st.players) if st.position[s] == loc), NONE)
        )
        location_effects(st, loc, entering, True, ev)


def location_end_phase(st: SideQuestState, ev: Events) -> list[int]:
    """Every revealed end_phase Location's effects. Returns the seats that gained a
    weapon, to re-equip once the End phase is over."""
    equip: list[int] = []
    for loc in range(len(st.row)):
        if st.revealed[loc] and st.content.location[st.row[loc]].when == "end_phase":
            for seat in location_effects(st, loc, NONE, False, ev):
                if seat not in equip:
                    equip.append(seat)
    return equip


def location_effects(
    st: SideQuestState, loc: int, entering: int, equip: bool, ev: Events
) -> list[int]:
    """A Location card's effects on the heroes and Monsters there (`self`: the hero who
    entered). A free Loot roll here gets no Mighty Boost: it is no action of the hero's.
    Returns the seats that gained a weapon without re-equipping (`equip` off)."""
    location = st.content.location[st.row[loc]]
    gained: list[int] = []
    for effect in location.effects:
        if effect.target == "self":
            heroes = [entering] if entering != NONE else []
        else:
            heroes = [s for s in seat_order(st) if st.position[s] == loc]
        monsters = [c for c in st.here[loc] if st.card_kind[c] == "monster"]
        name, amount = effect.name, effect.amount
        if name == "heal":
            for s in heroes:
                st.health[s] = min(HERO_HEALTH, st.health[s] + amount)
                say(ev, "heal", f"{location.name}: {who(st, s)} has {st.health[s]} health", seat=s)
        elif name == "damage":
            say(ev, "trap", f"{location.name}: {amount} damage to every Monster here")
            for c in monsters:
                if amount >= health_of(st, c):
                    slay(st, c, loc, ev)
                elif c in st.stunned:
                    st.stunned.discard(c)
        elif name == "stun":
            st.stunned.update(c for c in monsters if ability(st, c) != "unstoppable")
        elif name == "block":
            st.blocked.update(c for c in monsters if ability(st, c) != "unstoppable")
        elif name == "seal":
            st.sealed.add(loc)
        elif name in ("armor", "damage_plus", "evade", "range_plus"):
            st.temporary += [(s, name, amount) for s in heroes]
        elif name == "boost":
            st.temporary += [(s, f"boost:{effect.roll}", amount) for s in heroes]
        elif name == "free_loot":
            for s in heroes:
                if active_monster_at(st, loc):
                    break
                roll = st.rng.die(6) + bonus(st, s, "boost", "loot")
                if roll >= LOOT_ROLL and st.loot_deck:
                    card = st.loot_deck.pop()
                    say(
                        ev,
                        "loot",
                        f"{location.name}: {who(st, s)} loots ({roll}) and "
                        f"finds {card_name(st, card)}",
                        seat=s,
                        card=card,
                    )
                    gain(st, s, card, equip=equip)
                    if st.card_kind[card] == "weapon":
                        gained.append(s)
                else:
                    say(
                        ev,
                        "loot",
                        f"{location.name}: {who(st, s)} loots ({roll}) and finds nothing",
                        seat=s,
                    )
        if st.ending:
            break
    return gained if not equip else []


# -- cards a hero uses: its ability, its items, Cast Spell (RULES 14) ----------------------
#
# A card is offered when every effect on it is one these rules play (USABLE). Each used
# card works at most once a turn, on its holder's own turn (CONTENT.md, "Once a turn"). A
# card's effects run in order; an effect whose target someone must choose opens a `target`
# frame (args: the source, the effect's index), and the rest runs once it is answered.

USABLE = frozenset(
    {
        "heal",
        "damage",
        "stun",
        "block",
        "seal",
        "extra_action",
        "teleport",
        "evade",
        "draw_loot",
        "boost",
        "range_plus",
        "damage_plus",
        "armor",
    }
)
"""Effects a used card may carry to be offered; free_loot, free_move and push too, as a
card's last effect (they open a roll or a choice of their own). reroll is used in the window
after a roll, never on its own."""
ABILITY = -1
"""The source id of a hero's own ability (cards are ids 0 and up)."""


def card_effects(st: SideQuestState, seat: int, source: int) -> list[Effect]:
    if source == ABILITY:
        return list(st.content.hero[st.hero[seat]].effects)
    kind, ref = st.card_kind[source], st.card_ref[source]
    if kind == "item":
        return list(st.content.item[ref].effects)
    return list(st.content.spell[ref].effects)


def usable(effects: list[Effect]) -> bool:
    return all(
        e.name in USABLE or (e.name in ("free_loot", "free_move", "push") and i == len(effects) - 1)
        for i, e in enumerate(effects)
    )


def card_range(st: SideQuestState, seat: int) -> int:

    return max(hero_range(st, seat), 0)


def options(st: SideQuestState, seat: int, effect: Effect) -> list[int]:
    """What a chosen target may be: seats, Monster ids or Location indexes."""

    pos = st.position[seat]
    if effect.name == "teleport":
        if overburdened(st, seat):
            return []
        return [loc for loc in range(len(st.row)) if st.revealed[loc] and loc != pos]
    if effect.name == "free_move":
        if overburdened(st, seat):
            return []
        return [loc for loc in (pos - 1, pos + 1) if 0 <= loc < len(st.row)]
    target = effect.target
    if target == "hero_here":
        return [s for s in range(st.players) if st.position[s] == pos]
    if target == "any_hero":
        return list(range(st.players))
    reach = 0 if target in ("monster_here",) else card_range(st, seat)
    if target in ("monster_here", "monster_in_range"):
        out = []
        for loc in range(len(st.row)):
            if abs(loc - pos) > reach:
                continue
            guarded = any(
                ability(st, c) == "bodyguard" and c not in st.stunned for c in st.here[loc]
            )
            for c in st.here[loc]:
                if st.card_kind[c] != "monster":
                    continue
                if guarded and ability(st, c) != "bodyguard":
                    continue
                if loc != pos and ability(st, c) == "shielded":
                    continue
                out.append(c)
        return out
    if target == "location_in_range":
        return [loc for loc in range(len(st.row)) if abs(loc - pos) <= reach]
    if target == "every_monster_in_range":
        return [
            loc
            for loc in range(len(st.row))
            if abs(loc - pos) <= reach and any(st.card_kind[c] == "monster" for c in st.here[loc])
        ]
    return []


def chosen(effect: Effect) -> bool:
    return effect.name in ("teleport", "free_move") or effect.target in (
        "location_in_range",
        "hero_here",
        "any_hero",
        "monster_here",
        "monster_in_range",
        "every_monster_in_range",
    )


def use_actions(st: SideQuestState, seat: int) -> list[Action]:
    """The cards the hero may use now: not used this turn, and with something to aim at."""
    out: list[Action] = []
    hero = st.content.hero[st.hero[seat]]
    sources: list[tuple[int, str, str]] = []
    if hero.use != "passive":
        sources.append((ABILITY, hero.use, "ability"))
    for c in st.items[seat]:
        if st.card_kind[c] == "item":
            item = st.content.item[st.card_ref[c]]
            if item.use != "passive":
                sources.append((c, item.use, "use"))
    if st.actions > 0:
        sources += [(c, "action", "cast") for c in st.spells[seat]]
    for source, use, verb in sources:
        if source in st.used or (use == "action" and st.actions == 0):
            continue
        effects = card_effects(st, seat, source)
        if not usable(effects):
            continue
        first = next((e for e in effects if chosen(e)), None)
        if first is not None and not options(st, seat, first):
            continue
        if any(e.name == "free_loot" for e in effects) and active_monster_at(st, st.position[seat]):
            continue
        out.append(Action("ability") if source == ABILITY else Action(verb, source))
    return out


def use_card(st: SideQuestState, seat: int, action: Action, ev: Events) -> None:
    """The hero uses a card: a spell is rolled for first (RULES 14), then effects run."""

    source = ABILITY if action.kind == "ability" else int(action.args[0])
    st.used.append(source)
    if action.kind == "cast":
        st.actions -= 1
        spell = st.content.spell[st.card_ref[source]]
        roll = st.rng.die(6)
        say(ev, "cast", f"{who(st, seat)} casts {spell.name}: {roll}", seat=seat, roll=roll)
        plus = bonus(st, seat, "boost", "spell")
        after_roll(st, seat, "spell", source, ((roll + plus, spell.roll, 0, plus),), ev)
        return
    if source == ABILITY:
        use = st.content.hero[st.hero[seat]].use
        name = st.content.hero[st.hero[seat]].name + "'s ability"
    else:
        item = st.content.item[st.card_ref[source]]
        use, name = item.use, card_name(st, source)
        if item.consumed:
            st.items[seat].remove(source)
            st.removed.append(source)
    if use == "action":
        st.actions -= 1
    say(ev, "use", f"{who(st, seat)} uses {name}", seat=seat)
    run_effects(st, seat, source, 0, ev)


def run_effects(st: SideQuestState, seat: int, source: int, start: int, ev: Events) -> None:
    """The card's effects from `start` on, stopping at one whose target must be chosen."""
    effects = card_effects(st, seat, source)
    for index in range(start, len(effects)):
        effect = effects[index]
        if chosen(effect):
            choices = options(st, seat, effect)
            if len(choices) > 1:
                st.stack.append(Decision(seat, "target", (source, index)))
                return
            if choices:
                apply_effect(st, seat, effect, choices[0], ev)
        else:
            apply_effect(st, seat, effect, NONE, ev)
        if st.ending:
            return


def apply_effect(st: SideQuestState, seat: int, effect: Effect, target: int, ev: Events) -> None:

    pos = st.position[seat]
    name, amount = effect.name, effect.amount
    if effect.target in ("hero_here", "any_hero"):
        heroes = [target]
    elif effect.target == "every_hero_here":
        heroes = [s for s in range(st.players) if st.position[s] == pos]
    else:
        heroes = [seat]
    if effect.target in ("monster_here", "monster_in_range"):
        monsters = [target]
    elif effect.target == "every_monster_in_range":
        monsters = [c for c in st.here[target] if st.card_kind[c] == "monster"]
    elif effect.target == "every_monster_here":
        monsters = [c for c in st.here[pos] if st.card_kind[c] == "monster"]
    else:
        monsters = []
    if name == "heal":
        for s in heroes:
            st.health[s] = min(HERO_HEALTH, st.health[s] + amount)
            say(ev, "heal", f"{who(st, s)} has {st.health[s]} health", seat=s)
    elif name == "damage":
        for c in monsters:
            loc = location_of(st, c)
            if loc != pos and ability(st, c) == "shielded":
                continue
            if amount >= st.content.monster[st.card_ref[c]].health:
                slay(st, c, loc, ev)
            elif c in st.stunned:
                st.stunned.discard(c)
                say(ev, "wake", f"{card_name(st, c)} is woken", card=c)
    elif name == "stun":
        for c in monsters:
            if ability(st, c) != "unstoppable":
                st.stunned.add(c)
                say(ev, "stun", f"{card_name(st, c)} is stunned", card=c)
    elif name == "extra_action":
        st.actions += amount
        say(ev, "actions", f"{who(st, seat)} gains {amount} actions", seat=seat)
    elif name == "draw_loot":
        for _ in range(amount):
            if st.loot_deck:
                gain(st, seat, st.loot_deck.pop())
    elif name == "teleport":
        st.position[seat] = target
        say(ev, "teleport", f"{who(st, seat)} steps away", seat=seat, location=target)
        reveal(st, target, ev)
        entered(st, target, ev, seat)
    elif name in ("armor", "damage_plus", "evade", "range_plus"):
        for s in heroes:
            st.temporary.append((s, name, amount))
    elif name == "boost":
        for s in heroes:
            st.temporary.append((s, f"boost:{effect.roll}", amount))
    elif name == "block":
        for c in monsters:
            if ability(st, c) != "unstoppable":
                st.blocked.add(c)
        say(ev, "block", f"{len(monsters)} Monsters are held in place", seat=seat)
    elif name == "seal":
        loc = target if effect.target == "location_in_range" else pos
        st.sealed.add(loc)
        say(ev, "seal", f"{location_name(st, loc)} is sealed", location=loc)
    elif name == "push":
        c = monsters[0]
        loc = location_of(st, c)
        ways = [p for p in (loc - 1, loc + 1) if 0 <= p < len(st.row)]
        if ability(st, c) != "unstoppable" and ways:
            st.stack.append(Decision(seat, "push", (c,)))
    elif name == "free_move":
        walk(st, seat, target, amount - 1, ev)
    elif name == "free_loot" and not any(
        st.card_kind[c] in ("monster", "boss") and c not in st.stunned for c in st.here[pos]
    ):
        roll = st.rng.die(6)
        say(ev, "roll", f"{who(st, seat)} rolls {roll} to Loot", seat=seat, dice=[roll])
        plus = bonus(st, seat, "boost", "loot")
        after_roll(st, seat, "loot", NONE, ((roll + plus, LOOT_ROLL, 0, plus),), ev)


def walk(st: SideQuestState, seat: int, loc: int, more: int, ev: Events) -> None:
    """A free move: no Grab Attacks; `more` steps may follow, the hero's choice."""
    st.position[seat] = loc
    say(ev, "move", f"{who(st, seat)} slips to {location_name(st, loc)}", seat=seat, location=loc)
    reveal(st, loc, ev)
    entered(st, loc, ev, seat)
    if more > 0 and not st.ending:
        st.stack.append(Decision(seat, "walk", (more,)))


def target_actions(st: SideQuestState, seat: int, source: int, index: int) -> list[Action]:
    effect = card_effects(st, seat, source)[index]
    return [Action("target", t) for t in options(st, seat, effect)]


def answer_target(
    st: SideQuestState, seat: int, source: int, index: int, target: int, ev: Events
) -> None:
    effect = card_effects(st, seat, source)[index]
    apply_effect(st, seat, effect, target, ev)
    if not st.ending:
        run_effects(st, seat, source, index + 1, ev)
