"""The web app of ``tarneeb serve``: the referee form, record checking and the rule pages, in English and Arabic.

Built on Starlette (routing, forms, uploads) with Jinja2 templates; served by uvicorn (see
:mod:`tarneeb.cli.serve`). Every ruling, divergence and rule page comes through :mod:`tarneeb.serve.engine`;
nothing here decides a rule. Bad input (a malformed situation or record file, contradictory facts, an upload
that is too large) is answered with the page and the engine's one located line, with status 400 or 413;
anything unexpected with a short page and status 500, never a traceback; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from anyio import CapacityLimiter, to_thread
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tarneeb.core.cards import card_symbol, parse_card
from tarneeb.i18n.arabic import terms
from tarneeb.records.verify import MIN_CAUSE_HANDS
from tarneeb.serve import engine, score
from tarneeb.serve.form import FIRST_SEAT, HISTORY_ROWS, KIND_GROUPS, situation_from_form
from tarneeb.serve.strings import STRINGS, all_hands, any_hand, counted, kind_label

HERE = Path(__file__).parent
DEFAULT_SECONDS = 20.0  # the longest a request may take before its page says so (the work is bounded anyway)
DEFAULT_MAX_UPLOAD = 2 * 1024 * 1024  # bytes of one request body (a record file of about 170 classic matches)
log = logging.getLogger("tarneeb.serve")


class TooLarge(Exception):
    pass


# the package's templates, compiled once a process (auto_reload off: no look at their files for every page)
ENV = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                  trim_blocks=True, lstrip_blocks=True, auto_reload=False)
_ONCE: dict[tuple[str, ...], Markup] = {}


def once(*key: str, caller: Callable[[], str]) -> Markup:
    """A template's ``{% call once(KEY...) %}...{% endcall %}`` block, rendered once a process for each key: for a
    part of a page that reads nothing of the request (the card picker, the list of examples), the key naming all
    it reads (its language, the spec folder). The same bytes as the block rendered each time."""
    got = _ONCE.get(key)
    if got is None:
        got = _ONCE[key] = Markup(caller())
    return got


ENV.globals["once"] = once
ENV.filters["bidi"] = lambda text: _isolated(str(text))
_CARD_CODE = re.compile(r"(?<![\w@.])(10|[2-9TJQKA])([CDHS])(?![\w@])")


def with_suits(text: object) -> str:
    """A ruling's text for players: card codes (``3H``, ``TD``) as the rank and the suit's symbol (``3♥``,
    ``10♦``); the command line and the JSON keep the codes."""
    return _CARD_CODE.sub(lambda m: card_symbol(parse_card(m.group(0))), str(text))


# a red card as the page shows it (10♥, A♦), or a red suit's symbol alone; on an Arabic page a red card named in
# words («ثلاثة الكبّة», the referee's words of spec/i18n/terms.toml [cards]; the Arabic names no code)
_RED_RANKS = "|".join(map(re.escape, sorted(terms()["cards"]["ranks"], key=len, reverse=True)))
_RED_SUITS_AR = "|".join(re.escape(terms()["cards"]["suits"][s]) for s in "HD")
_RED_SUIT = re.compile(rf"(?:(?<!\w)(?:10|[2-9JQKA]))?[♥♦]|(?:{_RED_RANKS}) (?:{_RED_SUITS_AR})")


def with_red_suits(text: object) -> Markup:
    """:func:`with_suits` for a page: the text escaped, each red card (``3♥``, ``10♦``) or red suit symbol in a
    ``<span class="red">`` (red in style.css); black suits keep the text colour."""
    plain = with_suits(text)
    out: list[str] = []
    last = 0
    for m in _RED_SUIT.finditer(plain):
        out += [escape(plain[last:m.start()]), Markup('<span class="red">%s</span>') % m.group(0)]
        last = m.end()
    out.append(escape(plain[last:]))
    return Markup("").join(out)


ENV.filters["suits"] = with_red_suits

# a left-to-right isolate of the referee's Arabic (tarneeb.ruling.arabic.ltr): a ruleset id, a clause id, a card,
# a formula
_LTR_RUN = re.compile("\u2066([^\u2066-\u2069]*)\u2069")


def with_isolates(text: object) -> Markup:
    """:func:`with_red_suits` for the referee's Arabic: each left-to-right isolate with no space in it (a ruleset
    id such as ``card-kings-41``, a clause id, a card, a formula, whose spaces are no-break ones) in a
    ``<bdi class="id" dir="ltr">``, which style.css never breaks (a phone broke "card-kings-41" at its hyphen); the
    isolate's own marks are kept around it (inside, they would split the element into several boxes), so the text
    reads as the command line prints it."""
    plain = str(text)
    out: list[Markup] = []
    last = 0
    for m in _LTR_RUN.finditer(plain):
        if " " in m.group(1):  # a run of words (a citation's English title): it may wrap as words do
            continue
        out += [with_red_suits(plain[last:m.start()]),
                Markup('\u2066<bdi class="id" dir="ltr">%s</bdi>\u2069') % with_red_suits(m.group(1))]
        last = m.end()
    out.append(with_red_suits(plain[last:]))
    return Markup("").join(out)


ENV.filters["isolates"] = with_isolates


def _lang(request: Request) -> str:
    lang = str(request.path_params.get("lang", "en"))
    if lang not in engine.LANGS:
        raise HTTPException(404)
    return lang


def _other(lang: str) -> str:
    return "ar" if lang == "en" else "en"


def page(request: Request, template: str, code: int = 200, **ctx: Any) -> HTMLResponse:
    """``template`` rendered in the request's language (English where the path names none it knows)."""
    if code < 400 and request.path_params.get("lang", "en") not in engine.LANGS:
        raise HTTPException(404)
    lang = _safe_lang(request)
    strings = STRINGS[lang]
    rest = request.url.path.split("/", 2)[2] if request.url.path.count("/") >= 2 else ""
    ctx.update(lang=lang, dir="rtl" if lang == "ar" else "ltr", t=strings, kind_label=lambda k: kind_label(lang, k),
               counted=lambda n, noun: counted(lang, int(n), noun),
               seat_name=lambda s: strings["seat_name"].format(n=int(s) + FIRST_SEAT[lang]),
               other_lang=_other(lang), other_url=f"/{_other(lang)}/{quote(rest)}", path=request.url.path,
               fits_of=lambda fits, n: _fits_of(strings, fits, int(n)),
               all_hands=lambda n: all_hands(lang, int(n)), any_hand=lambda n: any_hand(lang, int(n)),
               min_cause_hands=MIN_CAUSE_HANDS)
    return HTMLResponse(ENV.get_template(template).render(**ctx), status_code=code)


def _isolated(text: str) -> str:
    """``text`` (an id written in Latin letters) isolated from the sentence's direction (FSI ... PDI)."""
    return f"\u2068{text}\u2069"


def _fits_of(strings: dict[str, str], fits: list[dict[str, Any]], n: int) -> str:
    """The hypotheses of a diagnosis row with the hands each fits: "x (3 of 12), y (1 of 12)"."""
    return ", ".join(f"{_isolated(f['cause'])} ({strings['diag_of'].format(k=f['hands'], n=n)})" for f in fits)


async def limited_form(request: Request, limit: int) -> FormData:
    """The request's form, refusing a body larger than ``limit`` bytes (counted as it arrives, so a client that
    sends no Content-Length is held to the limit too)."""
    body = await limited_body(request, limit)

    async def decoded() -> FormData:
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        # a pasted text is a part of the form as a file is: held to the request's limit, not Starlette's 1 MiB a part
        return await Request(request.scope, replay).form(max_files=2, max_fields=200, max_part_size=limit)

    if len(body) > OFF_LOOP_FORM and request.headers.get("content-type", "").startswith(URLENCODED):
        form: FormData = await off_loop(request, lambda: asyncio.run(decoded()))  # the same, in a thread's own loop
        return form
    return await decoded()


URLENCODED = "application/x-www-form-urlencoded"
# bytes of a url-encoded form past which it is decoded off the event loop: a 1.7 MB record file pasted so takes
# 115 ms to decode (every quote and brace is written %XX), the same file sent as the pages' forms send it
# (multipart) 1 to 2 ms
OFF_LOOP_FORM = 64 * 1024


async def _upload(form: FormData, key: str) -> tuple[bytes, str] | None:
    f = form.get(key)
    if isinstance(f, UploadFile) and f.filename:
        return await f.read(), f.filename
    return None


def _fields(form: FormData) -> dict[str, str]:
    return {k: v for k, v in form.items() if isinstance(v, str)}


# ------------------------------------------------------------------ pages


async def root(request: Request) -> Response:
    """``/``: to the English pages."""
    return RedirectResponse("/en/", status_code=307)


async def home(request: Request) -> Response:
    """The home page."""
    return page(request, "home.html")


def _ruling_ctx(lang: str, fields: dict[str, str] | None = None, chosen: list[str] | None = None) -> dict[str, Any]:
    ids = [rid for rid, _ in engine.ruleset_list()]
    return {"rulesets": engine.ruleset_list(lang), "chosen": ids if chosen is None else chosen, "kinds": engine.KINDS,
            "irregularities": engine.IRREGULARITIES, "history_rows": HISTORY_ROWS, "kind_groups": KIND_GROUPS, "deck": engine.DECK,
            "f": fields or {}, "examples": engine.examples(), "examples_folder": engine.examples_folder()}


async def ruling_get(request: Request) -> Response:
    """The referee form (filled with a named example when ``?example=`` gives one)."""
    lang = _lang(request)
    ctx = _ruling_ctx(lang)
    name = request.query_params.get("example")
    if name:
        found = [e for e in ctx["examples"] if e.name == name]
        if not found:  # a link cut short or garbled: said so, not an empty form that looks like the answer
            return await made(request, "ruling.html", 404, error_lead=bad_example(lang, name), **ctx)
        ctx["f"] = {"situation_text": found[0].text}
    return await made(request, "ruling.html", **ctx)


def bad_example(lang: str, name: str) -> str:
    """What the referee page says for a link naming no example (``?example=`` cut short or garbled)."""
    # in Arabic text a Latin name is isolated and kept on one line (no break at its hyphens)
    shown = name[:80] if lang == "en" else "\u2066" + name[:80].replace("-", "\u2011") + "\u2069"
    return STRINGS[lang]["bad_example"].format(name=shown)


HEAVY_THREADS = 1  # threads of one process doing the heavy work (a ruling, a record check, a page) at a time


async def off_loop(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker thread, :data:`HEAVY_THREADS` at a time in this process (the others wait their
    turn without running): the event loop, which reads the requests and answers ``/healthz``, never runs the heavy
    work itself, and shares the interpreter with one such thread, not with one for every request in progress. A
    request past its time limit (:func:`bounded`) gives its turn up: its work, which no thread can stop, goes on
    beside the next one's."""
    state = request.app.state
    if getattr(state, "heavy", None) is None:  # made in the event loop (anyio's limiter needs one)
        state.heavy = CapacityLimiter(HEAVY_THREADS)
    return await to_thread.run_sync(fn, *args, limiter=state.heavy)


async def made(request: Request, template: str, code: int = 200, **ctx: Any) -> HTMLResponse:
    """:func:`page`, rendered off the event loop (:func:`off_loop`): the pages with the referee's form (about 40
    KB), a record check's or a ruleset's, each milliseconds of work."""
    response: HTMLResponse = await off_loop(request, lambda: page(request, template, code, **ctx))
    return response


class TooSlow(Exception):
    """A request's work outlasted the app's time limit."""


async def bounded(request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` off the event loop (:func:`off_loop`), given at most the app's ``seconds`` (waiting for its
    turn included); past it :class:`TooSlow`. (A thread cannot be stopped: the work goes on to its end in the
    background, which the bounds on every input keep short; the player gets the page at once.)"""
    try:
        return await asyncio.wait_for(off_loop(request, fn, *args), request.app.state.seconds)
    except TimeoutError:
        raise TooSlow from None


async def _too_slow(request: Request, template: str, lang: str, **ctx: Any) -> Response:
    seconds = f"{request.app.state.seconds:g}"
    return await made(request, template, 503, error_lead=STRINGS[lang]["too_slow"].format(seconds=seconds), **ctx)


async def ruling_post(request: Request) -> Response:
    """A ruling from the form, a pasted or an uploaded situation; the form again with the error when it fails."""
    lang = _lang(request)
    limit = request.app.state.max_upload
    try:
        form = await limited_form(request, limit)
    except TooLarge:
        return await made(request, "ruling.html", 413,
                          error_lead=STRINGS[lang]["too_large"].format(limit=_size(limit)), **_ruling_ctx(lang))
    fields = _fields(form)
    ids = [rid for rid, _ in engine.ruleset_list()]
    chosen = [str(v) for v in form.getlist("ruleset") if v in ids]
    ctx = _ruling_ctx(lang, fields, chosen)
    explain = bool(fields.get("explain"))
    try:
        upload = await _upload(form, "situation_file")
        if upload is not None or fields.get("situation_text", "").strip():
            if upload is not None:
                data, name = upload
                text = _decode(data, name)
            else:
                text, name = fields["situation_text"], "(pasted)"
            raw = engine.parse_situation_text(text, name)
            report = await bounded(request, engine.rule, raw, name, lang, explain)
        else:
            raw = situation_from_form(fields, chosen, ids, lang)
            report = await bounded(request, engine.rule, raw, "(form)", lang, explain)
    except engine.TarneebError as e:
        facts = engine.error_facts(e, lang)  # on an Arabic page, the facts to look at in Arabic words
        lead = STRINGS[lang]["error_facts"].format(facts="، ".join(facts)) if facts else STRINGS[lang]["error_detail"]
        return await made(request, "ruling.html", 400, error=str(e), error_lead=lead if lang == "ar" else None, **ctx)
    except TooSlow:
        return await _too_slow(request, "ruling.html", lang, **ctx)
    return await made(request, "ruling.html", report=report, explain=explain, **ctx)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise engine.SituationError(name, ["(file)"],
                                    f"not UTF-8 text (byte {e.start}); upload a .toml or .json file") from None


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n // 1024} KiB"


async def records_get(request: Request) -> Response:
    """The record-checking form."""
    return page(request, "records.html")


async def records_post(request: Request) -> Response:
    """The verification of pasted or uploaded records: divergences and summary."""
    lang = _lang(request)
    limit = request.app.state.max_upload
    try:
        form = await limited_form(request, limit)
    except TooLarge:
        return page(request, "records.html", 413, error_lead=STRINGS[lang]["too_large"].format(limit=_size(limit)))
    fields = _fields(form)
    upload = await _upload(form, "records_file")
    if upload is not None:
        data, name = upload
    else:
        data, name = fields.get("records_text", "").encode("utf-8"), "(pasted)"
    if not data.strip():
        return page(request, "records.html", 400, error_lead=STRINGS[lang]["no_records"], f=fields)
    too_long = engine.too_many_lines(data, name)
    if too_long is not None:
        return page(request, "records.html", 413, error=too_long, f=fields if upload is None else {},
                    error_lead=STRINGS[lang]["too_many_lines"].format(n=engine.MAX_RECORD_LINES))
    try:
        check = await bounded(request, engine.check_records, data, name, lang)
    except TooSlow:
        return await _too_slow(request, "records.html", lang, f=fields if upload is None else {})
    lead = error = None
    if check.summary["matches"] == 0 and check.summary["hands"] == 0:
        first = check.problems[0] if check.problems else None
        lead = STRINGS[lang]["not_records"]
        error = f"{first['file']}:{first['line']}: {first['field']}: {first['message']}" if first else name
    return await made(request, "records.html", 400 if lead else 200, check=check, name=name, error=error,
                      error_lead=lead, f=fields if upload is None else {})


async def rules_index(request: Request) -> Response:
    """The list of rulesets with their rule pages."""
    return page(request, "rules_index.html", rulesets=engine.ruleset_list(_lang(request)))


async def rules_page(request: Request) -> Response:
    """One ruleset's rule page (404 for a ruleset not served)."""
    lang = _lang(request)
    rid = str(request.path_params["rid"])
    if rid not in dict(engine.ruleset_list()):
        raise HTTPException(404)
    doc = await off_loop(request, engine.rule_page, rid, lang)
    return await made(request, "rules.html", doc=doc, cite=engine.cite, cite_ref=engine.cite_ref)


async def score_get(request: Request) -> Response:
    """The score sheet: the page's script keeps the sheets in the browser and asks :func:`score_post` after each
    entry."""
    return page(request, "score.html", **score_ctx(_lang(request)))


def score_ctx(lang: str) -> dict[str, Any]:
    """What the score page shows before its script runs: the rulesets to choose from, its own words (for the script)."""
    return {"rulesets": engine.ruleset_list(lang),
            "words": {k: v for k, v in STRINGS[lang].items() if k.startswith("score_")}}


async def score_slash(request: Request) -> Response:
    """``/{lang}/score``: to the page's folder (``/{lang}/score/``), where the offline site keeps it too."""
    return RedirectResponse(f"/{_lang(request)}/score/", status_code=307)


SCORE_MAX = 512 * 1024  # bytes of one request of the score page (a sheet of 500 hands is about 40 KB)


async def score_post(request: Request) -> Response:
    """The score page's question (JSON: its sheet and the hand being written) answered by
    :func:`tarneeb.serve.score.answer` as JSON; a request it cannot use is 400 with one sentence saying why."""
    lang = _lang(request)
    try:
        body = await limited_body(request, min(SCORE_MAX, request.app.state.max_upload))
    except TooLarge:
        return JSONResponse({"error": STRINGS[lang]["too_large"].format(limit=_size(SCORE_MAX))}, 413)
    try:
        req = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # not UTF-8 or JSON, too many digits, too deep
        return JSONResponse({"error": "the request is not JSON text the page sends"}, 400)
    if isinstance(req, dict):
        req["lang"] = lang
    try:
        out = await bounded(request, score.answer, req)
    except score.PageError as e:
        return JSONResponse({"error": e.message}, 400)
    except TooSlow:
        return JSONResponse({"error": STRINGS[lang]["too_slow"].format(seconds=f"{request.app.state.seconds:g}")},
                            503)
    return JSONResponse(out)


async def limited_body(request: Request, limit: int) -> bytes:
    """The request's body, refusing one larger than ``limit`` bytes (counted as it arrives)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def healthz(request: Request) -> Response:
    """A liveness check: ``ok``."""
    return Response("ok\n", media_type="text/plain")


# ------------------------------------------------------------------ errors


async def http_error(request: Request, exc: Exception) -> Response:
    """No such page (404, 405), or a request the framework could not read (400: a broken form body)."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    words = STRINGS[_safe_lang(request)]
    if status in (404, 405):
        return page(request, "error.html", status, message=words["not_found"], status=status)
    detail = exc.detail if isinstance(exc, HTTPException) else ""
    return page(request, "error.html", status, message=words["bad_request"], detail=detail, status=status)


async def client_gone(request: Request, exc: Exception) -> Response:
    """The client went away, or was cut off for sending its request too slowly (tarneeb.serve.slow), part-way through
    its body: no one is left to answer, and nothing went wrong here, so nothing is logged."""
    return Response(status_code=408)


async def server_error(request: Request, exc: Exception) -> Response:
    """Anything unexpected: logged, and a short page with status 500 (no traceback)."""
    log.error("error answering %s %s: %r", request.method, request.url.path, exc)
    return page(request, "error.html", 500, message=STRINGS[_safe_lang(request)]["server_error"], status=500)


def _safe_lang(request: Request) -> str:
    """The page's language: the route's, or, where no route matched (a 404), the path's first part when it names
    one (so /ar/nosuch answers in Arabic); English otherwise."""
    lang = request.path_params.get("lang") or request.url.path.lstrip("/").split("/", 1)[0]
    return lang if lang in engine.LANGS else "en"


def create_app(max_upload: int = DEFAULT_MAX_UPLOAD, seconds: float = DEFAULT_SECONDS) -> Starlette:
    """The ASGI app; ``max_upload`` caps the bytes of one posted form (the upload included), ``seconds`` the time
    a ruling or record check may take before its page says it was stopped (503)."""
    routes = [
        Route("/", root),
        Route("/healthz", healthz),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        Route("/{lang}/", home),
        Route("/{lang}/ruling", ruling_get, methods=["GET"]),
        Route("/{lang}/ruling", ruling_post, methods=["POST"]),
        Route("/{lang}/records", records_get, methods=["GET"]),
        Route("/{lang}/records", records_post, methods=["POST"]),
        Route("/{lang}/score/", score_get, methods=["GET"]),
        Route("/{lang}/score", score_slash),
        Route("/{lang}/score/api", score_post, methods=["POST"]),
        Route("/{lang}/rules/", rules_index),
        Route("/{lang}/rules/{rid}", rules_page),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, ClientDisconnect: client_gone,
                                                       Exception: server_error})
    app.state.max_upload = max_upload
    app.state.seconds = seconds
    return app


class QuietErrors:
    """Outermost ASGI wrapper: Starlette re-raises an unexpected error after :func:`server_error` has answered it
    with the 500 page and logged it in one line; stop it there, so the server's console gets no traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception:  # noqa: BLE001  (answered and logged already)
            return


MAX_UPLOAD_ENV = "TARNEEB_SERVE_MAX_UPLOAD"  # set by `tarneeb serve --workers N` for the worker processes it starts


def worker_app() -> ASGIApp:
    """The app of one worker process of ``tarneeb serve --workers N`` (uvicorn's factory: each worker builds its
    own, with the request size limit the command passed in ``TARNEEB_SERVE_MAX_UPLOAD``)."""
    return QuietErrors(create_app(max_upload=int(os.environ.get(MAX_UPLOAD_ENV, DEFAULT_MAX_UPLOAD))))
