"""Combat keywords of a small engine, written against the rules of February 2009."""


def protection_applies(permanent, source):
    """CR 502.7a-c: protection from a quality."""
    return source.quality in permanent.protections


def assign_trample_damage(attacker, blockers):
    # rules 502.9a-c: lethal damage to each blocker first, the rest to the player
    return attacker.power - sum(b.toughness for b in blockers)


def flanking_trigger(attacker, blocker):
    # CR 502.3a
    return "flanking" not in blocker.keywords
