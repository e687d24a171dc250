"""The database: its schema (`schema`), the one writer of documents (`store`), bulk inserts,
full-text search, the write lock and the batch settings of the commands that write.

Imports only the bottom of the stack: `rulesdb.errors`, `rulesdb.numbers` and the parsers'
model (`rulesdb.ingest`).
"""
