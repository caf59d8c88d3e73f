"""The win-probability report's words: the method, the findings by target, the check against whole games, the late
scores and the decisions whose answer turns on the score, read from the tables ``report.win_probability`` builds
(kept apart so the play and the prose stay in modules each under the limit)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from euchresim.report import md_table
from euchresim.stats import Z95


def _pct(p: float, se: float | None = None) -> str:
    """A probability in percent, with its 95% interval's half-width (Z95 standard errors) in percentage points.

    The README says every figure carries a 95% interval: a bare standard
    error after a ± would be read as one and be too narrow by half.
    """
    if se is None:
        return f"{100 * p:.1f}%"
    half = Z95 * se
    return f"{100 * p:.1f}%" + (f" (±{100 * half:.1f})" if half >= 0.0005 else f" (±{100 * half:.2f})")


def _text(ctx, targets, T, n_games, dist, head, chk, gains, dec, flips, reps, streams=None) -> str:
    pl = ctx.rules.players
    side = "side" if pl == 4 else "player"
    out = (_method_text(ctx, targets, dist, reps) + _findings_text(targets, head, pl, side)
           + _check_text(ctx, T, n_games, chk, side)
           + _decisions_text(T, gains, dec, flips, pl, ctx.policies[0], _drawn_words(ctx), streams))
    return "\n".join(out) + "\n"


def _drawn_words(ctx) -> str:
    """How the order-or-pass deals were drawn, as the decisions' method says it: each class targeted to its own
    count (``--class-reached``), or every deal of a seat's run, each class as often as it is dealt."""
    if ctx.class_reached:
        from euchresim.report.targeted_cells import MAX_KEPT
        return (f"Each class's deals are its own: targeted (only deals where the seat holds that class's trumps are "
                f"played; with the joker, every deal of that many trumps, the class's own kept), in batches until {ctx.class_reached:,} of them reached the call (at most "
                f"{MAX_KEPT * ctx.class_reached:,} kept), each batch's size from the counts alone; `deals` counts "
                "those that reached it. ")
    return (f"The deals: {ctx.hands:,} a seat, every one dealt and played, so each class as often as it is dealt; "
            "`deals` counts those of the class that reached the call. ")


def _score(o: int, th: int, players: int) -> str:
    """A score as the table says it: ours first (with 3 players the two others on the same score)."""
    return f"{o}-{th}" + (f"-{th}" if players == 3 else "")


def _method_text(ctx, targets, dist: pd.DataFrame, reps: int) -> list[str]:
    pl = ctx.rules.players
    return ["## Method\n",
            f"{ctx.hands:,} hands of `{ctx.policies[0]}` at every seat (seed {ctx.seed}) give the outcome "
            f"distribution of one hand ({len(dist) // pl} distinct outcomes, pooled by seat relative to the "
            f"dealer; `outcome_distribution.csv`). A dynamic program over (scores, dealer) turns it into "
            f"P(win) at every score for games to {', '.join(map(str, targets))} (`p_win_to*.csv`: every "
            f"score and dealer; `p_win_view_to*.csv`: our score, their score, who deals next"
            + ("; with 3 players the two others on the same score" if pl == 3 else "")
            + f"). Every ± is the half-width of a 95% interval: {Z95:.2f} standard errors, resampled from "
              f"the distribution ({reps} redraws). See docs/win-probability.md.\n"]


def _findings_text(targets, head: pd.DataFrame, pl: int, side: str) -> list[str]:
    """P(win) from 0-0 and at the close scores, for each target."""
    sc = lambda o, th: _score(o, th, pl)
    hc = lambda t, o, th, who: head[(head["target"] == t) & (head["ours"] == o) & (head["theirs"] == th)
                                    & (head["deals"] == who)].iloc[0]
    out = ["## Findings\n"]
    for t in targets:
        a, b = hc(t, 0, 0, "we deal"), hc(t, t - 1, t - 1, "we deal")
        c, d = hc(t, t - 2, t - 1, "we deal"), hc(t, t - 2, t - 1, "they deal")
        e = hc(t, t - 1, t - 2, "they deal")
        out.append(f"- **Game to {t}.** From 0-0 the {side} that deals first wins {_pct(a.p_win, a.se)}; "
                   f"at {sc(t - 1, t - 1)} the dealing {side} wins {_pct(b.p_win, b.se)}. At {sc(t - 2, t - 1)} "
                   f"behind, a {side} wins {_pct(c.p_win, c.se)} with its own deal next and "
                   f"{_pct(d.p_win, d.se)} when the others deal; at {sc(t - 1, t - 2)} ahead with the others "
                   f"to deal, {_pct(e.p_win, e.se)}. (`headline.csv`; heatmaps `p_win_to{t}_*.png`.)")
    return out


def _check_text(ctx, T: int, n_games: int, chk: pd.DataFrame, side: str) -> list[str]:
    z0 = chk.iloc[0]
    agree = int(chk["agree"].sum())
    return ["", f"## The DP against whole games (game to {T})\n",
            f"{n_games:,} whole games (`simulate --games`, a tenth of the hands, at least 200; seed "
            f"{ctx.seed + 7919}, independent of the hands above): from 0-0 the first dealer's {side} won "
            f"{_pct(z0.p_games)} (95% {_pct(z0.games_low)} to {_pct(z0.games_high)}), the DP says "
            f"{_pct(z0.p_dp, z0.dp_se)}. "
            + (f"DP and games agree within their intervals at all {len(chk)} states checked"
               if agree == len(chk) else
               f"They agree within their 95% intervals at {agree} of {len(chk)} states checked (at 95% each, "
               f"one in twenty may miss by chance)")
            + " (0-0 and the most-visited later states; z is the difference over both errors; "
              "`dp_vs_games.csv`):\n",
            md_table(chk[["state", "games", "p_games", "games_low", "games_high", "p_dp", "dp_se", "z",
                          "agree"]]), ""]


def _late_scores_text(sub: pd.DataFrame, T: int, pl: int) -> str:
    """At the scores where a side is two points or less from the target, the call's clearest gains and losses
    of P(win), both signs: one score alone (9-9) makes the call look always right or always wrong."""
    late = sub[((sub["ours"] >= T - 2) | (sub["theirs"] >= T - 2)) & sub["clear"]]
    ups = late[late["delta"] > 0].sort_values("delta", ascending=False).head(3)
    downs = late[late["delta"] < 0].sort_values("delta").head(3)
    if not len(ups) and not len(downs):
        return ""

    def said(rows):
        return "; ".join(f"{_score(int(x.ours), int(x.theirs), pl)} {100 * x.delta:+.1f} (±{100 * Z95 * x.se:.1f})"
                         for x in rows.itertuples())
    parts = []
    if len(ups):
        parts.append(f"ordering raises P(win) most at {said(ups)}")
    if len(downs):
        parts.append(f"lowers it most at {said(downs)}")
    return (f" Late in the game (a side within 2 of {T}; percentage points, clear of their noise): "
            + ", and ".join(parts) + ".")


def _again_words(r, streams: pd.DataFrame | None = None) -> str:
    """A class's gain measured again on deals of its own, and the z of the two, as the README says them; for a
    class followed up on further streams (``win_probability_checks.followed_up``), every stream and the test
    that they agree, so the pooled figure is read beside the pair that was refused."""
    if "replicate_gain" not in r or not np.isfinite(r["replicate_gain"]) or not np.isfinite(r["z_replicate"]):
        return ""
    if r.get("streams", 2) <= 2 or streams is None:
        return (f"; measured again on deals of its own {r['replicate_gain']:+.3f} ({int(r['replicate_deals']):,} "
                f"deals, z {r['z_replicate']:+.1f})")
    from euchresim.analysis.targeted_stats import q_words, seats_agree
    from euchresim.report.win_probability_checks import streams_test
    s = streams[streams["class"] == r["class"]].sort_values("stream")
    first, again = s.iloc[0], s.iloc[1]
    more = s.iloc[2:]
    return (f", pooled over {len(s)} streams of its own. Its first measure, {first['gain']:+.3f} "
            f"({int(first['deals']):,} deals), and its measure again, {again['gain']:+.3f} "
            f"({int(again['deals']):,}), differ beyond chance (z {r['z_replicate']:+.1f}, refused by Holm's method "
            f"above), so it was measured on {len(more)} further streams from the report's seed: "
            + ", ".join(f"{x['gain']:+.3f} ({int(x['deals']):,})" for _, x in more.iterrows())
            + f"; the pair's mean and those agree ({q_words(streams_test(s))}; "
            "`order_pass_streams.csv`). Over all the streams at once, "
            + q_words(seats_agree(s["gain"], s["low"], s["high"]))
            + ", a test that counts again the difference the gate picked for being the largest of its comparisons, "
            "inflated by that choice (the pair's mean is free of it)")


def _points_call(r) -> str:
    """The call the points gain gives, or that it gives none: a gain whose interval holds 0 is a toss-up on these
    deals, and "order" on a +0.03 with an interval from -0.06 would be advice the numbers do not give."""
    if r["low"] <= 0 <= r["high"]:
        return "too close to call (the interval holds 0)"
    return "order" if r["points_gain"] > 0 else "pass"


def _decisions_text(T: int, gains: pd.DataFrame, dec: pd.DataFrame, flips: pd.DataFrame, pl: int,
                    policy: str = "", drawn: str = "", streams: pd.DataFrame | None = None) -> list[str]:
    """Each hand class's points gain, the scores where the change in P(win) has the other sign, and at the late
    scores the largest changes both ways (the same call can win a game at 9-9 and lose one at 9-8)."""
    out = ["## Order or pass: the decisions whose answer changes with the score\n",
           (f"Under {policy}, as every figure here. " if policy else "") + "Paired counterfactuals (`euchresim.studies.counterfactual`, round-one call): each deal where the seat "
           "held a hand of the class and the call was open is played once ordered up and once passed, "
           "everything else by the policy. " + drawn + "Points gain: our points less the others' (on average), order "
           "minus pass, 95% interval. The change in P(win) (`order_pass_by_score.csv`) is the mean, over "
           "the same deals, of P(win) after the hand ordered minus passed, the rest of the game from the "
           f"distribution above; its ± is the half-width of the paired 95% interval over deals ({Z95:.2f} "
           "standard errors; the distribution's own error left out). Trumps are counted in the hand the seat plays, "
           "the dealer's with the upcard it takes up; the joker counts as a bower. Each class's gain is measured "
           "again on deals of its own (a seed derived apart, `replicate_*` and `z_replicate` in "
           "`order_pass_points.csv`); where Holm's method over those z's and the whole-game checks above "
           f"finds one beyond chance (5% family-wise, {gains.attrs.get('tests', 0)} comparisons here), the "
           "class is measured on two further streams of its own, from the report's seed (never a new seed): "
           "the refused pair's mean and each further stream must agree (Cochran's Q, Holm over the classes so "
           "measured) or the report is not written, and where they agree its figure is pooled over every "
           "stream (`streams`, `streams_q`, `streams_p`; each stream in `order_pass_streams.csv`). A whole-game "
           "check beyond chance stops the report.\n",
           md_table(gains), ""]
    for _, r in gains.iterrows():
        sub = dec[(dec["class"] == r["class"]) & (dec["target"] == T)]
        if not len(sub):
            out.append(f"- **{r['class']}**: {r['deals']} deals, too few to rate.")
            continue
        f = flips[(flips["class"] == r["class"]) & (flips["target"] == T)]
        line = (f"- **{r['class']}** ({r['deals']:,} deals): ordering gains {r['points_gain']:+.3f} points "
                f"(95% {r['low']:+.3f} to {r['high']:+.3f}){_again_words(r, streams)}, so on points: {_points_call(r)}. "
                f"Game to {T}: ")
        if not len(f):
            line += "the change in P(win) has the sign of the points gain at every score."
        else:
            fc = f[f["clear"]]
            show = (fc if len(fc) else f).reindex((fc if len(fc) else f)["delta"].abs()
                                                  .sort_values(ascending=False).index).head(6)
            line += (f"the sign of the change in P(win) differs at {len(f)} of {len(sub)} scores "
                     f"({len(fc)} of them by more than {Z95:.2f} standard errors), e.g. "
                     + "; ".join(f"{_score(int(x.ours), int(x.theirs), pl)}: {100 * x.delta:+.1f} percentage "
                                 f"points of P(win) (±{100 * Z95 * x.se:.1f})" for x in show.itertuples()) + ".")
        out.append(line + _late_scores_text(sub, T, pl))
    out.append(f"\nAll scores, every target: `order_pass_by_score.csv`; where the signs differ: "
               f"`order_pass_flips.csv` ({len(flips)} rows).")
    return out
