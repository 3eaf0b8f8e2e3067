"""``tarneeb site OUT``: the offline site written to a folder, ready for any static host.

The folder holds

* the pages (:func:`tarneeb.offline.pages.static_pages`), each ``index.html`` in its own folder
  (``en/ruling/``, ``ar/rules/classic/``), and ``index.html`` at the top, which opens the start page in the
  browser's language (Arabic or English), or the referee page for a ruling's link (``#s=``);
* ``static/``: the web referee's stylesheet and scripts, and the site's own (``offline.js`` starts Pyodide and
  answers the forms in the page; ``offline.css``);
* ``engine.zip``: the engine's Python files (not the command line), the spec it reads, the web referee's
  templates, and Jinja2 and MarkupSafe (pure Python), unpacked by the page into Pyodide's file system;
* ``pyodide/``: the files of the npm package ``pyodide`` the page needs (the runtime, its WebAssembly, the
  standard library), nothing fetched from another host; its package list cut to none (no package is loaded);
* ``sw.js``: the service worker that caches every file of the site on the first visit (:data:`SW_NAME`), so the
  site then opens and rules with the network off; its cache is named after a hash of the files, so a new build
  replaces the old one.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from tarneeb.core.spec import spec_dir
from tarneeb.errors import BadInput
from tarneeb.offline.pages import static_pages

HERE = Path(__file__).parent
ENGINE = HERE.parent  # the tarneeb package
SW_NAME = "sw.js"
ZIP_NAME = "engine.zip"
NPM_COMMAND = "npm install --no-save pyodide@314.0.8"  # the version the site is tested with (.ci/run)
# the files of the npm package the page loads: the loader, the runtime and its WebAssembly, the standard library
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
SKIP_ENGINE = ("cli",)  # the command line: not run in the browser
SKIP_SPEC = ("vectors", "protocol")  # test vectors and the protocol's prose: not read by the referee
VENDORED = ("jinja2", "markupsafe")  # the templates' engine, pure Python (MarkupSafe's C speed-up left out)
_FIXED_TIME = (2020, 1, 1, 0, 0, 0)


class PyodideMissing(BadInput):
    """The npm package pyodide was not found where the site build looks."""


@dataclass(frozen=True)
class Built:
    out: Path
    files: dict[str, int]  # site path -> bytes
    version: str  # the cache's name (a hash of the files)

    @property
    def total(self) -> int:
        """Bytes of the whole site: what the first visit fetches (the service worker caches every file)."""
        return sum(self.files.values())


def find_pyodide(given: Path | None = None, start: Path | None = None) -> Path:
    """The folder of the npm package pyodide: ``given``; else ``node_modules/pyodide`` in ``start`` (the current
    folder) or a folder above it, or beside the engine's source tree. :class:`PyodideMissing` names the npm
    command otherwise."""
    if given is not None:
        candidates = [given, given / "node_modules" / "pyodide"]
    else:
        here = (start or Path.cwd()).resolve()
        roots = [here, *here.parents, *ENGINE.resolve().parents]
        candidates = [r / "node_modules" / "pyodide" for r in dict.fromkeys(roots)]
    for c in candidates:
        if all((c / f).is_file() for f in PYODIDE_FILES):
            return c
    where = str(given) if given is not None else "node_modules/pyodide (here, above, or beside the source tree)"
    missing = [f for f in PYODIDE_FILES if not (candidates[0] / f).is_file()]
    raise PyodideMissing(f"the npm package pyodide is not in {where} (missing {', '.join(missing)}): run "
                         f"`{NPM_COMMAND}` in the repository, or give --pyodide DIR")


def engine_zip() -> bytes:
    """The zip Pyodide unpacks: the engine's Python files and templates, the spec as ``tarneeb/specdata``, and
    the vendored pure-Python packages; the same bytes for the same files (fixed times, sorted)."""
    entries: dict[str, bytes] = {}
    for p in sorted(ENGINE.rglob("*")):
        rel = p.relative_to(ENGINE)
        if not p.is_file() or rel.parts[0] in SKIP_ENGINE or "__pycache__" in rel.parts or rel.parts[0] == "specdata":
            continue
        if p.suffix == ".py" or (rel.parts[0] == "serve" and rel.parts[1] == "templates"):
            entries[f"tarneeb/{rel.as_posix()}"] = p.read_bytes()
    spec = spec_dir()
    for p in sorted(spec.rglob("*")):
        rel = p.relative_to(spec)
        if p.is_file() and rel.parts[0] not in SKIP_SPEC and p.suffix in (".toml", ".json", ".md"):
            entries[f"tarneeb/specdata/{rel.as_posix()}"] = p.read_bytes()
    entries.setdefault("tarneeb/specdata/__init__.py", b"")
    for name in VENDORED:
        root = Path(str(import_module(name).__file__)).parent
        for p in sorted(root.rglob("*.py")):
            if "__pycache__" not in p.parts:
                entries[f"{name}/{p.relative_to(root).as_posix()}"] = p.read_bytes()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in sorted(entries.items()):
            z.writestr(zipfile.ZipInfo(name, _FIXED_TIME), data, zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def _head(html: str, page: str) -> str:
    """A page with the site's own stylesheet and script (which registers the service worker and, on the
    referee and record pages, answers the forms in the page)."""
    root = "../" * page.count("/")
    tags = ('<link rel="icon" href="data:,">\n'  # no icon: a browser asks no server for /favicon.ico
            f'<link rel="stylesheet" href="{root}static/offline.css">\n'
            f'<script src="{root}static/offline.js" data-root="{root}" defer></script>\n')
    return html.replace("</head>", tags + "</head>", 1)


TOP = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tarneeb referee</title>
<script>/* the reader's language; a ruling's link (#s=) opens on the referee page */
var lang = (navigator.language || "").slice(0, 2) === "ar" ? "ar/" : "en/";
location.replace(lang + (/^#s=/.test(location.hash) ? "ruling/" + location.hash : ""));</script>
<meta http-equiv="refresh" content="1; url=en/"></head>
<body><p><a href="en/">Tarneeb referee</a> · <a href="ar/" lang="ar" dir="rtl">حَكَم الطرنيب</a></p></body></html>
"""


def build_site(out: Path, pyodide: Path | None = None) -> Built:
    """Write the site into ``out`` (created; files of an earlier build are replaced)."""
    src = find_pyodide(pyodide)
    pages = static_pages()
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {"index.html": TOP.encode("utf-8")}
    for page, html in pages.items():
        files[f"{page}index.html"] = _head(html, page).encode("utf-8")
    for p in sorted((ENGINE / "serve" / "static").iterdir()):
        if p.suffix in (".css", ".js"):
            files[f"static/{p.name}"] = p.read_bytes()
    for name in ("offline.js", "offline.css"):
        files[f"static/{name}"] = (HERE / "static" / name).read_bytes()
    files[ZIP_NAME] = engine_zip()
    for name in PYODIDE_FILES:
        data = (src / name).read_bytes()
        if name == "pyodide-lock.json":  # no package is loaded: the list of Pyodide's packages is not needed
            data = json.dumps({"info": json.loads(data)["info"], "packages": {}}).encode("utf-8")
        files[f"pyodide/{name}"] = data
    digest = hashlib.sha256()
    for name, data in sorted(files.items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    version = "tarneeb-" + digest.hexdigest()[:16]
    urls = sorted(("./" if n == "index.html" else n.removesuffix("index.html")) for n in files)
    sw = (HERE / "static" / SW_NAME).read_text(encoding="utf-8")
    files[SW_NAME] = (sw.replace('"__VERSION__"', json.dumps(version))
                      .replace('["__FILES__"]', json.dumps(urls, indent=0))).encode("utf-8")
    for name, data in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return Built(out, {n: len(d) for n, d in files.items()}, version)

