// The practice table's page: draws /api/state, sends the player's clicks; the server decides what is legal.
"use strict";

const SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const KIND = { calls: "call", leads: "lead", follows: "follow", discards: "discard" };
let state = null;
let busy = false;
let poll = null;

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
  return state.seats[seat];
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body) });
    if (r.ok) {
      document.getElementById("why").textContent = "";
      draw(await r.json());
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
  if (r.ok) draw(await r.json());
}

function act(option) {
  const why = document.getElementById("why");
  if (!option.legal) {            // the page refuses it itself, and says why
    why.textContent = option.why;
    return;
  }
  send("/api/act", { hand: state.hand, step: state.step, action: option.code });
}

function drawSeats() {
  const trick = state.tricks.length ? state.tricks[state.tricks.length - 1] : null;
  const current = trick && trick.winner === null ? trick : null;
  for (let seat = 0; seat < 4; seat++) {
    const box = document.getElementById("seat-" + seat);
    box.replaceChildren();
    box.classList.toggle("to-act", state.turn === seat);
    const name = el("div", { class: "name" }, seat === 0 ? "You" : seatName(seat)[0].toUpperCase() + seatName(seat).slice(1));
    if (state.dealer === seat) name.append(el("span", { class: "tag" }, "dealer"));
    if (state.maker === seat) name.append(el("span", { class: "tag" }, "maker"));
    if (state.alone.includes(seat)) name.append(el("span", { class: "tag" }, "alone"));
    if (state.sitting_out.includes(seat)) name.append(el("span", { class: "tag" }, "sits out"));
    box.append(name);
    const bids = state.bidding.filter(b => b.seat === seat).map(b => b.call);
    if (bids.length) box.append(el("div", { class: "bid" }, bids.join(", ")));
    const played = current ? current.cards.find(c => c.seat === seat) : null;
    const slot = el("div", { class: "played", "data-seat": seat });
    if (played) slot.append(cardSpan(played.card));
    box.append(slot);
  }
}

function drawCentre() {
  const up = document.getElementById("upcard");
  up.replaceChildren();
  if (state.trump) {
    up.append(el("div", {}, "trump: " + state.trump + " (" + seatName(state.maker) + ")"));
  } else {
    up.append(el("span", {}, "upcard "), cardSpan(state.upcard));
    if (state.round === null && state.bidding.length >= 4) up.append(el("div", {}, "turned down"));
  }
  const trick = document.getElementById("trick");
  trick.replaceChildren();
  const last = state.tricks.filter(t => t.winner !== null).pop();
  const open = state.tricks.length && state.tricks[state.tricks.length - 1].winner === null;
  if (last && !open) {
    trick.append(el("div", { class: "last" }, "last trick to " + seatName(last.winner) + ": "));
    for (const c of last.cards) trick.append(cardSpan(c.card));
  }
  const turn = document.getElementById("turn");
  turn.textContent = state.done ? "the hand is over" : state.turn === 0 ? "your turn" : seatName(state.turn) + " to act";
}

function drawYou() {
  const hand = document.getElementById("hand");
  const calls = document.getElementById("calls");
  hand.replaceChildren();
  calls.replaceChildren();
  document.getElementById("prompt").textContent = state.prompt || "";
  const cardOptions = {};
  const isCards = state.options && (state.phase === "play" || state.phase === "discard");
  if (isCards) for (const o of state.options) cardOptions[o.label] = o;
  const shown = isCards ? state.options.map(o => o.label) : state.your_hand;
  for (const card of shown) {
    const o = cardOptions[card];
    if (o) {
      const b = el("button", { class: "card " + (o.legal ? "legal" : "illegal"), "data-card": card,
                               "aria-disabled": String(!o.legal), title: o.legal ? "play " + card : o.why },
                   cardText(card));
      if (card !== "JK" && "DH".includes(card.slice(-1))) b.classList.add("red");
      b.addEventListener("click", () => act(o));
      hand.append(b);
    } else {
      hand.append(cardSpan(card));
    }
  }
  if (state.options && !isCards) {
    for (const o of state.options) {
      const b = el("button", { class: o.legal ? "legal" : "illegal", "data-code": o.code,
                               "aria-disabled": String(!o.legal), title: o.legal ? "" : o.why }, o.label);
      b.addEventListener("click", () => act(o));
      calls.append(b);
    }
  }
  document.getElementById("result").textContent = state.result || "";
  const next = document.getElementById("next");
  next.hidden = !state.done;
  if (state.game_over !== null && state.game_over !== undefined) {
    document.getElementById("result").textContent += ". Game over: " +
      (state.game_over === 0 ? "you and your partner win" : "left and right win") + ".";
    next.textContent = "New game";
  } else {
    next.textContent = "Next hand";
  }
}

function drawStory() {
  const bidding = document.getElementById("bidding");
  bidding.replaceChildren();
  for (const b of state.bidding) bidding.append(el("li", {}, "round " + b.round + ": " + seatName(b.seat) + " " + b.call));
  const tricks = document.getElementById("tricks");
  tricks.replaceChildren();
  state.tricks.forEach((t, i) => {
    const li = el("li", { class: "trick" }, "trick " + (i + 1) + ": ");
    for (const c of t.cards) { li.append(seatName(c.seat) + " "); li.append(cardSpan(c.card)); }
    if (t.winner !== null) li.append(" \u2014 " + (t.winner === 0 ? "you win" : seatName(t.winner) + " wins"));
    tricks.append(li);
  });
}

function fmt(x) { return (x >= 0 ? "+" : "") + x.toFixed(2); }

function drawAdvice() {
  const advice = state.advice;
  const box = document.getElementById("verdicts");
  const progress = document.getElementById("progress");
  box.replaceChildren();
  document.getElementById("each-label").hidden = !advice;
  if (!advice) { box.textContent = "the advisor is off (--no-advice)"; progress.hidden = true; return; }
  const hands = Object.entries(advice.hands).sort((a, b) => b[0] - a[0]);
  const ended = hands.filter(([, v]) => v.status !== "playing");
  const total = ended.length, judged = ended.filter(([, v]) => v.status === "done" || v.status === "failed").length;
  document.getElementById("each").checked = state.each_decision;
  progress.hidden = advice.pending === 0;
  document.getElementById("progress-text").replaceChildren(
    "judging your decisions: " + judged + " of " + total + " hands judged ",
    el("progress", { max: String(total), value: String(judged) }));
  for (const [index, v] of hands) {
    const div = el("div", { class: "hand-verdicts", "data-hand": index });
    div.append(el("h3", {}, "hand " + (Number(index) + 1)));
    if (v.status !== "done") {           // verdicts given at once, before the hand's own
      for (const r of v.now) {
        const cls = r.error ? "failed" : r.did === r.best || r.gave_up === 0 ? "best" : "cost";
        div.append(el("div", { class: "verdict now " + cls, "data-step": r.step },
                      r.error ? "the advisor failed: " + r.error : KIND[r.group] + ": " + r.text + " (judged at once)"));
      }
      if (v.now_waiting) div.append(el("div", { class: "verdict waiting" }, "judging your last decision\u2026"));
    }
    if (v.status === "playing") { box.append(div); continue; }
    if (v.status === "failed") div.append(el("div", { class: "verdict failed" }, "the advisor failed: " + v.error));
    else if (v.status !== "done") div.append(el("div", { class: "verdict waiting" }, v.status === "running" ? "judging\u2026" : "waiting\u2026"));
    else if (!v.rows.length) div.append(el("div", { class: "verdict" }, "none of your decisions had a choice"));
    for (const r of v.rows) {
      const cls = r.did === r.best || r.gave_up === 0 ? "best" : "cost";
      div.append(el("div", { class: "verdict " + cls, "data-step": r.step }, KIND[r.group] + ": " + r.text));
    }
    box.append(div);
  }
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

function draw(s) {
  state = s;
  document.getElementById("score").textContent = "you and partner " + s.score[0] + ", left and right " + s.score[1] +
    " (game to " + s.game_to + ")";
  document.getElementById("about").textContent = "game " + (s.game + 1) + ", hand " + (s.hand + 1) + "; bots: " + s.bot +
    "; seed " + s.seed;
  document.getElementById("records").setAttribute("href", s.records);
  document.body.dataset.step = s.step;
  document.body.dataset.hand = s.hand;
  document.body.dataset.phase = s.phase;
  document.body.dataset.turn = s.turn === null ? "" : s.turn;
  drawSeats();
  drawCentre();
  drawYou();
  drawStory();
  drawAdvice();
}

document.getElementById("each").addEventListener("change", e => {
  fetch("/api/options", { method: "POST", headers: { "Content-Type": "application/json" },
                          body: JSON.stringify({ each_decision: e.target.checked ? 1 : 0 }) }).then(refresh);
});
document.getElementById("next").addEventListener("click", () => send("/api/next", { hand: state.hands_played }));
refresh();
