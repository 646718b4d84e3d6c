"""The benchmark harness's own logic (no browser): which benchmarks run, the trivial app, percentiles."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, cast

import flet as ft

import bench.__main__ as runner
from bench import trivial_app
from bench.pagewatch import busy_cores, percentile
from bench.screens_bench import options as screens_options


def test_the_tap_latency_benchmark_runs_only_when_asked(monkeypatch: Any) -> None:
    ran: list[str] = []

    class Module:
        def __init__(self, name: str) -> None:
            self.name = name

        def main(self) -> None:
            ran.append(self.name)

    monkeypatch.setattr(runner.importlib, "import_module", Module)
    assert runner.main(["scoring"]) == 0 and ran == ["bench.scoring_bench"]
    ran.clear()
    assert runner.main(["scoring", "--taps"]) == 0 and ran == ["bench.scoring_bench", "bench.tap_latency"]
    assert "bench.tap_latency" not in runner.bench_modules(None), "not in the default run"
    assert "bench.screens_bench" in runner.bench_modules(None)


def test_the_trivial_app_has_one_button_that_counts() -> None:
    class Page:
        title = ""

        def __init__(self) -> None:
            self.controls: list[ft.Control] = []

        def add(self, *controls: ft.Control) -> None:
            self.controls += controls

    page = Page()
    trivial_app.main(cast(ft.Page, page))
    button, text = page.controls
    assert isinstance(button, ft.FilledButton) and button.tooltip == trivial_app.BUTTON
    assert isinstance(text, ft.Text) and text.value == "Taps: 0"
    text.update = lambda: None  # type: ignore[method-assign]  # not on a page
    for _ in range(3):
        cast(Any, button).on_click(None)
    assert text.value == text.semantics_label == "Taps: 3"


def test_percentile_picks_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0 and percentile(values, 0.5) == 51.0 and percentile([7.0], 0.95) == 7.0


def test_jokers_kill_hands_beyond_one_deck_are_played_in_a_further_game() -> None:
    """A deck is 17 hands: 30 measured hands are one whole game and 13 hands of a second, each seeded session used
    once, and no more hands than the seeded games hold."""
    from bench.tap_latency import JK_GAME_HANDS, JK_GAMES, jk_deals, jk_games, jk_key

    assert len(jk_deals()) == JK_GAME_HANDS
    assert jk_games(12) == [range(0, 12)]
    assert jk_games(30) == [range(0, 17), range(17, 30)]
    assert jk_games(100) == [range(0, 17), range(17, 34)][:JK_GAMES]
    assert [jk_key(game) for game in range(JK_GAMES)] == ["jk", "jk2"]


def cpu_ticks(pid: int) -> int:
    """User and system clock ticks a process has used (``/proc/PID/stat``, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_busy_processes_spin_while_the_benchmark_runs_and_stop_after() -> None:
    assert screens_options(["--busy", "2"]).busy == 2 and screens_options([]).busy == 0
    with busy_cores(2) as spinners:
        assert len(spinners) == 2
        before = [cpu_ticks(one.pid) for one in spinners]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(
            cpu_ticks(one.pid) - b < 5 for one, b in zip(spinners, before, strict=True)
        ):
            time.sleep(0.05)
        assert all(one.poll() is None for one in spinners), "a busy process stopped early"
        assert all(cpu_ticks(one.pid) - b >= 5 for one, b in zip(spinners, before, strict=True)), "not spinning"
    assert all(one.returncode is not None for one in spinners), "a busy process outlived the run"
    assert not any(Path(f"/proc/{one.pid}").exists() for one in spinners), "a busy process left behind"
    with busy_cores(0) as none:
        assert none == []


def test_the_tap_report_leaves_out_what_was_not_run(capsys: Any) -> None:
    """``--hands 0``: the Bargain Bin series have no samples, so no row and no hand 60 / hand 1 line (it printed a
    ratio of ``nan``, read as a missed target)."""
    from bench.pagewatch import Sample
    from bench.tap_latency import SEEDED_HANDS, Series, report

    def samples(ms: float) -> list[Sample]:
        return [Sample(ms + i, ms + i - 5, 600, 1, 100, 1, "x", server_ms=10, client_ms=20) for i in range(20)]

    trivial = Series("trivial app: click → text", "trivial", samples(40))
    card = Series("Jokers Kill: card tap → shown", "tap", samples(50))
    empty = [
        Series(f"Bargain Bin hand {n}: {what}", kind, [])
        for n in (1, SEEDED_HANDS + 1)
        for what, kind in (("value tap", "tap"), ("Confirm", "confirm"))
    ]
    out = report(trivial, [card, *empty])
    printed = capsys.readouterr().out
    assert "nan" not in printed and "Bargain Bin" not in printed, printed
    assert out["Jokers Kill: card tap → shown frame p95_ratio"] > 1 and not any("growth" in key for key in out)


def test_the_tap_samples_are_written_mode_by_mode(tmp_path: Path) -> None:
    """``--samples FILE``: every sample of every series, with its label, under its mode; read back as written."""
    import json

    from bench.pagewatch import Sample
    from bench.tap_latency import Series, write_samples

    last = Sample(61.5, 55.0, 900, 2, 120, 1, "Next: Confirm the hand", server_ms=12.5, client_ms=30.0)
    card = Series("Jokers Kill: card tap → shown", "tap", [Sample(50, 45, 600, 1, 100, 1, "Next: Ben's card"), last])
    trivial = Series("trivial app: click → text", "trivial", [Sample(40, 38, 300, 1, 90, 1, "Clicked 1")])
    path = tmp_path / "samples.json"
    write_samples(path, {"CPU throttled 4x": [trivial, card], "CPU throttled 4x, semantics off": [trivial]})
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == ["CPU throttled 4x", "CPU throttled 4x, semantics off"]
    assert list(data["CPU throttled 4x"]) == [trivial.name, card.name]
    [_, written] = data["CPU throttled 4x"][card.name]
    assert written["label"] == "Next: Confirm the hand" and written["ms"] == 61.5 and written["server_ms"] == 12.5
    assert written["rx_frames"] == 2
    assert data["CPU throttled 4x, semantics off"][trivial.name][0]["seen_ms"] == 38


def test_the_samples_report_looks_at_the_card_that_completes_a_hand_on_its_own(tmp_path: Path, capsys: Any) -> None:
    """``python -m bench.tap_samples FILE``: the Jokers Kill card taps in two parts (by the prompt with semantics,
    every third card without), each with its medians and their ratio to the trivial app's."""
    import doctest

    from bench import tap_samples
    from bench.pagewatch import Sample
    from bench.tap_latency import Series, write_samples

    assert doctest.testmod(tap_samples).failed == 0
    prompts = ["Next: Ann's card", "Next: Ben's card", "Next: Ann wins 1 point: confirm the hand"]
    on = Series("Jokers Kill: card tap → shown", "tap")
    on.samples = [Sample(100 + 100 * (i % 3 == 2), 90, 700, 1, 100, 1, prompts[i % 3]) for i in range(6)]
    off = Series("Jokers Kill: card tap → frame after its message (semantics off)", "tap")
    off.samples = [Sample(60 + 60 * (i % 3 == 2), 30, 700, 1, 100, 1, "", settled_ms=150) for i in range(6)]
    trivial = Series("trivial app: click → text", "trivial", [Sample(50, 45, 300, 1, 90, 1, "Taps: 1")])
    path = tmp_path / "samples.json"
    write_samples(path, {"CPU throttled 4x": [trivial, on], "CPU throttled 4x, semantics off": [trivial, off]})
    found = {(row[0], row[1]): row for row in tap_samples.main([str(path)])}
    last = found[("CPU throttled 4x", "Jokers Kill: card tap → shown, completing the hand")]
    assert last[2:5] == ["2", "90", "200"] and last[-1] == "4.00×", last
    other = found[("CPU throttled 4x", "Jokers Kill: card tap → shown, other cards")]
    assert other[2] == "4" and other[4] == "100" and other[-1] == "2.00×", other
    off_last = found[("CPU throttled 4x, semantics off", f"{off.name}, completing the hand")]
    assert off_last[2] == "2" and off_last[4] == "120" and off_last[8] == "150", off_last
    assert other[8] == "nan", "settled: with semantics off only"
    assert "completing the hand" in capsys.readouterr().out


def test_the_app_is_served_through_the_server_probe_when_asked(tmp_path: Path) -> None:
    """``bench.tap_latency --probe LOG``: the same app command, run by ``bench/serverprobe.py`` with the log."""
    from bench.pagewatch import ROOT, app_server

    plain = app_server(8601, tmp_path / "data", tmp_path / "app.log").command
    probed = app_server(8601, tmp_path / "data", tmp_path / "app.log", probe=tmp_path / "probe.jsonl").command
    assert plain[1:3] == ["-m", "app"]
    assert probed[1] == str(ROOT / "bench" / "serverprobe.py")
    assert probed[2:6] == ["--log", str(tmp_path / "probe.jsonl"), "--tree", str(ROOT)]
    assert probed[6:8] == ["app", "--"] and probed[8:] == plain[3:]


def test_the_trivial_app_is_served_through_the_server_probe_beside_the_app(tmp_path: Path) -> None:
    """``--probe LOG`` serves the trivial app through the probe too, from this checkout, writing ``LOG.trivial``."""
    from bench.pagewatch import ROOT, trivial_server

    plain = trivial_server(8602, tmp_path / "trivial.log").command
    probed = trivial_server(8602, tmp_path / "trivial.log", probe=tmp_path / "probe.jsonl.trivial").command
    assert plain[1:] == ["-m", "bench.trivial_app", "--port", "8602"]
    assert probed[1:] == [
        str(ROOT / "bench" / "serverprobe.py"),
        *["--log", str(tmp_path / "probe.jsonl.trivial"), "--tree", str(ROOT)],
        *["bench.trivial_app", "--", "--port", "8602"],
    ]


def test_the_probe_notes_what_the_tapped_key_says() -> None:
    """``bench/serverprobe.py`` notes what each tapped control says: a key's taps go to its gesture detector, which
    says what the key's text or its node's label says (the links to a control's parent are Flet's, set when the key
    is sent: here by Flet's own diff, :class:`tests.support.wire.Wire`). The module's doctests pass too."""
    import doctest

    import bench.serverprobe
    from bench.serverprobe import said
    from tests.support.wire import Wire
    from views.widgets import ActionKey, TapKey

    card = TapKey(ft.Text("A♠"), lambda _: None)
    confirm = ActionKey("Confirm hand", lambda _: None)
    named = TapKey(ft.Icon(ft.Icons.BACKSPACE), lambda _: None, label="Remove last card")
    Wire().send_first(ft.Column([card.control, confirm.control, named.control]))
    assert [said(key.gestures) for key in (card, confirm, named)] == ["A♠", "Confirm hand", "Remove last card"]
    assert said(ft.Button(content="Tap")) == "Tap", "the trivial app's button"
    assert doctest.testmod(bench.serverprobe).failed == 0


def test_the_probe_tables_give_the_wait_from_the_click_arriving(tmp_path: Path, capsys: Any) -> None:
    """``bench.tap_samples --probe LOG`` reads ``LOG`` and ``LOG.trivial``: per kind of click, the handler's times and,
    from the click's message arriving, the wait before the handler and the time to the first message sent."""
    from bench.tap_samples import PROBE_HEADERS, main, probe_rows

    def click(at: float, sent: int, wall: float) -> list[dict[str, Any]]:
        return [
            {"received": 3, "name": "click", "t": at},
            {"sent": sent, "t": at + 0.005 + wall / 2000},
            {"event": "click", "t": at + 0.005 + wall / 1000, "wall": wall, "cpu": wall / 2, "process": wall},
        ]

    log = tmp_path / "probe.jsonl"
    app = click(1.0, 1500, 20.0) + click(2.0, 600, 4.0) + click(3.0, 600, 6.0)
    log.write_text("".join(json.dumps(r) + "\n" for r in app), encoding="utf-8")
    (tmp_path / "probe.jsonl.trivial").write_text(
        "".join(json.dumps(r) + "\n" for r in click(1.0, 300, 1.0)), encoding="utf-8"
    )
    rows = {row[0]: dict(zip(PROBE_HEADERS, row, strict=True)) for row in probe_rows(log)}
    assert rows["Confirm"]["n"] == "1" and rows["Confirm"]["waited"] == "5.0", rows
    assert rows["Confirm"]["to first message"] == "15.0" and rows["Confirm"]["server CPU median"] == "20.0", rows
    assert rows["other taps"]["n"] == "2" and rows["other taps"]["to first message"] == "7.5", rows
    main(["--probe", str(log)])
    printed = capsys.readouterr().out
    assert f"{log}: the server's handler" in printed and f"{log}.trivial: the server's handler" in printed


def test_the_throttle_cost_adds_up_chromium_processes_cpu_from_proc(tmp_path: Path) -> None:
    """``bench.throttle_cost`` reads each process's user and system ticks (fields 14 and 15 of ``/proc/PID/stat``,
    proc(5)) for the processes whose command line names Chromium. The stat lines follow one of this machine's
    (``/proc/self/stat`` of ``cat``, Linux, 2026-12-05), with a space and a parenthesis in the name as a renderer's
    can have; the ticks are set to known values."""
    import os

    from bench.throttle_cost import chromium_cpu_seconds

    tick = os.sysconf("SC_CLK_TCK")
    head, rest = "R 20293 20293 15758 0 -1 4194304 102 0 0 0", "0 0 0 0 20 0 1 0 3793087 3133440 408 0"

    def process(pid: str, command: bytes, name: str, user: int, system: int) -> None:
        folder = tmp_path / pid
        folder.mkdir()
        (folder / "cmdline").write_bytes(command)
        (folder / "stat").write_text(f"{pid} ({name}) {head} {user} {system} {rest}")

    process("20295", b"/usr/lib/chromium/chromium\0--type=renderer\0", "chromium (x)", 3 * tick, tick)
    process("20296", b"/usr/lib/chromium/chromium\0--type=gpu-process\0", "chromium", tick // 2, 0)
    process("20297", b"cat\0", "cat", 100 * tick, 0)
    (tmp_path / "self").mkdir()
    (tmp_path / "20298").mkdir()  # ended meanwhile: no files
    assert chromium_cpu_seconds(tmp_path) == 4.5


def test_the_ab_report_gives_each_side_and_this_tree_over_the_commit() -> None:
    from bench.pagewatch import Sample
    from bench.tap_ab import summary

    def sample(ms: float) -> Sample:
        return Sample(ms, ms, 600, 1, 100, 1, "", server_ms=ms / 4, client_ms=ms / 2)

    rows = summary(
        {
            "main": {"card": [sample(ms) for ms in range(100, 121)], "Confirm": []},
            "this tree": {"card": [sample(ms) for ms in range(80, 101)], "Confirm": [sample(150)]},
        }
    )
    assert rows[0] == ["card", "main", "21", "110", "118", "119", "28", "55", "", ""]
    assert rows[1][:6] == ["card", "this tree", "21", "90", "98", "99"]
    assert rows[1][-2:] == ["0.82×", "0.83×"], "median and p95 over the commit's"
    assert rows[2] == ["Confirm", "this tree", "1", "150", "150", "150", "38", "75", "", ""], "no ratio without a base"
    assert len(rows) == 3, "a kind a side did not tap is left out"


def test_the_probe_report_reads_a_keys_taps(tmp_path: Path, capsys: Any) -> None:
    """``python -m bench.tap_samples --probe LOG``: a key's taps (its gesture detector's ``tap`` event, *Confirm hand*
    among them) are read as a button's clicks were. The log is an excerpt of one that ``python -m bench.tap_latency
    --probe`` wrote on 2026-12-06 (a Bargain Bin Confirm: its click arriving, its 3,776-byte reply, its handler)."""
    from bench import tap_samples

    excerpt = [
        {"sent": 240, "t": 58307.112983109},
        {"received": 3, "name": "tap", "t": 58308.556228443},
        {"sent": 3776, "t": 58308.591915076},
        {"event": "tap", "t": 58308.592226019, "wall": 35.74627199850511, "cpu": 23.433156999999927},
        {"sent": 1849, "t": 58308.728498882},
    ]
    log = tmp_path / "probe.log"
    log.write_text("".join(json.dumps(record) + "\n" for record in excerpt), encoding="utf-8")
    [confirm] = tap_samples.probe_rows(log)  # (no other tap in the excerpt: no row for them)
    assert confirm[:3] == ["Confirm", "1", "23.4"], confirm
    assert confirm[-1] == "35.7", confirm  # from its arrival to its reply
    tap_samples.main(["--probe", str(log)])
    assert "Confirm" in capsys.readouterr().out
