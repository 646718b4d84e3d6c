"""The one entry lifecycle (companion.entry): every game's entry state behind one protocol, and the controller that
owns its draft: restored after a reload with the focus on the first unfinished field, kept on every change, cleared
before a submit and kept again when the submit is refused."""

from __future__ import annotations

from typing import Any

import pytest

from companion.entry import (
    EntryController,
    EntryState,
    EntryTarget,
    MemoryDrafts,
)
from companion.entry_bargain_bin import BargainBinState, PadKey
from companion.entry_feast_and_famine import FeastState
from companion.entry_financial_crisis import FinancialCrisisState, add_card, select
from companion.entry_jokers_kill import JokersKillState
from companion.entry_ones_to_nines import OnesToNinesState
from companion.session import HOST_DEVICE, Edit, SessionService, TableSession
from scoring.errors import IncompleteError
from scoring.parts import Part, record_before
from storage import Archive

STATES: list[type[Any]] = [JokersKillState, BargainBinState, FinancialCrisisState, FeastState, OnesToNinesState]


def reopened(archive: Archive, session: TableSession) -> TableSession:
    """The same game after the app restarted: a fresh service reads the drafts back from disk."""
    return SessionService(archive).open(session.id)


def controller(session: TableSession, kind: type[Any], target: EntryTarget | None = None) -> EntryController[Any]:
    """What a panel makes when it opens (after a reload too): the record before the entry, its draft key."""
    target = target or EntryTarget()
    existing = None
    if target.index is not None:
        existing = session.part(target.part)[target.index]
    return EntryController(kind, session, record_before(session.record, target.part, target.index), target, existing)


def test_every_state_has_the_protocol() -> None:
    for kind in STATES:
        for name in ("start", "from_hand", "from_draft", "to_draft", "to_hand", "verify", "can_confirm", "focus"):
            assert callable(getattr(kind, name, None)), f"{kind.__name__}.{name}"
    ok: list[type[EntryState]] = STATES  # mypy checks that each one is an EntryState
    assert len(ok) == 5


# --- 1111-9999: the bug of issue 13 --------------------------------------------------------------------------------


def test_ones_to_nines_reload_after_two_numbers_types_into_the_third_players_field(archive: Archive) -> None:
    players = ["P1", "P2", "P3", "P4"]
    sides = {"P1": "A", "P2": "A", "P3": "B", "P4": "B"}
    session = SessionService(archive).start("1111-9999", players, extra={"sides": sides})
    ctl = controller(session, OnesToNinesState)
    for digit in "423977729333":
        ctl.change(lambda state, d=digit: state.press(d))
    assert ctl.state.entry.focus == "P3"
    for again in (session, reopened(archive, session)):  # a reload (same session), a restart (read from disk)
        restored = controller(again, OnesToNinesState)
        assert restored.restored
        assert restored.state.focus() == "P3"
        assert restored.state.entry.focus == "P3", "the digit pad types into the third player's field"
        typed = restored.change(lambda state: state.press("5"))
        assert typed.entry.numbers == {"P1": "7772", "P2": "9333", "P3": "5"}


def test_ones_to_nines_reload_in_the_middle_of_a_number_and_of_the_table_row(archive: Archive) -> None:
    sides = {"Ann": "A", "Ben": "B", "Cat": "B"}
    session = SessionService(archive).start("1111-9999", list(sides), extra={"sides": sides})
    ctl = controller(session, OnesToNinesState)
    for digit in "42":
        ctl.change(lambda state, d=digit: state.press(d))
    assert controller(session, OnesToNinesState).state.entry.focus == "table"
    for digit in "3977":
        ctl.change(lambda state, d=digit: state.press(d))
    assert controller(session, OnesToNinesState).state.entry.focus == "Ann"  # Ann's number is half typed


def test_ones_to_nines_correction_starts_on_the_first_field_it_lacks(archive: Archive) -> None:
    """A saved hand whose first declarer left their number out: nothing is missing, the pad stays on the row."""
    sides = {"Ann": "A", "Ben": "B", "Cat": "A"}
    session = SessionService(archive).start("1111-9999", list(sides), extra={"sides": sides})
    session.add_hand({"table": "4239", "numbers": {"Ann": "7772", "Ben": "9333", "Cat": "5278"}})
    ctl = controller(session, OnesToNinesState, EntryTarget(Part.HANDS, 0))
    assert not ctl.restored and ctl.state.focus() is None and ctl.state.can_confirm()
    ctl.change(lambda state: state.but(state.entry.with_focus("Ben").backspace().backspace()))
    assert controller(session, OnesToNinesState, EntryTarget(Part.HANDS, 0)).state.entry.focus == "Ben"


# --- the other games ---------------------------------------------------------------------------------------------


def test_jokers_kill_reload_focuses_the_next_card_place(archive: Archive) -> None:
    session = SessionService(archive).start("jokers-kill", ["Ann", "Ben", "Cat"])
    ctl = controller(session, JokersKillState)
    assert ctl.state.focus() == "up"
    for card in ("8S", "8H", "8D"):
        ctl.change(lambda state, c=card: state.place(c))
    session = reopened(archive, session)
    restored = controller(session, JokersKillState)
    assert restored.restored and restored.state.focus() == "cards/Cat"
    for card in ("2C", "QH"):
        restored.change(lambda state, c=card: state.place(c))
    again = controller(session, JokersKillState)
    assert again.state.focus() == "tiebreaks/0/Ben"  # Ann's tie-break card is in, Ben's is next
    again.change(lambda state: state.place("3D"))
    assert again.state.focus() is None and again.state.can_confirm()
    assert again.state.to_hand()["tiebreaks"] == [{"Ann": "QH", "Ben": "3D"}]


def test_bargain_bin_reload_focuses_whoever_plays_next(archive: Archive) -> None:
    players = ["Ann", "Ben", "Cat", "Dan"]
    session = SessionService(archive).start("bargain-bin", players)
    ctl = controller(session, BargainBinState)
    ctl.change(lambda state: state.but(state.entry.choose_receiver("Ben").choose_value(PadKey("K"))))
    ctl.change(lambda state: state.but(state.entry.choose_receiver("Cat")))
    session = reopened(archive, session)
    restored = controller(session, BargainBinState)
    assert restored.restored and restored.state.focus() == "value/Ben"  # Ben's card goes to Cat: its value next
    assert restored.state.entry.running_points()["Ben"] == 12
    quick = restored.change(lambda state: state.but(state.entry.set_mode(state.entry.mode.QUICK)))
    quick = restored.change(lambda state: state.but(state.entry.set_score("Ann", "4").set_score("Ben", "x")))
    assert quick.focus() == "score/Ben"
    assert controller(session, BargainBinState).state.focus() == "score/Ben"


def test_financial_crisis_reload_keeps_the_pile_being_entered(archive: Archive) -> None:
    session = SessionService(archive).start("financial-crisis", ["Ann", "Ben"], options={"rounds": 1})
    ctl = controller(session, FinancialCrisisState)
    record = ctl.record
    for card in ("3S", "7S", "4H"):
        ctl.change(lambda state, c=card: state.but(add_card(record, state.draft, c)))
    assert controller(session, FinancialCrisisState).state.focus() == "bank"
    for card in ("9H", "6D", "4C"):
        ctl.change(lambda state, c=card: state.but(add_card(record, state.draft, c)))
    ctl.change(lambda state: state.but(select(record, state.draft, "Ben")))
    ctl.change(lambda state: state.but(add_card(record, state.draft, "KD")))
    restored = controller(reopened(archive, session), FinancialCrisisState)
    assert restored.restored and restored.state.focus() == "pile/Ben"
    assert restored.state.draft.pile("Ann") == ("4C",) and restored.state.draft.pile("Ben") == ("KD",)


def test_feast_and_famine_reload_focuses_whoever_acts_next(archive: Archive) -> None:
    session = SessionService(archive).start("feast-and-famine", ["Ann", "Ben", "Cat"])
    ctl = controller(session, FeastState)
    assert ctl.state.focus() == "dealer"
    ctl.change(lambda state: state.choose_dealer("Cat"))
    for tap in ("7C", "JK", "KD"):  # Ann's card; a Joker for Ben is put aside and replaced by K♦
        ctl.change(lambda state, t=tap: state.act(t))
    session = reopened(archive, session)
    restored = controller(session, FeastState)
    assert restored.restored and restored.state.focus() == "opening/Cat"
    restored.change(lambda state: state.act("3H"))
    assert controller(session, FeastState).state.focus() == "decide/Ann"
    quick = restored.change(lambda state: state.set_mode("quick").set_value("Ann", "12"))
    assert quick.focus() == "total/Ben"
    assert controller(session, FeastState).state.focus() == "total/Ben"


# --- the lifecycle ---------------------------------------------------------------------------------------------


def test_open_prefers_the_draft_then_the_hand_being_corrected_then_a_start(archive: Archive) -> None:
    session = SessionService(archive).start("jokers-kill", ["Ann", "Ben"])
    session.add_hand({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}})
    target = EntryTarget(Part.HANDS, 0)
    correcting = controller(session, JokersKillState, target)
    assert not correcting.restored and correcting.state.to_hand() == {"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}
    correcting.change(lambda state: state.clear_slot(("cards", "Ben")))
    assert session.draft(target.key) == {"up": "9S", "buried": [], "cards": {"Ann": "4H"}, "tiebreaks": []}
    again = controller(session, JokersKillState, target)
    assert again.restored and again.state.focus() == "cards/Ben"
    assert controller(session, JokersKillState).state.focus() == "up", "the next hand has a draft of its own"


def test_a_draft_that_no_longer_fits_falls_back_to_the_saved_hand(archive: Archive) -> None:
    session = SessionService(archive).start("jokers-kill", ["Ann", "Ben"])
    session.add_hand({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}})
    session.set_draft({"up": "9S", "cards": {"Nobody": "2C"}}, "new")
    ctl = controller(session, JokersKillState)
    assert not ctl.restored and ctl.state.focus() == "up"


def test_confirm_writes_no_draft_before_the_save_and_keeps_it_when_refused(archive: Archive) -> None:
    session = SessionService(archive).start("jokers-kill", ["Ann", "Ben"])
    ctl = controller(session, JokersKillState)
    for card in ("9S", "4H", "7D"):
        ctl.change(lambda state, c=card: state.place(c))
    seen: list[Any] = []

    def refuse(hand: dict[str, Any]) -> bool:
        seen.append((hand, session.draft("new")))
        return False

    assert ctl.confirm(refuse) is False
    kept = ctl.state.to_draft()
    assert seen == [({"up": "9S", "cards": {"Ann": "4H", "Ben": "7D"}}, kept)], "not cleared before the save"
    assert session.draft("new") == kept, "refused: what was entered is kept"

    def accept(hand: dict[str, Any]) -> bool:
        seen.append(session.draft("new"))
        session.make(Edit.add(hand).entered_on(HOST_DEVICE))  # the draft goes with the change
        seen.append(session.draft("new"))
        return True

    assert ctl.confirm(accept) is True
    assert seen[-2:] == [kept, None], "kept until the change is made, gone with it"
    assert session.draft("new") is None and len(session.hands) == 1
    assert ctl.reopen(session.record).focus() == "up", "the next hand starts empty"


def test_confirm_of_an_incomplete_hand_raises_the_games_error_and_submits_nothing() -> None:
    record = {"game": "1111-9999", "players": ["Ann", "Ben"], "sides": {"Ann": "A", "Ben": "B"}}
    store = MemoryDrafts()
    ctl = EntryController(OnesToNinesState, store, record, EntryTarget())
    ctl.change(lambda state: state.press("4"))
    with pytest.raises(ValueError, match=r"enter the table row, Ann's number and Ben's number \(4 digits each\)"):
        ctl.confirm(lambda hand: pytest.fail("nothing may be submitted"))
    assert store.draft("new") == {"table": "4", "numbers": {}, "first_triple": None}


def test_restart_keeps_an_empty_draft_and_discard_forgets_it() -> None:
    record = {"game": "jokers-kill", "players": ["Ann", "Ben"]}
    store = MemoryDrafts()
    ctl = EntryController(JokersKillState, store, record, EntryTarget())
    ctl.change(lambda state: state.place("9S"))
    ctl.restart()
    assert store.draft("new") == {"up": None, "buried": [], "cards": {}, "tiebreaks": []}
    ctl.discard()
    assert store.draft("new") is None


def test_a_refused_tap_changes_nothing() -> None:
    record = {"game": "jokers-kill", "players": ["Ann", "Ben"]}
    store = MemoryDrafts()
    ctl = EntryController(JokersKillState, store, record, EntryTarget())
    ctl.change(lambda state: state.place("9S"))
    with pytest.raises(ValueError, match="9♠"):
        ctl.change(lambda state: state.place("9S"))
    assert ctl.state.focus() == "cards/Ann" and store.draft("new") == ctl.state.to_draft()


@pytest.mark.parametrize("kind", STATES, ids=lambda kind: kind.__name__)
def test_verify_says_what_is_missing_with_a_value_error(kind: type[Any], archive: Archive) -> None:
    games = {
        JokersKillState: ("jokers-kill", ["Ann", "Ben"], {}, {}),
        BargainBinState: ("bargain-bin", ["Ann", "Ben", "Cat", "Dan"], {}, {}),
        FinancialCrisisState: ("financial-crisis", ["Ann", "Ben"], {}, {}),
        FeastState: ("feast-and-famine", ["Ann", "Ben"], {}, {}),
        OnesToNinesState: ("1111-9999", ["Ann", "Ben"], {}, {"sides": {"Ann": "A", "Ben": "B"}}),
    }
    game, players, options, extra = games[kind]
    session = SessionService(archive).start(game, players, options=options, extra=extra)
    state = controller(session, kind).state
    assert not state.can_confirm() and state.focus() is not None
    with pytest.raises(ValueError) as raised:
        state.verify()
    assert isinstance(raised.value, IncompleteError), "the one 'not complete yet' error, saying what is missing"
    assert str(raised.value)


# --- a tap's draft is kept after the tap is shown ------------------------------------------------------------------


class CountingDrafts(MemoryDrafts):
    """Drafts in memory, counting the writes."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[dict[str, Any] | None] = []

    def set_draft(self, draft: Any, target: str = "new") -> None:
        self.writes.append(None if draft is None else dict(draft))
        super().set_draft(draft, target)


def test_a_deferred_draft_is_written_once_for_quick_taps_and_never_after_a_confirm() -> None:
    record = {"game": "jokers-kill", "players": ["Ann", "Ben"]}
    store, queued = CountingDrafts(), []
    ctl = EntryController(JokersKillState, store, record, EntryTarget(), defer=queued.append)
    ctl.change(lambda state: state.place("9S"))
    ctl.change(lambda state: state.place("4H"))
    assert store.writes == [] and len(queued) == 1, "nothing written during the taps; one write asked for"
    assert ctl.state.focus() == "cards/Ben", "the entry itself moved on at once"
    queued.pop()()
    assert len(store.writes) == 1 and store.writes[0] is not None and store.writes[0]["cards"] == {"Ann": "4H"}
    ctl.change(lambda state: state.place("7D"))
    ctl.confirm(lambda hand: True)  # before the write asked for by the last tap has run
    queued.pop()()
    assert store.writes[-1] is None and store.draft() is None, "the confirmed hand's draft is not written back"


def test_a_change_from_elsewhere_keeps_the_tap_not_written_yet() -> None:
    record = {"game": "jokers-kill", "players": ["Ann", "Ben"]}
    store, queued = CountingDrafts(), []
    ctl = EntryController(JokersKillState, store, record, EntryTarget(), defer=queued.append)
    ctl.change(lambda state: state.place("9S"))
    ctl.reopen(record)  # the session changed before the write ran: the tap is kept, then read back
    assert ctl.state.focus() == "cards/Ann" and ctl.restored


def test_after_tap_runs_once_the_handler_is_done_on_the_loop() -> None:
    import asyncio
    import concurrent.futures
    import contextvars

    import flet as ft

    from views.table.entry import after_tap

    def run_apart(run: Any, handler: Any) -> None:
        """In a thread of its own (the browser tests keep a loop running in this one) and a context of its own."""
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(lambda: run(asyncio.run, handler())).result()

    order: list[str] = []
    after_tap(lambda: order.append("at once off the loop"))

    async def handler() -> None:
        after_tap(lambda: order.append("not in a page's event: at once"))
        ft.context.reset_auto_update()  # what Flet does before it calls a tap's handler
        after_tap(lambda: order.append("draft"))
        order.append("sent")
        await asyncio.sleep(0)  # one turn of the loop: the send task's (the draft waits for the turn after it)
        order.append("a turn later")
        await asyncio.sleep(0)
        order.append("two turns later")

    run_apart(contextvars.copy_context().run, handler)
    assert order == [
        "at once off the loop",
        "not in a page's event: at once",
        "sent",
        "a turn later",
        "draft",
        "two turns later",
    ]


def test_after_tap_writes_the_draft_after_the_reply_is_sent() -> None:
    """As Flet's web server sends (flet_web/fastapi/flet_app.py, flet-web 1.0.5: ``send_message`` puts each message
    on an ``asyncio.Queue`` with ``put_nowait``; ``__send_loop`` awaits ``get()`` and sends it): a tap's change is
    made (its draft deferred) before its controls are queued, and the draft is written once the send task has sent
    them, not before."""
    import asyncio
    import concurrent.futures
    import contextvars

    import flet as ft

    from views.table.entry import after_tap

    order: list[str] = []

    async def server() -> None:
        queue: asyncio.Queue[str] = asyncio.Queue()

        async def send_loop() -> None:
            while True:
                order.append(f"sent {await queue.get()}")

        sender = asyncio.create_task(send_loop())
        await asyncio.sleep(0)  # the send task waits for a message

        def tap() -> None:  # a tap's handler: the change (its draft deferred), then its update queued
            ft.context.reset_auto_update()
            after_tap(lambda: order.append("draft"))
            queue.put_nowait("update")

        asyncio.get_running_loop().call_soon(contextvars.copy_context().run, tap)
        await asyncio.sleep(0.05)
        sender.cancel()

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:  # a loop of its own, as above
        pool.submit(asyncio.run, server()).result()
    assert order == ["sent update", "draft"]


def test_a_tap_whose_draft_waits_for_its_reply_is_written_when_the_app_stops(tmp_path: Any) -> None:
    """A tap's draft is written once its reply has left (``defer``); a stop in between (SIGTERM: the app closes its
    services) writes it then, so the hand shown is the hand found after a restart."""
    from companion.services import AppServices

    with AppServices.open(tmp_path / "data") as services:
        table = services.sessions.start("jokers-kill", ["Ann", "Ben"])
        queued: list[Any] = []
        ctl = EntryController(JokersKillState, table, table.record, EntryTarget(), defer=queued.append)
        ctl.change(lambda state: state.place("9S"))
        ctl.change(lambda state: state.place("4H"))
        assert len(queued) == 1 and table.draft() is None, "the write waits (the app stops before it runs)"
    with AppServices.open(tmp_path / "data") as services:
        draft = services.sessions.open(table.id).draft()
    assert draft is not None and (draft["up"], draft["cards"]) == ("9S", {"Ann": "4H"})


def test_a_panel_gone_owes_nothing_and_a_draft_written_is_not_written_again() -> None:
    import gc

    store, queued = CountingDrafts(), []
    record = {"game": "jokers-kill", "players": ["Ann", "Ben"]}
    ctl = EntryController(JokersKillState, store, record, EntryTarget(), defer=queued.append)
    ctl.change(lambda state: state.place("9S"))
    queued.pop()()
    store.settle()
    assert len(store.writes) == 1, "written once, by its own deferred write"
    ctl.change(lambda state: state.place("4H"))
    queued.clear()
    del ctl
    gc.collect()
    store.settle()
    assert len(store.writes) == 1, "a panel that is gone is not held by the store"
