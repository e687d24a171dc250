"""The reference evaluator: executable rules, each declaring the rule ids it enforces.

Pure Python over an immutable game model; imports nothing else of rulesdb (the enforcement
layer reads its registry).
"""
