"""Bot strength: a round-robin tournament between the built-in bots, written out as a Markdown
table (docs/strength-<rules>.md) and an SVG chart (docs/strength-<rules>.svg) for the README.

    python benches/strength.py --games 40000 --out docs   # the README's table: ~15 minutes
    python benches/strength.py --games 2000                # a quick look

The files go to a scratch folder (``bench-out/`` in the working directory) unless ``--out``
names another: the tracked tables in docs/ change only when asked.

Every pairing plays `--games` two-player games (seats A and C), half with each bot first; the
win rate of a bot is over all its games, with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import LudoGame
from LudoGame.sim import TournamentResult, wilson_interval

BOTS = ["random", "cs162", "aggressive", "safe", "expectimax:1", "expectimax:2", "mcts:200"]


def markdown(result: TournamentResult, seconds: float) -> str:
    """The standings and head-to-head table as Markdown."""
    rows = sorted(result.standings, key=lambda s: s.win_rate, reverse=True)
    out = [
        f"Rules `{result.rules}`, {result.games_per_pair:,} games per pairing "
        f"({sum(s.games for s in rows) // 2:,} games, {seconds:.0f} s).",
        "",
        "| bot | games | wins | win rate | 95% interval |",
        "|---|---:|---:|---:|---|",
    ]
    for s in rows:
        lo, hi = s.interval
        out.append(
            f"| `{s.bot}` | {s.games:,} | {s.wins:,} | {s.win_rate:.3f} | {lo:.3f}–{hi:.3f} |"
        )
    names = [s.bot for s in rows]
    out += ["", "Head to head (row bot's win rate against the column bot):", ""]
    out.append("| | " + " | ".join(f"`{n}`" for n in names) + " |")
    out.append("|---|" + "---:|" * len(names))
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("–")
            elif (a, b) in result.pairs:
                n, w = result.pairs[(a, b)]
                cells.append(f"{w / n:.3f}")
            else:
                n, w = result.pairs[(b, a)]
                cells.append(f"{(n - w) / n:.3f}")
        out.append(f"| `{a}` | " + " | ".join(cells) + " |")
    out += [
        "",
        "Every pairing, the winner first: its wins, the 95% Wilson interval of its win rate, and",
        "the two-sided p-value of a fair coin (normal approximation):",
        "",
        "| bot | against | games | wins | win rate | 95% interval | p |",
        "|---|---|---:|---:|---:|---|---:|",
    ]
    rank = {n: i for i, n in enumerate(names)}
    pairs = []
    for (a, b), (n, w) in result.pairs.items():
        if w < n - w or (2 * w == n and rank[b] < rank[a]):
            a, b, w = b, a, n - w
        pairs.append((rank[a], rank[b], a, b, n, w))
    for _, _, a, b, n, w in sorted(pairs):
        lo, hi = wilson_interval(w, n)
        z = (w - n / 2) / math.sqrt(n / 4)
        p = math.erfc(abs(z) / math.sqrt(2))
        p_text = f"{p:.1e}" if p > 0 else "< 1e-300"
        out.append(
            f"| `{a}` | `{b}` | {n:,} | {w:,} | {w / n:.3f} | {lo:.3f}–{hi:.3f} | {p_text} |"
        )
    return "\n".join(out) + "\n"


def svg_chart(result: TournamentResult) -> str:
    """A horizontal bar chart of the win rates with their 95% intervals."""
    rows = sorted(result.standings, key=lambda s: s.win_rate, reverse=True)
    bar_h, gap, left, width = 22, 8, 130, 360
    height = len(rows) * (bar_h + gap) + 50
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 70}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="#fff"/>',
        f'<text x="{left}" y="16" font-size="13">Win rate, rules {result.rules} '
        f"({result.games_per_pair:,} games per pairing)</text>",
    ]
    for i, s in enumerate(rows):
        y = 28 + i * (bar_h + gap)
        lo, hi = s.interval
        parts.append(f'<text x="{left - 8}" y="{y + 15}" text-anchor="end">{s.bot}</text>')
        parts.append(
            f'<rect x="{left}" y="{y}" width="{width * s.win_rate:.1f}" height="{bar_h}" '
            'fill="#4c78a8"/>'
        )
        parts.append(
            f'<line x1="{left + width * lo:.1f}" x2="{left + width * hi:.1f}" '
            f'y1="{y + bar_h / 2}" y2="{y + bar_h / 2}" stroke="#000" stroke-width="2"/>'
        )
        parts.append(f'<text x="{left + width * hi + 6:.1f}" y="{y + 15}">{s.win_rate:.3f}</text>')
    x_half = left + width / 2
    parts.append(
        f'<line x1="{x_half}" x2="{x_half}" y1="24" y2="{height - 20}" stroke="#999" '
        'stroke-dasharray="4 3"/>'
    )
    parts.append(f'<text x="{x_half}" y="{height - 6}" text-anchor="middle" fill="#666">0.5</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    """Run the tournament and write docs/strength.md and docs/strength.svg."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="cs162")
    ap.add_argument("--games", type=int, default=20_000, help="games per pairing")
    ap.add_argument("--bots", default=",".join(BOTS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--out",
        default="bench-out",
        help="folder for the .md and .svg (bench-out; docs to update the README's tables)",
    )
    args = ap.parse_args()
    start = time.perf_counter()
    result = LudoGame.tournament(
        args.bots.split(","), args.rules, args.games, args.seed, args.threads
    )
    seconds = time.perf_counter() - start
    print(result)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"strength-{args.rules}.md").write_text(markdown(result, seconds), encoding="utf-8")
    (out / f"strength-{args.rules}.svg").write_text(svg_chart(result), encoding="utf-8")
    print(f"wrote {out}/strength-{args.rules}.md and .svg ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
