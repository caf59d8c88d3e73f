"""Every job runs here: chunks, seeds, workers, backends, the run folder.

A job is cut into fixed-size chunks with their own random streams, so its
numbers never depend on how many workers or which backend played them.
Below: ``loops``; above: ``studies``, ``analysis``, ``cli``.
"""
