"""`rulesdb trace`: rule citations in a source tree, attributed to functions and checked.

Imports `rulesdb.db`, `rulesdb.numbers` and `rulesdb.errors`; the enforcement layer and
`rulesdb.sources` (which retraces engines after a build) use it.
"""
