"""Texts in a language other than English, below every package that writes them (the rule pages of
:mod:`tarneeb.docgen`, the referee's Arabic of :mod:`tarneeb.ruling`, the web pages of :mod:`tarneeb.serve`).

* :mod:`tarneeb.i18n.tables` -- the translation tables of ``spec/i18n`` (:func:`~tarneeb.i18n.tables.tr`, a
  clause's statement in a language);
* :mod:`tarneeb.i18n.arabic` -- Arabic: the vocabulary of ``spec/i18n/terms.toml`` and right-to-left layout.

They import only :mod:`tarneeb.core` and :mod:`tarneeb.errors`.
"""
