"""``euchresim play``: the practice table in a browser (docs/play.md)."""
from __future__ import annotations

import os
import time

import click

from euchresim.cli.options import InputError, rules_options
from euchresim.cli.options import advisor_compiled as _advisor_compiled   # a module name: the tests plant a cold cache here


@click.command()
@rules_options
@click.option("--bot", default="heuristic", show_default=True,
              help="The policy of the other seats (heuristic, pimc, heuristic:human, ...: docs/policies.md).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="The session's deals: hand i is dealt from the seed's stream i, so a seed replays a session.")
@click.option("--session", "folder", type=click.Path(file_okay=False), default=None,
              help="Folder of the session's hand records [default: play-DATE-TIME in this folder].")
@click.option("--resume", is_flag=True, help="Go on with the session in --session after its last finished hand.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve on; one beyond this machine only with --allow-remote.")
@click.option("--allow-remote", is_flag=True,
              help="Let --host be an address other machines reach: anyone who reaches it can play your session.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to serve on; 0 picks a free one (the URL is printed).")
@click.option("--no-browser", is_flag=True, help="Print the URL, do not open a browser.")
@click.option("--advise-policy", default=None,
              help="Who plays after each judged decision, as show --advise --policy [default: the --bot].")
@click.option("--samples", type=click.IntRange(min=1), default=2000, show_default=True,
              help="At most this many deals per judged decision (show --advise --samples).")
@click.option("--no-advice", is_flag=True, help="Play without the advisor's verdicts.")
@click.option("--verdicts", type=click.Choice(["hand", "decision"]), default="hand", show_default=True,
              help="When the advisor judges: at the end of each hand, or after each decision too (the page can switch).")
@click.option("--stop-after", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="Stop serving after this many seconds (0: check the options, deal, print the URL and stop).")
def play(rules, bot, seed, folder, resume, host, allow_remote, port, no_browser, advise_policy, samples, no_advice, verdicts,
         stop_after):
    """Play hands against the bots in your browser, with the advisor's verdict on your decisions.

    Starts a web server on this machine and opens the table: your hand,
    the upcard, the bidding, the tricks and the score to 10; click a card
    or a call to play it. When a hand ends, the advisor judges each of
    your decisions in the background (the numbers of `show --advise`),
    and the page adds up the points given up by calls, leads, follows and
    discards. Every hand is saved to SESSION/hands.jsonl as a hand record
    (read it with `euchresim show`, `replay` or `advise --record`).
    Ctrl-C (or SIGTERM) stops the server; --resume goes on later. See docs/play.md.

    \b
    Example:
        euchresim play --bot heuristic:human --seed 7
    """
    from euchresim.cli.options import COMPILING
    from euchresim.play import open_table
    from euchresim.play.server import is_loopback
    from euchresim.play.table import Session, TableError, policy_message
    from euchresim.policies import PolicyError
    from euchresim.run.errors import SimError

    _check_host(host, port, allow_remote, is_loopback)
    if resume and folder is None:
        raise InputError("--resume: name the session's folder with --session")
    if resume:
        rules, bot, seed = _kept(folder, rules, bot, seed)
    folder = folder or time.strftime("play-%Y%m%d-%H%M%S")
    advise_read = None
    if advise_policy is not None:
        try:
            from euchresim.cli.options import read_seats
            advise_read = read_seats([advise_policy], rules.players)       # read once, here
        except (PolicyError, SimError) as e:
            raise InputError(f"--advise-policy: {policy_message(e)}") from None
    try:
        read = Session.check(rules, bot, folder, resume)       # a refusal is one line, before any compile notice
    except (TableError, PolicyError, SimError) as e:
        raise InputError(str(e)) from None
    if not _table_compiled():
        click.echo(COMPILING, err=True)         # dealing the first hand runs the bots' kernels
    try:
        server, session, advisor = open_table(rules, bot, seed, folder, resume=resume, advise=not no_advice,
                                              advise_policy=advise_policy, samples=samples, host=host, port=port,
                                              each_decision=verdicts == "decision", read=read,
                                              advise_read=advise_read)
    except (TableError, PolicyError, SimError) as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"--host {host} --port {port}: cannot serve there ({e.strerror or e})") from None
    h, p = server.server_address[:2]
    url = f"http://{'[' + h + ']' if ':' in h else h}:{p}/"
    click.echo(f"the table is at {url} (Ctrl-C to stop); hands are saved to "
               f"{os.path.join(folder, 'hands.jsonl')}", err=False)
    if advisor is not None and not _advisor_compiled():
        click.echo("the advisor compiles its kernels in the background (first run only): the first verdicts "
                   "may take a minute", err=True)
    if not no_browser:
        import webbrowser
        webbrowser.open(url)
    _serve(server, session, advisor, stop_after)
    click.echo(f"stopped after {len(session.finished)} hand{'s' if len(session.finished) != 1 else ''}; "
               f"go on with: euchresim play --session {folder} --resume")


def _serve(server, session, advisor, stop_after):
    """Serve until Ctrl-C, SIGTERM or --stop-after; then close the session and kill the advisor's worker."""
    import signal
    import threading

    from euchresim.cli.options import terminate
    timer = None
    if stop_after:
        timer = threading.Timer(stop_after, server.shutdown)
        timer.daemon = True
        timer.start()
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, terminate) if on_main else None    # SIGTERM as Ctrl-C
    try:
        if stop_after != 0:
            server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        if timer is not None:
            timer.cancel()
        server.server_close()
        session.close()
        if advisor is not None:
            advisor.stop()
        if on_main:
            signal.signal(signal.SIGTERM, previous)


def _check_host(host, port, allow_remote, is_loopback):
    """Serve beyond this machine only when asked in so many words, and then say what it means."""
    if is_loopback(host):
        return
    if not allow_remote:
        raise InputError(f"--host {host}: other machines could reach the table there; add --allow-remote to "
                         "serve it beyond this machine, or leave --host at 127.0.0.1")
    click.echo(f"warning: --allow-remote: anyone who can reach {host} port {port} can play this session and "
               "read its hands", err=True)


def _table_compiled() -> bool:
    """Whether the bots' turns at the table are compiled (else dealing the first hand compiles them: tens of s)."""
    from euchresim.cli.options import kernel_cached
    return kernel_cached("hands.decide_one-") and kernel_cached("state._legal-", "engine")


RULE_OPTIONS = ("players", "deck", "stick_the_dealer", "defend_alone", "joker_upcard", "both_alone_lead", "game_to",
                "cutthroat_tie", "scoring_file")


def _kept(folder, rules, bot, seed):
    """A resumed session's rules, bot and seed: its own (``Session.kept``), where the command line gives none."""
    from click.core import ParameterSource

    from euchresim.play.table import Session, TableError
    ctx = click.get_current_context()

    def given(name):
        return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
    try:
        kept = Session.kept(folder)
    except TableError as e:
        raise InputError(str(e)) from None
    if kept is None:
        return rules, bot, seed            # no session there: the table says so
    kept_rules, kept_bot, kept_seed = kept
    if not any(given(name) for name in RULE_OPTIONS):
        rules = kept_rules
    return (rules, bot if given("bot") or kept_bot is None else kept_bot,
            seed if given("seed") or kept_seed is None else kept_seed)
