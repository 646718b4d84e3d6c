"""The browser tests of the table's language (issue 27): the app served in one language (``companion --lang``),
switched to another by starting it again on the same data folder; and what a page shows, read from the semantics
tree Chromium exposes (each node's accessible name and its own text), so that the pseudo-language's ``⟦ ⟧`` can be
looked for in every label a player sees or a screen reader says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.i18n import Words
from tests.support import browser
from tests.support.browser import AppServer


class LanguageServer(AppServer):
    """:class:`~tests.support.browser.AppServer` with ``--lang``: :meth:`speak` starts it again in another
    language, on the same port and data folder."""

    def __init__(self, port: int, data_dir: Path, log_dir: Path, lang: str) -> None:
        super().__init__(port, data_dir, log_dir)
        self.lang = lang

    def start(self) -> browser.Served:
        plain = browser.companion_command
        browser.companion_command = lambda: [*plain(), "--lang", self.lang]  # read once, by AppServer.start
        try:
            return super().start()
        finally:
            browser.companion_command = plain

    def speak(self, lang: str) -> Words:
        """Serve the app in ``lang`` from now on; returns its words (to find controls by their labels)."""
        self.lang = lang
        self.restart()
        return Words.of(lang)


SHOWN = """() => [...document.querySelectorAll('flt-semantics')].flatMap(e => {
    const said = [];
    const label = (e.getAttribute('aria-label') || '').trim();
    if (label) said.push(label);
    for (const attr of ['aria-description', 'title', 'placeholder']) {
        const value = (e.getAttribute(attr) || '').trim();
        if (value) said.push(value);
    }
    const own = [...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE || (n.nodeType === Node.ELEMENT_NODE
        && !n.matches('flt-semantics, flt-semantics-container') && !n.querySelector('flt-semantics')))
        .map(n => n.textContent).join('').trim();
    if (own) said.push(own);
    for (const field of e.querySelectorAll('input, textarea')) {
        for (const attr of ['aria-label', 'placeholder']) {
            const value = (field.getAttribute(attr) || '').trim();
            if (value) said.push(value);
        }
    }
    return said;
})"""
"""JavaScript: every accessible name (``aria-label``), description and own text of the page's semantics nodes, and
the labels of its text fields: what a screen reader says and, Flutter drawing text on a canvas, what is shown."""


def shown(page: Any) -> list[str]:
    """What the page shows and says now (:data:`SHOWN`), each string once."""
    return list(dict.fromkeys(page.evaluate(SHOWN)))
