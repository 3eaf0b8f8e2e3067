"""The offline site's pages, rendered by the web referee's own templates and engine door (:mod:`tarneeb.serve`).

This module runs in two places: in CPython, where ``tarneeb site`` renders every page once (the rule pages, the
start page, the empty forms), and in the browser under Pyodide, where :func:`respond` answers the referee form and
the record check as ``tarneeb serve`` answers a POST: the same :func:`tarneeb.serve.engine.rule` (the referee's
``rule_dict``), the same :func:`tarneeb.serve.form.situation_from_form`, the same templates and filters
(:mod:`tarneeb.serve.app`). Nothing here decides a rule or words a page.

The web app's module imports Starlette for its routes (and anyio, Starlette's own dependency, to run work off its
event loop); neither is needed nor shipped in the browser, so where they are missing :func:`serve_app` lets the
import find stand-ins (:class:`_StandIns`): a page is then Jinja2's text, and no route ever runs.

A page's links are made relative to the page's own folder (:func:`localize`): ``/en/ruling`` becomes
``../../en/ruling/`` on the page ``en/ruling/index.html``, so the site works from any folder of any static host.
"""

from __future__ import annotations

import base64
import importlib
import importlib.abc
import importlib.machinery
import json
import re
import sys
import tomllib
import types
from collections.abc import Sequence
from typing import Any

from tarneeb.serve import engine, score
from tarneeb.serve.form import situation_from_form

LANGS = ("en", "ar")
LINK_NAME = "(link)"  # a situation opened from a shared link, as error messages locate it


class _Html:
    """Starlette's HTMLResponse as far as :func:`tarneeb.serve.app.page` uses it (the text and the status)."""

    def __init__(self, content: str, status_code: int = 200, **_: Any) -> None:
        self.body = content.encode("utf-8")
        self.status_code = status_code


class _Absent(Exception):
    """Any other Starlette name the web app's module imports: never called on the pages rendered here."""


class _StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The modules of ``packages`` (Starlette, anyio), where they are not installed: each name is :class:`_Absent`,
    ``HTMLResponse`` :class:`_Html`."""

    def __init__(self, packages: Sequence[str]) -> None:
        self.packages = tuple(packages)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in self.packages:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        mod = types.ModuleType(spec.name)
        mod.__path__ = []
        mod.__getattr__ = _stand_in  # type: ignore[method-assign]
        return mod

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def _stand_in(attr: str) -> type:
    if attr.startswith("__"):  # a module's own attributes (__file__, ...): a stand-in has none
        raise AttributeError(attr)
    return _Html if attr == "HTMLResponse" else _Absent


def serve_app() -> types.ModuleType:
    """:mod:`tarneeb.serve.app` (its templates, filters and :func:`~tarneeb.serve.app.page`), with stand-ins for
    Starlette and anyio where they are not installed."""
    missing = [name for name in ("starlette", "anyio") if not _importable(name)]
    if missing and not any(isinstance(f, _StandIns) for f in sys.meta_path):
        sys.meta_path.insert(0, _StandIns(missing))  # first: only those packages' names, only where missing
    from tarneeb.serve import app

    return app


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        return False
    return True


class _Url:
    def __init__(self, path: str) -> None:
        self.path = path


class _Request:
    """What :func:`tarneeb.serve.app.page` reads of a request: the path and its language."""

    def __init__(self, path: str) -> None:
        self.url = _Url(path)
        lang = path.strip("/").split("/", 1)[0]
        self.path_params = {"lang": lang}


# ------------------------------------------------------------------ links

_LINK = re.compile(r'\b(href|src|action)="(/[^"/][^"]*|/)"')


def page_file(path: str) -> str:
    """The file of the site that holds the page of the web app's ``path`` (``/en/ruling`` -> ``en/ruling/``,
    a folder whose index.html it is); a file with a suffix (``/static/style.css``) is itself."""
    path, _, query = path.partition("?")
    rel = path.lstrip("/")
    if rel and not rel.endswith("/") and "." not in rel.rsplit("/", 1)[-1]:
        rel += "/"
    return rel + (f"?{query}" if query else "")


def relative(target: str, page: str) -> str:
    """``target`` (a site file, :func:`page_file`) as a link from the page at ``page`` (its folder, e.g.
    ``en/ruling/``)."""
    depth = page.count("/")
    return "../" * depth + target if depth or target else "./"


def localize(html: str, path: str) -> str:
    """The web app's page of ``path`` with its links relative to the page's own folder."""
    here = page_file(path)
    return _LINK.sub(lambda m: f'{m[1]}="{relative(page_file(m[2]), here)}"', html)


# ------------------------------------------------------------------ pages


def render(path: str, template: str, code: int = 200, **ctx: Any) -> tuple[str, int]:
    """The web app's page ``template`` for ``path`` (``/en/rules/classic``), its links relative."""
    app = serve_app()
    resp = app.page(_Request(path), template, code, **ctx)
    return localize(bytes(resp.body).decode("utf-8"), path), int(resp.status_code)


def static_pages() -> dict[str, str]:
    """Every page the site holds as a file, by site path (``en/rules/classic/``): the start page, the empty
    referee form and record check, the rule pages of every ruleset; in both languages."""
    app = serve_app()
    out: dict[str, str] = {}
    for lang in LANGS:
        ruling = dict(app._ruling_ctx(lang))
        pages: list[tuple[str, str, dict[str, Any]]] = [
            (f"/{lang}/", "home.html", {}), (f"/{lang}/ruling", "ruling.html", ruling),
            (f"/{lang}/records", "records.html", {}),
            (f"/{lang}/score/", "score.html", app.score_ctx(lang)),
            (f"/{lang}/rules/", "rules_index.html", {"rulesets": engine.ruleset_list(lang)})]
        pages += [(f"/{lang}/rules/{rid}", "rules.html", {"doc": engine.rule_page(rid, lang), "cite": engine.cite,
                                                          "cite_ref": engine.cite_ref})
                  for rid, _ in engine.ruleset_list()]
        for path, template, ctx in pages:
            out[page_file(path)] = render(path, template, **ctx)[0]
    return out


# ------------------------------------------------------------------ the browser's requests


def respond(request: str) -> str:
    """Answer one request of the browser (JSON text) as ``tarneeb serve`` answers it, in JSON text.

    The score sheet's request is ``page`` ``score``, ``lang`` and ``request`` (the JSON text the page would post to
    ``/LANG/score/api``); its answer is :func:`_score`'s. Otherwise the request: ``page`` (``ruling`` or
    ``records``), ``lang``, and one of ``form`` (the fields posted, each a
    list of values; a file's field holds ``{"name", "data"}``, the data in base64), ``situation`` (a situation's
    text, from a shared link), ``example`` (a dispute's name). The answer: ``html`` (the whole page),
    ``status``, and for a ruling ``report`` (the referee's report) and ``share`` (the situation's TOML, for a
    link)."""
    req = json.loads(request)
    lang = req.get("lang") if req.get("lang") in LANGS else "en"
    if req.get("page") == "score":
        return json.dumps(_score(lang, req.get("request")), ensure_ascii=False)
    if req.get("page") == "records":
        return json.dumps(_records(lang, req.get("form") or {}), ensure_ascii=False)
    return json.dumps(_ruling(lang, req), ensure_ascii=False)


def _score(lang: str, body: Any) -> dict[str, Any]:
    """The score page's question (its JSON text) answered as ``tarneeb serve`` answers ``POST /LANG/score/api``:
    :func:`tarneeb.serve.score.answer`, or ``error`` and status 400 for a request it cannot use."""
    try:
        req = json.loads(body) if isinstance(body, str) else None
    except json.JSONDecodeError:
        req = None
    if isinstance(req, dict):
        req["lang"] = lang
    try:
        return score.answer(req)
    except score.PageError as e:
        return {"error": e.message, "status": 400}


def _fields(form: dict[str, list[Any]]) -> dict[str, str]:
    return {k: v[-1] for k, v in form.items() if v and isinstance(v[-1], str)}


def _upload(form: dict[str, list[Any]], key: str) -> tuple[bytes, str] | None:
    f = (form.get(key) or [None])[-1]
    if isinstance(f, dict) and f.get("name"):
        return base64.b64decode(f.get("data", "")), str(f["name"])
    return None


def _ruling(lang: str, req: dict[str, Any]) -> dict[str, Any]:
    app = serve_app()
    path = f"/{lang}/ruling"
    ids = [rid for rid, _ in engine.ruleset_list()]
    form: dict[str, list[Any]] = req.get("form") or {}
    fields = _fields(form)
    text, name = None, ""
    found: list[Any] = []
    if req.get("situation") is not None:
        text, name = str(req["situation"]), LINK_NAME
        fields = {"situation_text": text}
    elif req.get("example"):
        found = [e for e in engine.examples() if e.name == req["example"]]
        if found:
            fields = {"situation_text": found[0].text}
    chosen = [str(v) for v in form.get("ruleset", ids if not form else []) if v in ids]
    ctx = app._ruling_ctx(lang, fields, chosen)
    if req.get("example") and not found:  # a link cut short or garbled: said so, as the web referee says it
        html, code = render(path, "ruling.html", 404, error_lead=app.bad_example(lang, str(req["example"])), **ctx)
        return {"html": html, "status": code}
    if not form and text is None:  # the form, empty or holding an example
        return {"html": render(path, "ruling.html", **ctx)[0], "status": 200}
    explain = bool(fields.get("explain"))
    try:
        upload = _upload(form, "situation_file")
        if text is not None:
            raw = engine.parse_situation_text(text, name)
        elif upload is not None or fields.get("situation_text", "").strip():
            if upload is not None:
                data, name = upload
                text = app._decode(data, name)
            else:
                text, name = fields["situation_text"], "(pasted)"
            raw = engine.parse_situation_text(text, name)
        else:
            name = "(form)"
            raw = situation_from_form(fields, chosen, ids, lang)
            text = situation_toml(raw)
        report = engine.rule(raw, name, lang, explain)
    except engine.TarneebError as e:
        facts = engine.error_facts(e, lang)  # on an Arabic page, the facts to look at in Arabic words
        strings = app.STRINGS[lang]
        lead = strings["error_facts"].format(facts="، ".join(facts)) if facts else strings["error_detail"]
        html, code = render(path, "ruling.html", 400, error=str(e), error_lead=lead if lang == "ar" else None, **ctx)
        return {"html": html, "status": code}
    html, code = render(path, "ruling.html", report=report, explain=explain, **ctx)
    return {"html": html, "status": code, "report": report, "share": text}


def _records(lang: str, form: dict[str, list[Any]]) -> dict[str, Any]:
    app = serve_app()
    path, strings = f"/{lang}/records", app.STRINGS[lang]
    fields = _fields(form)
    upload = _upload(form, "records_file")
    if upload is not None:
        data, name = upload
    else:
        data, name = fields.get("records_text", "").encode("utf-8"), "(pasted)"
    if not data.strip():
        html, code = render(path, "records.html", 400, error_lead=strings["no_records"], f=fields)
        return {"html": html, "status": code}
    too_long = engine.too_many_lines(data, name)
    if too_long is not None:
        html, code = render(path, "records.html", 413, error=too_long, f=fields if upload is None else {},
                            error_lead=strings["too_many_lines"].format(n=engine.MAX_RECORD_LINES))
        return {"html": html, "status": code}
    check = engine.check_records(data, name, lang)
    lead = error = None
    if check.summary["matches"] == 0 and check.summary["hands"] == 0:
        first = check.problems[0] if check.problems else None
        lead = strings["not_records"]
        error = f"{first['file']}:{first['line']}: {first['field']}: {first['message']}" if first else name
    html, code = render(path, "records.html", 400 if lead else 200, check=check, name=name, error=error,
                        error_lead=lead, f=fields if upload is None else {})
    return {"html": html, "status": code, "summary": check.summary}


# ------------------------------------------------------------------ a situation as a link


def situation_toml(raw: dict[str, Any]) -> str:
    """A situation table (as the form gives it: text, whole numbers, booleans, lists and tables) as TOML text
    that reads back to the same table."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in raw.items()]
    text = "\n".join(lines) + "\n"
    if tomllib.loads(text) != raw:  # a value TOML cannot hold (None, a float): refuse rather than change it
        raise ValueError("situation does not round-trip through TOML")
    return text


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, Sequence):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise ValueError(f"{v!r} has no TOML form here")


def share_fragment(text: str) -> str:
    """The URL fragment that opens a situation: ``s=`` and the base64url of its text (UTF-8, no padding)."""
    return "s=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")

