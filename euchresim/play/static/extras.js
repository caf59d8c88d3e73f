// The table's extras (docs/play.md): a hint before the player acts, a review of a finished hand decision by
// decision, and the session in a picture. Kept apart from app.js, which draws the table: this script reads
// the same /api/state, asks /api/hint and /api/review, and redraws whenever app.js has drawn a new step
// (it marks <body data-step data-hand>). Nothing is fetched from outside; the picture is inline SVG.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const KIND_WORDS = { calls: "calls", leads: "leads", follows: "follows", discards: "discards" };
  let last = null;            // the state this script last drew from
  let review = null;          // { hand, data, at }: the hand under review and the decision shown
  let timer = null;
  let fetching = false;
  let again = false;
  let refused = null;         // { step, text }: the server's refusal of the last hint asked, shown at that step

  function make(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function said(card) {
    return card === "JK" ? "JK" : card.slice(0, -1).replace("T", "10") + SUIT[card.slice(-1)];
  }

  function card(c) {
    const red = c !== "JK" && "DH".includes(c.slice(-1));
    return make("span", { class: "card" + (red ? " red" : ""), "data-card": c }, said(c));
  }

  function signed(x) { return (x >= 0 ? "+" : "") + x.toFixed(2); }

  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  }

  // ---------------------------------------------------------------- the panels, made once
  function build() {
    const style = make("style");
    style.textContent = [
      "#review,#picture{background:#fff;border-radius:10px;padding:.6em 1em}",
      "#hint-ask{font-size:1em;padding:.3em .8em;border-radius:6px;border:1px solid #24553a;background:#fff8dc}",
      "#hint-box{margin:.5em 0}#hint table{border-collapse:collapse;margin-top:.3em}#hint caption{text-align:left}",
      "#hint td{padding:.1em .6em .1em 0}#hint tr.best{font-weight:bold}",
      "#review-nav{display:flex;gap:.5em;align-items:center;flex-wrap:wrap}",
      "#review-step .row{margin:.3em 0}#review-step .verdict{font-style:italic}",
      "#picture svg{max-width:100%;height:auto;display:block;margin:.4em 0}",
      "#picture .bar{fill:#c0392b}#picture .bar.zero{fill:#7f8c8d}#picture .whisker{stroke:#333;stroke-width:1.5}",
      "#picture .axis{stroke:#555;stroke-width:1}#picture text{font-size:11px;fill:#333}"].join("\n");
    document.head.append(style);
    const box = make("div", { id: "hint-box" });
    const button = make("button", { id: "hint-ask", type: "button", hidden: "" }, "Hint: ask the advisor");
    button.addEventListener("click", ask);
    box.append(button, make("div", { id: "hint", "aria-live": "polite" }));
    const why = document.getElementById("why");
    why.parentNode.insertBefore(box, why);
    const main = document.querySelector("main");
    main.append(buildReview(), buildPicture());
    const summary = document.getElementById("summary");
    summary.parentNode.insertBefore(make("p", { id: "hinted-note", class: "note", hidden: "" }), summary.nextSibling);
  }

  function buildReview() {
    const sec = make("section", { id: "review", "aria-label": "review a hand" });
    sec.append(make("h2", {}, "Review a finished hand"));
    const nav = make("div", { id: "review-nav" });
    const pick = make("select", { id: "review-hand", "aria-label": "the hand to review" });
    pick.addEventListener("change", () => openReview(Number(pick.value), 0));
    const prev = make("button", { id: "review-prev", type: "button" }, "\u2190 previous");
    const next = make("button", { id: "review-next", type: "button" }, "next \u2192");
    prev.addEventListener("click", () => move(-1));
    next.addEventListener("click", () => move(1));
    nav.append(pick, prev, make("span", { id: "review-pos" }), next);
    sec.append(nav, make("div", { id: "review-step" }, "no hand has ended yet"));
    return sec;
  }

  function buildPicture() {
    const sec = make("section", { id: "picture", "aria-label": "the session in a picture" });
    sec.append(make("h2", {}, "The session in a picture"),
               make("div", { id: "picture-hands" }), make("div", { id: "picture-kinds" }),
               make("p", { class: "note" }, "Points given up against the advisor's best option: each bar is the " +
                 "total, its line the 95% interval. Decisions you asked a hint about are left out, as in the tally."));
    return sec;
  }

  // ---------------------------------------------------------------- the hint
  function ask() {
    if (!last) return;
    document.getElementById("hint-ask").disabled = true;
    const step = last.step;
    post("/api/hint", { hand: last.hand, step }).then(async r => {
      refused = r.ok ? null : { step, text: (await r.text()).trim() };
      update();
    });
  }

  function drawHint(s) {
    const button = document.getElementById("hint-ask");
    const box = document.getElementById("hint");
    const mine = !s.done && s.turn === 0 && s.advice;
    const h = mine ? (s.hints || []).find(x => x.step === s.step) : null;
    button.hidden = !mine;
    button.disabled = !!h;
    box.dataset.step = h ? String(h.step) : "";
    box.dataset.status = h ? h.status : "";
    if (!mine) { box.replaceChildren(); return; }
    if (!h) {
      button.disabled = false;
      box.replaceChildren(refused && refused.step === s.step ? refused.text : "");
      return;
    }
    if (h.status === "waiting") { box.replaceChildren("the advisor is working on your decision\u2026"); return; }
    if (h.status === "failed") { box.replaceChildren("the hint failed: " + h.error); return; }
    box.replaceChildren(hintTable(h));
  }

  function hintTable(h) {
    const t = make("table", { class: "hint-table" });
    t.append(make("caption", {}, "the advisor: net points a hand for each option, 95% interval (" + h.samples +
                                  " deals" + (h.inference ? "" : ", not narrowed by the calls heard") + ")"));
    const rows = h.options.slice().sort((a, b) => (b.best - a.best) || ((b.points || 0) - (a.points || 0)));
    for (const o of rows) {
      const tr = make("tr", { class: "hint-option" + (o.best ? " best" : ""), "data-action": o.action,
                              "data-best": String(o.best) });
      const num = o.points === undefined || o.points === null ? "" : signed(o.points);
      const ci = o.low === undefined || o.low === null ? "" : "[" + signed(o.low) + ", " + signed(o.high) + "]";
      tr.append(make("td", {}, o.said), make("td", {}, num), make("td", {}, ci),
                make("td", {}, o.best ? "best" : o.equal ? "equal to the best" : ""));
      t.append(tr);
    }
    return t;
  }

  // ---------------------------------------------------------------- the review
  function drawReviewChoice(s) {
    const pick = document.getElementById("review-hand");
    const n = s.hands_played;
    if (pick.options.length !== n) {
      // a hand that ends is opened, unless the player is looking at an older one
      const follow = !review || review.hand >= pick.options.length - 1 || review.hand >= n;
      pick.replaceChildren();
      for (let i = 0; i < n; i++) pick.append(make("option", { value: String(i) }, "hand " + (i + 1)));
      if (n && follow) openReview(n - 1, 0);
      else if (review) pick.value = String(review.hand);
    }
    if (review && review.data && review.data.verdicts !== "done" && s.advice &&
        s.advice.hands[String(review.hand)] && s.advice.hands[String(review.hand)].status === "done") {
      openReview(review.hand, null);           // its verdicts came: fetch it again, staying where the player is
    }
  }

  async function openReview(hand, at) {
    const r = await fetch("/api/review?hand=" + hand);
    const box = document.getElementById("review-step");
    if (!r.ok) { box.textContent = (await r.text()).trim(); return; }
    const data = await r.json();
    // at === null: a refresh of the hand shown; the player may have stepped while it was fetched, so the
    // decision shown is the one they are at when the answer comes, not when it was asked
    if (at === null) at = review && review.hand === hand ? review.at : 0;
    review = { hand, data, at: Math.min(at, Math.max(0, data.steps.length - 1)) };
    document.getElementById("review-hand").value = String(hand);
    drawReview();
  }

  function move(by) {
    if (!review || !review.data.steps.length) return;
    review.at = Math.max(0, Math.min(review.data.steps.length - 1, review.at + by));
    drawReview();
  }

  function drawReview() {
    const box = document.getElementById("review-step");
    const steps = review.data.steps;
    document.getElementById("review-prev").disabled = review.at <= 0;
    document.getElementById("review-next").disabled = review.at >= steps.length - 1;
    document.getElementById("review-pos").textContent = steps.length ?
      "decision " + (review.at + 1) + " of " + steps.length : "";
    box.replaceChildren();
    if (!steps.length) { box.textContent = "you made no decision in this hand"; return; }
    const s = steps[review.at];
    const seats = review.data.seats;
    box.dataset.hand = String(review.hand);
    box.dataset.step = String(s.step);
    box.append(make("div", { class: "row where" }, "hand " + (review.hand + 1) + ", " + s.where));
    const hand = make("div", { class: "row your-hand" }, "your cards: ");
    for (const c of s.your_hand) hand.append(card(c), " ");
    const up = make("div", { class: "row upcard" }, "upcard ");
    up.append(card(s.upcard), s.upcard_fate ? " " + s.upcard_fate : "");
    box.append(hand, up);
    if (s.your_discard) { const d = make("div", { class: "row" }, "your discard: "); d.append(card(s.your_discard)); box.append(d); }
    box.append(make("div", { class: "row bidding" }, "calls: " + (s.bidding.length ?
      s.bidding.map(b => seats[b.seat] + " " + b.call).join(", ") : "none yet") +
      (s.trump ? "; trump " + s.trump + " (" + seats[s.maker] + ")" : "") +
      (s.alone.length ? "; alone: " + s.alone.map(x => seats[x]).join(", ") : "")));
    s.tricks.forEach((t, i) => {
      const row = make("div", { class: "row trick" }, "trick " + (i + 1) + ": ");
      for (const c of t.cards) row.append(seats[c.seat] + " ", card(c.card), " ");
      if (t.winner !== null) row.append("\u2014 " + seats[t.winner]);
      box.append(row);
    });
    box.append(make("div", { class: "row did" }, "you: " + s.did));
    box.append(make("div", { class: "row verdict" }, "the advisor: " + s.verdict.text));
    if (s.hint && s.hint.best) box.append(make("div", { class: "row hinted" }, "you asked a hint: best " + s.hint.best));
  }

  // ---------------------------------------------------------------- the picture
  function drawPicture(s) {
    const pic = s.picture;
    const hands = document.getElementById("picture-hands");
    const kinds = document.getElementById("picture-kinds");
    const note = document.getElementById("hinted-note");
    note.hidden = !(s.advice && s.advice.hinted);
    note.textContent = s.advice && s.advice.hinted ? s.advice.hinted + " decision" + (s.advice.hinted === 1 ? "" : "s") +
      " you asked a hint about " + (s.advice.hinted === 1 ? "is" : "are") + " left out of this tally" : "";
    if (!pic || !pic.advice) { hands.textContent = "the advisor is off (--no-advice)"; kinds.replaceChildren(); return; }
    const done = pic.hands.filter(h => h.status === "done");
    hands.replaceChildren(done.length ? barChart(done.map(h => ({ key: h.hand, label: String(h.hand + 1),
      value: h.gave_up, low: h.low, high: h.high, title: "hand " + (h.hand + 1) + ": " + h.gave_up.toFixed(2) +
      " points given up in " + h.decisions + " decisions" })), "per hand", "picture-hands-svg", "data-hand")
      : make("span", {}, "no hand judged yet"));
    kinds.replaceChildren(barChart(pic.kinds.map(k => ({ key: k.kind, label: KIND_WORDS[k.kind] + " (" + k.decisions + ")",
      value: k.gave_up, low: k.low, high: k.high, title: k.kind + ": " + k.gave_up.toFixed(2) + " points in " +
      k.decisions + " decisions" })), "by kind of decision", "picture-kinds-svg", "data-kind"));
  }

  function barChart(items, title, id, keyAttr) {
    // vertical bars from zero with the interval as a line; the scale holds every interval and zero
    const W = Math.max(320, 60 + items.length * 44), H = 190, top = 22, bottom = 150, left = 44;
    const lo = Math.min(0, ...items.map(i => i.low)), hi = Math.max(0.1, ...items.map(i => i.high));
    const y = v => top + (hi - v) / (hi - lo) * (bottom - top);
    const g = svg("svg", { id, viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
                           "aria-label": "points given up " + title });
    g.append(svg("text", { x: 4, y: 14 }, "points given up " + title));
    g.append(svg("line", { class: "axis", x1: left, x2: W - 6, y1: y(0), y2: y(0) }));
    for (const v of [lo, hi]) g.append(svg("text", { x: 2, y: y(v) + 4 }, signed(v)));
    const step = (W - left - 10) / items.length;
    items.forEach((it, i) => {
      const x = left + i * step + step * 0.2, w = step * 0.6;
      const rect = svg("rect", { class: "bar" + (it.value === 0 ? " zero" : ""), x, width: w,
                                 y: Math.min(y(it.value), y(0)), height: Math.max(1, Math.abs(y(it.value) - y(0))),
                                 [keyAttr]: it.key, "data-gave-up": it.value.toFixed(4) });
      rect.append(svg("title", {}, it.title));
      const mid = x + w / 2;
      g.append(rect, svg("line", { class: "whisker", x1: mid, x2: mid, y1: y(it.high), y2: y(it.low) }),
               svg("text", { x: mid, y: bottom + 14, "text-anchor": "middle" }, it.label));
    });
    return g;
  }

  // ---------------------------------------------------------------- when to draw
  async function update() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const r = await fetch("/api/state");
      if (!r.ok) return;
      const s = await r.json();
      last = s;
      drawHint(s);
      drawReviewChoice(s);
      drawPicture(s);
      const waiting = s.hints_pending > 0 || (s.advice && s.advice.pending > 0);
      if (waiting && !timer) timer = setInterval(update, 700);
      if (!waiting && timer) { clearInterval(timer); timer = null; }
    } finally {
      fetching = false;
      if (again) { again = false; update(); }
    }
  }

  build();
  new MutationObserver(update).observe(document.body, { attributes: true,
    attributeFilter: ["data-step", "data-hand", "data-arriving"] });
  update();
})();
