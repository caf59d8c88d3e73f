"""Jobs built on the runner: replay and solve of hand records, paired
counterfactuals, duplicate duels and ladders, the benchmark.

Below: ``run`` (and everything under it); above: ``analysis``, ``report``, ``cli``.
"""
