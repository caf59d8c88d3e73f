// The practice table's page: draws /api/state, sends the player's clicks; the server decides what is legal.
"use strict";

const SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const KIND = { calls: "call", leads: "lead", follows: "follow", discards: "discard" };
const PACE = { slow: 1100, normal: 650, fast: 250, instant: 0 };     // ms between two bots' cards
const PACE_KEY = "euchresim.pace";
let pace = PACE[localStorage.getItem(PACE_KEY)] !== undefined ? localStorage.getItem(PACE_KEY) : "normal";
let state = null;     // the table as the server last sent it: what the player's clicks act on
let view = null;      // the table as drawn: the server's, or an earlier moment of it while the bots' cards arrive
let shown = null;     // { hand, plays }: how many of the hand's cards the page shows so far
let timer = null;
let busy = false;
let poll = null;
const opened = {};    // the hands' verdicts the player opened or closed by hand: kept over redraws
let chosen = { at: "", cards: new Set() };   // a Cutthroat keep's cards picked so far, at "hand:step": kept over redraws
// where each seat sits around the table, by players: the player at the bottom, then clockwise
const POSITIONS = { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] };
// said once under a hand's verdicts judged after each decision, not on each of them
const NOW_NOTE = "judged at once, on the hand so far: the hand's own verdicts take their place when it ends";

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardText(card) {
  return card === "JK" ? "JK" : card.slice(0, -1).replace("T", "10") + SYMBOL[card.slice(-1)];
}

function cardSpan(card) {
  const red = card !== "JK" && "DH".includes(card.slice(-1));
  const s = el("span", { class: "card" + (red ? " red" : ""), "data-card": card }, cardText(card));
  return s;
}

function seatName(seat) {
  return view.seats[seat];
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body) });
    if (r.ok) {
      document.getElementById("why").textContent = "";
      receive(await r.json());
    } else {
      document.getElementById("why").textContent = (await r.text()).trim();
      await refresh();
    }
  } finally {
    busy = false;
  }
}

async function refresh() {
  const r = await fetch("/api/state");
  if (r.ok) receive(await r.json());
}

function act(option) {
  const why = document.getElementById("why");
  if (!option.legal) {            // the page refuses it itself, and says why
    why.textContent = option.why;
    return;
  }
  send("/api/act", { hand: state.hand, step: state.step, action: option.code });
}

function capital(name) {
  return name[0].toUpperCase() + name.slice(1);
}

function drawDummy(box) {
  // Cutthroat's dummy sits across from the player, where a partner would: face down, taken up, or set aside
  box.hidden = view.players !== 3;
  box.dataset.pos = "top";
  box.classList.add("dummy");
  box.classList.remove("to-act");
  if (view.players === 3) box.append(el("div", { class: "name" }, "Dummy"), el("div", { class: "bid" }, view.dummy));
}

function drawSeats() {
  const trick = view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
  const current = trick && trick.winner === null ? trick : null;
  const positions = POSITIONS[view.players];
  for (let seat = 0; seat < 4; seat++) {
    const box = document.getElementById("seat-" + seat);
    box.replaceChildren();
    if (seat >= view.players) {           // no such seat: the dummy's place in Cutthroat, else nothing
      if (seat === 3) drawDummy(box); else box.hidden = true;
      continue;
    }
    box.hidden = false;
    box.classList.remove("dummy");
    box.dataset.pos = positions[seat];
    box.classList.toggle("to-act", view.turn === seat);
    const name = el("div", { class: "name" }, seat === 0 ? "You" : capital(seatName(seat)));
    if (view.dealer === seat) name.append(el("span", { class: "tag" }, "dealer"));
    if (view.maker === seat) name.append(el("span", { class: "tag" }, "maker"));
    if (view.alone.includes(seat)) name.append(el("span", { class: "tag" }, "alone"));
    if (view.sitting_out.includes(seat)) name.append(el("span", { class: "tag" }, "sits out"));
    box.append(name);
    const bids = view.bidding.filter(b => b.seat === seat).map(b => b.call);
    if (bids.length) box.append(el("div", { class: "bid" }, bids.join(", ")));
    const played = current ? current.cards.find(c => c.seat === seat) : null;
    const slot = el("div", { class: "played", "data-seat": seat });
    if (played) slot.append(cardSpan(played.card));
    box.append(slot);
  }
}

function drawCentre() {
  // the upcard stays in view all hand, with what became of it; then trump, the tricks each side has won
  const up = document.getElementById("upcard");
  up.replaceChildren(el("span", {}, "upcard "), cardSpan(view.upcard));
  const rest = view.upcard_note.split(", ").slice(1).join(", ");
  if (rest) up.append(el("span", { class: "fate" }, rest));
  if (view.trump) up.append(el("div", { class: "trump" }, "trump: " + view.trump + " (" + seatName(view.maker) + ")"));
  const won = document.getElementById("tricks-won");
  won.textContent = view.maker === null ? "" :
    "tricks: " + view.parties.map((name, p) => name + " " + view.tricks_won[p]).join(", ");
  document.getElementById("partnership").textContent = view.partnership || "";
  const trick = document.getElementById("trick");
  trick.replaceChildren();
  const last = view.tricks.filter(t => t.winner !== null).pop();
  const open = view.tricks.length && view.tricks[view.tricks.length - 1].winner === null;
  if (last && !open) {
    trick.append(el("div", { class: "last" }, "last trick to " + seatName(last.winner) + ":"));
    for (const c of last.cards) {
      const who = el("span", { class: "played-by", "data-seat": c.seat }, seatName(c.seat) + " ");
      who.append(cardSpan(c.card));
      trick.append(who);
    }
  }
  const turn = document.getElementById("turn");
  turn.textContent = view.done ? "the hand is over" : view.turn === 0 ? "your turn" : seatName(view.turn) + " to act";
}

function drawYou() {
  const hand = document.getElementById("hand");
  const calls = document.getElementById("calls");
  hand.replaceChildren();
  calls.replaceChildren();
  document.getElementById("prompt").textContent = view.prompt || "";
  if (view.options && view.keep) { drawKeep(hand, calls); drawEnd(); return; }
  const cardOptions = {};
  const isCards = view.options && (view.phase === "play" || view.phase === "discard");
  if (isCards) for (const o of view.options) cardOptions[o.label] = o;
  const cards = isCards ? view.options.map(o => o.label) : view.your_hand;
  for (const card of cards) {
    const o = cardOptions[card];
    if (o) {
      const b = el("button", { class: "card " + (o.legal ? "legal" : "illegal"), "data-card": card,
                               "aria-disabled": String(!o.legal), title: o.legal ? "play " + cardText(card) : o.why },
                   cardText(card));
      if (card !== "JK" && "DH".includes(card.slice(-1))) b.classList.add("red");
      b.addEventListener("click", () => act(o));
      hand.append(b);
    } else {
      hand.append(cardSpan(card));
    }
  }
  if (view.options && !isCards) {
    for (const o of view.options) {
      const b = el("button", { class: o.legal ? "legal" : "illegal", "data-code": o.code,
                               "aria-disabled": String(!o.legal), title: o.legal ? "" : o.why }, o.label);
      b.addEventListener("click", () => act(o));
      calls.append(b);
    }
  }
  drawEnd();
}

function drawEnd() {
  document.getElementById("result").textContent = view.result || "";
  const next = document.getElementById("next");
  next.hidden = !view.done;
  if (view.game_over !== null && view.game_over !== undefined && view.game_over_text) {
    document.getElementById("result").textContent += ". Game over: " + view.game_over_text + ".";
    next.textContent = "New game";
  } else {
    next.textContent = "Next hand";
  }
}

function drawKeep(hand, calls) {
  // Cutthroat's keep: the ten cards are toggles, and Keep sends the five picked as one board (the server judges it)
  const at = view.hand + ":" + view.step;
  if (chosen.at !== at) chosen = { at, cards: new Set() };
  for (const o of view.options) {
    const on = chosen.cards.has(o.code);
    const b = el("button", { class: "card legal keep-card" + (o.from === "dummy" ? " from-dummy" : "") +
                             (on ? " chosen" : ""), "data-card": o.label, "data-code": o.code,
                             "aria-pressed": String(on), title: (on ? "put back " : "keep ") + cardText(o.label) +
                             (o.from === "dummy" ? " (from the dummy)" : "") }, cardText(o.label));
    if (o.label !== "JK" && "DH".includes(o.label.slice(-1))) b.classList.add("red");
    b.addEventListener("click", () => {
      if (chosen.cards.has(o.code)) chosen.cards.delete(o.code); else chosen.cards.add(o.code);
      drawYou();
    });
    hand.append(b);
  }
  const n = chosen.cards.size;
  calls.append(el("span", { id: "keep-count" }, n + " of " + view.keep + " chosen "));
  const keep = el("button", { id: "keep-button", class: n === view.keep ? "legal" : "illegal" }, "Keep");
  keep.disabled = n !== view.keep;
  keep.addEventListener("click", () => {
    const board = [...chosen.cards].reduce((t, c) => t + 2 ** c, 0);    // 33 bits: beyond JavaScript's << 
    send("/api/act", { hand: state.hand, step: state.step, action: board });
  });
  calls.append(keep, el("div", { class: "keep-note" }, "dashed: the dummy's five cards"));
}

function drawStory() {
  const bidding = document.getElementById("bidding");
  bidding.replaceChildren();
  for (const b of view.bidding) bidding.append(el("li", {}, "round " + b.round + ": " + seatName(b.seat) + " " + b.call));
  const tricks = document.getElementById("tricks");
  tricks.replaceChildren();
  view.tricks.forEach((t, i) => {
    const li = el("li", { class: "trick" }, "trick " + (i + 1) + ": ");
    for (const c of t.cards) { li.append(seatName(c.seat) + " "); li.append(cardSpan(c.card)); }
    if (t.winner !== null) li.append(" \u2014 " + (t.winner === 0 ? "you win" : seatName(t.winner) + " wins"));
    tricks.append(li);
  });
}

function fmt(x) { return (x >= 0 ? "+" : "") + x.toFixed(2); }

function verdictRow(r, cls, text, marked) {
  return el("div", { class: "verdict " + cls, "data-step": r.step }, text + (marked ? " *" : ""));
}

function handVerdicts(index, v, latest, note) {
  // one hand's verdicts, folded unless it is the latest hand or the player opened it; a note said once
  const box = el("details", { class: "hand-verdicts", "data-hand": index });
  box.open = index in opened ? opened[index] : Number(index) === latest;
  const rows = v.status === "done" ? v.rows : v.now.filter(r => !r.error);
  const given = rows.reduce((t, r) => t + (r.gave_up || 0), 0);
  const head = v.status === "done" ? (rows.length ? ": " + given.toFixed(2) + " points given up" : "") :
    v.status === "failed" ? ": the advisor failed" : v.status === "playing" ? ": being played" : ": judging";
  const summary = el("summary", {}, "hand " + (Number(index) + 1) + head);
  summary.addEventListener("click", () => { opened[index] = !box.open; });
  box.append(summary);
  const unnarrowed = rows.filter(r => r.inference === false).length;
  const mark = unnarrowed > 0 && unnarrowed < rows.length;
  if (v.status !== "done") {           // verdicts given at once, before the hand's own
    for (const r of v.now) {
      const cls = r.error ? "failed" : r.did === r.best || r.gave_up === 0 ? "best" : "cost";
      box.append(verdictRow(r, "now " + cls, r.error ? "the advisor failed: " + r.error : r.text,
                            mark && r.inference === false));
    }
    if (v.now_waiting) box.append(el("div", { class: "verdict waiting" }, "judging your last decision\u2026"));
    if (v.now.length) box.append(el("div", { class: "verdict hand-note now-note" }, NOW_NOTE));
  }
  if (v.status === "failed") box.append(el("div", { class: "verdict failed" }, "the advisor failed: " + v.error));
  else if (v.status === "waiting" || v.status === "running") {
    box.append(el("div", { class: "verdict waiting" }, v.status === "running" ? "judging\u2026" : "waiting\u2026"));
  } else if (v.status === "done" && !v.rows.length) {
    box.append(el("div", { class: "verdict" }, "none of your decisions had a choice"));
  }
  if (v.status === "done") {
    for (const r of v.rows) {
      const cls = r.did === r.best || r.gave_up === 0 ? "best" : "cost";
      box.append(verdictRow(r, cls, r.text, mark && !r.inference));
    }
  }
  if (unnarrowed) box.append(el("div", { class: "verdict hand-note" }, (mark ? "* " : "") + note));
  return box;
}

function drawAdvice() {
  const advice = view.advice;
  const box = document.getElementById("verdicts");
  const progress = document.getElementById("progress");
  box.replaceChildren();
  document.getElementById("each-label").hidden = !advice;
  if (!advice) { box.textContent = "the advisor is off (--no-advice)"; progress.hidden = true; return; }
  const hands = Object.entries(advice.hands).sort((a, b) => b[0] - a[0]);
  const ended = hands.filter(([, v]) => v.status !== "playing");
  const total = ended.length, judged = ended.filter(([, v]) => v.status === "done" || v.status === "failed").length;
  document.getElementById("each").checked = view.each_decision;
  progress.hidden = advice.pending === 0;
  document.getElementById("progress-text").replaceChildren(
    "judging your decisions: " + judged + " of " + total + " hands judged ",
    el("progress", { max: String(total), value: String(judged) }));
  const latest = hands.length ? Number(hands[0][0]) : -1;
  for (const [index, v] of hands) box.append(handVerdicts(index, v, latest, advice.no_inference));
  const body = document.querySelector("#summary tbody");
  body.replaceChildren();
  for (const k of advice.summary.kinds) {
    const tr = el("tr", { "data-kind": k.kind });
    tr.append(el("td", {}, k.kind), el("td", {}, String(k.decisions)), el("td", {}, k.gave_up.toFixed(2)),
              el("td", {}, "[" + fmt(k.low) + ", " + fmt(k.high) + "]"),
              el("td", {}, k.per_hand === null ? "" : k.per_hand.toFixed(3)));
    body.append(tr);
  }
  if (advice.pending && !poll) poll = setInterval(refresh, 700);
  if (!advice.pending && poll) { clearInterval(poll); poll = null; }
}

function cardsOf(s) {
  return s.tricks.flatMap(t => t.cards);
}

function moment(s, k) {
  // the table after the hand's first k cards: what the player sees while the bots' later cards are on their way
  const all = cardsOf(s);
  if (k >= all.length) return s;
  const f = Object.assign({}, s, { tricks: [], tricks_won: s.tricks_won.map(() => 0), turn: all[k].seat,
                                   options: undefined,
                                   prompt: "", done: false, result: undefined, game_over: null, moment: true });
  let left = k;
  for (const t of s.tricks) {
    if (left <= 0) break;
    const cards = t.cards.slice(0, left);
    left -= cards.length;
    const winner = cards.length === t.cards.length ? t.winner : null;
    f.tricks.push({ cards, winner });
    if (winner !== null) f.tricks_won[s.party_of[winner]] += 1;
  }
  if (s.done && s.points) f.score = s.score.map((x, p) => x - s.points[p]);
  return f;
}

function receive(s) {
  // the server's table; the bots' cards since the last one drawn are shown one at a time, at the page's pace
  const first = state === null;
  state = s;
  const n = cardsOf(s).length;
  if (first || !shown || shown.plays > n && shown.hand === s.hand) shown = { hand: s.hand, plays: n };
  else if (shown.hand !== s.hand) shown = { hand: s.hand, plays: 0 };
  advance();
}

function advance() {
  const all = cardsOf(state);
  while (shown.plays < all.length && all[shown.plays].seat === 0) shown.plays += 1;   // the player's own card at once
  if (shown.plays < all.length && PACE[pace] > 0) {
    render(moment(state, shown.plays));
    if (!timer) timer = setTimeout(() => { timer = null; shown.plays += 1; advance(); }, PACE[pace]);
    return;
  }
  shown.plays = all.length;
  render(state);
}

function render(v) {
  view = v;
  document.getElementById("score").textContent = v.parties.map((name, p) => name + " " + v.score[p]).join(", ") +
    " (game to " + v.game_to + ")";
  document.getElementById("about").textContent = "game " + (v.game + 1) + ", hand " + (v.hand + 1) + "; bots: " + v.bot +
    "; seed " + v.seed;
  document.getElementById("records").setAttribute("href", v.records);
  if (v.moment) document.body.dataset.arriving = "1";
  else {                                   // the tests' marks: set once the bots' cards have all arrived
    delete document.body.dataset.arriving;
    document.body.dataset.step = v.step;
    document.body.dataset.hand = v.hand;
    document.body.dataset.phase = v.phase;
    document.body.dataset.turn = v.turn === null ? "" : v.turn;
    document.body.dataset.players = v.players;
  }
  drawSeats();
  drawCentre();
  drawYou();
  drawStory();
  drawAdvice();
}

const paceBox = document.getElementById("pace");
paceBox.value = pace;
paceBox.addEventListener("change", e => {
  pace = e.target.value;
  localStorage.setItem(PACE_KEY, pace);
  if (timer) { clearTimeout(timer); timer = null; }       // the next card comes at the new pace
  if (state) advance();
});
document.getElementById("each").addEventListener("change", e => {
  fetch("/api/options", { method: "POST", headers: { "Content-Type": "application/json" },
                          body: JSON.stringify({ each_decision: e.target.checked ? 1 : 0 }) }).then(refresh);
});
document.getElementById("next").addEventListener("click", () => send("/api/next", { hand: state.hands_played }));
refresh();
