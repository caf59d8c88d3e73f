"""A slow, obvious, pure-Python reference of the euchre rules.

This is the "slow twin" the numba kernels are tested against.  It follows
``docs/rules.md`` (rule ids R1..R13) and ``docs/choices.md`` (C1..C6) and
imports nothing from ``euchresim``: cards are plain strings (``"JH"``,
``"JK"``), hands are lists, and every rule is spelt out once, in order.

Public API::

    replay(record: dict) -> dict     # {"maker", "trump", "trick_winners", "tricks", "points"}
    RefError(step, rule)             # ValueError; .step e.g. "plays[7]", .rule e.g. "R10"

``replay`` checks a hand record (``docs/hand-record.md``) step by step and
raises :class:`RefError` at the first step that breaks a rule.  Static
problems (field shapes, card text, the pack) are found in the order of the
record's fields, with the field path as the step (``hands[2][3]``,
``kitty``), as the record reader does; then the hand is played through:
joker suit, calls, alone, discard, dummy, plays, score.
"""

SUITS = "CDHS"
RANKS = "789TJQKA"                  # lowest first
JOKER = "JK"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}

# Rule options (a hand record's "rules", docs/hand-record.md): default value, rule id.
OPTIONS = {
    "stick_the_dealer": (False, "R6"),
    "defend_alone": (False, "R8"),
    "joker_upcard": ("dealer-names", "R7"),
    "both_alone_lead": ("defender", "R10"),
    "game_to": (10, "R12"),
    "cutthroat_tie": ("maker", "R12"),
    "scoring": (None, "R11"),
}

# R11, copied as literals: points by case, indexed by the makers' tricks 0..5.
# "makers": each seat of the making side; "defenders": each defender.
SCORING = {
    "partnership": {"makers": [0, 0, 0, 1, 1, 2], "defenders": [2, 2, 2, 0, 0, 0]},
    "alone": {"makers": [0, 0, 0, 1, 1, 4], "defenders": [2, 2, 2, 0, 0, 0]},
    "alone_vs_lone_defender": {"makers": [0, 0, 0, 1, 1, 4], "defenders": [4, 4, 4, 0, 0, 0]},
    "two_hand": {"makers": [0, 0, 0, 1, 1, 2], "defenders": [2, 2, 2, 0, 0, 0]},
    "cutthroat": {"makers": [0, 0, 0, 1, 1, 3], "defenders": [2, 2, 2, 0, 0, 0]},
    "cutthroat_lone_defender": {"makers": [0, 0, 0, 1, 1, 3], "defenders": [4, 2, 2, 0, 0, 0]},
}

OUTCOME = ("maker", "trump", "trick_winners", "tricks", "points")


class RefError(ValueError):
    """A record step that breaks a rule: ``step`` (e.g. "plays[7]") and ``rule`` (e.g. "R10")."""

    def __init__(self, step, rule, why=""):
        super().__init__(f"{step}: {why} ({rule})")
        self.step = step
        self.rule = rule


# ------------------------------------------------------------------ cards (R1, R2)

def pack(deck):
    """Every card of a pack of ``deck`` cards (R1), as text."""
    ranks = RANKS if deck in (32, 33) else RANKS[2:]
    cards = [r + s for s in SUITS for r in ranks]
    if deck in (25, 33):
        cards.append(JOKER)
    return cards


def parse_card(text, deck, step):
    """``"TH"`` from ``"th"``, ``"10h"``, ``"TH"``; the joker is ``"JK"`` (R1)."""
    if not isinstance(text, str):
        raise RefError(step, "R1", f"{text!r} is not a card")
    s = text.strip().upper()
    if s.startswith("10"):
        s = "T" + s[2:]
    if s != JOKER and not (len(s) == 2 and s[0] in RANKS and s[1] in SUITS):
        raise RefError(step, "R1", f"{text!r} is not a card")
    if s not in pack(deck):
        raise RefError(step, "R1", f"{s} is not in the {deck}-card pack")
    return s


def suit_in_play(card, trump):
    """The suit a card belongs to once trump is fixed: the joker and the left bower are trump (R2, C4)."""
    if card == JOKER:
        return trump
    if card == "J" + SAME_COLOUR[trump]:
        return trump
    return card[1]


def power(card, trump, led):
    """How strong a card is in a trick whose led suit is ``led`` (R2, R10); 0 cannot win."""
    if card == JOKER:
        return 100
    if card == "J" + trump:
        return 99                      # right bower
    if card == "J" + SAME_COLOUR[trump]:
        return 98                      # left bower
    if card[1] == trump:
        return 50 + RANKS.index(card[0])
    if card[1] == led:
        return 1 + RANKS.index(card[0])
    return 0


# ------------------------------------------------------------------ the record, statically

def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def read_options(record, players, deck):
    given = record.get("rules") or {}
    if not isinstance(given, dict):
        raise RefError("rules", None, "not an object")
    opts = {k: default for k, (default, _) in OPTIONS.items()}
    for key, value in given.items():
        if key not in OPTIONS:
            raise RefError("rules", None, f"unknown option {key!r}")
        opts[key] = value
    ju = opts["joker_upcard"]
    if isinstance(ju, str) and ju.strip().upper() in SUITS:
        opts["joker_upcard"] = ju = ju.strip().upper()
    if ju not in ("dealer-names", "redeal", "C", "D", "H", "S"):
        raise RefError("rules", "R7", f"joker_upcard {ju!r}")
    if ju != "dealer-names" and deck not in (25, 33):
        raise RefError("rules", "R7", "joker_upcard needs a pack with a joker")
    if opts["stick_the_dealer"] not in (True, False):
        raise RefError("rules", "R6", "stick_the_dealer is true or false")
    if opts["defend_alone"] not in (True, False):
        raise RefError("rules", "R8", "defend_alone is true or false")
    if opts["defend_alone"] and players != 4:
        raise RefError("rules", "R9" if players == 3 else "R8", "defend_alone is a 4-player option")
    if opts["both_alone_lead"] not in ("defender", "maker"):
        raise RefError("rules", "R10", "both_alone_lead is defender or maker")
    if opts["both_alone_lead"] != "defender" and players != 3:
        raise RefError("rules", "R10", "both_alone_lead is a 3-player option")
    if opts["game_to"] not in (5, 7, 10) or not is_int(opts["game_to"]):
        raise RefError("rules", "R12", "game_to is 5, 7 or 10")
    if opts["cutthroat_tie"] not in ("maker", "higher", "shared"):
        raise RefError("rules", "R12", "cutthroat_tie is maker, higher or shared")
    if opts["cutthroat_tie"] != "maker" and players != 3:
        raise RefError("rules", "R12", "cutthroat_tie is a 3-player option")
    table = {case: {side: list(row) for side, row in rows.items()} for case, rows in SCORING.items()}
    for case, sides in (opts["scoring"] or {}).items():
        if case not in table or not isinstance(sides, dict):
            raise RefError("rules", "R11", f"scoring case {case!r}")
        for side, row in sides.items():
            ok = side in ("makers", "defenders") and isinstance(row, (list, tuple)) and len(row) == 6
            if not ok or not all(is_int(v) and 0 <= v <= 100 for v in row):
                raise RefError("rules", "R11", f"scoring {case}.{side}")
            table[case][side] = list(row)
    opts["scoring"] = table
    return opts


def read_deal(record, players, deck):
    """Hands, dummy, upcard, kitty: every card of the pack exactly once (R1), 5 a hand (R4)."""
    seen = set()

    def take(value, path, field):
        card = parse_card(value, deck, path)
        if card in seen:
            raise RefError(field, "R1", f"{card} appears twice")
        seen.add(card)
        return card

    def card_list(key, rule):
        value = record.get(key)
        if not isinstance(value, list):
            raise RefError(key, rule, "missing or not a list")
        return value

    hands_in = card_list("hands", "R4")
    if len(hands_in) != players:
        raise RefError("hands", "R4", f"{len(hands_in)} hands for {players} players")
    hands = []
    for s, hand in enumerate(hands_in):
        if not isinstance(hand, list) or len(hand) != 5:
            raise RefError(f"hands[{s}]", "R4", "a hand has 5 cards")
        hands.append([take(c, f"hands[{s}][{i}]", f"hands[{s}]") for i, c in enumerate(hand)])
    dummy = None
    if players == 3:
        dummy_in = card_list("dummy", "R9")
        if len(dummy_in) != 5:
            raise RefError("dummy", "R9", "the dummy has 5 cards")
        dummy = [take(c, f"dummy[{i}]", "dummy") for i, c in enumerate(dummy_in)]
    elif record.get("dummy") is not None:
        raise RefError("dummy", "R9", "only a 3-player deal has a dummy")
    if record.get("upcard") is None:
        raise RefError("upcard", "R4", "missing")
    upcard = take(record["upcard"], "upcard", "upcard")
    kitty_in = card_list("kitty", "R4")
    dealt = 5 * players + (5 if players == 3 else 0) + 1
    if len(kitty_in) != deck - dealt:
        raise RefError("kitty", "R4", f"{len(kitty_in)} cards; the deal leaves {deck - dealt} besides the upcard")
    kitty = [take(c, f"kitty[{i}]", "kitty") for i, c in enumerate(kitty_in)]
    assert len(seen) == deck            # sizes add up and nothing repeats: the whole pack
    return hands, dummy, upcard, kitty


def read_static(record):
    """Everything that can be checked without playing: returns a dict of parsed fields."""
    if not isinstance(record, dict):
        raise RefError("record", None, "not an object")
    players, deck = record.get("players"), record.get("deck")
    if not is_int(players) or players not in (2, 3, 4):
        raise RefError("players", "R3", "2, 3 or 4")
    if not is_int(deck) or deck not in (24, 25, 32, 33):
        raise RefError("deck", "R1", "24, 25, 32 or 33")
    opts = read_options(record, players, deck)
    dealer = record.get("dealer")
    if not is_int(dealer) or not 0 <= dealer < players:
        raise RefError("dealer", "R3", "not a seat")
    hands, dummy, upcard, kitty = read_deal(record, players, deck)

    joker_suit = record.get("joker_suit")
    if joker_suit is not None:
        if not isinstance(joker_suit, str) or joker_suit.strip().upper() not in list(SUITS):
            raise RefError("joker_suit", "R7", "not a suit letter")
        joker_suit = joker_suit.strip().upper()
        if upcard != JOKER:
            raise RefError("joker_suit", "R7", "the upcard is not the joker")
        if opts["joker_upcard"] == "redeal":
            raise RefError("joker_suit", "R7", "a redealt joker has no suit")
        if opts["joker_upcard"] in SUITS and joker_suit != opts["joker_upcard"]:
            raise RefError("joker_suit", "R7", "the rules fix another suit")

    calls = record.get("calls") or []
    if not isinstance(calls, list):
        raise RefError("calls", "R5", "not a list")
    calls = [c.strip().lower() if isinstance(c, str) else c for c in calls]
    for i, c in enumerate(calls):
        if c not in ("pass", "order") and not (isinstance(c, str) and c.upper() in list(SUITS)):
            raise RefError(f"calls[{i}]", "R5", f"{c!r} is not pass, order or a suit")
        if c not in ("pass", "order"):
            calls[i] = c.upper()

    lone_rule = "R9" if players == 3 else "R8"
    alone = record.get("alone") or []
    if not isinstance(alone, list):
        raise RefError("alone", lone_rule, "not a list of seats")
    for i, seat in enumerate(alone):
        if not is_int(seat) or not 0 <= seat < players or seat in alone[:i]:
            raise RefError(f"alone[{i}]", lone_rule, "not a seat, or listed twice")

    discard = record.get("discard")
    if discard is not None:
        discard = parse_card(discard, deck, "discard")

    keep = record.get("dummy_keep")
    if keep is not None:
        if players != 3:
            raise RefError("dummy_keep", "R9", "only a 3-player game has a dummy")
        if not isinstance(keep, list) or len(keep) != 5:
            raise RefError("dummy_keep", "R9", "the maker keeps 5 cards")
        keep = [parse_card(c, deck, f"dummy_keep[{i}]") for i, c in enumerate(keep)]
        if len(set(keep)) != 5:
            raise RefError("dummy_keep", "R9", "a card kept twice")

    plays = record.get("plays") or []
    if not isinstance(plays, list):
        raise RefError("plays", "R10", "not a list of cards")
    plays = [parse_card(c, deck, f"plays[{i}]") for i, c in enumerate(plays)]

    return dict(players=players, deck=deck, opts=opts, dealer=dealer, hands=hands, dummy=dummy,
                upcard=upcard, kitty=kitty, joker_suit=joker_suit, calls=calls, alone=alone,
                discard=discard, dummy_keep=keep, plays=plays)


# ------------------------------------------------------------------ the hand, step by step

def thrown_in(r, rule):
    """A hand nobody made: no lone hands, no discard, no dummy, no plays (R6, R7, C3, C9)."""
    if r["alone"]:
        raise RefError("alone", rule, "the hand was thrown in")
    if r["discard"] is not None:
        raise RefError("discard", rule, "the hand was thrown in")
    if r["dummy_keep"] is not None:
        raise RefError("dummy_keep", rule, "the hand was thrown in")
    if r["plays"]:
        raise RefError("plays[0]", rule, "the hand was thrown in")
    p = r["players"]
    return {"maker": None, "trump": None, "trick_winners": [], "tricks": [0] * p, "points": [0] * p}


def bidding(r, bid_suit):
    """R5, R6: round one on ``bid_suit``, round two names another suit. Returns (maker, trump, round)."""
    p, dealer, calls = r["players"], r["dealer"], r["calls"]
    for i, call in enumerate(calls):
        step = f"calls[{i}]"
        if i >= 2 * p:
            raise RefError(step, "R6", "everyone passed twice: the hand is thrown in")
        seat = (dealer + 1 + i) % p
        if i < p:                                     # round one (R5)
            if call == "order":
                if i + 1 < len(calls):
                    raise RefError(f"calls[{i + 1}]", "R5", "the bidding ended at the acceptance")
                return seat, bid_suit, 1
            if call != "pass":
                raise RefError(step, "R5", "round one is pass or order")
        else:                                         # round two (R6)
            if call == "pass":
                if seat == dealer and r["opts"]["stick_the_dealer"]:
                    raise RefError(step, "R6", "stick the dealer: the dealer must name a suit")
                continue
            if call == "order":
                raise RefError(step, "R6", "round two names a suit")
            if call == bid_suit:
                raise RefError(step, "R6", f"{call} was turned down")
            if i + 1 < len(calls):
                raise RefError(f"calls[{i + 1}]", "R6", "the bidding ended when a suit was named")
            return seat, call, 2
    if len(calls) < 2 * p:
        raise RefError("calls", "R5" if len(calls) < p else "R6", f"bidding unfinished after {len(calls)} calls")
    return None, None, 0


def lone_hands(r, maker):
    """C1 steps 1-2 (R8, R9): who went alone, and who sits out."""
    p, alone = r["players"], r["alone"]
    rule = "R9" if p == 3 else "R8"
    defenders = [s for s in alone if s != maker]
    if p == 2 and alone:
        raise RefError("alone", rule, "nobody goes alone in the 2-hand game")
    if len(defenders) > 1:
        raise RefError("alone", rule, "only one defender may go alone")
    out = set()
    if p == 4:
        partner = (maker + 2) % 4
        if partner in alone:
            raise RefError("alone", rule, "the maker's partner cannot go alone")
        if defenders and not r["opts"]["defend_alone"]:
            raise RefError("alone", rule, "a defender goes alone only with defend_alone")
        if defenders and maker not in alone:
            raise RefError("alone", rule, "a defender goes alone only against a lone maker")
        for s in alone:
            out.add((s + 2) % 4)
    if p == 3 and defenders:
        out.add(3 - maker - defenders[0])             # the other defender
    return defenders[0] if defenders else None, out


def exchange(r, hands, maker, rnd, out, up):
    """C1 step 3, C2 (R5): the dealer's exchange, only after round one and only if not sitting out."""
    dealer, discard = r["dealer"], r["discard"]
    if rnd == 1 and dealer not in out:
        pool = hands[dealer] + [up]
        if discard is None:
            raise RefError("discard", "R5", "the dealer must discard after taking up")
        if discard not in pool:
            raise RefError("discard", "R5", f"{discard} is not in the dealer's hand or the upcard")
        hands[dealer] = [c for c in pool if c != discard]
    elif discard is not None:
        raise RefError("discard", "R5", "no exchange in this hand")


def take_dummy(r, hands, maker):
    """C1 step 4 (R9): a maker not alone keeps 5 of hand (after exchange) + dummy."""
    keep = r["dummy_keep"]
    uses_dummy = r["players"] == 3 and maker not in r["alone"]
    if not uses_dummy:
        if keep is not None:
            raise RefError("dummy_keep", "R9", "the dummy is not used")
        return
    if keep is None:
        raise RefError("dummy_keep", "R9", "the maker takes the dummy and keeps 5")
    pool = hands[maker] + r["dummy"]
    for card in keep:
        if card not in pool:
            raise RefError("dummy_keep", "R9", f"{card} is in neither the maker's hand nor the dummy")
    hands[maker] = list(keep)


def opening_leader(r, maker, lone_defender, out):
    """C5 (R10)."""
    p, alone = r["players"], r["alone"]
    if p == 3 and maker in alone and lone_defender is not None:
        lone = lone_defender if r["opts"]["both_alone_lead"] == "defender" else maker
        seat = (lone + 1) % p
    elif p == 3 and alone:
        seat = (alone[0] + 1) % p
    else:
        seat = (r["dealer"] + 1) % p
    while seat in out:
        seat = (seat + 1) % p
    return seat


def play(r, hands, trump, leader, out):
    """R10: five tricks; follow suit if able; highest trump, else highest of the led suit, wins."""
    p, plays = r["players"], r["plays"]
    active = [s for s in range(p) if s not in out]
    need = 5 * len(active)
    held = {s: list(hands[s]) for s in active}
    winners = []
    i = 0
    for _ in range(5):
        order = [(leader + k) % p for k in range(p) if (leader + k) % p not in out]
        trick = []
        for seat in order:
            if i >= len(plays):
                raise RefError("plays", "R10", f"{len(plays)} plays; the hand needs {need}")
            step, card = f"plays[{i}]", plays[i]
            if card not in held[seat]:
                raise RefError(step, "R10", f"seat {seat} does not hold {card}")
            if trick:
                led = suit_in_play(trick[0][1], trump)
                can_follow = [c for c in held[seat] if suit_in_play(c, trump) == led]
                if can_follow and suit_in_play(card, trump) != led:
                    raise RefError(step, "R10", f"seat {seat} must follow {led}")
            held[seat].remove(card)
            trick.append((seat, card))
            i += 1
        led = suit_in_play(trick[0][1], trump)
        leader = max(trick, key=lambda sc: power(sc[1], trump, led))[0]
        winners.append(leader)
    if len(plays) > need:
        raise RefError(f"plays[{need}]", "R10", "the hand is over after 5 tricks")
    return winners


def score(r, maker, lone_defender, tricks):
    """R11 with C6: every seat of a side shows the side's points."""
    p, alone, table = r["players"], r["alone"], r["opts"]["scoring"]
    if p == 4:
        side = [maker, (maker + 2) % 4]
        if maker in alone:
            case = "alone_vs_lone_defender" if lone_defender is not None else "alone"
        else:
            case = "partnership"
    elif p == 2:
        side, case = [maker], "two_hand"
    else:
        side = [maker]
        case = "cutthroat_lone_defender" if lone_defender is not None else "cutthroat"
    taken = sum(tricks[s] for s in side)
    row = table[case]
    return [row["makers"][taken] if s in side else row["defenders"][taken] for s in range(p)]


def replay(record):
    """Check a hand record against the rules and return what the hand came to.

    Returns ``{"maker", "trump", "trick_winners", "tricks", "points"}``; raises
    :class:`RefError` at the first step that breaks a rule.
    """
    r = read_static(record)
    p, up, opts = r["players"], r["upcard"], r["opts"]
    hands = [list(h) for h in r["hands"]]

    # R7, C3: what round one bids on.
    bid_suit = up[1] if up != JOKER else None
    if up == JOKER:
        if opts["joker_upcard"] == "redeal":
            if r["calls"]:
                raise RefError("calls[0]", "R7", "a joker upcard is redealt: no calls")
            return thrown_in(r, "R7")
        bid_suit = r["joker_suit"] or (opts["joker_upcard"] if opts["joker_upcard"] in SUITS else None)
        if bid_suit is None:
            raise RefError("joker_suit", "R7", "the dealer names a suit for the joker upcard")

    maker, trump, rnd = bidding(r, bid_suit)
    if maker is None:
        return thrown_in(r, "R6")
    lone_defender, out = lone_hands(r, maker)
    exchange(r, hands, maker, rnd, out, up)
    take_dummy(r, hands, maker)
    leader = opening_leader(r, maker, lone_defender, out)
    winners = play(r, hands, trump, leader, out)
    tricks = [winners.count(s) for s in range(p)]
    return {"maker": maker, "trump": trump, "trick_winners": winners, "tricks": tricks,
            "points": score(r, maker, lone_defender, tricks)}
