// The Ludo pages: the new-game form and the play view. The server (the engine) decides
// everything; this file shows its state and sends the person's clicks and keys.

import { dropStatus, el, loadForm, onSubmit, page, pressable, putSvg, seedWords } from "./common.js";
import { createGame, hostingFields, playView, showGame } from "./game-page.js";
import { linkUp, myGamesPanel } from "./live.js";

const POSITIONS = ["A", "B", "C", "D"];
// Bot names offered in the form; the server asks the engine, so any name it knows works.
const BOTS = ["random", "cs162", "aggressive", "safe", "expectimax", "expectimax:2", "mcts:200", "mcts:1000"];

/** Shows the page the query asks for: the form, a live game, or a game from a position. */
export function show(params) {
  return showGame("ludo", params, play, form);
}

// The rules with the options typed ("six_limit=3, capture_bonus=true") as the rules
// notation, "standard[six_limit=3,capture_bonus=true]": the engine reads it (one parser).
function rulesNotation(rules, optionsText) {
  const parts = optionsText.split(/[\s,;]+/).filter(Boolean);
  return parts.length ? `${rules}[${parts.join(",")}]` : rules;
}

function seatSelect(pos, initial) {
  const choices = [["off", "Not playing"], ["human", "Person"], ["remote", "Person on another device"], ...BOTS.map((b) => [b, `Bot: ${b}`])];
  return el(
    "select",
    { id: `seat-${pos}`, name: `seat-${pos}`, "aria-label": `Seat ${pos}` },
    choices.map(([value, label]) => el("option", { value, selected: value === initial }, label)),
  );
}

function form() {
  const main = page("New Ludo game");
  const seats = { A: "human", B: "random", C: "off", D: "off" };
  const rules = el(
    "select",
    { id: "rules", name: "rules" },
    el("option", { value: "cs162" }, "CS162 (two tokens)"),
    el("option", { value: "standard" }, "Standard (four tokens)"),
    el("option", { value: "gt" }, "GT (Glamorous Toolkit)"),
  );
  const options = el("input", { id: "options", name: "options", type: "text", placeholder: "e.g. six_limit=3 capture_bonus=true", size: 32 });
  // text, not a number input: seeds are 64-bit and JavaScript's numbers round them past 2**53
  const seed = el("input", { id: "seed", name: "seed", type: "text", inputmode: "numeric", pattern: "[0-9]*", placeholder: "random" });
  const seatRows = POSITIONS.map((pos) => el("label", {}, `Seat ${pos}`, seatSelect(pos, seats[pos])));
  const allBots = el("button", { type: "button", id: "all-bots" }, "Every seat a bot (watch)");
  allBots.addEventListener("click", () => {
    for (const pos of POSITIONS) {
      const s = document.getElementById(`seat-${pos}`);
      if (s.value === "human") s.value = "random";
    }
  });
  const start = el("button", { type: "submit", class: "primary", id: "start" }, "Start the game");
  const hosting = hostingFields(seed, BOTS.map((b) => [b, `Bot: ${b}`]));
  const gtHint = el("p", { class: "hint", id: "gt-seats", hidden: true }, "GT is always played by four seats, A to D.");
  // the seats a rule set allows: GT plays with all four; show the pace and timer only when
  // they apply (a bot seat; a seat on another device)
  const sync = () => {
    const gt = rules.value === "gt";
    gtHint.hidden = !gt;
    for (const pos of POSITIONS) {
      const s = document.getElementById(`seat-${pos}`);
      if (!s) continue;
      s.querySelector('option[value="off"]').disabled = gt;
      if (gt && s.value === "off") s.value = "human";
    }
    hosting.sync(POSITIONS.map((pos) => (document.getElementById(`seat-${pos}`) || {}).value));
  };
  rules.addEventListener("change", sync);

  const seatMap = (only) => {
    const out = {};
    for (const pos of POSITIONS) {
      const v = document.getElementById(`seat-${pos}`).value;
      if (v !== "off" && (!only || only.includes(pos))) out[pos] = v;
    }
    return out;
  };

  const newForm = el(
    "form",
    { id: "new-ludo-form" },
    el(
      "fieldset",
      {},
      el("legend", {}, "Rules"),
      el("div", { class: "row" }, el("label", {}, "Rule set", rules), el("label", {}, "Options (name=value)", options), el("label", {}, "Seed", seed)),
      el("p", { class: "hint" }, "Options are the rule set's options (see the rules documentation); the seed makes the die repeatable. With a person on another device the server chooses the seed and shows it when the game is over."),
    ),
    el(
      "fieldset",
      {},
      el("legend", {}, "Players"),
      el("div", { class: "row" }, seatRows),
      el("p", { class: "hint" }, "Each seat is a person or a bot; at least two seats play, in the order A, B, C, D."),
      gtHint,
      allBots,
      el("div", { class: "row" }, hosting.pace.node),
      hosting.timer.node,
    ),
    start,
  );
  onSubmit(newForm, async () => {
    const seatKinds = seatMap();
    const players = Object.keys(seatKinds);
    const body = { rules: rulesNotation(rules.value, options.value), players, seats: seatKinds };
    hosting.fill(body);
    play(await createGame("ludo", body));
  });

  const useSeats = el("input", { id: "load-seats", type: "checkbox" });
  const loadLudo = loadForm(
    "load-ludo-form",
    "Continue a saved game or a position",
    [el("label", { class: "inline" }, useSeats, "Seat the players as chosen above (otherwise every seat is a person)")],
    async (body) => {
      if (useSeats.checked) body.seats = seatMap();
      play(await createGame("ludo", body));
    },
  );

  main.append(el("h1", {}, "New Ludo game"), newForm, loadLudo);
  const mine = myGamesPanel("ludo");
  if (mine) main.append(mine);
  newForm.addEventListener("change", sync);
  allBots.addEventListener("click", sync);
  sync();
  rules.focus();
}

// One history entry: the server's words for it, marked as a roll, a move, a capture or a
// bonus roll for the styles; `timer`: the words saying that the turn timer's bot played it.
function describe(event, timer) {
  const text = timer ? `${event.text} (${timer})` : event.text;
  if (event.kind === "roll") return el("li", { class: timer ? "roll timer" : "roll" }, text);
  const li = el("li", { class: timer ? "move timer" : "move" }, text);
  if (event.captured && event.captured.length) li.classList.add("capture");
  if (event.extra_roll) li.classList.add("bonus");
  return li;
}

/** A seat's kind in words: a person (here or on another device) or the bot's name. */
const seatWord = (kind) => (kind === "human" ? "person" : kind === "remote" ? "person on another device" : kind);

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

// The players' colours on the engine's board.
const COLOURS = { A: "#d62728", B: "#2ca02c", C: "#e6b800", D: "#1f77b4" };

/**
 * A cell holding tokens of several players (the finish, where every finished token ends up)
 * is drawn by the engine as one grey disc: show each token in its player's colour instead,
 * in a ring, each with its name for screen readers.
 */
function colourStacks(svg) {
  const ns = "http://www.w3.org/2000/svg";
  for (const cell of svg.querySelectorAll("g.tokens[data-tokens]")) {
    const names = cell.dataset.tokens.split(/\s+/).filter(Boolean);
    const owners = new Set(names.map((n) => n[0].toUpperCase()));
    const disc = cell.querySelector("circle");
    if (owners.size < 2 || !disc) continue;
    const cx = Number(disc.getAttribute("cx"));
    const cy = Number(disc.getAttribute("cy"));
    const r = Number(disc.getAttribute("r"));
    for (const old of cell.querySelectorAll("circle, text")) old.remove();
    const small = names.length > 4 ? r * 0.45 : r * 0.6;
    names.forEach((name, i) => {
      const angle = (2 * Math.PI * i) / names.length - Math.PI / 2;
      const dot = document.createElementNS(ns, "circle");
      dot.setAttribute("cx", String(cx + r * 0.9 * Math.cos(angle)));
      dot.setAttribute("cy", String(cy + r * 0.9 * Math.sin(angle)));
      dot.setAttribute("r", String(small));
      dot.setAttribute("fill", COLOURS[name[0].toUpperCase()] || "#444");
      dot.setAttribute("stroke", "#000");
      dot.setAttribute("class", "finished-token");
      dot.dataset.token = name;
      const title = document.createElementNS(ns, "title");
      title.textContent = name;
      dot.append(title);
      cell.append(dot);
    });
    cell.setAttribute("aria-label", `Finished: ${names.join(", ")}`);
  }
}

/** The play view of one game, kept in step with the server's state. */
function play(initial, note) {
  let pendingChoice = null;
  const view = playView("ludo", initial, note, {
    title: "Ludo",
    heading: (state) => state.rules_notation,
    undoKey: "u",
    bots: "bot",
    botsLabel: "Bots",
    historyTitle: "History",
    actingSeat: (action, state) => (action === "roll" || action === "move" ? state.current_player : null),
    historyItem: (event, i, state, timer) => describe(event, timer),
    overLines: (state) => [
      el("p", { id: "winner" }, state.winner ? `Winner: ${state.winner} (${seatWord(state.seats[state.winner])})` : "No winner."),
      el("p", {}, "Finishing order:"),
      el("ol", { id: "ranking" }, state.ranking.map((p) => el("li", {}, `${p} — ${seatWord(state.seats[p])}`))),
    ],
    metaText: (state) =>
      `Players ${state.players.join(", ")} · seed ${seedWords(state.seed_text, state.dice_commitment, Object.values(state.seats).includes("remote"))} · move ${(state.history || []).length} · position `,
  });
  const { seats } = view;
  view.over.setAttribute("aria-live", "polite");
  // may this browser act now? (a person's turn, a seat it plays, and the server in reach)
  const myTurn = () => linkUp() && view.state.to_act === "human" && seats.canAct(view.state, view.state.current_player);

  const board = el("div", { class: "board", id: "board" });
  const rollButton = el("button", { type: "button", class: "die primary", id: "roll", "aria-keyshortcuts": "Space r" });
  const dieShown = el("span", { id: "die", class: "die-face", "aria-live": "polite" });
  const moves = el("div", { class: "choices", id: "moves", role: "group", "aria-label": "Legal moves" });
  const choice = el("div", { class: "choices", id: "token-choice", hidden: true });

  rollButton.addEventListener("click", () => view.send("roll"));

  function playMove(name) {
    pendingChoice = null;
    choice.hidden = true;
    view.send("move", { move: name });
  }

  function legalNames() {
    return myTurn() ? view.state.legal_moves.map((m) => m.name) : [];
  }

  function offerChoice(names) {
    pendingChoice = names;
    choice.replaceChildren(el("span", {}, "Which token?"), names.map((n) => el("button", { type: "button", class: "primary", dataset: { move: n }, onclick: () => playMove(n) }, n)));
    choice.hidden = false;
    choice.querySelector("button").focus();
  }

  function markBoard(state) {
    // a redraw keeps the keyboard focus on the cell it was on
    const focused = document.activeElement && board.contains(document.activeElement) ? document.activeElement.getAttribute("data-tokens") : null;
    const svg = putSvg(board, state.svg);
    if (!svg) return;
    svg.setAttribute("aria-label", `Ludo board: ${state.status}`);
    dropStatus(svg, state.status);
    colourStacks(svg);
    const legal = new Set(legalNames());
    for (const cell of svg.querySelectorAll("g.tokens[data-tokens]")) {
      const here = cell.dataset.tokens.split(/\s+/).filter((n) => legal.has(n));
      if (!here.length) continue;
      cell.classList.add("movable");
      cell.setAttribute("tabindex", "0");
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", `Move ${here.join(" or ")}`);
      pressable(cell, () => (here.length === 1 ? playMove(here[0]) : offerChoice(here)));
      if (focused && cell.getAttribute("data-tokens") === focused) cell.focus({ preventScroll: true });
    }
  }

  // the Ludo parts of a new state: the board, the die and the moves
  function render(state) {
    markBoard(state);
    const human = myTurn();
    rollButton.disabled = !(human && state.phase === "roll");
    rollButton.replaceChildren("Roll ", el("kbd", {}, "Space"));
    const lastRoll = [...(state.history || [])].reverse().find((e) => e.kind === "roll");
    const shown = state.pending_roll ?? (lastRoll ? lastRoll.value : null);
    dieShown.replaceChildren(shown ? `${FACES[shown]} ${shown}` : "–");
    dieShown.setAttribute("aria-label", shown ? `Die: ${shown}` : "Die not rolled yet");
    moves.replaceChildren(
      ...(human
        ? state.legal_moves.map((m) =>
            el("button", { type: "button", class: "primary", dataset: { move: m.name }, "aria-keyshortcuts": m.token, onclick: () => playMove(m.name) }, `Move ${m.name} `, el("kbd", {}, m.token)),
          )
        : []),
    );
    if (pendingChoice && !pendingChoice.every((n) => legalNames().includes(n))) {
      pendingChoice = null;
      choice.hidden = true;
    }
  }

  function onKey(event) {
    const key = event.key;
    if (key === " " || key === "r") {
      if (!rollButton.disabled) {
        event.preventDefault();
        view.send("roll");
      }
      return;
    }
    if (myTurn() && view.state.phase === "move") {
      const m = view.state.legal_moves.find((mv) => mv.token === key) || view.state.legal_moves.find((mv) => mv.name === key);
      if (m) {
        event.preventDefault();
        playMove(m.name);
      }
    }
  }

  view.start({
    board: [board],
    controls: [el("div", { class: "controls" }, rollButton, dieShown, view.undoButton), moves, choice],
    hint: el("p", { class: "hint" }, "Keys: ", el("kbd", {}, "Space"), " or ", el("kbd", {}, "r"), " rolls, a token's letter or number moves it, ", el("kbd", {}, "u"), " undoes, ", el("kbd", {}, "w"), " pauses the bots."),
    render,
    onKey,
  });
  rollButton.focus({ preventScroll: true });
}
