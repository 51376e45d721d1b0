// What the two games' pages share: opening the game an address names (or one from a
// position), the new-game form's hosting fields, and the play view's frame (status, seats,
// turn timer, undo, game over, history, saving, the bots' pace, their keys and the live
// connection). ludo.js and onitama.js add what is their game's own: the form's rules and
// seats, the board, the move input and their game's words.

import { AutoPlayer, ApiError, api, clearError, el, page, saveControls, setQuery, showError, typingTarget } from "./common.js";
import { Seats, claimFromAddress, follow, leadOn, linkUp, overPanel, paceField, presenceLine, rememberCreated, seatKinds, timerField, timerLine, timerWords } from "./live.js";

const GAME_NAMES = { ludo: "Ludo", onitama: "Onitama" };

/** Starts a game of `kind` ("ludo" or "onitama") and keeps its keys in this browser. */
export async function createGame(kind, body) {
  const answer = await api("POST", `/api/${kind}/games`, body);
  rememberCreated(kind, answer);
  return answer;
}

/**
 * Shows the page the query asks for: a live game (`play(state, note)`), a game from a
 * position (`?position=`; also when the game is gone from the server), or the new-game form
 * (`form()`).
 */
export async function showGame(kind, params, play, form) {
  claimFromAddress(kind, params);
  const id = params.get("game");
  const position = params.get("position");
  if (id) {
    let state;
    try {
      state = await api("GET", `/api/${kind}/games/${encodeURIComponent(id)}`);
    } catch (err) {
      if (position) return startFromPosition(kind, position, "That game is no longer on this server: it goes on here from the position in the link.", play);
      showError(err);
      return form();
    }
    if (leadOn(kind, state, true)) return null; // its rematch, with this browser's seats
    return play(state);
  }
  if (position) return startFromPosition(kind, position, null, play);
  return form();
}

async function startFromPosition(kind, position, note, play) {
  try {
    play(await createGame(kind, { position }), note);
  } catch (err) {
    const main = page(`${GAME_NAMES[kind]} position`);
    main.append(
      el("h1", {}, "This position cannot be shown"),
      el("p", { id: "position-error" }, "The link's position notation was refused: ", el("strong", {}, err.message)),
      el("p", { class: "meta" }, "Notation: ", el("code", {}, position)),
      el("p", {}, el("a", { href: `/${kind}`, class: "button primary" }, `Start a new ${GAME_NAMES[kind]} game`)),
    );
    showError(err);
  }
}

/**
 * The new-game form's fields for who runs the game: the bots' pace (`pace.node`), the turn
 * timer of seats on other devices (`timer.node`, its bot one of `bots`, [value, label]
 * pairs), and the `seed` input, which such a game leaves to the server. `sync(kinds)` shows
 * what the chosen seat kinds need; `fill(body)` puts the chosen values into a new game's
 * request.
 */
export function hostingFields(seed, bots) {
  const pace = paceField();
  const timer = timerField(bots);
  return {
    pace,
    timer,
    sync(kinds) {
      const playing = kinds.filter((k) => k && k !== "off");
      pace.node.hidden = !playing.some((k) => k !== "human" && k !== "remote");
      timer.node.hidden = !playing.includes("remote");
      // a game played on other devices gets its seed from the server, shown when it is over
      seed.disabled = playing.includes("remote");
      seed.placeholder = seed.disabled ? "chosen by the server" : "random";
    },
    fill(body) {
      if (!seed.disabled && seed.value.trim() !== "") body.seed = seed.value.trim(); // the server reads the decimal text
      if (!pace.node.hidden && pace.value() !== null) body.pace = pace.value();
      if (!timer.node.hidden && timer.value()) body.turn_timer = timer.value();
    },
  };
}

/**
 * The play view of one game, kept in step with the server's state: the parts both games
 * have. `spec` says what differs: `title` ("Ludo"), `heading(state)` (the title's second
 * half), `undoKey`, `bots` (the action that steps a bot or AI, also the `to_act` of its turn)
 * and `botsLabel`, `historyTitle`, `actingSeat(action, state)` (whose key an action needs),
 * `historyItem(entry, i, state, timer)` (one history line; `timer`: the words saying the turn
 * timer's bot played it), `overLines(state)` (the game-over panel's own lines) and
 * `metaText(state)` (the line before the position).
 *
 * The game adds its parts to the returned view (`view.state`, `view.send(action, extra)`,
 * `view.seats`, the `undoButton` to place, the `over` panel) and calls `view.start(parts)`
 * with `board` (the left column's nodes), `controls` (its move input, below the seats'
 * lines), `hint` (the keys), `render(state, before)` (its own parts of a new state) and
 * `onKey(event)` (its own keys, after undo and `w`, which pauses the bots).
 */
export function playView(kind, initial, note, spec) {
  clearError();
  const main = page(spec.title);
  const seats = new Seats(kind, initial.id);
  const title = el("h1", { id: "title" }, spec.title);
  const status = el("p", { class: "status", id: "status", "aria-live": "polite" });
  const role = el("p", { class: "role", id: "role", "aria-live": "polite" });
  const connected = el("p", { class: "meta connected", id: "connected", hidden: true });
  const clock = el("p", { class: "notice turn-timer", id: "turn-timer", role: "timer", hidden: true });
  const undoButton = el("button", { type: "button", id: "undo", "aria-keyshortcuts": spec.undoKey }, "Undo ", el("kbd", {}, spec.undoKey));
  const over = el("section", { class: "panel over", id: "game-over", hidden: true });
  const historyList = el("ol", { class: "history", id: "history" });
  const save = saveControls(kind);
  const meta = el("p", { class: "meta", id: "meta" });
  const invite = seats.invitePanel();
  const auto = new AutoPlayer(() => view.send(spec.bots));
  const watch = el("div", { id: "watch" }, auto.controls(spec.botsLabel));
  const botsHere = () => linkUp() && view.state.to_act === spec.bots && seats.drivesBots(view.state);
  auto.afterToggle = () => auto.schedule(botsHere());
  undoButton.addEventListener("click", () => view.send("undo"));

  let inFlight = false;
  let parts = null;

  function render(next) {
    const before = view.state;
    view.state = next;
    const state = next;
    setQuery({ game: state.id, position: state.position });
    title.textContent = `${spec.title} — ${spec.heading(state)}`;
    status.textContent = state.status;
    parts.render(state, before);
    role.textContent = seats.role(state);
    presenceLine(connected, state.connected);
    timerLine(clock, state);
    // undo where this device may take the decision back (online: its own seat's)
    undoButton.disabled = !(linkUp() && seats.mayUndo(state));
    undoButton.hidden = seats.online(state) && !seats.mayUndo(state);
    const timed = new Set(state.timer_entries || []);
    historyList.replaceChildren(...(state.history || []).map((e, i) => spec.historyItem(e, i, state, timed.has(i) ? timerWords(state) : null)));
    historyList.scrollTop = historyList.scrollHeight;
    const bots = Object.values(seatKinds(state)).some((k) => k !== "human" && k !== "remote");
    watch.hidden = !bots || state.to_act === null || !seats.drivesBots(state);
    if (state.to_act === null) {
      over.hidden = false;
      overPanel(over, kind, state, seats, spec.overLines(state));
    } else {
      over.hidden = true;
      over.replaceChildren();
    }
    save.update(state.id);
    meta.replaceChildren(spec.metaText(state), el("code", { id: "position" }, state.position));
    auto.schedule(botsHere());
  }

  const view = {
    state: initial,
    seats,
    undoButton,
    over,

    /**
     * Sends one action of the game (with `extra` in its body); resolves to whether the
     * server took it. One request at a time: a second key press while one is answered is
     * dropped; none while the connection is lost (the banner says so).
     */
    async send(action, extra) {
      if (inFlight || !linkUp()) return false;
      inFlight = true;
      auto.cancel();
      const state = view.state;
      const body = { version: state.version, ...(extra || {}) };
      try {
        const next = await api("POST", `/api/${kind}/games/${encodeURIComponent(state.id)}/${action}`, body, seats.headers(spec.actingSeat(action, state)));
        inFlight = false;
        clearError();
        if (next.version >= view.state.version) render(next);
        return true;
      } catch (err) {
        inFlight = false;
        showError(err);
        // a stale version or a game changed elsewhere: show what the server holds now
        if (err.status === 409) {
          const fresh = await api("GET", `/api/${kind}/games/${encodeURIComponent(state.id)}`).catch(() => null);
          if (fresh) render(fresh);
        }
        return false;
      }
    },

    /** Puts the view into the page, follows the game's live events and shows the state. */
    start(game) {
      parts = game;
      const frame = el(
        "div",
        { class: "play" },
        el("div", {}, ...game.board),
        el(
          "div",
          {},
          status,
          role,
          clock,
          connected,
          ...game.controls,
          over,
          watch,
          ...(invite ? [invite] : []),
          el("h2", {}, spec.historyTitle),
          historyList,
          el("h2", {}, "Save and share"),
          ...save.nodes,
          meta,
          game.hint,
        ),
      );
      main.append(title, ...(note ? [el("p", { class: "notice", id: "notice" }, note)] : []), frame);
      const alive = () => document.body.contains(frame);
      const onKey = (event) => {
        if (!alive()) {
          document.removeEventListener("keydown", onKey);
          return;
        }
        if (event.ctrlKey || event.metaKey || event.altKey || typingTarget(event)) return;
        if (event.key === spec.undoKey) {
          if (!undoButton.disabled && !undoButton.hidden) view.send("undo");
          return;
        }
        if (event.key === "w") {
          if (!watch.hidden) document.getElementById("pause").click();
          return;
        }
        game.onKey(event);
      };
      document.addEventListener("keydown", onKey);
      const presence = (now) => {
        view.state = { ...view.state, connected: now };
        presenceLine(connected, now);
      };
      // live: a change made anywhere (another device, the server's bots or AIs) shows here at once
      follow(
        kind,
        view.state.id,
        (next) => {
          if (leadOn(kind, next)) return; // a rematch: every page goes on to it
          if (next.version > view.state.version) render(next);
          // the same game (the stream's first state): only who is connected may be newer
          else if (next.version === view.state.version && next.connected) presence(next.connected);
        },
        alive,
        () => showError(new ApiError("This game was deleted on the server.", "Gone", 404)),
        seats,
        presence,
        () => render(view.state), // the connection lost or back: the actions follow it
      );
      render(view.state);
    },
  };
  return view;
}
