"""rulesdb: the rules of Magic: The Gathering as one cross-referenced SQLite database.

The packages are the stages of the pipeline, bottom first; each imports only those below it
(tests/test_layout.py checks it): `errors`, `numbers`, `background` (a forked worker) and
the parsers (`rulesdb.ingest`);
`db`, `engine` and `places` (where the shipped corpus and the user's data folder are);
`lookup` and `conformance`; `lineage`; `trace`; `layers`; `sources`; `analysis` and `site`;
`commands`, `cli`.
"""

__version__ = "0.1.0"
