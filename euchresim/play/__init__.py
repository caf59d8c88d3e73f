"""The practice table: play hands against the bots in a browser, with the advisor's verdict on each decision.

``table`` is the game (the deals, the bots' turns, the records written),
``view`` what the page may see of it, ``verdicts`` the advisor working
beside the game, ``hints`` the advisor asked before a decision, ``review``
a finished hand stepped through and the session's picture, ``server`` the
HTTP side, ``static/`` the page itself (plain HTML, JavaScript and CSS, no
build step).  ``euchresim play``
(cli/play.py) puts them together; docs/play.md shows it.
"""
from __future__ import annotations


def open_table(rules, bot: str, seed: int, folder: str, resume: bool = False, advise: bool = True,
               advise_policy: str | None = None, samples: int = 2000, host: str = "127.0.0.1", port: int = 0,
               each_decision: bool = False, read=None, advise_read=None):
    """(server, session, advisor) for one session folder; the server bound but not yet serving.

    ``advise_policy`` plays after each judged decision (``show --advise``'s
    ``--policy``); by default the bots' own.  A resumed session's finished
    hands are judged again, in the background, so the tally covers them.
    ``each_decision``: a verdict after each of the player's decisions too
    (the page can switch it).  ``read`` and ``advise_read``: the bot and
    ``advise_policy`` as the caller read them already (``policies.Seats``;
    the command line reads each once), taken as they are; a name not read
    yet is read here, at the table (``table.read_bot``).

    A start that fails writes nothing: the port is bound before the
    session folder is made, and a folder this call made is removed if the
    session then refuses to open (a ``--resume`` of a folder that has no
    session), so the same command can be given again.
    """
    from euchresim.play.server import make_server, serve
    server = make_server(None, None, host, port)      # a busy port: refused before anything is written
    try:
        session, advisor = _seat(rules, bot, seed, folder, resume, advise, advise_policy, samples, each_decision, read,
                                advise_read)
    except BaseException:
        server.server_close()
        raise
    serve(server, session, advisor)
    return server, session, advisor


def _seat(rules, bot, seed, folder, resume, advise, advise_policy, samples, each_decision, read,
                                advise_read):
    """The session and its advisor, the finished hands of a resumed one submitted and the worker warming up."""
    import os
    import shutil

    from euchresim.play.hints import HintedSession, Hints
    from euchresim.play.verdicts import Advisor
    from euchresim.play.table import read_bot
    made = not os.path.exists(folder)
    if advise and advise_policy and advise_read is None:
        advise_read = read_bot(rules, advise_policy, "--advise-policy")      # a caller's name, read at the table
    advisor = Advisor(advise_policy or bot, samples, model=advise_read if advise_policy else None) if advise else None
    try:
        session = HintedSession(rules, bot, seed, folder, resume=resume, read=read,
                                on_hand=advisor.submit if advisor is not None else None,
                                on_decision=advisor.submit_decision if advisor is not None else None)
    except BaseException:
        if advisor is not None:
            advisor.stop()
        if made:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    session.each_decision = each_decision and advisor is not None
    session.hints = Hints(session, advisor)          # the hints asked, kept in the records (play/hints.py)
    if advisor is not None:
        if advise_policy is None:
            advisor.policy, advisor.model = session.bot, session.table      # the bot as the table read it
        advisor.warm(session.finished_by_bots())
        for i, (obj, mine) in enumerate(session.resumed):
            advisor.submit(i, obj, mine)
    return session, advisor
