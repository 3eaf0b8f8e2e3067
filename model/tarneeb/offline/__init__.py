"""The offline site (``tarneeb site OUT``): the rule pages and the web referee as static files, answering in the
browser with the engine itself under Pyodide, cached by a service worker for use without a network.

* :mod:`tarneeb.offline.pages` -- the pages, rendered by the web referee's templates; the browser's requests
  answered (runs in CPython and in Pyodide);
* :mod:`tarneeb.offline.build` -- the site written to a folder: the pages, the engine's zip, Pyodide's files, the
  service worker (CPython only).
"""
