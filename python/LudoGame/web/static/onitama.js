// The Onitama pages: the setup chooser and the play view. The engine's referee judges every
// ply; this file only offers the legal actions the server lists and shows the answers.

import { api, dropStatus, el, loadForm, onSubmit, page, pressable, putSvg, seedWords } from "./common.js";
import { createGame, hostingFields, playView, showGame } from "./game-page.js";
import { linkUp, myGamesPanel } from "./live.js";

const LEVELS = [
  ["0", "AI level 0 (random)"],
  ["1", "AI level 1 (baseline)"],
  ["2", "AI level 2 (search)"],
];
const WALL_WORDS = { u: "up", d: "down", l: "left", r: "right", s: "stays" };
const CARD_SET_NAMES = { base: "the 16 base cards", sensei: "the 16 Sensei's Path cards", all: "all 32 cards" };
const REASONS = {
  general_captured: "by capturing the other side's general",
  base_reached: "by bringing the general onto the other side's base",
  ply_limit: "the ply limit was reached",
  programming_error: "as the other side's AI raised an error",
  timeout: "as the other side's AI gave no answer in time",
  invalid_move: "as the other side's AI gave an invalid answer",
};

/** A setup by its name: "Coursework case 21", "AI test 1 (A)", "README: start". */
export function setupName(id) {
  if (id === null || id === undefined) return "a position";
  if (id === "random") return "random cards";
  if (id === "standard") return "standard Onitama";
  const text = String(id);
  let m = /^(?:case)?(\d+)$/.exec(text);
  if (m) return `Coursework case ${m[1]}`;
  m = /^(aitest|basic)(\d+)_([AB])$/.exec(text);
  if (m) return `${m[1] === "aitest" ? "AI test" : "Basic test"} ${m[2]} (${m[3]})`;
  m = /^readme_(.+)$/.exec(text);
  if (m) return `README: ${m[1].replace(/_/g, " ")}`;
  return text.replace(/_/g, " ");
}

/** Shows the page the query asks for: the chooser, a live game, or a game from a position. */
export function show(params) {
  return showGame("onitama", params, play, chooser);
}

// The setups the engine knows and the card sets of a standard deal (GET /api/onitama/setups).
async function setupIds() {
  const answer = await api("GET", "/api/onitama/setups");
  return { ids: answer.setups.map(String), cardSets: answer.card_sets };
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
  const { ids, cardSets } = await setupIds();
  const matlab = await matlabAis();
  const rules = el(
    "select",
    { id: "rules" },
    el("option", { value: "wall" }, "With the wall (the coursework's variant)"),
    el("option", { value: "standard" }, "Standard Onitama (no wall, cards dealt from the seed)"),
  );
  const cardSet = el(
    "select",
    { id: "card-set" },
    cardSets.map((name) => el("option", { value: name }, CARD_SET_NAMES[name] || name)),
  );
  const cardSetLabel = el("label", { id: "card-set-label" }, "Cards of the deal", cardSet);
  const setupLabel = el("label", { id: "setup-label" }, "Start");
  const setup = el(
    "select",
    { id: "setup" },
    el("option", { value: "random" }, "Random cards (dealt from the seed)"),
    ids.map((id) => el("option", { value: id, selected: id === "21" }, setupName(id))),
  );
  // text, not a number input: seeds are 64-bit and JavaScript's numbers round them past 2**53
  const seed = el("input", { id: "seed", type: "text", inputmode: "numeric", pattern: "[0-9]*", placeholder: "random" });
  const maxPlies = el("input", { id: "max-plies", type: "number", min: 1, step: 1, placeholder: "the setup's" });
  const start = el("button", { type: "submit", class: "primary", id: "start" }, "Start the game");
  const hosting = hostingFields(seed, LEVELS);
  const form = el(
    "form",
    { id: "new-onitama-form" },
    el(
      "fieldset",
      {},
      el("legend", {}, "Setup"),
      el("div", { class: "row" }, el("label", {}, "Rules", rules), setupLabel, cardSetLabel),
      el("div", { class: "row" }, el("label", {}, "Seed (random cards)", seed), el("label", {}, "Ply limit", maxPlies)),
    ),
    el(
      "fieldset",
      {},
      el("legend", {}, "Sides"),
      el("div", { class: "row" }, sideFields("A", "human", matlab)),
      el("div", { class: "row" }, sideFields("B", "1", matlab)),
      el("p", { class: "hint", id: "first-hint" }, "A moves first. Two AIs play by themselves: watch them at the speed you choose."),
      el("div", { class: "row" }, hosting.pace.node),
      hosting.timer.node,
    ),
    start,
  );
  onSubmit(form, async () => {
    const standard = rules.value === "standard";
    const body = standard ? { rules: "standard", card_set: cardSet.value, sides: readSides() } : { setup: setup.value, sides: readSides() };
    hosting.fill(body);
    if (maxPlies.value !== "") body.max_plies = Number(maxPlies.value);
    play(await createGame("onitama", body));
  });

  const load = loadForm("load-onitama-form", "Continue a saved game or a position (with the sides above)", [], async (body) => {
    body.sides = readSides();
    play(await createGame("onitama", body));
  });
  main.append(el("h1", {}, "New Onitama game"), form, load);
  const mine = myGamesPanel("onitama");
  if (mine) main.append(mine);
  setupLabel.append(setup);
  // the pace applies to AI sides, the timer to sides on other devices; a standard game has
  // no setup (its cards are dealt from the seed, and the side card decides who moves first)
  const sync = () => {
    const standard = rules.value === "standard";
    setupLabel.hidden = standard;
    cardSetLabel.hidden = !standard;
    maxPlies.placeholder = standard ? "1000" : "the setup's";
    document.getElementById("first-hint").textContent = `${standard ? "The side card's colour decides who moves first (blue A, red B)." : "A moves first."} Two AIs play by themselves: watch them at the speed you choose.`;
    hosting.sync(["A", "B"].map((s) => document.getElementById(`side-${s}`).value));
  };
  form.addEventListener("change", sync);
  sync();
  rules.focus();
}

function cardPicture(slot, card) {
  const cells = card.rows.flatMap((row) => [...row.padEnd(5, ".").slice(0, 5)].map((c) => el("span", { class: c === "o" ? "o" : c === "x" ? "x" : "" })));
  const name = card.name || "custom";
  // B's cards are turned round, as on the board: each side reads its cards from its own end
  const turned = slot.startsWith("B");
  return el(
    "figure",
    { class: `card${turned ? " turned" : ""}`, dataset: { card: slot } },
    el("div", { class: "grid", role: "img", "aria-label": `${name}: ${card.rows.join(" / ")}${turned ? " (turned round, as B sees it)" : ""}` }, cells),
    el("figcaption", {}, `${slot}: ${name}${turned ? " ↻" : ""}`),
  );
}

/** The play view of one game, kept in step with the server's state. */
function play(initial, note) {
  let selFrom = null;
  let selTo = null;
  let cardFilter = null;
  const view = playView("onitama", initial, note, {
    title: "Onitama",
    heading: (state) => setupName(state.setup),
    undoKey: "z",
    bots: "ai",
    botsLabel: "AI",
    historyTitle: "Plies",
    actingSeat: (action, state) => (action === "action" ? state.turn : null),
    historyItem: (text, i, state, timer) => {
      const by = state.history_players || [];
      const ply = by[i] ? `${by[i]}: ${text}` : text;
      return timer ? el("li", { class: "timer" }, `${ply} (${timer})`) : el("li", {}, ply);
    },
    overLines: (state) => {
      const how = REASONS[state.reason] || "";
      return [
        // (the status line above says the rest)
        el("p", { id: "result" }, state.winner ? `${state.winner} wins${how ? `, ${how}` : ""}.` : `A tie${how ? `: ${how}` : ""}.`),
        // what a failed MATLAB AI did wrong: its error message, or the referee's judgement
        ...(state.detail ? [el("pre", { id: "failure", class: "failure" }, state.detail)] : []),
      ];
    },
    metaText: (state) => {
      const dealt = state.seed_text !== null || state.seed_commitment !== null;
      const online = Object.values(state.sides).some((side) => side.kind === "remote");
      return dealt ? `Seed ${seedWords(state.seed_text, state.seed_commitment, online)} · position ` : "Position ";
    },
  });
  const { seats } = view;

  const plies = el("p", { class: "meta", id: "plies" });
  const message = el("p", { class: "notice", id: "message", role: "status", hidden: true });
  const board = el("div", { class: "board", id: "board" });
  const choices = el("div", { class: "panel", id: "wall-choice", hidden: true });
  const passes = el("div", { class: "choices", id: "passes", hidden: true });
  const typed = el("input", { id: "action-text", type: "text", placeholder: "1 e1 d1 u", size: 12, "aria-label": "Action as text" });
  const typedForm = el("form", { id: "action-form", class: "controls" }, el("label", { class: "inline" }, "Type an action", typed), el("button", { type: "submit" }, "Play it"));
  const cards = el("div", { class: "cards", id: "cards" });
  const wallNote = el("p", { class: "hint", id: "wall-note" });
  const rulesLine = el("p", { class: "meta", id: "rules-line" });
  const standard = () => view.state.rules === "standard";

  typedForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = typed.value.trim();
    if (text) playAction(text);
  });

  async function playAction(text) {
    if (await view.send("action", { action: text })) typed.value = "";
  }

  // the actions this browser may play now (a person's turn, a side it plays, the server in reach)
  const mine = () => (linkUp() && view.state.to_act === "human" && seats.canAct(view.state, view.state.turn) ? view.state.legal_moves : []);
  const fromSquares = () => new Set(mine().filter((a) => !a.is_pass).map((a) => a.from));
  const targets = (from) => new Set(mine().filter((a) => a.from === from).map((a) => a.to));
  const options = () => mine().filter((a) => a.from === selFrom && a.to === selTo);

  // "Card 1 (Tiger)", or "Card 1" for a card without a name
  function cardLabel(card) {
    const c = view.state.cards[`${view.state.turn}${card}`];
    return c && c.name ? `Card ${card} (${c.name})` : `Card ${card}`;
  }

  function actionLabel(a) {
    if (standard()) return `${cardLabel(a.card)} · ${a.is_win ? "wins" : a.is_pass ? "no move" : "moves"}`;
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
      el("p", {}, `${selFrom} → ${selTo}: choose the card${standard() ? "" : " and the wall"}`),
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

  // The wall's square ("c5"), from the board rows (row a first), or null.
  function wallSquare() {
    for (let r = 0; r < view.state.board.length; r += 1) {
      const c = view.state.board[r].indexOf("W");
      if (c >= 0) return `${"abcde"[r]}${c + 1}`;
    }
    return null;
  }

  function drawBoard() {
    const focused = document.activeElement && board.contains(document.activeElement) ? document.activeElement.getAttribute("data-square") : null;
    const svg = putSvg(board, view.state.svg);
    if (!svg) return;
    svg.setAttribute("aria-label", `Onitama board: ${view.state.status}`);
    dropStatus(svg, view.state.status);
    // the board alone (the cards are shown below it, as pictures): it fills the width
    let right = 0;
    let bottom = 0;
    for (const r of svg.querySelectorAll("g.square > rect:first-child")) {
      right = Math.max(right, Number(r.getAttribute("x")) + Number(r.getAttribute("width")));
      bottom = Math.max(bottom, Number(r.getAttribute("y")) + Number(r.getAttribute("height")));
    }
    if (right > 0) {
      svg.setAttribute("viewBox", `0 0 ${right + 12} ${bottom + 28}`);
      for (const card of svg.querySelectorAll("g.card")) card.remove();
    }
    // the wall: labelled on the board, and in words below it
    const wall = wallSquare();
    const wallCell = wall ? svg.querySelector(`g.square[data-square="${wall}"]`) : null;
    if (wallCell) {
      const r = wallCell.querySelector("rect");
      const x = Number(r.getAttribute("x"));
      const y = Number(r.getAttribute("y"));
      const w = Number(r.getAttribute("width"));
      const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("x", String(x + w / 2));
      label.setAttribute("y", String(y + w / 2 + 4));
      label.setAttribute("font-size", "11");
      label.setAttribute("font-weight", "bold");
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("fill", "#fff");
      label.setAttribute("class", "wall-label");
      label.textContent = "WALL";
      wallCell.append(label);
      wallCell.setAttribute("aria-label", `The wall, on ${wall}`);
    }
    wallNote.textContent = wall ? `The grey square marked WALL (${wall}) is the wall: no piece may enter it; each ply moves it one square (up, down, left, right) or leaves it.` : "";
    for (const g of svg.querySelectorAll("g.square[data-square]")) pressable(g, () => clickSquare(g.dataset.square));
    if (focused) {
      const again = svg.querySelector(`g.square[data-square="${focused}"]`);
      if (again) setTimeout(() => again.focus({ preventScroll: true }), 0);
    }
  }

  // the Onitama parts of a new state: the choice so far, the board, the cards and the input
  function render(state, before) {
    // a redraw that changed nothing on the board keeps the player's choice so far
    if (state.position !== before.position || state.version < before.version || !fromSquares().has(selFrom)) {
      selFrom = selTo = cardFilter = null;
    } else if (selTo && !targets(selFrom).has(selTo)) {
      selTo = cardFilter = null;
    }
    typed.placeholder = standard() ? "1 e1 d1" : "1 e1 d1 u";
    rulesLine.textContent = standard() ? `Standard Onitama: no wall; an action is a card, a piece and a square (“1 e1 d1”).${state.card_set ? ` Cards dealt from ${CARD_SET_NAMES[state.card_set] || state.card_set}.` : ""}` : "";
    plies.textContent = `Ply ${state.plies} played · ${state.plies_left} left`;
    // the coursework's words for the last ply, unless the status says the same
    message.hidden = !state.message || state.message === state.status;
    message.textContent = message.hidden ? "" : state.message;
    drawBoard();
    mark();
    showChoices();

    const passList = mine().filter((a) => a.is_pass);
    passes.hidden = passList.length === 0;
    passes.replaceChildren(
      el("span", {}, "No piece can move: pass with"),
      passList.map((a) => el("button", { type: "button", class: "primary pass", dataset: { action: a.text }, onclick: () => playAction(a.text) }, actionLabel(a))),
    );
    typed.disabled = !(linkUp() && state.to_act === "human" && seats.canAct(state, state.turn));
    typedForm.querySelector("button").disabled = typed.disabled;
    cards.replaceChildren(...["A1", "A2", "side", "B1", "B2"].filter((k) => state.cards[k]).map((k) => cardPicture(k, state.cards[k])));
  }

  function onKey(event) {
    const key = event.key;
    if (key === "Escape") return clearSelection();
    if (!selTo) return;
    const opts = options();
    const byCard = opts.filter((a) => a.card === Number(key));
    if (standard() && byCard.length === 1) {
      event.preventDefault();
      playAction(byCard[0].text);
      return;
    }
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
  }

  view.start({
    board: [board, wallNote, rulesLine, el("h2", {}, "Cards"), cards],
    controls: [plies, message, choices, passes, el("div", { class: "controls" }, view.undoButton), typedForm],
    hint:
      initial.rules === "standard"
        ? el("p", { class: "hint", id: "keys-hint" }, "Click a piece, then a highlighted square (and the card, if both allow it). Keys: ", el("kbd", {}, "1"), "/", el("kbd", {}, "2"), " pick the card, ", el("kbd", {}, "Esc"), " clears, ", el("kbd", {}, "z"), " undoes, ", el("kbd", {}, "w"), " pauses the AIs.")
        : el("p", { class: "hint", id: "keys-hint" }, "Click a piece, then a highlighted square, then a wall direction. Keys: ", el("kbd", {}, "1"), "/", el("kbd", {}, "2"), " pick the card, ", el("kbd", {}, "u"), el("kbd", {}, "d"), el("kbd", {}, "l"), el("kbd", {}, "r"), el("kbd", {}, "s"), " the wall, ", el("kbd", {}, "Esc"), " clears, ", el("kbd", {}, "z"), " undoes, ", el("kbd", {}, "w"), " pauses the AIs."),
    render,
    onKey,
  });
}
