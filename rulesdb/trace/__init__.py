"""`rulesdb trace`: rule citations in a source tree, attributed to functions and checked."""
