"""The study's files: JSON, CSV, plots (matplotlib), an HTML report and a Markdown page for the docs.

:func:`write_report` takes the results of :func:`rattus_rules.tools.study.study.run_study`
(one per agent) and writes into a folder: ``study.json``, ``study.csv``,
``report.html`` (self-contained, the plots embedded), the plots as PNG files,
and ``study.md`` (the same report for Sphinx, the plots as files beside it).
"""

from __future__ import annotations

import base64
import csv
import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from interpreter import notation
from rattus_rules.api import ResolvedGame, rules_of

from .study import DECISION_CAP, csv_fields, csv_rows

Result = Mapping[str, Any]

DESIGN = """\
**The paired design.** For every game seed the study plays one game under the
default readings and, for every other option of every switch, one game in which
only that switch is changed: the same seed, the same agents (each seat draws
from its own generator, seeded from the game seed and the seat) and the same
chance draws.  Chance events are drawn from one generator per kind of event
(the rule and the verb of the `chance`, seeded from the game seed), so a
reading that adds or drops a draw of one kind does not shift the draws of the
other kinds.  The two games of a pair are therefore the same game until the
reading makes a difference; then they go their own ways.  A changed winner is
the reading's doing: without the change both games would have been identical
(*diverged* counts the pairs in which the action sequences differ at all).
Once two games have diverged, later random choices are no longer coupled, so a
reading that changes play early (for example the setup readings) shows a
winner-change rate near that of two unrelated games (1 minus the sum of the
squared seat win rates, the dashed line in the plots), while one that matters
only at the end shows how often it decides the game."""

def measures(result: Result) -> str:
    """What is measured, in the words of the study's game (its score unit and end reasons)."""
    game = result["game"]
    unit = game["score_unit"]
    ends = "; ".join(f"*{r}*: {what}" for r, what in game["end_reasons"].items())
    return f"""\
**What is measured**, per player count and option, over the pairs in which
neither game was cut: the *winner-change rate* (the set of winners differs);
*diverged* (the games differ in any action); the mean *per-seat score change*
(option minus default, in {unit}; negative: the reading lowers the score); the
mean *total absolute score change* of a pair (summed over seats); the mean
change in *game length* (player decisions); how games end ({ends}; *cut*: the study stopped
the game at the decision bound, {DECISION_CAP:,} player decisions by default: some
readings may allow a game that never ends); and each seat's win rate (a shared victory
counts for each winner).  Every rate carries a 95 % confidence interval: Wilson
for proportions, Student's t for means; an interval is as wide as the sample is
small, so a rate of 0 with an upper bound of 4 % means "rarer than about 1 in
25 games here", not "never"."""


def agents_text(result: Result) -> str:
    """The agents, in the words of the study's game."""
    unit = result["game"]["score_unit"]
    return f"""\
**The agents** (`--agent`): *random* picks uniformly among the legal actions;
*greedy* looks one step ahead on the spec's `score` ({unit}): it applies each legal
action to a copy of the state, lets chance happen on the copy from its own
generator until the next player decision, and takes the action that leaves its
own score highest, then the others' best score lowest, breaking ties at random.
It knows nothing of the game but the legal actions and the spec's `score`; its
look-ahead sees the whole state, hidden faces included, so it is stronger than a
human at choices whose effect shows at once, and blind beyond one decision.
Neither plays like a person: the rates are what these players see, and real games may differ."""


def data_note(result: Result, game: ResolvedGame | None = None) -> str:
    """Which component data the figures are for (``game``: the study's game resolved already, else
    looked up by the name the result gives)."""
    note = rules_of(result["game"]["name"] if game is None else game).provenance_note()
    return (f"{note[0].upper()}{note[1:]}.  Every figure here is for the data as shipped." if note
            else "Every figure here is for the component data as shipped.")


#: What `rattus study` says at its start when the plots cannot be drawn.
NO_PLOTS = ("matplotlib is not installed: the study writes its numbers, tables and report without the plots "
            "(pip install 'rattus-rules[study]' draws them)")


def can_plot() -> bool:
    """Whether the plotting library (matplotlib, the ``study`` extra) is installed; without it no plots are drawn."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ValueError(NO_PLOTS) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _label(o: Mapping[str, Any]) -> str:
    return f"{o['switch']}={o['option']}"


def _pct(e: Mapping[str, float]) -> str:
    return f"{100 * e['mean']:.1f} % [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"


def _num(e: Mapping[str, float]) -> str:
    return f"{e['mean']:+.2f} [{e['low']:+.2f}, {e['high']:+.2f}]" if e["n"] > 1 else "—"


def _quantiles(counts: Mapping[str, int]) -> dict[str, Any]:
    """Box-plot statistics (quartiles, 5 % and 95 %) from ``{value: how often}``."""
    items = sorted((int(k), v) for k, v in counts.items())
    n = sum(v for _, v in items)

    def q(p: float) -> float:
        if n == 0:
            return 0.0
        target, seen = p * (n - 1), 0
        for value, count in items:
            seen += count
            if seen > target:
                return float(value)
        return float(items[-1][0])

    mean = sum(k * v for k, v in items) / n if n else 0.0
    return {"med": q(0.5), "q1": q(0.25), "q3": q(0.75), "whislo": q(0.05), "whishi": q(0.95),
            "mean": mean, "fliers": []}


def unrelated(default: Mapping[str, Any]) -> float:
    """How often two unrelated games name different winners: 1 minus the sum of squared seat win rates."""
    return 1.0 - sum(float(r["mean"]) ** 2 for r in default["seat_win_rate"])


def _panels(result: Result) -> tuple[Any, list[tuple[Any, str, list[Any], list[int]]]]:
    """A figure with a panel per player count, one row per switch option: (figure, [(axes, players, options, ys)])."""
    plt = _plt()
    counts = list(result["results"])
    labels = [_label(o) for o in result["results"][counts[0]]["options"]]
    fig, axes = plt.subplots(1, len(counts), figsize=(4 + 3 * len(counts), 0.32 * len(labels) + 1.6),
                             sharey=True, squeeze=False)
    panels = []
    for ax, players in zip(axes[0], counts):
        ys = list(range(len(labels)))[::-1]
        ax.set_yticks(ys, labels)
        ax.grid(axis="x", alpha=0.3)
        panels.append((ax, players, result["results"][players]["options"], ys))
    return fig, panels


def _save(fig: Any, title: str, result: Result, path: Path) -> None:
    fig.suptitle(f"{title}, agent: {result['params']['agent']}", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    _plt().close(fig)


def plot_winner_change(result: Result, path: Path) -> None:
    """One bar per switch option: the winner-change rate and its interval, a panel per player count."""
    fig, panels = _panels(result)
    for ax, players, opts, ys in panels:
        means = [100 * o["winner_change"]["mean"] for o in opts]
        lows = [100 * (o["winner_change"]["mean"] - o["winner_change"]["low"]) for o in opts]
        highs = [100 * (o["winner_change"]["high"] - o["winner_change"]["mean"]) for o in opts]
        ax.barh(ys, means, xerr=[lows, highs], color="#4c72b0", ecolor="#333333", capsize=2)
        ax.axvline(100 * unrelated(result["results"][players]["default"]), ls="--", color="#c44e52",
                   label="two unrelated games")
        ax.legend(fontsize=8, loc="lower right")
        ax.set_xlim(0, 100)
        n = max((o["compared"] for o in opts), default=0)
        ax.set_title(f"{players} players (n = {n} pairs)", fontsize=10)
        ax.set_xlabel("winner changes (% of pairs, 95 % CI)")
    _save(fig, "Winner-change rate per switch option", result, path)


def plot_distributions(result: Result, key: str, title: str, xlabel: str, path: Path) -> None:
    """Box plots (quartiles, whiskers at 5 % and 95 %, mean as a triangle) of a per-pair distribution."""
    fig, panels = _panels(result)
    for ax, players, opts, ys in panels:
        stats = [_quantiles(o["distributions"][key]) for o in opts]
        ax.bxp(stats, positions=ys, orientation="horizontal", showmeans=True, showfliers=False, widths=0.6)
        ax.set_yticks(ys, [_label(o) for o in opts])
        ax.axvline(0, color="#999999", lw=0.8)
        ax.set_title(f"{players} players", fontsize=10)
        ax.set_xlabel(xlabel)
    _save(fig, title, result, path)


def plot_defaults(result: Result, path: Path) -> None:
    """Under the default readings: game length and winning score histograms, seat win rates."""
    plt = _plt()
    counts = list(result["results"])
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4))
    for players in counts:
        d = result["results"][players]["default"]
        for ax, key in ((axes[0], "length"), (axes[1], "winning_score")):
            width = 5 if key == "length" else 1  # lengths in bins of 5 decisions
            binned: dict[int, int] = {}
            for k, v in d["distributions"][key].items():
                binned[int(k) // width * width] = binned.get(int(k) // width * width, 0) + v
            items = sorted(binned.items())
            total = sum(v for _, v in items) or 1
            ax.step([k for k, _ in items], [v / total for _, v in items], where="mid", label=f"{players} players")
        rates = d["seat_win_rate"]
        xs = [s + 0.25 * (int(players) - 3) for s in range(len(rates))]
        axes[2].errorbar(xs, [100 * r["mean"] for r in rates],
                         yerr=[[100 * (r["mean"] - r["low"]) for r in rates],
                               [100 * (r["high"] - r["mean"]) for r in rates]],
                         fmt="o", capsize=3, label=f"{players} players")
    axes[0].set(title="game length", xlabel="player decisions (bins of 5)", ylabel="share of games")
    axes[1].set(title="winning score", xlabel=f"{result['game']['score_unit']} of the winner", ylabel="share of games")
    axes[2].set(title="seat win rate (95 % CI)", xlabel="seat (P0 starts)", ylabel="% of games")
    seats = max(int(n) for n in counts)
    axes[2].set_xticks(range(seats), [notation.seat(s) for s in range(seats)])
    for ax in axes:
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    _save(fig, "Default readings", result, path)


def _plots(result: Result, folder: Path) -> list[tuple[str, str]]:
    """Draw every plot of one agent's study; (file name, caption) each (none without matplotlib)."""
    if not can_plot():
        return []
    agent = result["params"]["agent"]
    box = "box: quartiles, whiskers: 5 % and 95 %, triangle: mean"
    made = [
        (f"winner-change-{agent}.png", "Winner-change rate per switch option (bars: 95 % Wilson intervals)"),
        (f"score-change-{agent}.png", f"Per-seat score change (option minus default) per pair; {box}"),
        (f"length-change-{agent}.png", f"Change in game length (player decisions) per pair; {box}"),
        (f"defaults-{agent}.png", "Default readings: length, winning score, seat win rates"),
    ]
    plot_winner_change(result, folder / made[0][0])
    plot_distributions(result, "score_delta", "Per-seat score change, option minus default",
                       result["game"]["score_unit"], folder / made[1][0])
    plot_distributions(result, "length_delta", "Change in game length, option minus default",
                       "player decisions", folder / made[2][0])
    plot_defaults(result, folder / made[3][0])
    return made


def _tables(result: Result) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) of one agent's tables."""
    out = []
    # how games end under the option (and the defaults): every reason but the first (the rest of the games)
    shown = list(result["game"]["end_reasons"])[1:]
    head = ["switch", "option", "pairs", "winner changes", "diverged", "score change / seat",
            "|score change| / pair", "length change", *[f"ended by {r} (default)" for r in shown], "cut"]
    for players, r in result["results"].items():
        d = r["default"]
        rows = []
        for o in r["options"]:
            rows.append([o["switch"], o["option"], str(o["compared"]), _pct(o["winner_change"]),
                         _pct(o["diverged"]), _num(o["score_delta"]), _num(o["abs_score_delta"]),
                         _num(o["length_delta"]),
                         *[f"{_pct(o['reading']['end'][e])} ({100 * d['end'][e]['mean']:.1f} %)" for e in shown],
                         str(o["reading"]["cut"] + d["cut"])])
        out.append((f"{players} players, agent {result['params']['agent']}", head, rows))
        seats = [[notation.seat(s), _pct(e)] for s, e in enumerate(d["seat_win_rate"])]
        ends = ", ".join(f"by {e} {_pct(d['end'][e])}" for e in result["game"]["end_reasons"])
        out.append((f"{players} players, default readings: {d['games']} games, mean length "
                    f"{d['length']['mean']:.1f} decisions [{d['length']['low']:.1f}, {d['length']['high']:.1f}], "
                    f"ended {ends}, cut {d['cut']}; "
                    "seat win rates", ["seat", "wins"], seats))
    return out


def _summary(result: Result) -> str:
    """In words: per player count the options that change the winner most, and those that never changed play."""
    lines = []
    for players, r in result["results"].items():
        opts = r["options"]
        top = sorted(opts, key=lambda o: -o["winner_change"]["mean"])[:3]
        quiet = [_label(o) for o in opts if o["compared"] and o["diverged"]["mean"] == 0]
        line = (f"{players} players (two unrelated games: {100 * unrelated(r['default']):.0f} %): "
                "the winner changes most under "
                + ", ".join(f"`{_label(o)}` ({_pct(o['winner_change'])})" for o in top) + ". ")
        if quiet:
            line += ("Play was the same in every pair (the reading can still name another winner) under "
                     + ", ".join(f"`{q}`" for q in quiet) + ".")
        lines.append(line)
    return (f"**Agent {result['params']['agent']}** (winner-change rate, 95 % interval; for comparison, how "
            "often two unrelated games name different winners, from the seat win rates).  " + " ".join(lines))


_INLINE = re.compile(r"\*\*(?P<strong>.+?)\*\*|`(?P<code>[^`]+)`|(?<![\w*])\*(?P<em>[^*\s][^*]*?)\*(?![\w*])")


def inline_html(text: str) -> str:
    """The report's Markdown of one paragraph as HTML: ``**strong**``, ``*emphasis*`` and ```code```, the
    rest escaped (the report writes no other Markdown)."""
    out, end = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[end:m.start()]))
        kind = m.lastgroup
        tag = {"strong": "strong", "code": "code", "em": "em"}[kind or "em"]
        inner = m.group(kind or "em")
        out.append(f"<{tag}>{html.escape(inner) if tag == 'code' else inline_html(inner)}</{tag}>")
        end = m.end()
    out.append(html.escape(text[end:]))
    return "".join(out)


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _run_line(results: Sequence[Result]) -> str:
    parts = []
    for r in results:
        p, run = r["params"], r["run"]
        parts.append(f"agent *{p['agent']}*: {p['games']} seeds per player count "
                     f"(seeds {p['seed']} to {p['seed'] + p['games'] - 1}), {run['games']} games "
                     f"in {run['seconds']:.0f} s on {run['where']} ({run.get('cpu_seconds', 0):.0f} s of CPU: "
                     "the wall time grows with other work on the machine)")
    return "; ".join(parts) + "."


def _sections(results: Sequence[Result], image: Callable[[str, str], str], table: Callable[..., str],
              para: Callable[[str], str], heading: Callable[[int, str], str], plots: Path, note: str) -> list[str]:
    first = results[0]
    out = [heading(2, "The answer"),
           para("Which readings change the winner, and how often: per agent and player count, the three "
                "switch options under which the winner changes most often."),
           *[para(_summary(r)) for r in results],
           heading(2, "How it was measured"),
           para(DESIGN), para(measures(first)), para(agents_text(first)), para(note),
           para("Sample: " + _run_line(results))]
    for r in results:
        out.append(heading(2, f"Agent: {r['params']['agent']}"))
        for name, caption in _plots(r, plots):
            out.append(image(name, caption))
        for caption, head, rows in _tables(r):
            out.append(para(f"**{caption}**"))
            out.append(table(head, rows))
    return out


def write_report(results: Sequence[Result], folder: Path, title: str = "Which readings matter",
                 markdown: Path | None = None, command: str = "", game: ResolvedGame | None = None) -> list[Path]:
    """Write JSON, CSV, plots, ``report.html`` and (if ``markdown``) a Markdown page; the paths written
    (``game``: the studies' game resolved already, else looked up by the name the results give)."""
    note = data_note(results[0], game)
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "study.json", folder / "study.csv", folder / "report.html"]
    written[0].write_text(json.dumps({"studies": list(results)}, separators=(",", ":")) + "\n", encoding="utf-8")
    with written[1].open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=csv_fields(results[0]), lineterminator="\n")
        writer.writeheader()
        for r in results:
            writer.writerows(csv_rows(r))

    def b64(name: str) -> str:
        return base64.b64encode((folder / name).read_bytes()).decode("ascii")

    body = _sections(
        results,
        image=lambda name, cap: (f'<figure><img src="data:image/png;base64,{b64(name)}" alt="{html.escape(cap)}">'
                                 f"<figcaption>{html.escape(cap)}</figcaption></figure>"),
        table=lambda head, rows: f'<div class="wide">{_html_table(head, rows)}</div>',
        para=lambda text: f"<p>{inline_html(text)}</p>",
        heading=lambda level, text: f"<h{level}>{html.escape(text)}</h{level}>", plots=folder, note=note)
    style = ("body{font-family:sans-serif;line-height:1.45;max-width:1100px;margin:0 auto;padding:1em 1.5em}"
             "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px}"
             ".wide{overflow-x:auto;max-width:100%}img{max-width:100%}code{background:#f3f3f3;padding:0 3px}")
    written[2].write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                          f"<style>{style}</style></head><body><h1>{html.escape(title)}</h1>"
                          + "\n".join(body) + "</body></html>\n", encoding="utf-8")
    written += sorted(folder.glob("*.png"))
    if markdown is not None:
        rel = folder.relative_to(markdown.parent)
        text = _sections(results, image=lambda name, cap: f"![{cap}]({rel / name})\n\n*{cap}.*",
                         table=_md_table, para=lambda t: t,
                         heading=lambda level, t: "#" * level + " " + t, plots=folder, note=note)
        head = [f"# {title}", "",
                (f"Generated by `{command}`" if command else "Generated by `rattus study`") + " (see the Makefile's "
                "study targets); do not edit by hand. "
                f"The numbers are also in {{download}}`study.json <{rel}/study.json>` and "
                f"{{download}}`study.csv <{rel}/study.csv>`, and the same report as one HTML file in "
                f"{{download}}`report.html <{rel}/report.html>`.", "", ""]
        markdown.write_text("\n".join(head) + "\n\n".join(text) + "\n", encoding="utf-8")
        written.append(markdown)
    return written
