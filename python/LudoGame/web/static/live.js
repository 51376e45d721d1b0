// Playing together, for both games: the seats this browser plays (their keys kept in
// localStorage, so a reload keeps them), invite links, and the live connection to a game's
// events (Server-Sent Events), so a move made on one device shows on the others at once.

import { copyText, el } from "./app.js";

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
  keep(kind, answer.id, { ...held(kind, answer.id), host: answer.host_key || null, links: answer.links || {} });
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
  keep(kind, id, mine);
  params.delete("seat");
  history.replaceState(null, "", `${location.pathname}?${params.toString()}`);
}

/** Each seat's kind in a state: "human", "remote", or a bot or AI. */
function seatKinds(state) {
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

  /** Does this browser step the bots (a game without a server pace, that it started)? */
  drivesBots(state) {
    return state.pace === null && (!this.online(state) || Boolean(this.keys.host));
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

  /** The invite panel: a link per remote seat, to send to its player (host only). */
  invitePanel() {
    const links = Object.entries(this.keys.links || {});
    if (!links.length) return null;
    return el(
      "section",
      { class: "panel invite", id: "invite", "aria-label": "Invite players" },
      el("h2", {}, "Invite players"),
      el("p", { class: "hint" }, "Send each link to the person who plays that seat: opening it on their device gives them the seat."),
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

/**
 * Follows a game's live events while `alive()` holds: `onState(state)` for every state the
 * server sends (the browser reconnects by itself, resuming from the last version seen).
 * Returns a function that stops it.
 */
let following = null;

export function follow(kind, id, onState, alive, onGone) {
  // one live connection per page: a browser opens only a few at once to one server
  if (following) following();
  following = null;
  if (typeof EventSource === "undefined") return () => {};
  const source = new EventSource(`/api/${kind}/games/${encodeURIComponent(id)}/events`);
  const stop = () => source.close();
  following = stop;
  window.addEventListener("pagehide", stop, { once: true });
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
    onState(state);
  });
  source.addEventListener("gone", () => {
    source.close();
    if (onGone && alive()) onGone();
  });
  return stop;
}
