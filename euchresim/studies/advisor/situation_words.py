"""What a player types about a hand, read once: the seat by where it sits, cards, calls, a game score.

The advisor's command line and any library caller read a player's words the
same way (docs/advise.md, "Seats and cards", lists every spelling); each
refusal is an AdviceError of one line naming the option, which the command
line prints as it is.
"""
from __future__ import annotations

from euchresim.actions import CALL_SYNONYMS


def _refuse(message: str) -> ValueError:
    """The advisor's one-line refusal (studies.advisor.situation.AdviceError), imported only when raised: reading
    the words must not load the engine (``euchresim --help`` imports this module)."""
    from euchresim.studies.advisor.situation import AdviceError
    return AdviceError(message)

POSITIONS = {
    4: {"dealer": 0, "left": 1, "partner": 2, "right": 3},
    3: {"dealer": 0, "left": 1, "right": 2},
    2: {"dealer": 0, "opponent": 1},
}
# what players also say at the table, each the same seat as its POSITIONS name (docs/advise.md, "Naming the
# seat", lists them all and a test holds the two equal). "First hand" speaks first: the dealer's left; then
# the dealer's partner, the dealer's right and the dealer, in the bidding's order.
SYNONYMS = {
    4: {"first hand": "left", "first": "left", "eldest": "left", "eldest hand": "left", "leader": "left",
        "dealer's left": "left", "dealers left": "left",
        "second hand": "partner", "second": "partner", "pard": "partner", "dealer's partner": "partner",
        "dealers partner": "partner",
        "third hand": "right", "third": "right", "dealer's right": "right", "dealers right": "right",
        "fourth hand": "dealer", "fourth": "dealer"},
    3: {"first hand": "left", "first": "left", "eldest": "left", "eldest hand": "left", "dealer's left": "left",
        "dealers left": "left",
        "second hand": "right", "second": "right", "dealer's right": "right", "dealers right": "right",
        "third hand": "dealer", "third": "dealer"},
    2: {"non dealer": "opponent", "first hand": "opponent", "first": "opponent", "eldest": "opponent",
        "pone": "opponent",
        "left": "opponent", "second hand": "dealer", "second": "dealer"},
}


def seat_words(text: str) -> str:
    """A seat's name as the tables above spell it: lower case, one space for any run of spaces, - or _."""
    return " ".join(text.strip().lower().replace("\u2019", "'").replace("_", " ").replace("-", " ").split())


def parse_position(text: str, players: int) -> int:
    """A seat by where it sits from the dealer: numbers are refused, as a record's seat numbers are absolute."""
    names = POSITIONS[players]
    t = seat_words(text)
    t = SYNONYMS[players].get(t, t)
    if t in names:
        return names[t]
    if t.isdigit() or t.startswith("seat"):
        raise _refuse(f"--seat {text!r}: name the seat by where it sits from the dealer ({', '.join(names)}): "
                         "a seat number is a record's, and names another seat when another seat deals")
    raise _refuse(f"--seat {text!r}: one of {', '.join(names)} (or {', '.join(SYNONYMS[players])}) with "
                     f"{players} players")


def parse_cards(text: str, option: str, deck: int) -> list[int]:
    from euchresim.cards import CardError, parse_card
    out = []
    for t in text.replace(",", " ").split():
        try:
            c = parse_card(t, deck)
        except CardError as e:
            raise _refuse(f"{option}: {e}") from None
        if c in out:
            raise _refuse(f"{option}: {t.upper()} is given twice")
        out.append(c)
    return out


# the calls as advise and show print them, beside the record's words (pass, order, a suit letter)
CALL_WORDS = CALL_SYNONYMS          # euchresim.actions, the one table of action names


def parse_calls(text: str | None) -> list[int]:
    from euchresim.records.format import RecordError, parse_call
    if not text:
        return []
    out = []
    for k, t in enumerate(text.split(",")):
        word = " ".join(t.strip().lower().split())
        try:
            out.append(parse_call(CALL_WORDS.get(word, t.strip())))
        except (RecordError, ValueError):
            raise _refuse(f"--calls: call {k + 1} ({t.strip()!r}) is not pass, order or a suit (its letter or "
                             "name: H or hearts) (R5, R6)") from None
    return out


def parse_score(text: str | None, players: int, target: int):
    if text is None:
        return None
    parts = text.replace(":", "-").split("-")
    want = 2 if players == 4 else players
    if len(parts) != want or not all(p.strip().isdigit() for p in parts):
        who = "us-them" if players == 4 else "-".join(["seat"] + ["next"] * (players - 1))
        raise _refuse(f"--score {text!r}: give {want} scores, {who} (e.g. {'-'.join(['6'] * want)})")
    vals = [int(p) for p in parts]
    if any(v >= target for v in vals):
        raise _refuse(f"--score {text!r}: a score of {max(vals)} has already won a game to {target} (R12)")
    return vals
