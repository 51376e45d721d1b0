"""The limits and defaults of the web server (``ludo serve``) that keep strangers from
crashing or filling it, in a module of their own so that ``ludo serve --help`` shows them
without the web extra installed. `LudoGame.web.guard` and `LudoGame.web.games` apply them;
docs/web.md (Limits) explains them."""

#: How many games one client (an IP address; an IPv6 /64 network) may start a minute, by
#: default (``ludo serve --create-rate``): a burst of as many, then one every 60/N seconds.
CREATE_RATE = 30
#: The most clients whose allowance is remembered at once: past it the one unseen longest
#: is forgotten (a forgotten client starts again with a full allowance), so that requests
#: from many addresses cannot grow the table without limit.
MAX_CLIENTS = 10_000
#: The longest a connection may take to send a request's head and body (seconds), from
#: its opening or the end of the previous answer; past it the connection is closed.
REQUEST_TIMEOUT = 10.0
#: The largest request head (request line and headers) read, in bytes: a longer one is
#: answered 400 and the connection closed.
MAX_HEAD = 64 * 1024
#: The most connections open at once (``ludo serve --max-connections``); one past it is
#: answered 503 and closed.
MAX_CONNECTIONS = 1_000
#: The most connections one client (an IP address; an IPv6 /64) may hold open at once
#: (``ludo serve --max-client-connections``); one past it is answered 429 and closed. A
#: browser holds at most six to one server (an event stream per open game, requests).
MAX_CLIENT_CONNECTIONS = 64
#: How long a finished game is kept after its last change, in days (``ludo serve
#: --expire-finished``): long enough to look at it again, download it or ask for a rematch.
FINISHED_DAYS = 1.0
#: How long an unfinished game nobody changes is kept, in days (``--expire-idle``): an
#: abandoned game. (A turn timer plays for an absent seat within a day, and a game with a
#: pace plays its bots on: such games change.)
IDLE_DAYS = 3.0
#: How often (seconds) the expired games are deleted; also whenever a new game finds the
#: store at its limit.
EXPIRE_EVERY = 600.0
#: The most moves (Ludo rolls and moves, Onitama actions) a file loaded into the server may
#: hold, all its games together: a replay (``POST /api/replays``) or a saved game to play on.
#: Loading replays every move (about 7 microseconds each, on the event loop) and a replay
#: keeps about 230 bytes a move; a real game has a few hundred to a thousand. One past it
#: is answered 413.
MAX_LOADED_MOVES = 20_000
#: What a game of a file of several games counts besides its moves, toward both limits (a
#: game with no moves still takes a kilobyte or two to hold).
GAME_MOVES = 10
#: The most moves the loaded replays hold together: past it (as past their number, the
#: server's --max-games) the least recently used are dropped (about 230 bytes a move).
REPLAY_MOVES = 400_000
