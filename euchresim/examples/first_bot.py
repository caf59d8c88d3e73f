"""A first bot: never go alone, lead the lowest card, and let heuristic decide everything else."""
from euchresim.policies import bot


@bot
def cautious(d):
    if d.phase == "alone":
        return "not alone"
    if d.phase == "play" and d.leading:
        return min(d.legal, key=d.strength)
    return d.fallback("heuristic")
