"""Bots written against ``policies.decision.Decision`` for tests/test_decision.py (importable as tests.decision_bots)."""
from euchresim.policies import param
from euchresim.policies.decision import bot


@bot
def all_heuristic(d):
    return d.fallback("heuristic")


@bot
def all_baseline(d):
    return d.fallback("baseline")


@bot
def all_random(d):
    return d.fallback("random")


@bot
def by_name(d):
    """heuristic's choice, handed back by its name (a string), not the Action."""
    return d.fallback("heuristic").name


@bot
def low_leads(d):
    if d.phase == "play" and d.leading:
        return min(d.legal, key=d.strength)
    return d.fallback("heuristic")


@bot
def says_nonsense(d):
    return "shuffle the deck"


@bot
def falls_back_to_pimc(d):
    return d.fallback("pimc")


@bot(params=(param("order_at", 6.0, 0.0, 30.0, "heuristic's order_1 .. order_4"),))
def ordering(d):
    v = d.params["order_at"]
    return d.fallback(f"heuristic:order_1={v}:order_2={v}:order_3={v}:order_4={v}")


@bot
def drawn(d):
    return d.choice()
