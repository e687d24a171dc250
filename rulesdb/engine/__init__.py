"""The reference evaluator: executable rules, each declaring the rule ids it enforces.

Pure Python over an immutable game model; imports nothing else of rulesdb (the enforcement
layer reads its registry). `outcome.evaluate(scenario)` plays a combat scenario (JSON, see
scenario.schema.json) and returns its outcome (outcome.schema.json); `rulesdb.conformance`
tests another engine against it.
"""
