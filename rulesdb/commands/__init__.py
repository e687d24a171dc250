"""The commands of the `rulesdb` CLI, one module per family; each exports COMMANDS.

The top of the stack: thin click commands over any stage below, with their terminal rendering
(`render`) and shared options (`common`).
"""
