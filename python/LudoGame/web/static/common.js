// The page scripts' shared helpers: talking to the server, building elements, errors,
// forms, saving, the bot pace. The views (ludo.js, onitama.js, replay.js) and the live
// connection (live.js) import them; nothing here imports a view.

/** An error answer of the server: its readable message, its kind and HTTP status. */
export class ApiError extends Error {
  constructor(message, type, status) {
    super(message);
    this.type = type;
    this.status = status;
  }
}

/**
 * Calls the JSON API (with more `headers`, e.g. a seat's key); resolves to the answer, rejects
 * with an ApiError naming the problem.
 */
export async function api(method, path, body, headers) {
  const init = { method, headers: { Accept: "application/json", ...(headers || {}) } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError("The server cannot be reached: is `ludo serve` still running?", "network", 0);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      data = null;
    }
  }
  if (!response.ok) {
    const e = data && data.error;
    const message = e && e.message ? e.message : `The server answered ${response.status} ${response.statusText}.`;
    throw new ApiError(message, e && e.type ? e.type : "error", response.status);
  }
  return data;
}

/** Makes an element: el("button", {class: "x", onclick: f}, "text", child, ...). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const alertBox = () => document.getElementById("alert");

/** Shows an error (an ApiError or any Error) in the page's alert area. */
export function showError(err) {
  const box = alertBox();
  const kind = err instanceof ApiError && err.type && err.type !== "error" ? `${err.type}: ` : "";
  const message = err && err.message ? err.message : String(err);
  box.replaceChildren(
    el("div", { class: "alert-text" }, el("span", { class: "alert-kind" }, kind), message),
    el("button", { type: "button", class: "alert-close", "aria-label": "Dismiss the message", onclick: clearError }, "×"),
  );
  box.hidden = false;
}

/** Hides the alert area. */
export function clearError() {
  const box = alertBox();
  box.hidden = true;
  box.replaceChildren();
}

/** Runs an async action, showing its error instead of throwing; resolves to its result or null. */
export async function guarded(action) {
  try {
    const result = await action();
    return result;
  } catch (err) {
    showError(err);
    return null;
  }
}

/** The main element, emptied, with a page title set. */
export function page(title) {
  document.title = title ? `${title} · LudoGame` : "LudoGame";
  const main = document.getElementById("main");
  main.replaceChildren();
  return main;
}

/** Puts server-sent SVG (drawn by the engine) into a container and returns the svg element. */
export function putSvg(container, svgText) {
  container.innerHTML = svgText || "";
  const svg = container.querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "img");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
  }
  return svg;
}

/**
 * Takes out of an engine's board picture the status sentence written under the board, where
 * the page shows it in words already (once is enough), and the band it took at the bottom.
 */
export function dropStatus(svg, status) {
  const lines = [...svg.querySelectorAll("text")].filter((t) => status && t.textContent.trim() === status.trim());
  if (!lines.length) return;
  const frame = svg.getBoundingClientRect();
  const top = Math.min(...lines.map((t) => t.getBoundingClientRect().top));
  for (const t of lines) t.remove();
  const box = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
  if (box.length !== 4 || box.some((n) => !Number.isFinite(n)) || frame.height <= 0) return;
  // below the sentence there was nothing else: the picture ends where it began
  const background = svg.querySelector(":scope > rect");
  const below = [...svg.querySelectorAll("rect, circle, text, path, line, polygon")].some((e) => e !== background && e.getBoundingClientRect().bottom > top + 0.5);
  if (below) return;
  // (the picture is scaled to fit its box and centred in it)
  const scale = Math.min(frame.width / box[2], frame.height / box[3]);
  const height = (top - frame.top - (frame.height - box[3] * scale) / 2) / scale;
  if (height > 0 && height < box[3]) svg.setAttribute("viewBox", `${box[0]} ${box[1]} ${box[2]} ${height.toFixed(1)}`);
}

/** True when a key press belongs to a form field or a button (the page's keys stay out). */
export function typingTarget(event) {
  const t = event.target;
  if (!(t instanceof Element)) return false;
  if (t.closest("input, select, textarea, [contenteditable]")) return true;
  if ((event.key === " " || event.key === "Enter") && t.closest("button, a, [role=button], summary")) return true;
  return false;
}

/** Reads a chosen file as text. */
export function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`The file ${file.name} cannot be read.`));
    reader.readAsText(file);
  });
}

/** Replaces the query string (keeping the path) without a new history entry. */
export function setQuery(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  const url = `${location.pathname}?${q.toString()}`;
  history.replaceState(null, "", url);
}

/** Copies text to the clipboard when allowed, else selects it in a field for the user to copy. */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    if (field) {
      field.value = text;
      field.hidden = false;
      field.select();
    }
    return false;
  }
}

/**
 * Runs `action` when `form` is submitted (the page stays), with the last error cleared; an
 * error of `action` is shown.
 */
export function onSubmit(form, action) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(async () => {
      clearError();
      await action();
    });
  });
}

/** Makes a board's cell act as a button: a click, Enter or Space runs `action`. */
export function pressable(node, action) {
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      action();
    }
  });
}

/**
 * A form to continue a saved game (its JSON) or a position (its notation), from a file or
 * pasted text. `extras` are more fields inside it; `start(body)` gets `{ json }` or
 * `{ position }` and starts the game.
 */
export function loadForm(id, legend, extras, start) {
  const loadText = el("textarea", { id: "load-text", rows: 3, placeholder: "Paste a position notation or a saved game (JSON)" });
  const loadFile = el("input", { id: "load-file", type: "file", accept: ".json,.txt,application/json,text/plain" });
  const form = el(
    "form",
    { id },
    el(
      "fieldset",
      {},
      el("legend", {}, legend),
      el("label", {}, "File (saved JSON or notation)", loadFile),
      el("label", {}, "or paste it", loadText),
      ...extras,
      el("button", { type: "submit", id: "load" }, "Continue it"),
    ),
  );
  onSubmit(form, async () => {
    let text = loadText.value.trim();
    if (!text && loadFile.files.length) text = (await readFile(loadFile.files[0])).trim();
    if (!text) throw new ApiError("Choose a file or paste a game first.", "Nothing to load", 0);
    await start(text.startsWith("{") ? { json: text } : { position: text });
  });
  return form;
}

/**
 * The "Save and share" controls of a play view (`game` is "ludo" or "onitama"): download
 * links for the JSON and the notation, a link to this position, and a replay of the game so
 * far. `nodes` go into the page; `update(id)` points them at the game `id`.
 */
export function saveControls(game) {
  let gameId = null;
  const saved = (format) => `/api/${game}/games/${encodeURIComponent(gameId)}/save?format=${format}`;
  const shareField = el("input", { id: "share-url", type: "text", readonly: true, hidden: true, "aria-label": "Link to this position" });
  const shareButton = el("button", { type: "button", id: "share" }, "Copy link");
  const saveJson = el("a", { class: "button", id: "save-json", download: "" }, "Save JSON");
  const saveNotation = el("a", { class: "button", id: "save-notation", download: "" }, "Save notation");
  const replayButton = el("button", { type: "button", id: "replay-game" }, "Replay this game");
  shareButton.addEventListener("click", async () => {
    const ok = await copyText(location.href, shareField);
    shareButton.textContent = ok ? "Link copied" : "Copy the link below";
  });
  replayButton.addEventListener("click", () =>
    guarded(async () => {
      const response = await fetch(saved("json"));
      if (!response.ok) throw new ApiError("The game cannot be saved for replay.", "error", response.status);
      const replay = await api("POST", "/api/replays", { text: await response.text() });
      location.href = `/replay?id=${encodeURIComponent(replay.id)}`;
    }),
  );
  return {
    nodes: [el("div", { class: "controls" }, saveJson, saveNotation, shareButton, replayButton), shareField],
    update(id) {
      gameId = id;
      saveJson.href = saved("json");
      saveNotation.href = saved("notation");
    },
  };
}

/**
 * A game's seed in words, from its state's `seed_text` and commitment: the seed; while a game
 * with a person on another device (`online`) is played, only the commitment (the server
 * shows the seed once the game is over); the seed with its commitment after such a game.
 */
export function seedWords(seedText, commitment, online) {
  const short = commitment ? `commitment ${commitment.slice(0, 16)}…` : "";
  if (seedText === null || seedText === undefined) return commitment ? `hidden until the game is over (${short})` : "none";
  return online && commitment ? `${seedText} (${short}: check it with ludo verify)` : seedText;
}

/** Watch-mode speeds: label and the delay between two bot or AI steps, in milliseconds. */
export const SPEEDS = [
  ["Slow", 1500],
  ["Normal", 700],
  ["Fast", 250],
  ["Fastest", 30],
];

/**
 * Drives the automatic steps of bots or AIs: one step at a time, a visible delay between two,
 * paused and resumed by the user. `step` does one request and resolves to whether more follow.
 */
export class AutoPlayer {
  constructor(step) {
    this.step = step;
    this.paused = false;
    this.delay = SPEEDS[1][1];
    this.timer = null;
    this.onchange = null;
  }

  /** Plans the next step if none is planned, the player is not paused and `wanted` holds. */
  schedule(wanted) {
    if (!wanted || this.paused || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.step();
    }, this.delay);
  }

  /** Cancels a planned step. */
  cancel() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Pauses or resumes. */
  toggle() {
    this.paused = !this.paused;
    if (this.paused) this.cancel();
    if (this.onchange) this.onchange();
  }

  /** The pause button and speed chooser of the watch controls. */
  controls(label) {
    const pause = el("button", { type: "button", id: "pause", "aria-keyshortcuts": "w" });
    const speed = el(
      "select",
      { id: "speed", "aria-label": `${label} speed` },
      SPEEDS.map(([name, ms]) => el("option", { value: ms, selected: ms === this.delay }, `${name} (${ms} ms)`)),
    );
    const sync = () => {
      pause.replaceChildren(this.paused ? "Resume " : "Pause ", el("kbd", {}, "w"));
      pause.setAttribute("aria-pressed", String(this.paused));
    };
    pause.addEventListener("click", () => {
      this.toggle();
      sync();
    });
    speed.addEventListener("change", () => {
      this.delay = Number(speed.value);
    });
    this.onchange = () => {
      sync();
      if (this.afterToggle) this.afterToggle();
    };
    sync();
    return el("div", { class: "watch" }, el("span", {}, label), pause, el("label", { class: "inline" }, "Speed", speed));
  }
}
