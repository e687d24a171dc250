"""Read-only lookups over a built database in plain sqlite3, cheap to import: documents and
rules (`query`); full-text search (`search`); glossary, keywords, references and term
mentions (`lookup`).

Imports only `rulesdb.db`, `rulesdb.numbers`, `rulesdb.errors` and the names of the judges'
documents (`rulesdb.ingest.policy_names`).
"""
