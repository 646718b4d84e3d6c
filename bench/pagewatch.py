"""Measuring the app in Chromium in the page's own clock: shared by the screen and tap-latency benchmarks.

A timing taken from the driver's side (Playwright's click, then waiting for a text) adds 30–75 ms of harness
overhead on this machine. Instead, an init script in every page of the context:

* notes the time of every ``pointerdown`` (``event.timeStamp``, in a capturing listener);
* wraps ``window.WebSocket`` to count the bytes and frames the page receives and sends;
* switches Flutter's semantics tree on as soon as Flutter offers it (so a reload needs no help from the driver);
* offers ``__bench.arm(pattern, differs)``: a ``MutationObserver`` on the semantics tree notes the first moment a
  node's label matches ``pattern`` (and differs from ``differs``), then the next animation frame (when it is
  painted); after a first look at every node, it reads only the nodes each batch of mutations touched.

A latency is then that painted moment minus the pointerdown, both ``performance.now()`` times of the page; a load
is the painted moment since the page's navigation started. Taps are ``page.mouse.click(x, y)`` at coordinates taken
beforehand, so the driver adds nothing inside the measured span.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the project's packages and its test helpers
    sys.path.insert(0, str(ROOT))

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, Served  # noqa: E402

START_TIMEOUT_S = 60.0
WAIT_TIMEOUT_MS = 60_000
QUIET_LIMIT_S = 5.0
"""After the label is painted, frames still arriving are counted with the tap for at most this long."""

INIT_SCRIPT = r"""
(() => {
  if (window.__bench) return;
  const B = window.__bench = {down: null, rx: 0, rxFrames: 0, tx: 0, txFrames: 0, hit: null, painted: null,
                              label: null, observer: null, frames: [], drawn: [], sent: [], lastAt: 0};
  addEventListener('pointerdown', (e) => { B.down = e.timeStamp; }, true);
  const size = (d) => (d && (d.byteLength ?? d.size ?? d.length)) || 0;
  const Native = window.WebSocket;
  class Counted extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        const at = performance.now();
        B.rx += size(ev.data); B.rxFrames += 1; B.frames.push([Math.round(at), size(ev.data)]); B.lastAt = at;
        // the frame after this message: the next animation frame, once its callbacks (Flutter's drawing) are done
        requestAnimationFrame(() => setTimeout(() => { B.drawn.push([at, performance.now()]); }, 0));
      });
    }
    send(data) {
      B.tx += size(data); B.txFrames += 1; B.sent.push([performance.now(), size(data)]);
      return super.send(data);
    }
  }
  window.WebSocket = Counted;
  const semanticsOn = window.__benchNoSemantics ? null : setInterval(() => {
    const placeholder = document.querySelector('flt-semantics-placeholder');
    if (placeholder) { placeholder.click(); clearInterval(semanticsOn); }
  }, 5);
  // A node's own label: its aria-label, else its own text (a leaf's text, or its direct <span> children's).
  const labelOf = (node) => {
    const aria = node.getAttribute('aria-label');
    if (aria) return aria.trim();
    let text = '';
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue;
      else if (child.nodeName === 'SPAN') text += child.textContent;
    }
    return text.trim();
  };
  B.labels = (pattern) => {
    const re = new RegExp(pattern);
    return [...document.querySelectorAll('flt-semantics')].map(labelOf).filter((l) => re.test(l));
  };
  // Buttons matching a label pattern: their label, centre and whether they are greyed out.
  B.buttons = (pattern) => {
    const re = new RegExp(pattern);
    const out = [];
    for (const node of document.querySelectorAll('flt-semantics[role=button]')) {
      let label = labelOf(node);
      if (!label && node.parentElement) label = (node.parentElement.getAttribute('aria-label') || '').trim();
      if (!re.test(label)) continue;
      const box = node.getBoundingClientRect();
      out.push({label, x: box.x + box.width / 2, y: box.y + box.height / 2,
                disabled: node.getAttribute('aria-disabled') === 'true'});
    }
    return out;
  };
  // The semantics nodes a batch of mutations touched: the node of each changed attribute, text or list of
  // children, and each node added (with the nodes under it).
  const touched = (records) => {
    const nodes = new Set();
    for (const r of records) {
      const el = r.target.nodeType === Node.ELEMENT_NODE ? r.target : r.target.parentElement;
      const own = el && el.closest('flt-semantics');
      if (own) nodes.add(own);
      for (const added of r.addedNodes) {
        if (added.nodeType !== Node.ELEMENT_NODE) continue;
        if (added.matches('flt-semantics')) nodes.add(added);
        for (const inner of added.querySelectorAll('flt-semantics')) nodes.add(inner);
      }
    }
    return nodes;
  };
  // Watch for a label matching `pattern` that is not one of `differs` (a label, or a list of them). The first look
  // reads every node; after it, each batch of mutations reads only the nodes it touched, so the watching, which
  // runs inside the measured span, costs the same on the app's page as on the trivial app's, whose tree is a
  // tenth of its size (reading every node on every batch took 1-3 ms of a throttled tap on the app's page).
  B.arm = (pattern, differs) => {
    if (B.observer) B.observer.disconnect();
    const re = new RegExp(pattern);
    const old = new Set(differs === null || differs === undefined ? [] : [].concat(differs));
    B.hit = null; B.painted = null; B.label = null;
    const check = (nodes) => {
      for (const node of nodes) {
        const label = labelOf(node);
        if (re.test(label) && !old.has(label)) {
          B.hit = performance.now(); B.label = label;
          B.observer.disconnect(); B.observer = null;
          requestAnimationFrame(() => { B.painted = performance.now(); });
          return true;
        }
      }
      return false;
    };
    B.observer = new MutationObserver((records) => check(touched(records)));
    B.observer.observe(document, {subtree: true, childList: true, attributes: true,
                                                  characterData: true});
    check(document.querySelectorAll('flt-semantics'));
  };
})();
"""


def progress(text: str) -> None:
    """A progress line on standard error (the figures go to standard output)."""
    print(f"  [{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def add_busy_option(parser: argparse.ArgumentParser) -> None:
    """A benchmark's ``--busy N``: the processes :func:`busy_cores` keeps spinning beside its run."""
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        help="processes kept busy beside the run (2: two busy cores, as on CI's machine beside the tests)",
    )


@contextmanager
def busy_cores(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes spinning a core each while the benchmark runs (none for 0): the load of CI's machine,
    whose two cores the tests keep busy. Stopped when the block ends, however it ends."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield spinners
    finally:
        for one in spinners:
            one.kill()
            one.wait()


def load_average() -> str:
    """The machine's load average (1, 5, 15 min), to read beside every figure."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def stop_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit, so that a stopped benchmark still stops the servers it started."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def app_server(port: int, data_dir: Path, log: Path, root: Path = ROOT, probe: Path | None = None) -> Served:
    """The real app: ``python -m app --port P --data-dir D --no-browser`` (the ``companion`` command), from the
    checkout at ``root`` (by default this one); with ``probe``, served through :mod:`bench.serverprobe`, which
    writes each event's handler time (wall and CPU) and each message's size to that file."""
    args = ["--port", str(port), "--data-dir", str(data_dir), "--no-browser"]
    through = [str(Path(__file__).with_name("serverprobe.py")), "--log", str(probe), "--tree", str(root)]
    return Served(
        [sys.executable, *(through if probe is not None else []), *(["app", "--"] if probe else ["-m", "app"]), *args],
        port,
        log,
        START_TIMEOUT_S,
        cwd=root,
    )


def trivial_server(port: int, log: Path, probe: Path | None = None) -> Served:
    """The trivial app of :mod:`bench.trivial_app`; with ``probe``, served through :mod:`bench.serverprobe` as
    :func:`app_server` serves the app."""
    through = [str(Path(__file__).with_name("serverprobe.py")), "--log", str(probe), "--tree", str(ROOT)]
    module = [*through, "bench.trivial_app", "--"] if probe is not None else ["-m", "bench.trivial_app"]
    return Served([sys.executable, *module, "--port", str(port)], port, log, START_TIMEOUT_S, cwd=ROOT)


def launch(playwright: Any) -> Any:
    """Headless Chromium (Debian's package), as the browser tests launch it."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


def watched_page(browser: Any, viewport: dict[str, int] | None = None, *, semantics: bool = True) -> Any:
    """A page in a context of its own, with the measuring init script; with ``semantics=False`` Flutter's
    semantics tree stays off (as for a player without a screen reader): measure it with :func:`tap_drawn`."""
    context = browser.new_context(viewport=viewport or PHONE, device_scale_factor=1)
    context.set_default_timeout(WAIT_TIMEOUT_MS)
    if not semantics:
        context.add_init_script("window.__benchNoSemantics = true;")
    context.add_init_script(INIT_SCRIPT)
    return context.new_page()


def tap_drawn(page: Any, xy: tuple[float, float], quiet_ms: int = 120) -> Sample:
    """Tap at ``xy`` and measure, with no semantics needed, until the frame after the first WebSocket message the
    page receives after the tap (the message that carries the change) is drawn."""
    before = counters(page)
    page.evaluate("() => { __bench.drawn.length = 0; __bench.frames.length = 0; __bench.sent.length = 0; }")
    page.mouse.click(*xy)
    page.wait_for_function(
        "() => __bench.down !== null && __bench.drawn.some(([at]) => at >= __bench.down)", timeout=WAIT_TIMEOUT_MS
    )
    wait_quiet(page, quiet_ms)
    got = page.evaluate(
        "() => ({down: __bench.down, drawn: __bench.drawn.splice(0), frames: __bench.frames.splice(0)})"
    )
    after = counters(page)
    down = float(got["down"])
    answer = sorted((float(a), float(d)) for a, d in got["drawn"] if float(a) >= down)
    at, drawn = answer[0]
    return Sample(
        ms=drawn - down,
        seen_ms=at - down,
        rx_bytes=after["rx"] - before["rx"],
        rx_frames=after["rxFrames"] - before["rxFrames"],
        tx_bytes=after["tx"] - before["tx"],
        tx_frames=after["txFrames"] - before["txFrames"],
        label="",
        server_ms=at - down,
        client_ms=drawn - at,
        settled_ms=answer[-1][1] - down,
    )


@dataclass(frozen=True)
class Sample:
    """One measured span: milliseconds in the page's clock and what went over the WebSocket meanwhile."""

    ms: float
    """Pointerdown (or navigation start) → the expected label painted."""
    seen_ms: float
    """... → the label in the semantics tree (before the paint)."""
    rx_bytes: int
    """Bytes the page received (server → page)."""
    rx_frames: int
    tx_bytes: int
    tx_frames: int
    label: str
    server_ms: float = float("nan")
    """Pointerdown → the first WebSocket message back (the tap's event sent, handled on the server, the answer on
    its way): the server's share, with the loopback network."""
    client_ms: float = float("nan")
    """The last WebSocket message before the label appeared → the label painted: the page's share (decode, build,
    layout, paint)."""
    out_ms: float = float("nan")
    """Pointerdown → the tap's first WebSocket message out: the page's share before the server hears of it."""
    settled_ms: float = float("nan")
    """Pointerdown → the frame after the last message of the tap's answer (its reply and what follows it, a message
    after the reply included, until the page is quiet): with semantics off only (:func:`tap_drawn`)."""


def wait_quiet(page: Any, quiet_ms: int) -> None:
    """Wait until no WebSocket frame arrived for ``quiet_ms`` (at most :data:`QUIET_LIMIT_S`): the rest of an answer
    (a second redraw) is counted with the tap that caused it."""
    last, deadline = -1, time.monotonic() + QUIET_LIMIT_S
    while time.monotonic() < deadline:
        page.wait_for_timeout(quiet_ms)
        now = counters(page)["rxFrames"]
        if now == last:
            break
        last = now


def counters(page: Any) -> dict[str, int]:
    result: dict[str, int] = page.evaluate(
        "() => ({rx: __bench.rx, rxFrames: __bench.rxFrames, tx: __bench.tx, txFrames: __bench.txFrames})"
    )
    return result


def arm(page: Any, pattern: str, differs: str | Sequence[str] | None = None) -> dict[str, int]:
    """Start watching for a label matching ``pattern`` (other than ``differs``: one label or several); returns the
    counters now."""
    before = counters(page)
    page.evaluate("([p, d]) => __bench.arm(p, d)", [pattern, differs])
    return before


def settled(page: Any, before: dict[str, int], *, since: str = "down", quiet_ms: int = 120) -> Sample:
    """Wait for the armed label to be painted, then for the WebSocket to be quiet, and return the sample.

    ``since`` is ``"down"`` (the last pointerdown) or ``"load"`` (the page's navigation start, time 0)."""
    page.wait_for_function("() => __bench.painted !== null", timeout=WAIT_TIMEOUT_MS)
    # the rest of the answer may still be arriving (a second redraw): count it with this tap
    wait_quiet(page, quiet_ms)
    got = page.evaluate(
        "() => ({down: __bench.down, hit: __bench.hit, painted: __bench.painted, label: __bench.label,"
        " frames: __bench.frames.splice(0), sent: __bench.sent.splice(0)})"
    )
    after = counters(page)
    start = 0.0 if since == "load" else float(got["down"])
    times = [float(at) for at, _ in got["frames"] if start <= float(at) <= float(got["hit"]) + 1]
    out = [float(at) for at, _ in got["sent"] if float(at) >= start]
    return Sample(
        server_ms=(times[0] - start) if times else float("nan"),
        client_ms=(float(got["painted"]) - times[-1]) if times else float("nan"),
        out_ms=(min(out) - start) if out else float("nan"),
        ms=float(got["painted"]) - start,
        seen_ms=float(got["hit"]) - start,
        rx_bytes=after["rx"] - before["rx"],
        rx_frames=after["rxFrames"] - before["rxFrames"],
        tx_bytes=after["tx"] - before["tx"],
        tx_frames=after["txFrames"] - before["txFrames"],
        label=str(got["label"]),
    )


def centre(page: Any, locator: Any) -> tuple[float, float]:
    """The centre of ``locator``'s first match, in page coordinates (waited for)."""
    first = locator.first
    first.wait_for(state="attached")
    box = first.bounding_box()
    if box is None:
        raise RuntimeError(f"{locator} has no box on screen")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def labels(page: Any, pattern: str) -> list[str]:
    """The labels in the semantics tree matching ``pattern`` now."""
    found: list[str] = page.evaluate("(p) => __bench.labels(p)", pattern)
    return found


def buttons(page: Any, pattern: str) -> list[dict[str, Any]]:
    """The buttons whose label matches ``pattern``: ``label``, centre ``x``/``y`` and ``disabled``."""
    found: list[dict[str, Any]] = page.evaluate("(p) => __bench.buttons(p)", pattern)
    return found


UNMEASURED_QUIET_MS = 20
"""How long the page must stay quiet after a tap that is not measured before the next tap."""


def advance(page: Any, button: str, prompt: str) -> tuple[float, float]:
    """A tap that is not measured, with as few round trips to the browser as can be: tap the first enabled button
    whose label matches ``button`` (waited for), then wait until the labels matching ``prompt`` changed and no
    WebSocket message came for :data:`UNMEASURED_QUIET_MS`. Returns where it tapped."""
    deadline = time.monotonic() + WAIT_TIMEOUT_MS / 1000
    while True:
        got = page.evaluate(
            "([b, p]) => ({found: __bench.buttons(b).filter((x) => !x.disabled)[0] || null,"
            " before: __bench.labels(p)})",
            [button, prompt],
        )
        if got["found"] is not None:
            break
        if time.monotonic() > deadline:
            raise RuntimeError(f"no enabled button labelled {button!r} on the page")
        page.wait_for_timeout(50)
    xy = (float(got["found"]["x"]), float(got["found"]["y"]))
    page.mouse.click(*xy)
    page.wait_for_function(
        """([p, old, q]) => {
          const now = __bench.labels(p);
          const moved = now.length !== old.length || now.some((label, i) => label !== old[i]);
          return moved && performance.now() - __bench.lastAt >= q;
        }""",
        arg=[prompt, got["before"], UNMEASURED_QUIET_MS],
        timeout=WAIT_TIMEOUT_MS,
    )
    return xy


def click_drawn(page: Any, xy: tuple[float, float]) -> None:
    """A tap that is not measured, on a page without semantics: tap at ``xy``, then wait for the frame after the
    first WebSocket message it brings and :data:`UNMEASURED_QUIET_MS` without one."""
    page.evaluate("() => { __bench.drawn.length = 0; }")
    page.mouse.click(*xy)
    page.wait_for_function(
        """(q) => __bench.down !== null && __bench.drawn.some(([at]) => at >= __bench.down)
                  && performance.now() - __bench.lastAt >= q""",
        arg=UNMEASURED_QUIET_MS,
        timeout=WAIT_TIMEOUT_MS,
    )


def tap_until_changed(page: Any, xy: tuple[float, float], pattern: str, quiet_ms: int = 80) -> Sample:
    """Tap at ``xy`` and measure until a label matching ``pattern`` that was not there before is painted (the
    prompt moved on, a new standings line...)."""
    before = arm(page, pattern, labels(page, pattern))
    page.mouse.click(*xy)
    return settled(page, before, quiet_ms=quiet_ms)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain text table, columns padded, numbers right-aligned; with no rows, its headers alone.

    >>> print_table(["tap", "n"], [])
    tap  n
    ---  -
    """
    widths = [max([len(str(h)), *(len(str(r[i])) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        out = []
        for i, cell in enumerate(cells):
            text = str(cell)
            out.append(text.ljust(widths[i]) if i == 0 else text.rjust(widths[i]))
        return "  ".join(out)

    print(line(headers))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))
