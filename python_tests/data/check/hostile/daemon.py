# A daemon at import: a new session and a double fork, the grandchild a python3 sleeping
# a minute (its command line holds @TOKEN@). Nothing is left after the check.
import os

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)", "@TOKEN@"])
    os._exit(0)
os.wait()


class LudoGame:
    def play_game(self, players, turns):
        return ["daemon"]
