"""Hand records: the format (``format``), JSON Lines (``jsonl``), chunk rows as records and Parquet (``rows``).

Pure Python and pyarrow, no numba: reading a file of records never loads
the engine.  ``import euchresim.records`` keeps the names the single
``records.py`` module had (one release; docs/layout.md).
"""
from euchresim.records.format import *  # noqa: F401,F403
from euchresim.records.format import (FINDING_FIELDS, JOIN_FIELDS, OUTCOME_FIELDS, ORDER, PASS,  # noqa: F401
                                      RECORD_FIELDS, SOLVED_FIELDS, Record, RecordError, call_str, cards_desc,
                                      format_record, parse_call, parse_record)
from euchresim.records.jsonl import iter_jsonl, write_jsonl  # noqa: F401
