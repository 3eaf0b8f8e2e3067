"""The generated pages of the sphinx site (``docs/``), written before sphinx reads its sources.

:func:`generate_site` writes reStructuredText under ``docs/generated/``: one
page per ruleset in English and in Arabic (from :mod:`tarneeb.docgen.rulebook`), the
comparison table, the documents' worked examples with the engine's answers (a
wrong example raises :class:`DocsBuildError`, which fails the build), seeded
illustrated hands, the glossary, the disputes and the CLI reference. Files are
rewritten only when their text changes, so sphinx rebuilds only what changed.
"""

from __future__ import annotations

import argparse
import json
import os
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tarneeb.conformance.examples import check_example, load_examples
from tarneeb.core import rules as R
from tarneeb.core.cards import (
    NO_TRUMP,
    SUIT_SYMBOLS,
    card_str,
    card_symbol,
    hand_str,
    mask_of,
    player_name,
    strain_name,
    team_label,
)
from tarneeb.core.match import HandRecord
from tarneeb.core.sources import cite, cite_ref
from tarneeb.core.spec import Rules, get_ruleset, load_rules, rulesets, spec_dir
from tarneeb.docgen import house_page, site_ar, stats_figures
from tarneeb.docgen import rulebook as docgen
from tarneeb.docgen.compare import comparison, grouped
from tarneeb.docgen.disputes import facts_block, load_situation, situation_files
from tarneeb.errors import DocsBuildError, SpecError
from tarneeb.i18n.tables import LANGS, tr
from tarneeb.play.simulate import play_match
from tarneeb.ruling import matches_expected, report_json, resolve_file

E = docgen.rst_escape
H = docgen.rst_heading


def _table(header: list[str], rows: Iterable[list[str]], widths: list[int] | None = None,
           wide: bool = False) -> list[str]:
    """A list-table; ``wide`` ones scroll sideways inside the page with their first column kept in view."""
    out = [".. list-table::", "   :header-rows: 1"] + (["   :class: tarneeb-wide"] if wide else [])
    if widths:
        out.append("   :widths: " + " ".join(str(w) for w in widths))
    out.append("")
    for row in [header, *rows]:
        out.append(f"   * - {row[0] or '..'}")
        out += [f"     - {c or '..'}" for c in row[1:]]
    return out + [""]


# ---------------------------------------------------------------- ruleset pages

def ruleset_page(rid: str, lang: str) -> str:
    d = docgen.ruleset_doc(rid, lang)
    other = "ar" if lang == "en" else "en"
    link = f":doc:`{docgen.label(lang, 'other_lang')} </generated/{other}/{rid}>`"
    return docgen.render(d, "rst") + "\n" + link + "\n" + stats_figures.section(rid, lang)


AR_PAGES = ("comparison", "examples", "disputes", "glossary", "house")  # beside the ruleset pages under generated/ar/


def lang_index(lang: str) -> str:
    title = "Rulesets" if lang == "en" else tr("ar", "labels", "rulesets_title") or "Rulesets"
    intro = ("One page per ruleset, generated from the spec files." if lang == "en"
             else tr("ar", "labels", "rulesets_intro") or "")
    lines = H(title, "=", over=True) + [E(intro), "", ".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   {rid}" for rid in rulesets()]
    if lang != "en":
        lines += [f"   {page}" for page in AR_PAGES]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- comparison

# Which witness kinds (the question kinds of ``tarneeb diff``) illustrate which comparison row.
WITNESS_ROWS: dict[str, tuple[str, ...]] = {
    "direction": ("trick-winner", "next-dealer"),
    "trump": ("trump", "trick-winner"),
    "bid-range": ("bid-legal",),
    "bid-values": ("score",),
    "redeal-threshold": ("redeal",),
    "redeal-dealer": ("redeal-dealer", "next-dealer"),
    "must-trump": ("card-legal",),
    "scoring": ("score",),
    "target": ("winner",),
    "win": ("winner",),
    "tie": ("tie-rule",),
}


def comparison_page(witnesses: dict[str, dict[str, str]] | None = None, witness_note: str = "",
                    witness_titles: dict[str, str] | None = None) -> str:
    """The variation-point table.

    ``witnesses`` (from the formal layer's ``tarneeb diff``, when installed) maps a witness kind (a question
    kind such as ``bid-legal``, or a row key) to ``{"A vs B": readable witness}``; each row links to the
    witnesses of its kinds.
    """
    ids = list(rulesets())
    rows = comparison(ids, "en")
    witnesses = {k: v for k, v in (witnesses or {}).items() if v}
    lines = [".. _comparison:", ""] + H("Comparison of the rulesets", "=", over=True)
    lines += [":doc:`النسخة العربية (Arabic version) </generated/ar/comparison>`", ""]
    lines += ["Each variation point gives the value of every ruleset at its default options; rulesets that agree "
              "share a line. The values are computed from the resolved rules the engine runs "
              "(``tarneeb.core.spec.load_rules``), not written by hand. Where an option can change a value, the "
              "option and its allowed values follow in brackets.", ""]
    for r in rows:
        kinds = [k for k in (r.key, *WITNESS_ROWS.get(r.key, ())) if k in witnesses]
        links = ", ".join(f":ref:`{k} <witness-{k}>`" for k in dict.fromkeys(kinds))
        lines += [f".. rubric:: {E(r.title)}", "   :class: tarneeb-point", ""]
        if links:
            lines += [f"Situations that tell them apart: {links}.", ""]
        lines += [f"- {', '.join(f':doc:`{rid} </generated/en/{rid}>`' for rid in rids)}: {E(v)}"
                  for rids, v in grouped(r.values, ids)] + [""]
    lines += H("Witnesses of the differences", "-")
    if witness_note:
        lines += [E(witness_note), ""]
    if not witnesses:
        lines += ["No witness data was available when these pages were generated: the formal layer's "
                  "``tarneeb diff`` search (``tarneeb_proofs.diff``) is not installed.", ""]
    else:
        lines += ["For every pair of rulesets and every question: the smallest situation the two rule differently, "
                  "with each one's ruling, found by ``tarneeb diff`` (Z3) while these pages were built; or, where "
                  "they never differ, the proof of it. The engine itself was run on every situation shown and "
                  "rules it as stated (one it ruled otherwise would be marked so).", ""]
        for key, per_pair in witnesses.items():
            title = (witness_titles or {}).get(key, "")
            lines += [f".. _witness-{key}:", ""] + H(key + (f": {title}" if title else ""), "~")
            for pair, text in per_pair.items():
                lines += [f"- **{E(pair)}**: {E(text)}"]
            lines += [""]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- worked examples

def _kv(d: dict[str, Any]) -> str:
    return "; ".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in d.items())


def examples_page() -> str:
    lines = [".. _examples:", ""] + H("Worked examples", "=", over=True)
    lines += [":doc:`النسخة العربية (Arabic version) </generated/ar/examples>`", ""]
    lines += ["The examples the rule documents give, as data in ``spec/examples.toml``: what is given, what the "
              "document says, and what the engine answers, computed while these pages are built; if it disagreed "
              "with the document the build would stop with the example's id.", ""]
    bad: list[str] = []
    by_rs: dict[str, list[Any]] = {}
    for ex in load_examples():
        by_rs.setdefault(ex.ruleset, []).append(ex)
    for rid, exs in by_rs.items():
        lines += H(f"{get_ruleset(rid).name} ({rid})", "-")
        # one item per example (a six-column table hid its last columns even on a laptop), the source cited once
        # above all the examples it covers
        for source, run in docgen.grouped_by(exs, lambda ex: cite(ex.doc, ex.heading)):
            lines += [".. container:: tarneeb-source", "", f"   *Source:* {E(source)}", ""]
            for ex in run:
                c = check_example(ex)
                if not c.ok:
                    bad.append(f"{ex.id}: " + "; ".join(c.mismatches()))
                got = {k: c.got.get(k) for k in ex.expect}
                opts = f" (options {_kv(ex.options)})" if ex.options else ""
                note = f" {E(ex.note)}" if ex.note else ""
                lines += [f"- ``{ex.id}`` ({ex.kind}): {E(_kv(ex.input) + opts)}. *The document:* {E(_kv(ex.expect))}. "
                          f"*The engine:* {E(_kv(got))}" + (" ✓" if c.ok else " ✗") + f".{note}"]
            lines += [""]
    if bad:
        raise DocsBuildError("worked examples the engine contradicts: " + " | ".join(bad))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- illustrated hands

def _seat_name(s: int) -> str:
    return f"{player_name(s)} ({team_label(s & 1)})"


def _strain(s: int) -> str:
    return strain_name(s) + ("" if s == NO_TRUMP else f" {SUIT_SYMBOLS[s]}")


def _hand_rows(rec: HandRecord, rules: Rules) -> list[int]:
    """The four hands as dealt, rebuilt from the cards each seat played in the 13 tricks."""
    played: list[list[int]] = [[], [], [], []]
    for t in rec.tricks:
        for seat, c in zip(R.seat_order(rules, t.leader), t.cards, strict=False):
            played[seat].append(c)
    return [mask_of(p) for p in played]


def _record_lines(rid: str, rec: HandRecord, rules: Rules, title: str) -> list[str]:
    lines = H(title, "~")
    facts = [f"dealer: {_seat_name(rec.dealer)}"]
    if rec.revealed is not None:
        facts.append(f"dealer's shown card: {card_symbol(rec.revealed)} (``{card_str(rec.revealed)}``)")
    if rec.trump is not None and rec.trump >= 0:
        facts.append(f"trump: {_strain(rec.trump)}")
    if rec.contract is not None:
        seat, n, strain = rec.contract
        facts.append(f"contract: {n}{'' if strain is None else ' ' + _strain(strain)} by {_seat_name(seat)}")
    lines += ["; ".join(E(f) for f in facts) + ".", ""]
    bids = {s: str(b.n) if b.n is not None else "pass" for s, b in rec.bids}
    if len(rec.bids) > 4:
        bids = {s: ", ".join(str(b.n) if b.n is not None else "pass" for t, b in rec.bids if t == s) for s in range(4)}
    if rec.redeal is not None:
        lines += [f"Bids in order: {E(', '.join(f'{player_name(s)}: {bids[s]}' for s, _ in rec.bids[:4]))}. "
                  f"The hand is not played (clause ``{rec.redeal}``).", ""]
        return lines
    hands = _hand_rows(rec, rules)
    lines += _table(["player", "hand as dealt (spades | hearts | diamonds | clubs)", "bid", "tricks", "score change",
                     "score after"],
                    ([_seat_name(s), E(hand_str(hands[s])), bids.get(s, ""), str(rec.tricks_won[s]),
                      f"{rec.deltas[s]:+d}", str(rec.scores_after[s])] for s in range(4)), [14, 46, 8, 8, 12, 12])
    trick_rows = []
    for n, t in enumerate(rec.tricks, 1):
        cells = ["", "", "", ""]
        for i, (seat, c) in enumerate(zip(R.seat_order(rules, t.leader), t.cards, strict=False)):
            text = card_symbol(c) + (" (led)" if i == 0 else "")
            cells[seat] = f"**{text}**" if seat == t.winner else text
        trick_rows.append([str(n), *cells, _seat_name(t.winner)])
    lines += ["Each trick, the winning card in bold:", ""]
    lines += _table(["trick", "player 1", "player 2", "player 3", "player 4", "won by"], trick_rows, [8, 16, 16, 16, 16, 28])
    if rec.outcome is not None:
        lines += [f"After this hand {team_label(rec.outcome)} wins the game (clause ``{rec.outcome_rule}``).", ""]
    else:
        lines += ["No team has won yet; the deal moves on.", ""]
    return lines


HAND_SEED = "docs"


def hands_page(seed: str = HAND_SEED) -> str:
    lines = [".. _hands:", ""] + H("Illustrated hands", "=", over=True)
    lines += [f"Seeded self-play (``tarneeb.play.simulate.play_match``, seed ``{seed}``, heuristic players) under each "
              "ruleset's default options. For every ruleset: the first deal of the match (with any cancelled deals "
              "before it) and the hand that decided the match. The hands are rebuilt from the cards played; the "
              "scores come from the engine's own records.", ""]
    for rid in rulesets():
        rules = load_rules(rid)
        res = play_match(rules, seed, 0, "heuristic", 200)
        recs = res.match.records
        lines += H(f"{rules.ruleset.name} ({rid})", "-")
        lines += [f"First dealer {_seat_name(res.first_dealer)}; {res.hands} hands played, {res.redeals} cancelled; "
                  f"final scores of players 1 to 4 {res.final_scores}; "
                  + (f"won by {team_label(res.winner)} (clause ``{res.winner_rule}``)." if res.winner is not None
                     else "unfinished after 200 hands."), ""]
        first_played = next((i for i, r in enumerate(recs) if r.redeal is None), None)
        shown = list(range(0, (first_played if first_played is not None else len(recs) - 1) + 1))
        if res.winner is not None and recs and len(recs) - 1 not in shown:
            shown.append(len(recs) - 1)
        for i in shown:
            rec = recs[i]
            kind = "cancelled deal" if rec.redeal is not None else ("deciding hand" if rec.outcome is not None
                                                                    else "first hand")
            lines += _record_lines(rid, rec, rules, f"{rid}: deal {rec.deal_no + 1}, {kind}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- glossary

def glossary_data() -> dict[str, Any]:
    """``spec/i18n/glossary.toml``: the terms, their meanings in English and Arabic, their regional words."""
    path = spec_dir() / "i18n" / "glossary.toml"
    try:
        raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SpecError(str(path), "(file)", str(e)) from None
    regions = raw.get("regions", [])
    for i, t in enumerate(raw.get("term", [])):
        for key in ("latin", "arabic", "meaning", "meaning_ar"):
            if not str(t.get(key, "")).strip():
                raise SpecError(str(path), f"term[{i}].{key}", "missing")
        unknown = set(t.get("variants", {})) - set(regions)
        if unknown:
            raise SpecError(str(path), f"term[{i}].variants", f"unknown region {sorted(unknown)}; valid: {regions}")
    return raw


def glossary_page() -> str:
    raw = glossary_data()
    regions = list(raw.get("regions", []))
    names = raw.get("region_names", {})
    lines = [".. _glossary-page:", ""] + H("Glossary of Arabic terms", "=", over=True)
    lines += [E(raw.get("intro", "")), "", ":doc:`النسخة العربية (Arabic version) </generated/ar/glossary>`", "",
              ".. glossary::", ""]
    for t in raw.get("term", []):
        lines += [f"   {E(t['latin'])} ({t['arabic']})", f"      {E(t['meaning'])}", ""]
        if t.get("doc"):
            lines += [f"      *Found in* {E(cite(t['doc'], t['heading']))}.", ""]
        else:
            lines += ["      *A word of our Arabic pages* (``spec/i18n/terms.toml``), not of the documents.", ""]
        if t.get("variants"):
            said = "; ".join(f"{names[r]['en']}: {t['variants'][r]}" for r in regions if r in t["variants"])
            lines += [f"      *Said at the table:* {E(said)}.", ""]
    lines += H("Regional words", "-")
    lines += [E(raw.get("regions_note", "")), ""]
    rows = [[f"{E(t['latin'])} ({t['arabic']})"] + [E(t["variants"].get(r, "")) for r in regions]
            for t in raw.get("term", []) if t.get("variants")]
    lines += _table(["term"] + [E(names[r]["en"]) for r in regions], rows, [24] + [76 // len(regions)] * len(regions))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- disputes

def _clause_ref(rid: str, cid: str) -> str:
    rs = rulesets().get(rid)
    if rs is not None and cid in rs.clauses:
        return f":ref:`{cid} <{docgen.clause_anchor(rid, cid)}>`"
    return f"``{cid}``"


def _ambiguity_text(a: dict[str, Any]) -> tuple[str, list[str]]:
    """What an ambiguity does to a ruling, and (when its readings rule differently) each reading's ruling."""
    readings = a.get("readings", [])
    if a.get("changes_ruling"):
        return ("the readings rule differently:",
                [f"``{r.get('id')}``{' (taken)' if r.get('taken') else ''}: {E(str(r.get('ruling')))}" for r in readings])
    if all(r.get("answer") is None and not r.get("taken") for r in readings):  # the club's choice, each in words
        return ("the documents are silent; a club can adopt one of these readings:",
                [f"``{r.get('id')}``: {E(str(r.get('text')))}" for r in readings])
    if any(r.get("answer") is None for r in readings):
        return ("not computed under " + ", ".join(f"``{r.get('id')}``" for r in readings if r.get("answer") is None)
                + ".", [])
    return "every reading rules the same.", []


def _ruling_lines(rep: dict[str, Any]) -> list[str]:
    """A dispute's rulings as a list, one ruleset an item with the clauses that decide it (no table: on a phone a
    four-column table left a word a line), then its ambiguities, each once with the rulesets it concerns."""
    lines = [f"Question: {E(str(rep.get('question', '')))}", ""]
    ambs: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
    for x in rep.get("rulings", []):
        rid = str(x.get("ruleset", ""))
        label = str(x.get("label", rid))
        chain = ", ".join(_clause_ref(rid, str(c.get("id", ""))) for c in x.get("clauses", []))
        lines += [f"- ``{label}``: {E(str(x.get('ruling', '')))}", ""]
        if chain:
            lines += [f"  Decided by {chain}.", ""]
        for a in x.get("ambiguities", []):
            what, readings = _ambiguity_text(a)
            ambs.setdefault((str(a.get("id")), what, tuple(readings)), []).append(label)
    if rep.get("agreement"):
        lines += [f"**{E(str(rep['agreement']))}**", ""]
    if ambs:
        lines += ["Ambiguities:", ""]
        for (aid, what, shown), labels in ambs.items():
            lines += [f"- ``{aid}`` ({', '.join(labels)}): {what}", ""]
            lines += [f"  - {r}" for r in shown] + ([""] if shown else [])
    return lines


def disputes_page() -> str:
    """Render ``spec/disputes/*`` (situation files with expected rulings).

    Each file's rulings are computed during the build by the resolver (:mod:`tarneeb.ruling`) and shown with the
    deciding clauses (linked to the ruleset pages); a ruling that differs from the file's expected one raises
    :class:`DocsBuildError`.
    """
    lines = [".. _disputes:", ""] + H("Disputes", "=", over=True)
    lines += [":doc:`النسخة العربية (Arabic version) </generated/ar/disputes>`", ""]
    files = situation_files()
    lines += ["Classic table arguments as situation files (``spec/disputes/``): what the players agree on, the "
              "question, and the ruling each ruleset gives with the clauses that decide it. ``tarneeb ruling "
              "FILE`` prints the same ruling at the table.", ""]
    if not files:
        lines += ["No dispute files exist yet.", ""]
        return "\n".join(lines) + "\n"
    bad: list[str] = []
    for p in files:
        data = load_situation(p)
        title = str(data.get("title") or p.stem)
        lines += [f".. _dispute-{p.stem}:", ""] + H(title, "-")
        if data.get("description"):
            lines += [E(str(data["description"])), ""]
        lines += [f"File: ``spec/disputes/{p.name}``", ""]
        if data.get("sources"):
            lines += ["Sources: " + "; ".join(E(cite_ref(str(x))) for x in data["sources"]), ""]
        lines += ["Facts and question:", ""] + facts_block(p, data) + [""]
        expected = data.get("expected")
        rep = resolve_file(p)
        lines += _ruling_lines(report_json(rep))
        if isinstance(expected, dict):
            problems = matches_expected(rep, expected)
            if problems:
                bad.append(f"{p.name}: " + "; ".join(problems))
            else:
                lines += ["The computed rulings match the rulings expected in the file.", ""]
    if bad:
        raise DocsBuildError("disputes whose computed ruling differs from the expected one: " + " | ".join(bad))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- CLI reference

def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    out: list[tuple[str, argparse.ArgumentParser]] = []
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                out.append((name, sub))
    return out


def cli_page(parser: argparse.ArgumentParser) -> str:
    """The command line reference: the help of ``parser`` (``tarneeb.cli.build_parser()``, which the caller gives:
    the command line is above the docs generator) and of each of its commands, 100 columns wide."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        lines = [".. _cli:", ""] + H("Command line reference", "=", over=True)
        lines += ["Generated from the argparse parser (``tarneeb.cli.build_parser()``): the commands of ``tarneeb.cli`` "
                  "and those plugged in through the ``tarneeb.commands`` entry points.", ""]
        lines += ["::", ""] + ["   " + ln for ln in parser.format_help().splitlines()] + [""]
        for name, sub in _subcommands(parser):
            lines += H(f"tarneeb {name}", "-")
            lines += ["::", ""] + ["   " + ln for ln in sub.format_help().rstrip().splitlines()] + [""]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- API reference

API_MODULES = ("core.cards", "core.spec", "core.rules", "core.hand", "core.clauses", "core.actions", "core.match",
               "play.bots", "play.simulate", "errors", "core.ambiguity", "conformance.examples", "docgen.rulebook",
               "docgen.site", "i18n.arabic", "i18n.tables", "docgen.compare", "docgen.site_ar")


def api_page() -> str:
    import importlib

    lines = [".. _api:", ""] + H("API reference", "=", over=True)
    lines += ["Generated by autodoc from the docstrings of the ``tarneeb`` package.", ""]
    for mod in API_MODULES:
        try:
            importlib.import_module(f"tarneeb.{mod}")
        except ModuleNotFoundError:
            continue
        lines += H(f"tarneeb.{mod}", "-")
        lines += [f".. automodule:: tarneeb.{mod}", "   :members:", ""]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the whole site

def site_pages(witnesses: dict[str, dict[str, str]] | None = None, witness_note: str = "",
               witness_titles: dict[str, str] | None = None,
               cli_parser: argparse.ArgumentParser | None = None) -> dict[str, str]:
    """Relative path (under ``generated/``) -> reStructuredText; the command line reference (``cli.rst``) only
    with ``cli_parser``, the parser of ``tarneeb`` (:func:`tarneeb.cli.build_parser`)."""
    pages: dict[str, str] = {}
    for lang in LANGS:
        pages[f"{lang}/index.rst"] = lang_index(lang)
        for rid in rulesets():
            pages[f"{lang}/{rid}.rst"] = ruleset_page(rid, lang)
    pages["comparison.rst"] = comparison_page(witnesses, witness_note, witness_titles)
    pages["examples.rst"] = examples_page()
    pages["hands.rst"] = hands_page()
    pages["glossary.rst"] = glossary_page()
    pages["house.rst"] = house_page.house_page("en")
    pages["ar/house.rst"] = house_page.house_page("ar")
    pages["ar/comparison.rst"] = site_ar.comparison_page()
    pages["ar/examples.rst"] = site_ar.examples_page()
    pages["ar/disputes.rst"] = site_ar.disputes_page()
    pages["ar/glossary.rst"] = site_ar.glossary_page(glossary_data())
    pages["disputes.rst"] = disputes_page()
    if cli_parser is not None:
        pages["cli.rst"] = cli_page(cli_parser)
    pages["api.rst"] = api_page()
    return pages


def generate_site(outdir: Path, witnesses: dict[str, dict[str, str]] | None = None, witness_note: str = "",
                  witness_titles: dict[str, str] | None = None,
                  cli_parser: argparse.ArgumentParser | None = None) -> list[Path]:
    """Write the generated pages under ``outdir`` (:func:`site_pages`); remove stale ones. Returns the files
    rewritten."""
    pages = site_pages(witnesses, witness_note, witness_titles, cli_parser)
    stats_figures.write_figures(outdir, list(rulesets()))  # the figures the ruleset pages show
    changed = []
    for rel, text in pages.items():
        p = outdir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.is_file() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
            changed.append(p)
    if outdir.is_dir():
        for p in outdir.rglob("*.rst"):
            if p.relative_to(outdir).as_posix() not in pages:
                p.unlink()
    return changed
