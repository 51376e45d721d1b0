"""Closes every descriptor it has, then sleeps: the checker sees its pipes close while the
process lives on (a checker that waited for it to end would wait forever)."""

import os
import time


class LudoGame:
    def __init__(self) -> None:
        os.closerange(0, 256)
        time.sleep(10**6)
