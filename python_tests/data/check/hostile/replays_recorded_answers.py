# Implements no rule: it replays the answers recorded for the games of one seed. The test
# records them (a run of `ludo check --seed 0` on an agreeing file) and puts them here, keyed
# by each request, before it checks this file. The file then replaces the runner's functions
# in its own interpreter (they share it), so the runner sends whatever this file likes.
import json
import sys

RECORDED = "@RECORDED@"  # {request as sorted JSON: the reply}, as JSON

_replies = json.loads(RECORDED)
_runner = sys.modules["__main__"]


def _lookup(cls, request):
    reply = _replies.get(json.dumps(request, sort_keys=True))
    if reply is not None:
        return reply
    if request["op"] == "names":  # a game it has no record of: an answer of the right shape
        return {}
    return [{"play_game": {"t": "list", "v": []}} for _ in request["games"]]


_runner.handle = _lookup
_runner.answers = lambda *args, **kwargs: {}
_runner.space_names = lambda *args, **kwargs: {}
_runner.value = lambda v, depth=0: {"t": "str", "v": "H"}


class LudoGame:
    pass
