"""rulesdb's adapter for an engine run as a program of its own (here vanilla_engine.py; a
Rust or C# engine the same way): each scenario goes to the program as one line of JSON, its
outcome comes back as one line, and {"unsupported": "why"} becomes Unsupported.

    rulesdb conformance docs/examples/adapter.py:evaluate --require 10%
"""

import atexit
import json
import subprocess
import sys
from pathlib import Path

from rulesdb.conformance import Unsupported

COMMAND = [sys.executable, str(Path(__file__).with_name("vanilla_engine.py"))]


class Engine:
    """The engine's program, started once and fed one scenario at a time."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        atexit.register(self.process.stdin.close)

    def __call__(self, scenario):
        self.process.stdin.write(json.dumps(scenario) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "unsupported" in answer:
            raise Unsupported(answer["unsupported"])
        return answer


evaluate = Engine(COMMAND)
