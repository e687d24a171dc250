"""The notebooks' side: the queries behind them (`queries`), the diff of two editions as the
diff notebook shows it (`edition_diff`), and their figures (`figures`, matplotlib).

Reads the database through `rulesdb.lookup` and `rulesdb.lineage`; only notebooks import it.
"""
