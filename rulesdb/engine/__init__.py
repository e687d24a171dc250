"""The reference evaluator: executable rules, each declaring the rule ids it enforces."""
