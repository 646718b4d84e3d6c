"""The benchmarks' watch for a label (:mod:`bench.pagewatch`, ``__bench.arm``), in Chromium, on a page of
``flt-semantics`` nodes as Flutter's web engine writes them: a label that appears in any of the ways a semantics
update brings one is found, whichever node it is on, and a label that was there before, or a change elsewhere, is
not. The watch reads only the nodes each batch of mutations touched, so each way a label can change is tried."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench.pagewatch import watched_page
from tests.support.browser import close_context

pytestmark = pytest.mark.browser

TREE = """
<flt-semantics-host>
  <flt-semantics id="prompt" aria-label="Next: Ann's card"></flt-semantics>
  <flt-semantics id="title"><span>Hand 1</span></flt-semantics>
  <flt-semantics-container id="box">
    <flt-semantics id="card" role="button">A♠</flt-semantics>
  </flt-semantics-container>
</flt-semantics-host>
"""


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    page = watched_page(browser, semantics=False)  # no Flutter here: nothing to switch on
    try:
        page.set_content(TREE)
        assert page.evaluate("() => typeof __bench.arm") == "function"
        yield page
    finally:
        close_context(page.context)


def found(page: Any, pattern: str, change: str, differs: Any = None) -> str | None:
    """Arm the watch for ``pattern`` (not ``differs``), make ``change`` (a script), and return the label it found
    once that frame is painted, or ``None`` if none was found."""
    page.evaluate("([p, d]) => __bench.arm(p, d)", [pattern, differs])
    page.evaluate(change)  # the observer's batch runs as this script's task ends: a label found is noted by then
    if page.evaluate("() => __bench.hit") is None:
        return None
    page.wait_for_function("() => __bench.painted !== null")  # the frame after it, however busy the machine
    got = page.evaluate("() => ({label: __bench.label, hit: __bench.hit, painted: __bench.painted})")
    assert got["painted"] >= got["hit"], got
    return str(got["label"])


def test_the_watch_finds_a_label_however_it_comes(tab: Any) -> None:
    at_once = "Next: Ann's card"
    assert found(tab, "^Next: ", "() => 0", differs=at_once) is None, "the label there before is not news"
    assert found(tab, "^Next: ", "() => 0") == at_once, "a label already there when armed is found at once"
    attribute = "() => document.getElementById('prompt').setAttribute('aria-label', 'Next: Ben\\'s card')"
    assert found(tab, "^Next: ", attribute, differs=at_once) == "Next: Ben's card"
    text = "() => { document.querySelector('#title span').firstChild.nodeValue = 'Hand 2'; }"
    assert found(tab, "^Hand 2$", text) == "Hand 2", "a text changed inside a node's span"
    own_text = "() => { document.getElementById('card').firstChild.nodeValue = 'K♠'; }"
    assert found(tab, "^K♠$", own_text) == "K♠", "a node's own text changed"
    added = """() => {
      const outer = document.createElement('div');
      outer.innerHTML = '<flt-semantics-container><flt-semantics aria-label="1. Ann: 7 points"></flt-semantics>'
        + '</flt-semantics-container>';
      document.getElementById('box').appendChild(outer);
    }"""
    assert found(tab, r"^\d+\. Ann: ", added) == "1. Ann: 7 points", "a node added deep inside another element"
    span = """() => {
      const span = document.createElement('span'); span.textContent = ' done';
      document.getElementById('title').appendChild(span);
    }"""
    assert found(tab, "^Hand 2 done$", span) == "Hand 2 done", "a span added to a node"
    elsewhere = "() => document.getElementById('card').setAttribute('aria-disabled', 'true')"
    assert found(tab, "^Next: Cat", elsewhere) is None, "a change that brings no such label"
