// The replay pages: load a game file (any of the server's formats), then step through each
// game's frames. Frames are drawn by the server (the engine takes the game back).

import { api, ApiError, clearError, dropStatus, el, guarded, onSubmit, page, putSvg, readFile, setQuery, SPEEDS, typingTarget } from "./common.js";

/** Shows the loader, or the replay the query names. */
export async function show(params) {
  const id = params.get("id");
  if (!id) return loader();
  let replay = null;
  try {
    replay = await api("GET", `/api/replays/${encodeURIComponent(id)}`);
  } catch (err) {
    loader();
    const gone = err.status === 404;
    document.querySelector("main h1").after(
      el(
        "p",
        { class: "notice", id: "replay-missing" },
        gone
          ? `There is no replay ${id.length > 24 ? `${id.slice(0, 24)}…` : id} on this server: replays are kept in memory only until the server stops (or many others are loaded). Load the file again below.`
          : `The replay cannot be read now: ${err.message}`,
      ),
    );
    return;
  }
  viewer(replay, Number(params.get("game") || 0), Number(params.get("frame") || 0));
}

function loader() {
  const main = page("Replay");
  const file = el("input", { id: "replay-file", type: "file", accept: ".json,.txt,application/json,text/plain" });
  const text = el("textarea", { id: "replay-text", rows: 5, placeholder: "Paste a saved game (JSON or notation), a match record or a tournament's games file" });
  const form = el(
    "form",
    { id: "replay-form" },
    el(
      "fieldset",
      {},
      el("legend", {}, "A game file"),
      el("label", {}, "File", file),
      el("label", {}, "or paste it", text),
      el("p", { class: "hint" }, "Ludo or Onitama games saved from this site or with to_json(), a position's notation, a match record, or the file `onitama tournament --save` writes."),
      el("button", { type: "submit", class: "primary", id: "replay-load" }, "Replay it"),
    ),
  );
  onSubmit(form, async () => {
    let content = text.value;
    if (!content.trim() && file.files.length) content = await readFile(file.files[0]);
    if (!content.trim()) throw new ApiError("Choose a file or paste a game first.", "Nothing to load", 0);
    const replay = await api("POST", "/api/replays", { text: content });
    viewer(replay, 0, 0);
  });
  main.append(el("h1", {}, "Replay a game"), form);
  file.focus();
}

function viewer(replay, startGame, startFrame) {
  clearError();
  const main = page("Replay");
  const games = replay.games;
  let g = Math.min(Math.max(0, startGame | 0), games.length - 1);
  let k = 0;
  let shownKey = null;
  let wanted = 0;
  let timer = null;
  const cache = new Map();

  const title = el("h2", { id: "game-title" });
  const frame = el("div", { class: "frame", id: "frame" });
  const label = el("p", { class: "status", id: "frame-label", "aria-live": "polite" });
  const status = el("p", { class: "meta", id: "frame-status" });
  const slider = el("input", { type: "range", id: "frame-slider", min: 0, value: 0, step: 1, "aria-label": "Frame" });
  const button = (id, text, key, onclick) => el("button", { type: "button", id, "aria-keyshortcuts": key, onclick }, text, " ", el("kbd", {}, key));
  const first = button("first", "First", "Home", () => go(0));
  const back = button("back", "Back", "←", () => go(k - 1));
  const forward = button("forward", "Forward", "→", () => go(k + 1));
  const last = button("last", "Last", "End", () => go(count() - 1));
  const playButton = el("button", { type: "button", id: "autoplay", "aria-pressed": "false" }, "Play");
  const speed = el("select", { id: "replay-speed", "aria-label": "Replay speed" }, SPEEDS.map(([name, ms]) => el("option", { value: ms, selected: ms === SPEEDS[1][1] }, `${name} (${ms} ms)`)));
  slider.addEventListener("input", () => go(Number(slider.value)));
  playButton.addEventListener("click", () => (timer === null ? startPlaying() : stopPlaying()));

  const list = el(
    "ul",
    { class: "game-list", id: "game-list", "aria-label": "Games in the file" },
    games.map((game, i) => el("li", {}, el("button", { type: "button", dataset: { game: i }, "aria-pressed": "false", onclick: () => pick(i) }, `${i + 1}. ${game.title} (${game.frames - 1} steps)`))),
  );

  main.append(
    el("h1", {}, "Replay"),
    el(
      "div",
      { class: "play" },
      el("div", {}, title, frame),
      el(
        "div",
        {},
        label,
        status,
        el("div", { class: "stepper" }, first, back, forward, last),
        el("div", { class: "stepper" }, slider),
        el("div", { class: "stepper" }, playButton, el("label", { class: "inline" }, "Speed", speed)),
        games.length > 1 ? el("h2", {}, `${games.length} games`) : null,
        games.length > 1 ? list : null,
        el("p", { class: "hint" }, "Keys: ", el("kbd", {}, "←"), " ", el("kbd", {}, "→"), " step, ", el("kbd", {}, "Home"), " ", el("kbd", {}, "End"), " jump", games.length > 1 ? ", " : ".", games.length > 1 ? el("kbd", {}, "[") : null, games.length > 1 ? " " : null, games.length > 1 ? el("kbd", {}, "]") : null, games.length > 1 ? " change game." : null),
        el("p", {}, el("a", { href: "/replay", class: "button", id: "replay-another" }, "Replay another file")),
      ),
    ),
  );

  function count() {
    return games[g].frames;
  }

  function startPlaying() {
    if (k >= count() - 1) go(0);
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-pressed", "true");
    const tick = async () => {
      if (k >= count() - 1) return stopPlaying();
      await go(k + 1);
      if (timer !== null) timer = setTimeout(tick, Number(speed.value));
    };
    timer = setTimeout(tick, Number(speed.value));
  }

  function stopPlaying() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
  }

  async function fetchFrame(game, index) {
    const key = `${game}/${index}`;
    if (!cache.has(key)) {
      const promise = api("GET", `/api/replays/${encodeURIComponent(replay.id)}/games/${game}/frames/${index}`);
      cache.set(key, promise);
      promise.catch(() => cache.delete(key));
    }
    return cache.get(key);
  }

  async function go(index) {
    const n = count();
    k = Math.min(Math.max(0, index), n - 1);
    const ticket = ++wanted;
    slider.max = String(n - 1);
    slider.value = String(k);
    first.disabled = back.disabled = k === 0;
    forward.disabled = last.disabled = k === n - 1;
    setQuery({ id: replay.id, game: games.length > 1 ? g : null, frame: k });
    await guarded(async () => {
      const data = await fetchFrame(g, k);
      if (ticket !== wanted) return;
      putSvg(frame, data.svg);
      const svg = frame.querySelector("svg");
      if (svg) {
        svg.setAttribute("aria-label", `Frame ${data.index}: ${data.status}`);
        dropStatus(svg, data.status); // shown below the step's label
      }
      label.textContent = `Step ${data.index} of ${data.count - 1}: ${data.label}`;
      status.textContent = data.status;
      shownKey = `${g}/${k}`;
      frame.dataset.shown = shownKey;
      if (k + 1 < n) fetchFrame(g, k + 1).catch(() => null);
    });
  }

  function pick(i) {
    stopPlaying();
    g = i;
    title.textContent = games[g].title;
    for (const b of list.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.game) === g));
    return go(0);
  }

  const onKey = (event) => {
    if (!document.body.contains(frame)) {
      document.removeEventListener("keydown", onKey);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typingTarget(event)) return;
    if (event.target instanceof HTMLInputElement && event.target.type === "range") return;
    const moves = { ArrowLeft: () => go(k - 1), ArrowRight: () => go(k + 1), Home: () => go(0), End: () => go(count() - 1) };
    if (games.length > 1) {
      moves["["] = () => pick(Math.max(0, g - 1));
      moves["]"] = () => pick(Math.min(games.length - 1, g + 1));
    }
    const action = moves[event.key];
    if (action) {
      event.preventDefault();
      stopPlaying();
      action();
    }
  };
  document.addEventListener("keydown", onKey);
  title.textContent = games[g].title;
  for (const b of list.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.game) === g));
  go(startFrame | 0);
  forward.focus({ preventScroll: true });
}
