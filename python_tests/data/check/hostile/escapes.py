import os
import socket

# The test puts the checking user's project folder here before it checks this file.
PROJECT = "@PROJECT@"

ESCAPED = []
for path in (PROJECT + "/ludo-check-escape.txt", os.path.expanduser("~/ludo-check-escape.txt"), "/etc/ludo-check-escape"):
    try:
        with open(path, "w") as f:
            f.write("escaped")
        ESCAPED.append("wrote " + path)
    except OSError:
        pass
for path in ("/etc/passwd", PROJECT, os.path.expanduser("~")):
    try:
        if os.listdir(path) if os.path.isdir(path) else open(path).read():
            ESCAPED.append("read " + path)
    except OSError:
        pass
try:
    socket.create_connection(("1.1.1.1", 80), timeout=2)
    ESCAPED.append("network")
except OSError:
    pass
try:
    import LudoGame as ours  # noqa: F401  the engine must stay hidden
    ESCAPED.append("imported the engine")
except ImportError:
    pass
# the interpreter runs with -I -S, but any installed package folder it can see could be put
# back on the path by hand: e.g. the base Python's, when the grader's LudoGame is in a venv
import glob
import sys

for root in {sys.base_prefix, sys.prefix, "/usr", "/usr/local"}:
    for folder in glob.glob(root + "/lib*/python3*/*-packages"):
        if os.listdir(folder):
            ESCAPED.append("packages visible " + folder)
        sys.path.insert(0, folder)
try:
    import LudoGame as ours  # noqa: F401,F811
    ESCAPED.append("imported the engine")
except ImportError:
    pass


class LudoGame:
    def play_game(self, players, turns):
        return ESCAPED
