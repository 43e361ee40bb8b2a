"""The command line's end without the interpreter's teardown (scripts/cli.py `_leave`): what
an ordinary exit does is still done (threads joined, exit handlers run, buffered output
written, the command's exit code), in a process of its own as a user runs it."""
from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# a command run as `balance ...` runs it (main() reads sys.argv), with an exit handler and a
# non-daemon thread of the caller's: both must have their say before the process ends
SCRIPT = """
import atexit, sys, threading, time
sys.argv = ["balance", *sys.argv[1:]]
from scripts import cli
atexit.register(lambda: print("exit handler ran", flush=False))
def late():
    time.sleep(0.3)
    print("thread finished", flush=False)
threading.Thread(target=late, daemon=False).start()
sys.stdout.write("unflushed line\\n")   # still in the buffer when the command ends
cli.main()
print("main returned", flush=True)      # never: the command line's main() ends the process
"""


def _balance(*args):
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_a_listing_ends_with_its_handlers_threads_and_output():
    done = _balance("games")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "unflushed line" in lines
    assert any(line.startswith("sunset") for line in lines)
    # the thread is joined before the exit handlers run, as the interpreter's own exit does
    assert lines.index("thread finished") < lines.index("exit handler ran")
    assert "main returned" not in lines


def test_an_error_keeps_its_exit_code_and_message():
    done = _balance("run", "no-such-game")
    assert done.returncode == 2
    assert "unknown game 'no-such-game'" in done.stderr
    assert "exit handler ran" in done.stdout.splitlines()


def test_a_caller_of_main_gets_the_code_back():
    from scripts import cli
    assert cli.main(["games"]) == 0
