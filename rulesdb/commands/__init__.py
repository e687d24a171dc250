"""The commands of the `rulesdb` CLI, one module per family; each exports COMMANDS."""
