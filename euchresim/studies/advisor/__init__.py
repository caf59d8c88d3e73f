"""The advisor in one place: a seat's decision (``situation``), every option played out on the deals the seat
cannot rule out (``evaluate``), and the words it answers in (``situation_words``).

Its jitted kernels sit with the other kernels (``loops.advisor_kernels``), its table of intervals with the
other statistics (``analysis.advisor_table``), the answer in words beside it (``analysis.advice_text``), its
command in ``cli/advise.py``; docs/advise.md maps them.
"""
