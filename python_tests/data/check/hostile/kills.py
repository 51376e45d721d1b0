# Kills at import: every process it may signal (kill -9 -1), its parent, the init of its
# sandbox, and a host process of its host uid (@HOST_PID@, filled in by the test). It also
# leaves a sleeper (its command line holds @TOKEN@). None of the kills reach outside.
import os
import signal

if os.fork() == 0:
    os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)", "@TOKEN@"])
for target in (-1, os.getppid(), 1, @HOST_PID@):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError:
        pass


class LudoGame:
    def play_game(self, players, turns):
        return ["kills"]
