"""Hand records: the format (``format``), JSON Lines (``jsonl``), chunk rows as records and Parquet (``rows``).

Pure Python and pyarrow, no numba: reading a file of records never loads
the engine.
"""
