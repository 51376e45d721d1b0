// LudoGame in the browser: the router. Every page is this one HTML file; the path picks
// the view. No game rule lives here: the server (and through it the engine) says what is
// legal, what the status is and how the board looks.

import { el, page, showError } from "./common.js";

async function home() {
  const main = page("");
  main.append(
    el("h1", {}, "Play, watch and replay"),
    el(
      "div",
      { class: "home-links" },
      el("a", { href: "/ludo", id: "new-ludo" }, el("strong", {}, "New Ludo game"), "CS162, standard or GT rules, people and bots."),
      el("a", { href: "/onitama", id: "new-onitama" }, el("strong", {}, "New Onitama game"), "The movable-wall variant: coursework setups or random cards, people and AIs."),
      el("a", { href: "/replay", id: "open-replay" }, el("strong", {}, "Replay a file"), "A saved game, a match record or a tournament's games, step by step."),
    ),
  );
  const mine = (await import("./live.js")).myGamesPanel();
  if (mine) main.append(mine);
}

function notFound() {
  const main = page("Not found");
  main.append(el("h1", {}, "No such page"), el("p", {}, "This address is not a page of LudoGame. ", el("a", { href: "/" }, "Go to the start page.")));
}

async function route() {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  for (const a of document.querySelectorAll(".top nav a")) {
    if (a.getAttribute("href") === path) a.setAttribute("aria-current", "page");
  }
  const params = new URLSearchParams(location.search);
  try {
    if (path === "/") await home();
    else if (path === "/ludo") await (await import("./ludo.js")).show(params);
    else if (path === "/onitama") await (await import("./onitama.js")).show(params);
    else if (path === "/replay") await (await import("./replay.js")).show(params);
    else notFound();
  } catch (err) {
    showError(err);
  }
}

route();
