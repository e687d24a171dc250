"""The rules site: a Datasette plugin with its pages and HTML helpers, and `serve`, which builds
the database when it is missing and runs Datasette.

Reads through `rulesdb.lookup` and `rulesdb.lineage`; `serve` builds through
`rulesdb.sources`. Only the command line imports it.
"""
