"""``tarneeb serve``: the referee as a local web app (optional extra ``serve``: starlette, uvicorn, jinja2,
python-multipart).

* :mod:`tarneeb.serve.engine` -- the one module that calls the engine (rulings, record checks, rule pages);
* :mod:`tarneeb.serve.form` -- the referee form's fields as a situation table;
* :mod:`tarneeb.serve.score` -- the score sheet's questions answered (the sheet replayed, the hand being written);
* :mod:`tarneeb.serve.strings` -- the pages' own words in English and Arabic;
* :mod:`tarneeb.serve.app` -- the Starlette app (:func:`~tarneeb.serve.app.create_app`) and its templates.

The engine never imports this package; :mod:`tarneeb.cli.serve` imports it only when the command runs.
"""
