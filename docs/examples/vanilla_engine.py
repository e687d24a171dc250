"""A small combat engine run as a program of its own, as an engine in another language would
be: it reads one scenario a line on standard input and writes one outcome a line.

It knows creatures, the abilities that change only who may block (flying, reach, menace …),
trample, deathtouch, lifelink and indestructible, +1/+1 and -1/-1 counters and damage
already marked. Anything else it answers {"unsupported": "why"}: first strike, a blocker of
two attackers … It divides a blocked creature's damage its own way, all of it to its last
blocker (a trampler too); a blocker deals its damage to the attacker it blocks.
"""

import json
import sys

KNOWN = {"flying", "reach", "menace", "fear", "intimidate", "shadow", "horsemanship",
         "skulk", "can't block", "can't be blocked", "defender", "trample", "deathtouch",
         "lifelink", "indestructible"}


def unsupported(scenario):
    """Why this engine cannot play the scenario, or None."""
    for permanent in scenario["permanents"]:
        if permanent.get("types", ["creature"]) != ["creature"]:
            return "only creatures"
        for keyword in permanent.get("keywords", []):
            name = keyword if isinstance(keyword, str) else next(iter(keyword))
            if name not in KNOWN:
                return f"no {name}"
    if any(len(block["attackers"]) > 1 for block in scenario.get("blocks", [])):
        return "a blocker blocks one attacker"
    return None


def play(scenario):
    """The outcome of the scenario's combat damage step."""
    creatures = {p["id"]: p for p in scenario["permanents"]}
    life = {p["id"]: p.get("life", 20) for p in scenario["players"]}
    poison = {p["id"]: p.get("poison", 0) for p in scenario["players"]}
    marked = {i: p.get("damage", 0) for i, p in creatures.items()}

    def stat(creature, name):
        counters = creature.get("counters", {})
        return creature[name] + counters.get("+1/+1", 0) - counters.get("-1/-1", 0)

    def has(creature_id, keyword):
        return keyword in creatures[creature_id].get("keywords", [])

    damage = []
    for attack in scenario["attacks"]:
        blockers = [b["blocker"] for b in scenario.get("blocks", [])
                    if attack["attacker"] in b["attackers"]]
        target = blockers[-1] if blockers else attack["target"]
        damage.append((attack["attacker"], target, stat(creatures[attack["attacker"]], "power")))
    for block in scenario.get("blocks", []):
        damage.append((block["blocker"], block["attackers"][0],
                       stat(creatures[block["blocker"]], "power")))
    damage = [(source, target, amount) for source, target, amount in damage if amount > 0]
    touched = set()
    for source, target, amount in damage:
        if target in life:
            life[target] -= amount
        else:
            marked[target] += amount
            if has(source, "deathtouch"):
                touched.add(target)
        if has(source, "lifelink"):
            life[creatures[source]["controller"]] += amount
    dead = [i for i, c in creatures.items() if not has(i, "indestructible")
            and (marked[i] >= stat(c, "toughness") or i in touched)]
    losers = [p for p in life if life[p] <= 0 or poison[p] >= 10]
    steps = ["regular"] if scenario["attacks"] else []
    return {
        "steps": steps,
        "damage": [{"step": "regular", "source": s, "target": t, "amount": n}
                   for s, t, n in damage],
        "deaths": [{"step": "regular", "permanent": i} for i in dead],
        "losses": [{"step": "regular", "player": p} for p in losers],
        "players": {p: {"life": life[p], "poison": poison[p]} for p in life},
        "game_over": {"step": "regular", "winners": [p for p in life if p not in losers],
                      "losers": losers} if losers else None,
    }


for line in sys.stdin:
    scenario = json.loads(line)
    why = unsupported(scenario)
    print(json.dumps({"unsupported": why} if why else play(scenario)), flush=True)
