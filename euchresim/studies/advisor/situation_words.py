"""What a player types about a hand, read once: the seat by where it sits, cards, calls, a game score.

The advisor's command line and any library caller read a player's words the
same way (docs/advise.md, "Seats and cards", lists every spelling):
``situation_from_words`` turns the words of ``euchresim advise``'s options
into a ``Situation``, ``read_record_line`` reads its ``--record FILE
--line N``; each refusal is an AdviceError of one line naming the option,
which the command line prints as it is.
"""
from __future__ import annotations

from euchresim.actions import CALL_SYNONYMS


def _refuse(message: str) -> ValueError:
    """The advisor's one-line refusal (studies.advisor.situation.AdviceError), imported only when raised: reading
    the words must not load the engine (``euchresim --help`` imports this module)."""
    from euchresim.studies.advisor.situation import AdviceError
    return AdviceError(message)


# the table the answer assumes by default: the model closest to people (docs/policies.md, heuristic:human), and
# the strong bot whose answer is shown beside it when the two differ (it calls far more than people do)
PEOPLE = "heuristic:human"
BOTS = "heuristic"
TABLES = {PEOPLE: "the other seats call as people do at online tables",
          BOTS: "the other seats are bots that call far more than people"}

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
    """``--score``: the score before this hand, side by side from the seat's side (rules.read_scores), as many
    as there are sides, each short of the game."""
    from euchresim.rules import read_scores
    if text is None:
        return None
    scores = read_scores(text)
    want = 2 if players == 4 else players
    if scores is None or len(scores) != want:
        who = "us-them" if players == 4 else "-".join(["seat"] + ["next"] * (players - 1))
        raise _refuse(f"--score {text!r}: give {want} scores, {who} (e.g. {'-'.join(['6'] * want)})")
    vals = list(scores)
    if any(v >= target for v in vals):
        raise _refuse(f"--score {text!r}: a score of {max(vals)} has already won a game to {target} (R12)")
    return vals



_NONE = object()          # no line read yet (a line may hold JSON's null)


def read_record_line(path, line: int):
    """The hand record on ``line`` (from 1) of the file ``path``, parsed (records/format.py); each failure one
    AdviceError naming --line or --record, as ``euchresim advise --record`` says it."""
    from euchresim.records.format import RecordError, parse_record
    from euchresim.records.jsonl import iter_jsonl
    if line < 1:
        raise _refuse(f"--line {line}: lines are numbered from 1")
    n, found = 0, _NONE
    try:
        for n, obj in iter_jsonl(path):
            if n == line:
                found = obj
                break
    except OSError as e:
        raise _refuse(f"--record {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise _refuse(f"--record {path}: {e}") from None
    if found is _NONE:
        raise _refuse(f"--record {path}: there is no line {line} (the file has {n} lines)")
    try:
        return parse_record(found)
    except RecordError as e:
        raise _refuse(f"{path}:{line}: {e}") from None


def _hand_and_upcard(rules, hand, upcard) -> tuple:
    """The seat's five cards and the upcard, each checked (R4)."""
    cards = parse_cards(hand, "--hand", rules.deck)
    if len(cards) != 5:
        raise _refuse(f"--hand: {len(cards)} cards given; a hand is 5 (R4)")
    up = parse_cards(upcard, "--upcard", rules.deck)
    if len(up) != 1:
        raise _refuse("--upcard: give one card")
    if up[0] in cards:
        raise _refuse(f"--upcard: {upcard.strip().upper()} is also in --hand")
    return cards, up[0]


def _discard_and_dummy(rules, cards, up, discard, dummy) -> tuple:
    """The dealer's discard (-1: none) and Cutthroat's dummy (a mask, 0: none), each checked (R9)."""
    out_discard = -1
    if discard:
        d = parse_cards(discard, "--discard", rules.deck)
        if len(d) != 1 or (d[0] not in cards and d[0] != up):
            raise _refuse("--discard: one card of the dealer's hand or the upcard")
        out_discard = d[0]
    out_dummy = 0
    if dummy:
        if rules.players != 3:
            raise _refuse("--dummy: only Cutthroat (--players 3) has a dummy (R9)")
        dc = parse_cards(dummy, "--dummy", rules.deck)
        if len(dc) != 5 or set(dc) & (set(cards) | {up}):
            raise _refuse("--dummy: five cards, none of them in --hand or the upcard (R9)")
        out_dummy = sum(1 << c for c in dc)
    return out_discard, out_dummy


def situation_from_words(rules, hand, upcard, seat, rnd="1", calls=None, decision=None, discard=None, alone=None,
                         dummy=None, score=None):
    """The situation a player describes as ``euchresim advise`` reads it (``--hand``, ``--upcard``, ``--seat``,
    ``--round``, ``--calls``, ``--decision``, ``--discard``, ``--alone``, ``--dummy``, ``--score``: the same
    words, e.g. ``situation_from_words(Rules(), "JH JD AH KS 9C", "TH", "left")``); each refusal the one-line
    AdviceError the command prints."""
    from euchresim.studies.advisor.situation import default_calls, from_hand, seat_of
    if not hand or not upcard or seat is None:
        what = [n for n, v in (("--hand", hand), ("--upcard", upcard), ("--seat", seat)) if not v]
        up = (" (in round two the upcard is the card turned down)" if "--upcard" in what and str(rnd) == "2"
              else "")
        raise _refuse(f"give {', '.join(what)}{up} (or --record FILE)")
    cards, up = _hand_and_upcard(rules, hand, upcard)
    pos = parse_position(seat, rules.players)
    said = parse_calls(calls) if calls is not None else default_calls(int(rnd), pos, rules.players)
    if calls is not None and int(rnd) == 2 and len(said) < rules.players:
        raise _refuse(f"--round 2: the calls must include round one's {rules.players} passes")
    out_discard, out_dummy = _discard_and_dummy(rules, cards, up, discard, dummy)
    sc = parse_score(score, rules.players, rules.game_to)
    out_alone = 0
    for name in (alone or "").replace(",", " ").split():
        out_alone |= 1 << seat_of(parse_position(name, rules.players), 0, rules.players)
    return from_hand(rules, sum(1 << c for c in cards), up, pos, tuple(said), sc, decision, discard=out_discard,
                     dummy=out_dummy, alone=out_alone)
