"""The web app's event loop stays free while pages are made: ``/healthz`` answers while the
workers are busy; the heavy work of a request, its page included, runs off the loop, so a health check is
answered while another request's page is still being made.

No timing is asserted: each test holds one piece of work (a page being rendered, a large form being decoded) until
``/healthz`` has answered, and fails if the work was still held when the health check was answered, which it
cannot be on the loop (the loop would be blocked until the hold gives up)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.serve_support import app_client, record_lines

ROOT = Path(__file__).resolve().parents[1]
GIVE_UP = 30.0  # seconds a held piece of work waits for the test before going on without it (a failing run)
SITUATION = (ROOT / "spec" / "disputes" / "bid-out-of-turn-41.toml").read_text(encoding="utf-8")


class Hold:
    """One piece of work held until :meth:`release`: ``reached`` is set when the work gets there, ``released``
    holds whether the test released it (True) or the hold gave up (False)."""

    def __init__(self) -> None:
        self.reached, self._go = threading.Event(), threading.Event()
        self.released: list[bool] = []

    def wait(self) -> None:
        self.reached.set()
        self.released.append(self._go.wait(GIVE_UP))

    def release(self) -> None:
        self._go.set()


@contextmanager
def healthz_while_held(hold: Hold, post: Callable[[Any], Any]) -> Iterator[dict[str, Any]]:
    """``post(client)`` in a thread; once it reaches ``hold``, ``/healthz`` asked; then the hold released. Yields
    the answers: ``health`` (the health check's status) and ``post`` (the held request's response)."""
    out: dict[str, Any] = {}
    with app_client() as c:
        t = threading.Thread(target=lambda: out.__setitem__("post", post(c)))
        t.start()
        try:
            assert hold.reached.wait(GIVE_UP), "the request never reached the held work"
            out["health"] = c.get("/healthz").status_code
        finally:
            hold.release()
            t.join(GIVE_UP)
        yield out


@pytest.mark.parametrize("kind", ["ruling", "records"])
def test_healthz_answers_while_a_page_is_being_made(kind: str, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    from tarneeb.serve import app

    hold, real = Hold(), app.ENV.get_template
    template = f"{kind}.html"

    def get_template(name: str, *a: Any, **k: Any) -> Any:
        found = real(name, *a, **k)
        if name != template:
            return found

        class Held:
            def render(self, **ctx: Any) -> str:
                hold.wait()
                return found.render(**ctx)

        return Held()

    monkeypatch.setattr(app.ENV, "get_template", get_template)
    data = ({"situation_text": SITUATION} if kind == "ruling"
            else {"records_text": "\n".join(record_lines(tmp_path)) + "\n"})
    with healthz_while_held(hold, lambda c: c.post(f"/en/{kind}", data=data)) as out:
        pass
    assert out["health"] == 200 and out["post"].status_code == 200, out
    assert hold.released == [True], "/healthz was answered only once the page had been made"


def test_healthz_answers_while_a_large_urlencoded_form_is_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    # a record file pasted by a script as a url-encoded form: 1.7 MB took 115 ms to decode, on the loop
    from starlette.formparsers import FormParser

    hold, real = Hold(), FormParser.parse

    async def parse(self: FormParser) -> Any:
        hold.wait()  # blocks whichever loop runs the decoding
        return await real(self)

    monkeypatch.setattr(FormParser, "parse", parse)
    text = '{"type": "note", "x": "' + "y" * 200_000 + '"}\n'  # 200 KB: past tarneeb.serve.app.OFF_LOOP_FORM
    with healthz_while_held(hold, lambda c: c.post("/en/records", data={"records_text": text})) as out:
        pass
    assert out["health"] == 200 and out["post"].status_code == 400, out  # a note is not a record file
    assert hold.released == [True], "/healthz was answered only once the form had been decoded"
