"""The jitted loops: deal, bid and play a chunk of hands, games or rubbers.

``hands`` plays independent hands and whole games, ``forced`` plays one
deal once per option of a decision (paired counterfactuals), ``replay``
replays hand records.  Each module pairs its ``@njit`` loop with the plain
Python function that prepares its arrays: that function is where Python
objects meet kernels.  Below: ``engine`` and ``policies``; above: ``run``.
"""
