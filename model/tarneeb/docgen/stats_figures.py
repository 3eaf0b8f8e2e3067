"""The statistics section of each ruleset's page: figures of seeded self-play drawn by :mod:`tarneeb.stats`.

:func:`section` gives the reStructuredText appended to a ruleset page; :func:`write_figures` draws the PNG files
beside the generated pages (``generated/stats/RULESET.png``), each for the ruleset as published and with one
option changed (the first option that has another value), :data:`MATCHES` matches each, seed :data:`SEED`, the
documented ``heuristic`` policy. A figure is redrawn only when its key (ruleset file, the option, the sample and
the version of :mod:`tarneeb.stats`) changes. Without matplotlib the section says so and no figure is drawn.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tarneeb.core.spec import OptionValue, get_ruleset, load_rules
from tarneeb.errors import ConfigError
from tarneeb.i18n.arabic import arabic_punct
from tarneeb.stats import collect, plot

MATCHES = 40
SEED = "docs"
VERSION = "1"


def variant(rid: str) -> tuple[str, OptionValue] | None:
    """The option the figure compares: the first option with a value other than its default, and that value."""
    for o in get_ruleset(rid).options:
        cands: list[OptionValue] = [v for v in o.allowed if v != o.default]
        if o.range is not None:
            cands.append(o.range[1] if o.default != o.range[1] else o.range[0])
        for v in cands:
            try:
                load_rules(rid, {o.name: v})
            except ConfigError:
                continue  # a value this ruleset refuses on its own
            return o.name, v
    return None


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def section(rid: str, lang: str) -> str:
    """The figure block for ``rid``'s page; on the Arabic page the text is Arabic (``spec/i18n/ar_pages.toml``) and
    says that the labels inside the figures are English."""
    if lang != "en":
        return _section_ar(rid)
    title = "Statistics of self-play"
    lines = ["", title, "-" * len(title), ""]
    if not have_matplotlib():
        lines += ["The figures need matplotlib (``pip install 'tarneeb[stats]'``); this build had none.", ""]
        return "\n".join(lines)
    v = variant(rid)
    change = f" and with option ``{v[0]}={_fmt(v[1])}``" if v else ""
    lines += [f"{MATCHES} seeded matches (seed ``{SEED}``) of four bots with the documented heuristic policy "
              f"(``tarneeb.play.bots``), under the ruleset as published{change}: match length, the calls or bids, "
              "the contracts, and the rates of cancelled deals, made bids and wins of the dealer's team. "
              f"``{_command(rid)}`` prints the same for any sample.", "",
              f".. image:: /generated/stats/{rid}.png", f"   :alt: statistics of self-play under {rid}", ""]
    return "\n".join(lines)


def _command(rid: str) -> str:
    v = variant(rid)
    return f"tarneeb stats {rid}" + (f" --compare {v[0]}={_fmt(v[1])}" if v else "")


def _section_ar(rid: str) -> str:
    from tarneeb.docgen.pages_i18n import need
    from tarneeb.docgen.rulebook import rst_ltr, rst_title

    title = rst_title(need("pages", "stats_title"))
    lines = ["", title, "-" * (2 * len(title)), ""]
    if not have_matplotlib():
        return "\n".join(lines + [rst_ltr(arabic_punct(need("pages", "stats_needs_matplotlib"))), ""])
    v = variant(rid)
    change = need("pages", "stats_change").format(option=f"{v[0]}={_fmt(v[1])}") if v else ""
    intro = need("pages", "stats_intro").format(matches=MATCHES, seed=SEED, change=change, command=_command(rid))
    alt = need("pages", "stats_alt").format(ruleset=rid)
    lines += [rst_ltr(arabic_punct(intro)), "", rst_ltr(arabic_punct(need("pages", "stats_labels"))), "",
              f".. image:: /generated/stats/{rid}.png", f"   :alt: {alt}", ""]
    return "\n".join(lines)


def _fmt(v: OptionValue) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _key(rid: str) -> str:
    rs = get_ruleset(rid)
    h = hashlib.sha256(Path(rs.path).read_bytes())
    h.update(repr((variant(rid), MATCHES, SEED, VERSION)).encode())
    return h.hexdigest()


def write_figures(outdir: Path, rids: list[str]) -> list[Path]:
    """Draw ``outdir/stats/RULESET.png`` for each ruleset whose key changed; returns the files drawn."""
    if not have_matplotlib():
        return []
    drawn = []
    for rid in rids:
        png = outdir / "stats" / f"{rid}.png"
        keyfile = png.with_suffix(".key")
        key = _key(rid)
        if png.is_file() and keyfile.is_file() and keyfile.read_text(encoding="utf-8") == key:
            continue
        configs = [load_rules(rid)]
        v = variant(rid)
        if v is not None:
            configs.append(load_rules(rid, {v[0]: v[1]}))
        stats = [collect(r, MATCHES, SEED, "heuristic") for r in configs]
        plot(stats, png, f"{rid}: {MATCHES} matches per configuration, heuristic policy")
        keyfile.write_text(key, encoding="utf-8")
        drawn.append(png)
    return drawn
