# Every text it can put in a report holds terminal escapes and other control characters: a
# cleared screen and a fake green verdict in its returned object's type name and repr, in
# its exceptions' messages and type names, in a returned string.
FAKE = "\x1b[2J\x1b[H\x1b[32magrees\x1b[0m with the engine\r\n\x07\x08\x7f\x9b2J\u202e"

Shady = type("Shady" + FAKE, (), {"__repr__": lambda self: "repr" + FAKE})
Loud = type("Loud" + FAKE, (Exception,), {})


class LudoGame:
    def play_game(self, players, turns):
        return Shady()

    def get_player_by_position(self, position):
        if position == "A":
            raise Loud("message" + FAKE)
        return "B" + FAKE
