// The Onitama pages: the setup chooser and the play view. The engine's referee judges every
// ply; this file only offers the legal actions the server lists and shows the answers.

import { AutoPlayer, ApiError, api, clearError, el, guarded, loadForm, page, putSvg, saveControls, setQuery, showError, typingTarget } from "./app.js";
import { Seats, claimFromAddress, follow, rememberCreated } from "./live.js";

const LEVELS = [
  ["0", "AI level 0 (random)"],
  ["1", "AI level 1 (baseline)"],
  ["2", "AI level 2 (search)"],
];
const WALL_WORDS = { u: "up", d: "down", l: "left", r: "right", s: "stays" };

/** Shows the page the query asks for: the chooser, a live game, or a game from a position. */
export async function show(params) {
  claimFromAddress("onitama", params);
  const id = params.get("game");
  const position = params.get("position");
  if (id) {
    try {
      return play(await api("GET", `/api/onitama/games/${encodeURIComponent(id)}`));
    } catch (err) {
      if (position) return startFromPosition(position, "That game is no longer on this server: it goes on here from the position in the link.");
      showError(err);
      return chooser();
    }
  }
  if (position) return startFromPosition(position, null);
  return chooser();
}

async function startFromPosition(position, note) {
  try {
    play(await create({ position }), note);
  } catch (err) {
    const main = page("Onitama position");
    main.append(
      el("h1", {}, "This position cannot be shown"),
      el("p", { id: "position-error" }, "The link's position notation was refused: ", el("strong", {}, err.message)),
      el("p", { class: "meta" }, "Notation: ", el("code", {}, position)),
      el("p", {}, el("a", { href: "/onitama", class: "button primary" }, "Start a new Onitama game")),
    );
    showError(err);
  }
}

/** Starts a game and keeps its keys in this browser. */
async function create(body) {
  const answer = await api("POST", "/api/onitama/games", body);
  rememberCreated("onitama", answer);
  return answer;
}

// The setups the engine knows (GET /api/onitama/setups).
async function setupIds() {
  const answer = await api("GET", "/api/onitama/setups");
  return answer.setups.map(String);
}

// The MATLAB AI files the server offers (ludo serve --ai-dir; GET /api/onitama/ais).
async function matlabAis() {
  try {
    return (await api("GET", "/api/onitama/ais")).ais;
  } catch (err) {
    return [];
  }
}

function sideFields(side, kind, matlab = []) {
  const select = el(
    "select",
    { id: `side-${side}`, "aria-label": `Side ${side}` },
    el("option", { value: "human", selected: kind === "human" }, "Person"),
    el("option", { value: "remote", selected: kind === "remote" }, "Person on another device"),
    LEVELS.map(([v, label]) => el("option", { value: v, selected: kind === v }, label)),
    matlab.map((name) => el("option", { value: name, selected: kind === name }, `MATLAB AI ${name}`)),
  );
  const time = el("input", { id: `time-${side}`, type: "number", min: 0.05, max: 10, step: 0.05, value: 1, "aria-label": `Seconds per ply for side ${side}` });
  return [el("label", {}, `Side ${side}`, select), el("label", {}, "AI seconds per ply", time)];
}

function readSides() {
  const sides = {};
  for (const side of ["A", "B"]) {
    const kind = document.getElementById(`side-${side}`).value;
    sides[side] = kind === "human" || kind === "remote" ? { kind } : { kind: "ai", level: kind.endsWith(".m") ? kind : Number(kind), time: Number(document.getElementById(`time-${side}`).value || 1) };
  }
  return sides;
}

async function chooser() {
  const main = page("New Onitama game");
  const ids = await setupIds();
  const matlab = await matlabAis();
  const setup = el(
    "select",
    { id: "setup" },
    el("option", { value: "random" }, "Random cards (dealt from the seed)"),
    ids.map((id) => el("option", { value: id, selected: id === "21" }, `Setup ${id}`)),
  );
  const seed = el("input", { id: "seed", type: "number", min: 0, step: 1, placeholder: "0" });
  const maxPlies = el("input", { id: "max-plies", type: "number", min: 1, step: 1, placeholder: "the setup's" });
  const start = el("button", { type: "submit", class: "primary", id: "start" }, "Start the game");
  const form = el(
    "form",
    { id: "new-onitama-form" },
    el(
      "fieldset",
      {},
      el("legend", {}, "Setup"),
      el("div", { class: "row" }, el("label", {}, "Start", setup), el("label", {}, "Seed (random cards)", seed), el("label", {}, "Ply limit", maxPlies)),
    ),
    el(
      "fieldset",
      {},
      el("legend", {}, "Sides"),
      el("div", { class: "row" }, sideFields("A", "human", matlab)),
      el("div", { class: "row" }, sideFields("B", "1", matlab)),
      el("p", { class: "hint" }, "A moves first. Two AIs play by themselves: watch them at the speed you choose."),
    ),
    start,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(async () => {
      clearError();
      const body = { setup: setup.value, sides: readSides() };
      if (seed.value !== "") body.seed = Number(seed.value);
      if (maxPlies.value !== "") body.max_plies = Number(maxPlies.value);
      play(await create(body));
    });
  });

  const load = loadForm("load-onitama-form", "Continue a saved game or a position (with the sides above)", [], async (body) => {
    body.sides = readSides();
    play(await create(body));
  });
  main.append(el("h1", {}, "New Onitama game"), form, load);
  setup.focus();
}

function cardPicture(slot, card) {
  const cells = card.rows.flatMap((row) => [...row.padEnd(5, ".").slice(0, 5)].map((c) => el("span", { class: c === "o" ? "o" : c === "x" ? "x" : "" })));
  const name = card.name || "custom";
  return el(
    "figure",
    { class: "card", dataset: { card: slot } },
    el("div", { class: "grid", role: "img", "aria-label": `${name}: ${card.rows.join(" / ")}` }, cells),
    el("figcaption", {}, `${slot}: ${name}`),
  );
}

/** The play view of one game, kept in step with the server's state. */
function play(initial, note) {
  clearError();
  const main = page("Onitama");
  let state = initial;
  let selFrom = null;
  let selTo = null;
  let cardFilter = null;
  const seats = new Seats("onitama", state.id);

  const status = el("p", { class: "status", id: "status", "aria-live": "polite" });
  const plies = el("p", { class: "meta", id: "plies" });
  const message = el("p", { class: "notice", id: "message", role: "status", hidden: true });
  const board = el("div", { class: "board", id: "board" });
  const choices = el("div", { class: "panel", id: "wall-choice", hidden: true });
  const passes = el("div", { class: "choices", id: "passes", hidden: true });
  const typed = el("input", { id: "action-text", type: "text", placeholder: "1 e1 d1 u", size: 12, "aria-label": "Action as text" });
  const typedForm = el("form", { id: "action-form", class: "controls" }, el("label", { class: "inline" }, "Type an action", typed), el("button", { type: "submit" }, "Play it"));
  const undoButton = el("button", { type: "button", id: "undo", "aria-keyshortcuts": "z" }, "Undo ", el("kbd", {}, "z"));
  const cards = el("div", { class: "cards", id: "cards" });
  const over = el("section", { class: "panel over", id: "game-over", hidden: true });
  const historyList = el("ol", { class: "history", id: "history" });
  const save = saveControls("onitama");
  const meta = el("p", { class: "meta", id: "meta" });
  const role = el("p", { class: "role", id: "role", "aria-live": "polite" });
  const invite = seats.invitePanel();
  const auto = new AutoPlayer(() => send("ai"));
  const watch = el("div", { id: "watch" }, auto.controls("AI"));
  const aiHere = () => state.to_act === "ai" && seats.drivesBots(state);
  auto.afterToggle = () => auto.schedule(aiHere());

  undoButton.addEventListener("click", () => send("undo"));
  typedForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = typed.value.trim();
    if (text) playAction(text);
  });

  main.append(
    el("h1", { id: "title" }, "Onitama"),
    ...(note ? [el("p", { class: "notice", id: "notice" }, note)] : []),
    el(
      "div",
      { class: "play" },
      el("div", {}, board, el("h2", {}, "Cards"), cards),
      el(
        "div",
        {},
        status,
        role,
        plies,
        message,
        choices,
        passes,
        el("div", { class: "controls" }, undoButton),
        typedForm,
        over,
        watch,
        ...(invite ? [invite] : []),
        el("h2", {}, "Plies"),
        historyList,
        el("h2", {}, "Save and share"),
        ...save.nodes,
        meta,
        el("p", { class: "hint" }, "Click a piece, then a highlighted square, then a wall direction. Keys: ", el("kbd", {}, "1"), "/", el("kbd", {}, "2"), " pick the card, ", el("kbd", {}, "u"), el("kbd", {}, "d"), el("kbd", {}, "l"), el("kbd", {}, "r"), el("kbd", {}, "s"), " the wall, ", el("kbd", {}, "Esc"), " clears, ", el("kbd", {}, "z"), " undoes, ", el("kbd", {}, "w"), " pauses the AIs."),
      ),
    ),
  );

  let inFlight = false;

  async function send(action, extra) {
    // one request at a time: a second key press while one is answered is dropped
    if (inFlight) return false;
    inFlight = true;
    auto.cancel();
    try {
      const seat = action === "action" ? state.turn : null;
      const body = { version: state.version, ...(extra || {}) };
      const next = await api("POST", `/api/onitama/games/${encodeURIComponent(state.id)}/${action}`, body, seats.headers(seat));
      inFlight = false;
      clearError();
      if (next.version >= state.version) render(next);
      return true;
    } catch (err) {
      inFlight = false;
      showError(err);
      if (err.status === 409) {
        const fresh = await api("GET", `/api/onitama/games/${encodeURIComponent(state.id)}`).catch(() => null);
        if (fresh) render(fresh);
      }
      return false;
    }
  }

  async function playAction(text) {
    if (await send("action", { action: text })) typed.value = "";
  }

  const mine = () => (state.to_act === "human" && seats.canAct(state, state.turn) ? state.legal_actions : []);
  const fromSquares = () => new Set(mine().filter((a) => !a.is_pass).map((a) => a.from));
  const targets = (from) => new Set(mine().filter((a) => a.from === from).map((a) => a.to));
  const options = () => mine().filter((a) => a.from === selFrom && a.to === selTo);

  // "Card 1 (Tiger)", or "Card 1" for a card without a name
  function cardLabel(card) {
    const c = state.cards[`${state.turn}${card}`];
    return c && c.name ? `Card ${card} (${c.name})` : `Card ${card}`;
  }

  function actionLabel(a) {
    const wall = a.wall === null ? "wins" : `wall ${WALL_WORDS[a.wall] || a.wall}`;
    return `${cardLabel(a.card)} · ${wall}`;
  }

  function showChoices() {
    const opts = options();
    if (!selTo || !opts.length) {
      choices.hidden = true;
      choices.replaceChildren();
      return;
    }
    const usable = cardFilter ? opts.filter((a) => a.card === cardFilter) : opts;
    choices.replaceChildren(
      el("p", {}, `${selFrom} → ${selTo}: choose the card and the wall`),
      el(
        "div",
        { class: "choices" },
        usable.map((a) =>
          el("button", { type: "button", class: "primary", dataset: { action: a.text, wall: a.wall ?? "", card: a.card }, onclick: () => playAction(a.text) }, actionLabel(a), a.wall ? el("kbd", {}, a.wall) : null),
        ),
        el("button", { type: "button", id: "clear-choice", onclick: clearSelection }, "Cancel ", el("kbd", {}, "Esc")),
      ),
    );
    choices.hidden = false;
  }

  function clearSelection() {
    selFrom = selTo = cardFilter = null;
    mark();
    showChoices();
  }

  function clickSquare(sq) {
    if (selFrom && sq !== selFrom && targets(selFrom).has(sq)) {
      selTo = sq;
      cardFilter = null;
      const opts = options();
      if (opts.length === 1) {
        playAction(opts[0].text);
        return;
      }
    } else if (fromSquares().has(sq)) {
      selFrom = sq === selFrom ? null : sq;
      selTo = null;
    } else {
      selFrom = selTo = null;
    }
    mark();
    showChoices();
    const first = choices.querySelector("button");
    if (first) first.focus();
  }

  function mark() {
    const svg = board.querySelector("svg");
    if (!svg) return;
    const from = fromSquares();
    const tos = selFrom ? targets(selFrom) : new Set();
    for (const g of svg.querySelectorAll("g.square[data-square]")) {
      const sq = g.dataset.square;
      g.classList.toggle("movable", from.has(sq));
      g.classList.toggle("selected", sq === selFrom);
      g.classList.toggle("target", tos.has(sq) || sq === selTo);
      for (const old of g.querySelectorAll(".target-mark")) old.remove();
      if (tos.has(sq)) {
        const r = g.querySelector("rect");
        const x = Number(r.getAttribute("x"));
        const y = Number(r.getAttribute("y"));
        const w = Number(r.getAttribute("width"));
        const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
        ring.setAttribute("class", "target-mark");
        ring.setAttribute("cx", String(x + w / 2));
        ring.setAttribute("cy", String(y + w / 2));
        ring.setAttribute("r", String(w * 0.42));
        g.append(ring);
      }
      const active = from.has(sq) || tos.has(sq);
      if (active) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", tos.has(sq) ? `Move to ${sq}` : `Piece on ${sq}${sq === selFrom ? " (chosen)" : ""}`);
      } else {
        g.removeAttribute("tabindex");
        g.removeAttribute("role");
        g.removeAttribute("aria-label");
      }
    }
  }

  function drawBoard() {
    const svg = putSvg(board, state.svg);
    if (!svg) return;
    svg.setAttribute("aria-label", `Onitama board: ${state.status}`);
    for (const g of svg.querySelectorAll("g.square[data-square]")) {
      g.addEventListener("click", () => clickSquare(g.dataset.square));
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          event.stopPropagation();
          clickSquare(g.dataset.square);
        }
      });
    }
  }

  function render(next) {
    state = next;
    selFrom = selTo = cardFilter = null;
    setQuery({ game: state.id, position: state.position });
    document.getElementById("title").textContent = `Onitama — ${state.setup === null || state.setup === undefined ? "position" : state.setup === "random" ? "random cards" : `setup ${state.setup}`}`;
    status.textContent = state.status;
    plies.textContent = `Ply ${state.plies} played · ${state.plies_left} left`;
    message.hidden = !state.message;
    message.textContent = state.message || "";
    drawBoard();
    mark();
    showChoices();

    const passList = mine().filter((a) => a.is_pass);
    passes.hidden = passList.length === 0;
    passes.replaceChildren(
      el("span", {}, "No piece can move: pass with"),
      passList.map((a) => el("button", { type: "button", class: "primary pass", dataset: { action: a.text }, onclick: () => playAction(a.text) }, actionLabel(a))),
    );
    typed.disabled = !(state.to_act === "human" && seats.canAct(state, state.turn));
    role.textContent = seats.role(state);
    undoButton.disabled = !state.can_undo;
    cards.replaceChildren(...["A1", "A2", "side", "B1", "B2"].filter((k) => state.cards[k]).map((k) => cardPicture(k, state.cards[k])));
    historyList.replaceChildren(...state.history.map((text) => el("li", {}, text)));
    historyList.scrollTop = historyList.scrollHeight;

    const sides = state.sides || {};
    watch.hidden = !Object.values(sides).some((s) => s.kind === "ai") || state.to_act === null || !seats.drivesBots(state);
    if (state.to_act === null) {
      over.hidden = false;
      over.replaceChildren(
        el("h2", {}, "Game over"),
        el("p", { id: "result" }, state.winner ? `${state.winner} wins` : "A tie", state.reason ? ` (${state.reason})` : ""),
        el("p", {}, state.status),
        el("p", { class: "controls" }, el("a", { href: "/onitama", class: "button primary", id: "new-game" }, "New game")),
      );
    } else {
      over.hidden = true;
      over.replaceChildren();
    }
    save.update(state.id);
    meta.replaceChildren("Position ", el("code", { id: "position" }, state.position));
    auto.schedule(aiHere());
  }

  const onKey = (event) => {
    if (!document.body.contains(board)) {
      document.removeEventListener("keydown", onKey);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typingTarget(event)) return;
    const key = event.key;
    if (key === "Escape") return clearSelection();
    if (key === "z") {
      if (!undoButton.disabled) send("undo");
      return;
    }
    if (key === "w") {
      if (!watch.hidden) document.getElementById("pause").click();
      return;
    }
    if (!selTo) return;
    const opts = options();
    if ((key === "1" || key === "2") && opts.some((a) => a.card === Number(key))) {
      cardFilter = Number(key);
      showChoices();
      return;
    }
    const matching = opts.filter((a) => a.wall === key && (!cardFilter || a.card === cardFilter));
    if (matching.length === 1) {
      event.preventDefault();
      playAction(matching[0].text);
    }
  };
  document.addEventListener("keydown", onKey);
  // live: a ply made anywhere (another device, the server's AIs) shows here at once
  follow(
    "onitama",
    state.id,
    (next) => {
      if (next.version > state.version) render(next);
    },
    () => document.body.contains(board),
    () => showError(new ApiError("This game was deleted on the server.", "Gone", 404)),
  );
  render(state);
}
