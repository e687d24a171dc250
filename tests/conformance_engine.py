"""A second combat engine, written from the rules and the documented scenario and outcome
formats without the reference's code, for the conformance tests. Faults can be planted in
it, each a fault found in a real engine (issues 31 and 40):

- `excess_lost`: a blocked attacker without trample assigns only lethal damage and loses
  the rest (510.1a: it assigns damage equal to its power);
- `blocker_excess_lost`: a blocker blocking several attackers assigns each lethal damage
  and loses the rest (510.1a again, the defending player's division: rarer, and hidden
  behind the first when one case of a rule is shrunk);
- `deathtouch_marked`: with deathtouch and trample, a blocker with damage already marked
  counts as lethally damaged, so the damage goes to the player too early (702.19b, 702.2c);
- `no_prevention`: protection stops blocks but does not prevent damage (702.16e);
- `survivors`: creatures do not die in the check in which their controller loses the game,
  the game being over (704.3: all state-based actions at once; several rules of 704.5 are
  involved);
- `deathtouch_counters`: damage from a deathtouch source with infect or wither, being
  -1/-1 counters, does not destroy (704.5h; rare, and under the same rule as the above);
- `toxic_unpowered`: an unblocked creature with toxic and 0 power gives poison counters
  (510.1a, 702.164c: it deals no combat damage);
- `plays_on`: a game over in the first-strike step goes on to the regular step (104.2a).

`make(..., divide="own")` makes an engine that divides damage its own legal way: lethal
damage to the blockers in the reverse of their order and the rest onto the first blocker
(a trampler: onto the first blocker too), a blocker's damage all to the last attacker it
blocks. It covers what the scenario generator makes: two players, creatures and
planeswalkers.
"""

from __future__ import annotations

from typing import Any

FAULTS = ("excess_lost", "blocker_excess_lost", "deathtouch_marked", "no_prevention",
          "survivors", "deathtouch_counters", "toxic_unpowered", "plays_on")
STRIKE = {"first strike", "double strike"}
TRAMPLE = {"trample", "trample over planeswalkers"}


def make(*faults: str, divide: str = "in order"):
    """An engine function with the given faults planted, dividing damage "in order" (the
    scenario's default policy) or its "own" way."""
    unknown = set(faults) - set(FAULTS)
    assert not unknown, unknown
    assert divide in ("in order", "own"), divide

    def engine(scenario: dict[str, Any]) -> dict[str, Any]:
        return Game(scenario, set(faults), divide == "own").play()

    return engine


correct = make()
planted = make(*FAULTS)
own_choices = make(divide="own")


def raises(scenario: dict[str, Any]) -> dict[str, Any]:
    """An engine that fails on every scenario."""
    raise NotImplementedError("no battles here")



class Game:
    """One combat, played on dictionaries."""

    def __init__(self, s: dict[str, Any], faults: set[str], own: bool = False) -> None:
        self.faults, self.own = faults, own
        self.players = {p["id"]: {"life": p.get("life", 20), "poison": p.get("poison", 0),
                                  "protection": set(p.get("protection", [])), "lost": False}
                        for p in s["players"]}
        self.active = s.get("active", s["players"][0]["id"])
        self.defender = next(p for p in self.players if p != self.active)
        self.perms: dict[str, dict[str, Any]] = {}
        for p in s["permanents"]:
            keywords, protection, toxic = set(), set(), 0
            for k in p.get("keywords", []):
                if isinstance(k, str):
                    keywords.add(k)
                elif "protection" in k:
                    protection |= set(k["protection"])
                elif "toxic" in k:
                    toxic += k["toxic"]
            c = p.get("counters", {})
            self.perms[p["id"]] = {
                "id": p["id"], "controller": p["controller"],
                "types": set(p.get("types", ["creature"])), "colors": set(p.get("colors", [])),
                "power": p.get("power", 0), "toughness": p.get("toughness", 0),
                "+1/+1": c.get("+1/+1", 0), "-1/-1": c.get("-1/-1", 0),
                "loyalty": c.get("loyalty", 0), "damage": p.get("damage", 0),
                "keywords": keywords, "protection": protection, "toxic": toxic,
                "deathtouched": False, "alive": True}
        self.start = {k: self._marks(v) for k, v in self.perms.items()}
        self.attacks = [(a["attacker"], a["target"]) for a in s["attacks"]]
        self.blocks = [(b["blocker"], list(b["attackers"])) for b in s.get("blocks", [])]
        self.result: dict[str, Any] = {"steps": [], "damage": [], "life_gained": [],
                                       "deaths": [], "losses": []}

    def power(self, p: dict[str, Any]) -> int:
        return p["power"] + p["+1/+1"] - p["-1/-1"]

    def toughness(self, p: dict[str, Any]) -> int:
        return p["toughness"] + p["+1/+1"] - p["-1/-1"]

    def alive(self, pid: str) -> bool:
        return pid in self.players or self.perms[pid]["alive"]

    def play(self) -> dict[str, Any]:
        fighters = [a for a, _ in self.attacks] + [b for b, _ in self.blocks]
        strikers = {f for f in fighters if STRIKE & self.perms[f]["keywords"]}
        steps = [("first strike", strikers)] if strikers else []
        steps.append(("regular", {f for f in fighters if f not in strikers
                                  or "double strike" in self.perms[f]["keywords"]}))
        for name, dealers in steps if self.attacks else []:
            self.result["steps"].append(name)
            self.step(name, {d for d in dealers if self.perms[d]["alive"]})
            if any(p["lost"] for p in self.players.values()) and "plays_on" not in self.faults:
                break
        return self.outcome()

    def step(self, name: str, dealers: set[str]) -> None:
        assigned: list[tuple[str, str, int]] = []
        pending: dict[str, int] = {}
        touched: set[str] = set()
        for attacker, target in self.attacks:
            if attacker in dealers:
                mine = self.attacker_damage(attacker, target, pending, touched)
                for _, to, n in mine:
                    pending[to] = pending.get(to, 0) + n
                    if "deathtouch" in self.perms[attacker]["keywords"]:
                        touched.add(to)
                assigned += mine
        pending, touched = {}, set()
        for blocker, attackers in self.blocks:
            present = [a for a in attackers if self.perms[a]["alive"]]
            if blocker not in dealers or not present:
                continue
            left = max(0, self.power(self.perms[blocker]))
            deathtouch = "deathtouch" in self.perms[blocker]["keywords"]
            lose = "blocker_excess_lost" in self.faults and len(present) > 1
            for i, a in enumerate(present):
                n = left if i == len(present) - 1 and not lose else min(
                    left, self.lethal(self.perms[a], pending, touched, deathtouch))
                if self.own:
                    n = left if i == len(present) - 1 else 0
                if n:
                    assigned.append((blocker, a, n))
                    pending[a] = pending.get(a, 0) + n
                    if deathtouch:
                        touched.add(a)
                left -= n
        self.deal(name, assigned)
        if "toxic_unpowered" in self.faults:
            self.unpowered_toxic(dealers)
        self.state_based_actions(name)

    def unpowered_toxic(self, dealers: set[str]) -> None:
        for attacker, target in self.attacks:
            a = self.perms[attacker]
            blocked = any(attacker in chosen for _, chosen in self.blocks)
            if (attacker in dealers and a["toxic"] and self.power(a) <= 0 and not blocked
                    and target in self.players):
                self.players[target]["poison"] += a["toxic"]

    def lethal(self, p: dict[str, Any], pending: dict[str, int], touched: set[str],
               deathtouch: bool) -> int:
        if p["id"] in touched:
            return 0
        need = max(0, self.toughness(p) - p["damage"] - pending.get(p["id"], 0))
        return min(need, 1) if deathtouch else need

    def attacker_damage(self, aid: str, target: str, pending: dict[str, int],
                        touched: set[str]) -> list[tuple[str, str, int]]:
        a = self.perms[aid]
        left = max(0, self.power(a))
        blockers = [b for b, chosen in self.blocks if aid in chosen]
        present = [b for b in blockers if self.perms[b]["alive"]]
        tramples = bool(TRAMPLE & a["keywords"])
        out: list[tuple[str, str, int]] = []
        if self.own and present:
            for b in reversed(present):
                n = min(left, self.lethal(self.perms[b], pending, touched,
                                          "deathtouch" in a["keywords"]))
                out.append((aid, b, n))
                left -= n
            out.append((aid, present[0], left))
            return self.merged(out)
        for b in present:
            n = min(left, self.lethal(self.perms[b], pending, touched,
                                      "deathtouch" in a["keywords"]))
            if ("deathtouch_marked" in self.faults and tramples and "deathtouch" in a["keywords"]
                    and self.perms[b]["damage"]):
                n = 0
            if n:
                out.append((aid, b, n))
            left -= n
        if not left:
            return out
        if blockers and not tramples:
            if present and "excess_lost" not in self.faults:
                out.append((aid, present[-1], left))
            return self.merged(out)
        if target not in self.players and not self.alive(target):
            if "trample over planeswalkers" in a["keywords"]:
                out.append((aid, self.defender, left))
            elif present:
                out.append((aid, present[-1], left))
            return self.merged(out)
        walker = self.perms.get(target)
        if walker and "trample over planeswalkers" in a["keywords"]:
            to_walker = min(left, max(0, walker["loyalty"] - pending.get(target, 0)))
            if to_walker:
                out.append((aid, target, to_walker))
            if left - to_walker:
                out.append((aid, walker["controller"], left - to_walker))
            return self.merged(out)
        out.append((aid, target, left))
        return self.merged(out)

    @staticmethod
    def merged(out: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
        totals: dict[tuple[str, str], int] = {}
        for source, target, n in out:
            totals[(source, target)] = totals.get((source, target), 0) + n
        return [(s, t, n) for (s, t), n in totals.items() if n]

    def protected(self, target: str, source: dict[str, Any]) -> bool:
        if "no_prevention" in self.faults:
            return False
        protection = (self.players[target]["protection"] if target in self.players
                      else self.perms[target]["protection"])
        qualities = source["colors"] | source["types"] | {source["controller"]}
        return "everything" in protection or bool(protection & qualities)

    def deal(self, step: str, assigned: list[tuple[str, str, int]]) -> None:
        gains: dict[str, int] = {}
        for sid, target, n in assigned:
            source = self.perms[sid]
            prevented = self.protected(target, source)
            self.result["damage"].append({"step": step, "source": sid, "target": target,
                                          "amount": n, "prevented": n if prevented else 0})
            if prevented:
                continue
            infect = "infect" in source["keywords"]
            if target in self.players:
                player = self.players[target]
                if infect:
                    player["poison"] += n
                else:
                    player["life"] -= n
                player["poison"] += source["toxic"]
            else:
                p = self.perms[target]
                if "creature" in p["types"]:
                    if infect or "wither" in source["keywords"]:
                        p["-1/-1"] += n
                    else:
                        p["damage"] += n
                    countered = infect or "wither" in source["keywords"]
                    if "deathtouch" in source["keywords"] and not (
                            countered and "deathtouch_counters" in self.faults):
                        p["deathtouched"] = True
                if "planeswalker" in p["types"]:
                    p["loyalty"] = max(0, p["loyalty"] - n)
            if "lifelink" in source["keywords"]:
                gains[sid] = gains.get(sid, 0) + n
        for sid, n in gains.items():
            player = self.perms[sid]["controller"]
            self.players[player]["life"] += n
            self.result["life_gained"].append({"step": step, "player": player, "amount": n,
                                               "source": sid})

    def state_based_actions(self, step: str) -> None:
        while True:
            happened = False
            losing = set()
            for pid, player in self.players.items():
                if not player["lost"] and (player["life"] <= 0 or player["poison"] >= 10):
                    player["lost"] = happened = True
                    losing.add(pid)
                    self.result["losses"].append({"step": step, "player": pid})
            dying = []
            for pid, p in self.perms.items():
                if not p["alive"] or ("survivors" in self.faults and p["controller"] in losing):
                    continue
                if "creature" in p["types"]:
                    t = self.toughness(p)
                    if t <= 0 or ("indestructible" not in p["keywords"]
                                  and (p["damage"] >= t or p["deathtouched"])):
                        dying.append(pid)
                if "planeswalker" in p["types"] and p["loyalty"] <= 0:
                    dying.append(pid)
                both = min(p["+1/+1"], p["-1/-1"])
                if both:
                    p["+1/+1"] -= both
                    p["-1/-1"] -= both
                    happened = True
            for pid in dict.fromkeys(dying):
                self.perms[pid]["alive"] = False
                self.result["deaths"].append({"step": step, "permanent": pid})
                happened = True
            for p in self.perms.values():
                p["deathtouched"] = False
            if not happened or ("survivors" in self.faults and losing):
                return  # with `survivors`, a loss ends the checks: the game is over

    @staticmethod
    def _marks(p: dict[str, Any]) -> tuple[int, dict[str, int]]:
        counters = {k: p[k] for k in ("+1/+1", "-1/-1", "loyalty") if p[k]}
        return p["damage"], counters

    def outcome(self) -> dict[str, Any]:
        losers = [p for p, v in self.players.items() if v["lost"]]
        changed = {}
        for pid, p in self.perms.items():
            if p["alive"] and self._marks(p) != self.start[pid]:
                damage, counters = self._marks(p)
                changed[pid] = {"damage": damage, "counters": counters}
        return {**self.result,
                "players": {p: {"life": v["life"], "poison": v["poison"]}
                            for p, v in self.players.items()},
                "permanents": changed,
                "game_over": {"step": self.result["steps"][-1],
                              "winners": [p for p in self.players if p not in losers],
                              "losers": losers} if losers else None}
