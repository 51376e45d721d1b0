// Playing together, for both games: the seats this browser plays (their keys kept in
// localStorage, so a reload keeps them), invite links, and the live connection to a game's
// events (Server-Sent Events), so a move made on one device shows on the others at once.

import { api, copyText, el, guarded } from "./common.js";

const storeName = (kind, id) => `ludogame:${kind}:${id}`;

/** What this browser holds of game `id`: the host's key, seat keys and the invite links. */
function held(kind, id) {
  try {
    const found = JSON.parse(localStorage.getItem(storeName(kind, id)) || "null");
    if (found && typeof found === "object") return { seats: {}, links: {}, ...found };
  } catch (err) {
    // no storage (a private window) or junk in it: hold nothing
  }
  return { host: null, seats: {}, links: {} };
}

function keep(kind, id, value) {
  try {
    localStorage.setItem(storeName(kind, id), JSON.stringify(value));
  } catch (err) {
    // storage refused: the keys last as long as the page
  }
}

/** Keeps what only a new game's answer shows: the host's key and the invite links. */
export function rememberCreated(kind, answer) {
  if (!answer || !answer.id) return;
  keep(kind, answer.id, { ...held(kind, answer.id), host: answer.host_key || null, links: answer.links || {}, since: Date.now() });
}

// ---- the games of this browser ("my games") -------------------------------------------------

/** Every game this browser started or holds a seat in: {kind, id, since, seats, host}. */
export function myGames(onlyKind) {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const name = localStorage.key(i) || "";
      const m = /^ludogame:(ludo|onitama):(.+)$/.exec(name);
      if (!m || (onlyKind && m[1] !== onlyKind)) continue;
      const h = held(m[1], m[2]);
      out.push({ kind: m[1], id: m[2], since: h.since || 0, seats: Object.keys(h.seats || {}), host: Boolean(h.host), gone: Boolean(h.gone) });
    }
  } catch (err) {
    // no storage: no list
  }
  return out.sort((a, b) => b.since - a.since);
}

/** Forgets game `id` in this browser (its keys too). */
export function forget(kind, id) {
  try {
    localStorage.removeItem(storeName(kind, id));
  } catch (err) {
    // nothing kept
  }
}

const GAME_NAMES = { ludo: "Ludo", onitama: "Onitama" };

/** Whose turn it is in a state, in words. */
function turnWords(state) {
  if (state.to_act === null) return "over";
  const seat = state.kind === "ludo" ? state.current_player : state.turn;
  return `${seat}'s turn`;
}

/**
 * The "My games" panel: each game this browser started or holds a seat in (newest first, at
 * most 30), with a link, its status and whose turn it is, read from the server now.
 */
export function myGamesPanel(onlyKind) {
  const games = myGames(onlyKind).slice(0, 30);
  if (!games.length) return null;
  const list = el("ul", { class: "my-games", id: "my-games-list" });
  const panel = el("section", { class: "panel", id: "my-games", "aria-label": "My games" }, el("h2", {}, "My games in this browser"), list);
  for (const g of games) {
    const who = g.seats.length ? `you play ${g.seats.join(", ")}` : g.host ? "you started it" : "";
    const link = el("a", { href: `/${g.kind}?game=${encodeURIComponent(g.id)}`, class: "button" }, `${GAME_NAMES[g.kind]} ${g.id.slice(0, 6)}`);
    const info = el("span", { class: "meta" }, "…");
    const drop = el("button", { type: "button", class: "forget", "aria-label": `Forget ${GAME_NAMES[g.kind]} game ${g.id.slice(0, 6)} in this browser` }, "Forget");
    const item = el("li", { dataset: { game: g.id, kind: g.kind } }, link, info, drop);
    drop.addEventListener("click", () => {
      forget(g.kind, g.id);
      item.remove();
      if (!list.children.length) panel.remove();
    });
    list.append(item);
    api("GET", `/api/${g.kind}/games/${encodeURIComponent(g.id)}?fields=`)
      .then((state) => {
        item.dataset.status = state.to_act === null ? "over" : "playing";
        info.textContent = [turnWords(state), state.status, who].filter(Boolean).join(" · ");
      })
      .catch((err) => {
        item.dataset.status = "gone";
        info.textContent = err.status === 404 ? "no longer on the server" : "cannot be read now";
      });
  }
  return panel;
}

// ---- rematch -----------------------------------------------------------------------------------

/** The keys this browser holds for game `from` act in its rematch `to` too: keep them there. */
export function adoptRematch(kind, from, to) {
  const old = held(kind, from);
  if (!old.host && !Object.keys(old.seats).length) return;
  keep(kind, to, { ...held(kind, to), host: old.host, seats: { ...old.seats }, links: old.links || {}, since: Date.now() });
}

/**
 * A game that has a rematch: go on to it (keeping this browser's seats); true if going. With
 * `mineOnly`, only a browser that plays in the game goes on (a spectator opening a finished
 * game's address sees it, with a link to the rematch).
 */
export function leadOn(kind, state, mineOnly) {
  if (!state || !state.rematch) return false;
  if (mineOnly) {
    const h = held(kind, state.id);
    if (!h.host && !Object.keys(h.seats).length) return false;
  }
  adoptRematch(kind, state.id, state.rematch);
  location.replace(`/${kind}?game=${encodeURIComponent(state.rematch)}`);
  return true;
}

/** Asks for the rematch of a finished game and goes to it. */
export async function askRematch(kind, state, seats) {
  const next = await api("POST", `/api/${kind}/games/${encodeURIComponent(state.id)}/rematch`, {}, seats.headers(null));
  leadOn(kind, { ...state, rematch: next.id });
}

/**
 * The game-over panel: a title, the game's own lines (ranking, winner), and the buttons for a
 * rematch (a player or whoever started the game) and a new game.
 */
export function overPanel(panel, kind, state, seats, lines) {
  const rematch = el("button", { type: "button", class: "primary", id: "rematch", disabled: !linkUp() }, state.rematch ? "Go to the rematch" : "Rematch");
  rematch.addEventListener("click", () =>
    guarded(async () => {
      rematch.disabled = true;
      try {
        await askRematch(kind, state, seats);
      } finally {
        rematch.disabled = false;
      }
    }),
  );
  panel.replaceChildren(
    el("h2", {}, "Game over"),
    ...lines,
    el(
      "p",
      { class: "controls" },
      seats.mayRematch(state) ? rematch : null,
      !seats.mayRematch(state) && state.rematch ? el("a", { href: `/${kind}?game=${encodeURIComponent(state.rematch)}`, class: "button primary", id: "watch-rematch" }, "Watch the rematch") : null,
      el("a", { href: `/${kind}`, class: "button", id: "new-game" }, "New game"),
    ),
    seats.mayRematch(state) ? el("p", { class: "hint" }, "A rematch keeps the seats: the same invite links lead into it.") : null,
  );
}

// ---- who is connected, and the turn timer -------------------------------------------------------

/** The line saying which people's seats have a page open now (an online game). */
export function presenceLine(node, connected) {
  const seats = Object.entries(connected || {});
  node.hidden = !seats.length;
  node.replaceChildren(
    "Connected: ",
    ...seats.flatMap(([seat, on], i) => [
      i ? " · " : "",
      el("span", { class: on ? "online" : "offline", dataset: { seat, online: String(on) } }, `${seat} ${on ? "● online" : "○ away"}`),
    ]),
  );
}

let ticking = null;

/** The turn timer's countdown for the remote seat to act, kept up to date every 1/4 s. */
export function timerLine(node, state) {
  if (ticking) clearInterval(ticking);
  ticking = null;
  const timer = state.turn_timer;
  if (!timer || timer.left === null || timer.left === undefined || state.to_act === null) {
    node.hidden = true;
    node.replaceChildren();
    return;
  }
  const seat = state.kind === "ludo" ? state.current_player : state.turn;
  const until = performance.now() + timer.left * 1000;
  const show = () => {
    if (!document.body.contains(node)) {
      clearInterval(ticking);
      ticking = null;
      return;
    }
    const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
    node.dataset.left = String(left);
    node.textContent = left > 0 ? `${seat} has ${left} s to play, then the bot ${timer.bot} plays for ${seat}.` : `Time is up: the bot ${timer.bot} plays for ${seat}.`;
  };
  node.hidden = false;
  show();
  ticking = setInterval(show, 250);
}

/** Who played the history entries the turn timer's bot played for an absent person. */
export function timerWords(state) {
  return state.turn_timer ? `by the turn timer's bot ${state.turn_timer.bot}` : "by the turn timer's bot";
}

// ---- the new-game forms: pace and turn timer --------------------------------------------------

/** The pace chooser of a new game with bots or AIs: who steps them, and how fast. */
export function paceField() {
  const select = el(
    "select",
    { id: "pace", name: "pace" },
    el("option", { value: "" }, "This page steps them (speed chosen while watching)"),
    [
      ["0", "The server, as fast as it can"],
      ["0.5", "The server, every 0.5 s"],
      ["1", "The server, every second"],
      ["2", "The server, every 2 s"],
      ["5", "The server, every 5 s"],
    ].map(([v, label]) => el("option", { value: v }, label)),
  );
  return { node: el("label", { id: "pace-field" }, "Bots play at", select), value: () => (select.value === "" ? null : Number(select.value)) };
}

/** The turn timer of a new game's remote seats: off, or seconds and the bot that plays. */
export function timerField(bots) {
  const seconds = el(
    "select",
    { id: "timer-seconds", name: "timer-seconds" },
    el("option", { value: "" }, "Off"),
    [10, 30, 60, 120, 300].map((s) => el("option", { value: s }, `${s} s`)),
  );
  const bot = el("select", { id: "timer-bot", name: "timer-bot" }, bots.map(([v, label]) => el("option", { value: v }, label)));
  return {
    node: el("div", { class: "row", id: "timer-field" }, el("label", {}, "Turn timer (seats on other devices)", seconds), el("label", {}, "then played by", bot)),
    value: () => (seconds.value === "" ? null : { seconds: Number(seconds.value), bot: bot.value }),
  };
}

/**
 * An invite link opened (`?game=ID&seat=B#key=KEY`): seat B is this browser's from now on.
 * The key leaves the address bar at once.
 */
export function claimFromAddress(kind, params) {
  const id = params.get("game");
  const seat = params.get("seat");
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (!id || !seat || !key) return;
  const mine = held(kind, id);
  mine.seats[seat] = key;
  if (!mine.since) mine.since = Date.now();
  keep(kind, id, mine);
  params.delete("seat");
  history.replaceState(null, "", `${location.pathname}?${params.toString()}`);
}

/** Does an address name this computer only (localhost, 127.x.x.x, [::1])? */
function loopback(url) {
  try {
    return /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(new URL(url).hostname);
  } catch (err) {
    return false;
  }
}

/** Each seat's kind in a state: "human", "remote", or a bot or AI. */
export function seatKinds(state) {
  if (state.seats) return state.seats;
  const out = {};
  for (const [p, side] of Object.entries(state.sides || {})) out[p] = side.kind;
  return out;
}

/** The seats of one game as this browser sees them: which it may act for, with which key. */
export class Seats {
  constructor(kind, id) {
    this.kind = kind;
    this.id = id;
    this.keys = held(kind, id);
  }

  /** Does a seat play on another device? (Then every action needs a key.) */
  online(state) {
    return Object.values(seatKinds(state)).includes("remote");
  }

  /** May this browser act for `seat` (a person's seat)? */
  canAct(state, seat) {
    if (!this.online(state)) return true;
    if (seat && this.keys.seats[seat]) return true;
    return Boolean(this.keys.host) && seatKinds(state)[seat] !== "remote";
  }

  /**
   * May this browser take back the last decision now? Something can be taken back, and the
   * seat it gives the turn back to (`undo_seat`) is one this browser may act for.
   */
  mayUndo(state) {
    return Boolean(state.can_undo) && this.canAct(state, state.undo_seat);
  }

  /** Does this browser step the bots (a game without a server pace, that it started)? */
  drivesBots(state) {
    return state.pace === null && (!this.online(state) || Boolean(this.keys.host));
  }

  /** The key this browser holds (a seat's, else the host's), for the events stream. */
  key() {
    return Object.values(this.keys.seats)[0] || this.keys.host || null;
  }

  /** May this browser ask for a rematch (a player, or whoever started the game)? */
  mayRematch(state) {
    return !this.online(state) || Boolean(this.key());
  }

  /** The header that acts for `seat` (null: whatever this browser holds). */
  headers(seat) {
    const key = (seat && this.keys.seats[seat]) || this.keys.host || Object.values(this.keys.seats)[0];
    return key ? { "X-Seat-Key": key } : {};
  }

  /** Who this browser is in the game, in words. */
  role(state) {
    const mine = Object.keys(this.keys.seats);
    if (!this.online(state)) return "";
    if (mine.length) return `You play ${mine.join(", ")} on this device.`;
    if (this.keys.host) {
      const here = Object.entries(seatKinds(state)).filter(([, k]) => k === "human").map(([p]) => p);
      return here.length ? `You play ${here.join(", ")} on this device.` : "You started this game.";
    }
    return "You are watching (read-only).";
  }

  /**
   * The invite panel: a link per remote seat, to send to its player (host only). Links to a
   * loopback address (a server serving this computer only, as `ludo serve` does by default)
   * open on no other device: the panel says so, and how to serve the network.
   */
  invitePanel() {
    const links = Object.entries(this.keys.links || {});
    if (!links.length) return null;
    const local = links.some(([, url]) => loopback(url));
    return el(
      "section",
      { class: "panel invite", id: "invite", "aria-label": "Invite players" },
      el("h2", {}, "Invite players"),
      el("p", { class: "hint" }, "Send each link to the person who plays that seat: opening it on their device gives them the seat."),
      local
        ? el(
            "p",
            { class: "notice", id: "invite-local" },
            "These links open on this computer only: the server listens on a loopback address. To invite another device, restart it with ",
            el("code", {}, "ludo serve --host 0.0.0.0"),
            " (it prints this computer's network address, which new games' links then use).",
          )
        : null,
      links.map(([seat, url]) => {
        const field = el("input", { type: "text", readonly: true, value: url, class: "invite-link", id: `invite-${seat}`, "aria-label": `Invite link for seat ${seat}` });
        const copy = el("button", { type: "button", id: `copy-invite-${seat}` }, `Copy ${seat}'s link`);
        copy.addEventListener("click", async () => {
          const ok = await copyText(url, field);
          copy.textContent = ok ? "Copied" : "Copy it from the field";
        });
        return el("div", { class: "invite-row" }, el("span", {}, `Seat ${seat}`), field, copy);
      }),
    );
  }
}

// ---- the connection: said in words while it is lost ------------------------------------------

/**
 * How long (ms) the live connection may be down before the page says so: the browser's own
 * reconnect (after 1 s, the server's `retry:`) goes unseen; a stopped server or a lost
 * network is said within 2 s.
 */
const LOST_AFTER = 1500;
/** How long (ms) to wait before opening a stream the browser gave up on (an error answer). */
const REOPEN_AFTER = 2000;

let linkDown = false;
let lostTimer = null;
let linkWatcher = null;

/** Is the page's live connection up? While it is down, the views offer no action. */
export function linkUp() {
  return !linkDown;
}

/** The connection is up (`up`) or down: the banner after `LOST_AFTER` ms down, gone at once. */
function linkState(up) {
  if (!up && lostTimer === null && !linkDown) lostTimer = setTimeout(() => showLink(false), LOST_AFTER);
  if (up) showLink(true);
}

function showLink(up) {
  if (lostTimer !== null) clearTimeout(lostTimer);
  lostTimer = null;
  const banner = document.getElementById("connection");
  if (banner) banner.hidden = up;
  const changed = linkDown === up;
  linkDown = !up;
  if (changed && linkWatcher) linkWatcher(up);
}

/**
 * The state a `change` event's data makes of `state`, the version before it (docs/web.md,
 * Live events): fields set whole, lists that keep their first items and grow, texts edited;
 * null if it does not follow `state`.
 */
export function applyChange(state, change) {
  if (!state || !change || change.version !== state.version + 1) return null;
  const next = { ...state, ...(change.set || {}), version: change.version };
  for (const [name, [kept, items]] of Object.entries(change.append || {})) {
    const had = state[name];
    if (!Array.isArray(had) || kept > had.length) return null;
    next[name] = had.slice(0, kept).concat(items);
  }
  for (const [name, edits] of Object.entries(change.edit || {})) {
    let text = state[name];
    if (typeof text !== "string") return null;
    for (let i = edits.length - 1; i >= 0; i -= 1) {
      const [start, end, piece] = edits[i];
      if (!(start >= 0 && start <= end && end <= text.length)) return null;
      text = text.slice(0, start) + piece + text.slice(end);
    }
    next[name] = text;
  }
  return next;
}

/**
 * Follows a game's live events while `alive()` holds: `onState(state)` for every state the
 * server sends (the whole state first, then each change applied to the one before it; the
 * browser reconnects by itself, resuming from the last version seen), and `onLink(up)` when
 * the connection is lost (a banner says so) or back. Returns a function that stops it.
 */
let following = null;

export function follow(kind, id, onState, alive, onGone, seats, onPresence, onLink) {
  // one live connection per page: a browser opens only a few at once to one server
  if (following) following();
  following = null;
  linkWatcher = onLink || null;
  if (typeof EventSource === "undefined") return () => {};
  // the stream carries this browser's key, so the others see its seats connected
  const key = seats ? seats.key() : null;
  const query = key ? `?seat_key=${encodeURIComponent(key)}` : "";
  const source = new EventSource(`/api/${kind}/games/${encodeURIComponent(id)}/events${query}`);
  let reopen = null;
  const offline = () => linkState(false);
  const stop = () => {
    source.close();
    if (reopen !== null) clearTimeout(reopen);
    window.removeEventListener("offline", offline);
  };
  let current = null; // the state as this stream has shown it (a change applies to it)
  following = stop;
  window.addEventListener("pagehide", stop, { once: true });
  window.addEventListener("offline", offline);
  source.addEventListener("open", () => linkState(true));
  source.addEventListener("error", () => {
    if (!alive()) return stop();
    linkState(false);
    if (source.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
    // it gave up (an error answer, a proxy's): once the game is known to be there, open anew
    reopen = setTimeout(() => {
      reopen = null;
      api("GET", `/api/${kind}/games/${encodeURIComponent(id)}?fields=`)
        .then(() => alive() && follow(kind, id, onState, alive, onGone, seats, onPresence, onLink))
        .catch((err) => {
          if (err.status === 404) {
            // the server is there, the game is not: no banner, the page says it is gone
            stop();
            showLink(true);
            if (onGone && alive()) onGone();
          } else if (alive()) {
            follow(kind, id, onState, alive, onGone, seats, onPresence, onLink);
          }
        });
    }, REOPEN_AFTER);
  });
  source.addEventListener("state", (event) => {
    if (!alive()) {
      source.close();
      return;
    }
    let state = null;
    try {
      state = JSON.parse(event.data);
    } catch (err) {
      return;
    }
    current = state;
    onState(state);
  });
  source.addEventListener("change", (event) => {
    if (!alive()) {
      source.close();
      return;
    }
    let change = null;
    try {
      change = JSON.parse(event.data);
    } catch (err) {
      change = null;
    }
    const state = applyChange(current, change);
    if (!state) {
      // a change this page cannot place (it missed one): follow anew, from the state whole
      follow(kind, id, onState, alive, onGone, seats, onPresence, onLink);
      return;
    }
    current = state;
    onState(state);
  });
  source.addEventListener("presence", (event) => {
    let connected = null;
    try {
      connected = JSON.parse(event.data).connected;
    } catch (err) {
      return; // not JSON: nothing to show
    }
    if (current) current = { ...current, connected };
    if (!alive() || !onPresence) return;
    onPresence(connected);
  });
  source.addEventListener("gone", () => {
    source.close();
    if (onGone && alive()) onGone();
  });
  return stop;
}
