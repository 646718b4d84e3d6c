"""Small building blocks every screen uses: the screen frame with its back button, large buttons, suit symbols.

Every interactive control gets an accessible label (a tooltip, which Flutter turns into one, or the text of a
:class:`TapKey`, the keys of the dense pads, which have no tooltip), and every tap target is at least
:data:`MIN_TAP` pixels tall, for one-handed use at a card table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import flet as ft

from companion.i18n import N_, Words
from companion.settings import SUITS, SuitColour, suit_colour
from scoring.why import Cards, Note, Rank
from views.context import ViewContext
from views.flet_private import in_page_event, set_isolated
from views.routing import parent_path

TAP = 56
"""Height of a primary tap target, in logical pixels (Material's minimum is 48)."""
MIN_TAP = 48
"""The smallest tap target (Material's minimum): keys of a dense pad (the Jokers Kill card grid) on a phone."""
APPBAR_TAP = 48
"""The app bar's icon buttons: 48 px, so a 360 px wide phone keeps room for the title beside Undo, Redo, Share."""
WIDE = 900
"""From this width (a landscape tablet, a desktop) the table screen puts its panel and scoreboard side by side."""
CONTENT_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 12, "md": 10, "lg": 8, "xl": 6}
"""Width of the content column: the whole phone screen, a centred column on a desktop."""

_SUIT_COLOURS = {
    SuitColour.BLACK: ft.Colors.ON_SURFACE,
    SuitColour.RED: ft.Colors.RED_600,
    SuitColour.BLUE: ft.Colors.BLUE_600,
    SuitColour.GREEN: ft.Colors.GREEN_600,
}
SUIT_NAMES = {"♠": N_("spades"), "♥": N_("hearts"), "♦": N_("diamonds"), "♣": N_("clubs")}

C = TypeVar("C", bound=ft.Control)
T = TypeVar("T")


def tapped(act: Callable[[T], Any], value: T) -> Callable[[Any], None]:
    """A Flet event handler that calls ``act(value)`` (the event itself is not needed): one a key of a pad.

    >>> seen = []
    >>> tapped(seen.append, "A♠")(None)
    >>> seen
    ['A♠']
    """
    return lambda _: act(value)


def isolated(control: C) -> C:
    """Make ``control`` its own update boundary (Flet's isolated controls): an update of a control around it
    neither walks into it nor sends its changes, so the screen's update after a tap or a hand stays the same size
    however many keys, cards or hand rows the screen holds. Whoever changes an isolated control sends it with its
    own ``update()``; one never changed after it is shown (a hand-list row) needs nothing more."""
    set_isolated(control, True)
    return control


@ft.control
class Key(ft.Container):
    """The box of a :class:`TapKey` (a card of a grid, a key of a value pad): found by tests as a button, labelled
    by its text; its ``data`` is the :class:`TapKey` (whose gesture detector takes the box's taps)."""


@ft.control
class Veil(ft.Container):
    """The cover a :class:`VeilOver` lays over a grid of keys."""


SELECTED_KEY = ft.Colors.PRIMARY_CONTAINER
"""The background of a :class:`TapKey` shown as chosen."""
FOCUS_BORDER = ft.Colors.PRIMARY
"""The border of the :class:`TapKey` that has the keyboard's focus."""
PRESS_KEYS = frozenset({"Enter", " ", "Numpad Enter"})
"""The keys (Flutter's key labels) that press the focused :class:`TapKey`: Enter and Space, as on a button."""
HUG_LINE = 20
"""The height of one line of a hugging :class:`TapKey`'s text (size 14), for centring it in the key."""
DIMMED = 0.35
"""The opacity of a :class:`VeilOver`'s cover at its most: the keys under it show through, dimmed."""


class TapKey:
    """A key of a dense pad (the card grids, the Bargain Bin value pad, the 1111-9999 digits): one tap a card or
    digit. Jokers Kill's hand places are keys too, hugging their text (``hug=True``).

    It is a bordered box (:class:`Key`) inside a button node for screen readers and tests, where a Material button
    would paint a coloured ink ripple, an elevation and open a tooltip. A :class:`ft.GestureDetector` around the
    box takes its taps (:meth:`tap`), not the box itself: Flet's client takes a box's own gestures away while it is
    disabled, and builds the box again when that changes; the detector stays as it is whether the key, or the
    grid around it (:class:`VeilOver`), is disabled or not. The box is not an
    ink well either, even with a transparent splash: its ripple and highlight are animations, and with Flutter's
    semantics tree on (a screen reader, and the browser tests) their frames held a Jokers Kill card tap's reply
    back: from the pointerdown to the frame that shows it, 91–110 ms against 42–59 ms without them (median of 20
    Jokers Kill card taps side by side, in two runs). What shows the tap is the key going grey and the hand moving
    on.

    The keyboard reaches it through a :class:`ft.KeyboardListener` around the box, a stop of Flutter's focus order:
    Tab reaches every key of a pad in reading order, and Enter or Space presses the focused one as a tap would (a
    greyed-out key takes none; under a raised veil it is refused with the veil's reason). The listener has no focus
    highlight of its own, so the key draws one: the key a Tab arrives at (its key-up comes to the key that now has
    the focus) gets a thick :data:`FOCUS_BORDER`, and the key a Tab leaves (its key-down comes to the key that had
    it) loses it. A greyed-out key stays a stop of Flutter's focus order (Flet's listener cannot be taken out of
    it); the browser's focus, which skips a disabled node, does not go there.

    The listener adds nothing to the semantics tree until a Tab first brings Flutter's focus to the key; from then
    on the key's node is focusable, and the browser's focus (what a screen reader announces) follows Flutter's to
    it. A focusable node takes the browser's focus when it is clicked, and Flutter then moves its own focus there
    in the frame after the click, a frame that held the tap's reply back: with the semantics tree on and Chromium
    slowed 4×, a Jokers Kill card tap took 109 ms from the pointerdown to the frame after the new prompt at the
    median and 175 ms at p95, and 94 and 132 ms with the node focusable only after a Tab (102 taps each, the two
    codes tap by tap in turns: ``python -m bench.tap_ab``).

    Greyed out (:meth:`set_enabled`), the button node reads as dimmed, a tap on it does nothing, and its text turns
    :data:`ft.Colors.OUTLINE_VARIANT` (a colour, not an opacity: no layer of its own to paint); a text in several
    colours (spans: a value key's rank and suits) is dimmed by the box's opacity instead, one number to send where
    each span's style would be sent again. Under a raised :class:`VeilOver` the button node reads as unavailable
    too (``aria-disabled`` in the browser), through the grid around it, its look left to the veil. The key is an
    isolated control (:func:`isolated`): a screen sends it only when it changed.
    """

    def __init__(
        self,
        text: ft.Text | ft.Icon,
        on_click: Callable[[Any], Any],
        *,
        col: int | dict[str | ft.ResponsiveRowBreakpoint, int | float] = 1,
        height: int = MIN_TAP,
        on_long_press: Callable[[Any], Any] | None = None,
        label: str | None = None,
        hug: bool = False,
    ) -> None:
        self.text = text
        self._colour = text.color
        self.on_click = on_click
        # A key fills its cell of a grid; one that hugs its text (a place of the hand, in a wrapping row) is as
        # wide as the text and its padding, the text centred in the key's height by the padding above it.
        self.box = Key(
            content=text,
            height=height,
            alignment=None if hug else ft.Alignment.CENTER,
            padding=ft.Padding(left=8, right=8, top=(height - 2 - HUG_LINE) // 2, bottom=0) if hug else None,
            border=ft.Border.all(1, ft.Colors.OUTLINE),
            border_radius=8,
            data=self,
        )
        # Not a focusable node of the semantics tree until the keyboard brings Flutter's focus to it (_show_focus).
        self.listener = ft.KeyboardListener(
            content=self.box, on_key_down=self._key_down, on_key_up=self._key_up, include_semantics=False
        )
        # The taps, around the box and its listener: Flet's client takes a box's own gestures away while it (or the
        # grid around it) is disabled, and so would build the box again each time the veil over its grid comes down.
        self.on_long_press = on_long_press
        self.gestures = ft.GestureDetector(
            content=self.listener,
            on_tap=self.tap,
            on_long_press=self._held if on_long_press is not None else None,
            mouse_cursor=ft.MouseCursor.CLICK,
        )
        self.control = isolated(ft.Semantics(button=True, container=True, content=self.gestures, col=col, label=label))
        self.enabled = True
        self.selected = False
        self.focused = False

    def _border(self) -> ft.Border:
        if self.focused:
            return ft.Border.all(3, FOCUS_BORDER)
        spans = isinstance(self.text, ft.Text) and bool(self.text.spans)  # dimmed by the opacity, outline and all
        return ft.Border.all(1, ft.Colors.OUTLINE if self.enabled or spans else ft.Colors.OUTLINE_VARIANT)

    def tap(self, e: Any) -> None:
        """A tap on the box: ``on_click``, unless the key is greyed out (a tap on it takes nothing and sends
        nothing, as on a disabled button)."""
        self._press(self.on_click, e)

    def _held(self, e: Any) -> None:
        """A long press on the box: ``on_long_press``, unless the key is greyed out."""
        self._press(self.on_long_press, e)

    def _press(self, action: Callable[[Any], Any] | None, e: Any) -> None:
        """``action(e)``, unless the key is greyed out or has no such action (then nothing is sent)."""
        if self.enabled and action is not None:
            action(e)
        else:
            sent_by_hand()

    def _key_down(self, e: Any) -> None:
        """A key pressed while this key has the focus: Enter or Space presses it as a tap would (a greyed-out key
        takes none; under a raised veil the action refuses it with the reason, as the veil does a tap); a Tab
        takes the focus away."""
        if e.key in PRESS_KEYS and self.enabled:
            self.on_click(e)
        elif e.key == "Tab":
            self._show_focus(False)
        else:
            sent_by_hand()  # nothing changed, nothing to send

    def _key_up(self, e: Any) -> None:
        """A key released while this key has the focus: after a Tab, the focus has just come to it."""
        if e.key == "Tab":
            self._show_focus(True)
        else:
            sent_by_hand()

    def _show_focus(self, focused: bool) -> None:
        sent_by_hand()
        if focused == self.focused:
            return
        self.focused = focused
        self.box.border = self._border()
        if focused:  # from now on the browser's focus follows Flutter's to this key (see the class's notes)
            self.listener.include_semantics = True
        with contextlib.suppress(RuntimeError, AssertionError):  # not on a page (a unit test)
            self.control.update()

    def set_enabled(self, enabled: bool) -> bool:
        """Grey the key out or bring it back; returns whether its look changed (then it is to be sent)."""
        if enabled == self.enabled:
            return False
        self.enabled = enabled
        self.control.disabled = not enabled  # the button node's, which its box follows: it keeps its size
        if isinstance(self.text, ft.Text) and self.text.spans:  # the opacity dims the outline too
            self.box.opacity = 1.0 if enabled else DIMMED
        else:
            self.text.color = self._colour if enabled else ft.Colors.OUTLINE_VARIANT
            self.box.border = self._border()
        return True

    def set_selected(self, selected: bool) -> bool:
        """Show the key as chosen (its card is in the pile being entered: :data:`SELECTED_KEY` behind it, and
        read out as selected) or not; returns whether its look changed."""
        if selected == self.selected:
            return False
        self.selected = selected
        self.control.selected = selected
        self.box.bgcolor = SELECTED_KEY if selected else None
        return True

    def set_label(self, label: str) -> bool:
        """Say ``label`` on a key of text (shown, and read out: the button node takes its text); returns whether it
        changed."""
        assert isinstance(self.text, ft.Text), "a key showing an icon has no text to change"
        if self.text.value == label:
            return False
        self.text.value = label
        return True


ACTION_KEY = ft.Colors.PRIMARY
"""The fill of an :class:`ActionKey` that can be tapped (its text :data:`ft.Colors.ON_PRIMARY`), as a Material
filled button's."""
ACTION_KEY_OFF = ft.Colors.with_opacity(0.12, ft.Colors.ON_SURFACE)
"""The fill of a greyed-out :class:`ActionKey` (its text ``ON_SURFACE`` at 38%), as a disabled filled button's."""


class ActionKey(TapKey):
    """A panel's main action (*Confirm hand*) as a filled key: a :class:`TapKey` that looks like a Material filled
    button, with neither the button's ink nor its state animations.

    A Material button animates from its greyed-out look to its enabled one (and back) over several frames. The card
    that completes a Jokers Kill hand enables *Confirm hand*, and throttled 4×, with the button a ``FilledButton``,
    the frame after that card's text came 223–308 ms after the pointerdown (median, five runs); drawn as a key,
    194–211 ms (two runs in the same sitting: README, "What that frame holds"). The keyboard, the focus border and
    the button node are the :class:`TapKey`'s; the label can change (:meth:`set_label`: *Mark hand void*)."""

    def __init__(self, label: str, on_click: Callable[[Any], Any], *, size: int = 18) -> None:
        # two lines when the label is long (Financial Crisis's "Next: Bartholomew's pile" in half the bar), as a
        # Material button's would
        self.label = ft.Text(
            label,
            size=size,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.ON_PRIMARY,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
            text_align=ft.TextAlign.CENTER,
        )
        super().__init__(self.label, on_click)
        self.control.expand = True
        self._paint()

    def _border(self) -> ft.Border:
        if self.focused:  # on the filled box, the focus border in the text's colour of the screen
            return ft.Border.all(3, ft.Colors.ON_SURFACE)
        return ft.Border.all(1, ACTION_KEY if self.enabled else ACTION_KEY_OFF)

    def _paint(self) -> None:
        self.box.bgcolor = ACTION_KEY if self.enabled else ACTION_KEY_OFF
        self.text.color = ft.Colors.ON_PRIMARY if self.enabled else ft.Colors.with_opacity(0.38, ft.Colors.ON_SURFACE)
        self.box.border = self._border()

    def set_enabled(self, enabled: bool) -> bool:
        """Grey the action out or bring it back (its fill and text, as a filled button's); returns whether its look
        changed."""
        if enabled == self.enabled:
            return False
        self.enabled = enabled
        self.control.disabled = not enabled
        self._paint()
        return True


class OutlineKey(TapKey):
    """A secondary action of a pad (Financial Crisis's *Take out last card*) as an outlined key: a :class:`TapKey`
    with round ends and its text in the primary colour, as a Material outlined button looks, with neither the
    button's ink nor its state animations (the first card of a pile enables it, as a hand's last card enables an
    :class:`ActionKey`). Greyed out, its text and outline dim and it takes no tap. It fills its share of a row, or
    with ``hug`` is as wide as its text (Feast and Famine's *Refuse* beside *Confirm round*); ``semantics_label``
    names it where its text has more than its name (``❄ Refuse``, read out as *Refuse*)."""

    def __init__(
        self,
        label: str,
        on_click: Callable[[Any], Any],
        *,
        size: int = 14,
        hug: bool = False,
        semantics_label: str | None = None,
    ) -> None:
        text = ft.Text(
            label,
            size=size,
            color=ft.Colors.PRIMARY,
            max_lines=1 if hug else 2,
            overflow=ft.TextOverflow.ELLIPSIS,
            text_align=ft.TextAlign.CENTER,
            semantics_label=semantics_label,
        )
        super().__init__(text, on_click, hug=hug)
        self.box.border_radius = MIN_TAP // 2
        if hug:  # the text's padding above it kept (it centres the line in the key), more room at the sides
            above = self.box.padding.top if isinstance(self.box.padding, ft.Padding) else 0
            self.box.padding = ft.Padding(left=16, right=16, top=above, bottom=0)
        else:
            self.box.padding = ft.Padding.symmetric(horizontal=8)
            self.control.expand = True


class ChoiceKey(TapKey):
    """A key of a one-of-several choice made card by card (a Bargain Bin receiver, "To Ann (12)"), kept across
    redraws: a :class:`TapKey` with round ends and its text in the primary colour. Chosen (:meth:`set_selected`),
    it is filled as a chosen card is, its text bold and its outline thick, and its button node reads as selected;
    greyed out, it takes no tap, as a key.

    It was an ink well with a transparent ink (for the keyboard's focus highlight), as :func:`choice_button` still
    is; an ink well's focus includes its semantics node, so a click on it moved the focus in a frame before the
    reply, as a key's listener did (see :class:`TapKey`), and its ink animated. As a key, a Bargain Bin receiver tap
    with Chromium slowed 4× took 115 ms from the pointerdown to the frame after the new prompt at the median
    instead of 157 (77 instead of 105 with the semantics tree off; 100 taps each, the two codes side by side:
    ``python -m bench.tap_ab --game bargain-bin``). The keyboard reaches it as a key: Tab, then Enter or Space, with
    the key's focus border (on a chosen key, in the text's colour of the screen, as its own outline is the primary
    colour)."""

    bold_when_chosen = True
    """Whether the text of the chosen key is bold (a field's is not: its digits would no longer fit)."""

    def __init__(
        self,
        label: str,
        on_click: Callable[[Any], Any],
        *,
        col: int | dict[str | ft.ResponsiveRowBreakpoint, int | float] = 1,
        height: int = MIN_TAP,
        size: int = 14,
    ) -> None:
        super().__init__(
            ft.Text(label, size=size, no_wrap=True, color=ft.Colors.PRIMARY), on_click, col=col, height=height
        )
        self.box.border_radius = height // 2
        self.box.padding = ft.Padding.symmetric(horizontal=4)
        self.control.selected = False  # read out as not selected, rather than as no choice at all

    def _border(self) -> ft.Border:
        if self.focused:
            return ft.Border.all(3, ft.Colors.ON_SURFACE if self.selected else FOCUS_BORDER)
        if self.selected:
            return ft.Border.all(3, ft.Colors.PRIMARY)
        return ft.Border.all(1, ft.Colors.OUTLINE if self.enabled else ft.Colors.OUTLINE_VARIANT)

    def set_selected(self, selected: bool) -> bool:
        """Show the choice as made (filled, bold, a thick outline; read out as selected) or not; returns whether
        its look changed."""
        if not super().set_selected(selected):
            return False
        assert isinstance(self.text, ft.Text)
        self.text.weight = ft.FontWeight.BOLD if selected and self.bold_when_chosen else None
        self.box.border = self._border()
        return True


class FieldKey(ChoiceKey):
    """A number typed on a pad, shown as typed so far (a 1111-9999 number: ``Ann (A) · target 4239: 2 8 _ _``),
    kept across redraws: a :class:`ChoiceKey` with the corners of a field and its text at its start, up to two
    lines. The field the pad types into is the chosen one (:meth:`set_selected`: filled, a thick outline, read out
    as selected; not bold, so that a half-width field's digits still fit); a tap on another sends the pad there.
    Its button node is named by its text.

    It was a Material ``OutlinedButton``, relabelled by every digit tap and restyled with the next field's when a
    number was complete: each time the button was built again, its ink and state with it. Its tooltip (the number
    said in full) showed on a mouse's hover only; the page's semantics tree named the button by its text alone, as
    it names the key. As a key, a digit tap with Chromium slowed 4× took 56–61 ms from the pointerdown to the frame
    after the new number at the median and 98–105 ms at p95, against 60–64 and 101–112 (36–40 and 65–76 against
    39–46 and 73–76 with the semantics tree off; two runs of 200 and 300 taps, the two codes side by side:
    ``python -m bench.tap_ab --game 1111-9999``)."""

    bold_when_chosen = False

    def __init__(
        self,
        on_click: Callable[[Any], Any],
        *,
        col: int | dict[str | ft.ResponsiveRowBreakpoint, int | float] = 12,
        size: int = 17,
    ) -> None:
        super().__init__("", on_click, col=col, size=size)
        assert isinstance(self.text, ft.Text)
        self.text.max_lines = 2
        self.text.overflow = ft.TextOverflow.ELLIPSIS
        self.box.alignment = ft.Alignment.CENTER_LEFT
        self.box.padding = ft.Padding.symmetric(horizontal=12)
        self.box.border_radius = 8


def sent_by_hand() -> None:
    """Turn Flet's automatic update off for the event being handled: the table screen sends what a tap changed
    with ``.update()`` on those controls (a key its focus highlight), and a tap that changes nothing (a refused
    card whose message is already shown, a typed digit that greys nothing out) sends nothing, where Flet would
    otherwise diff the whole page after the handler (a diff that grows with the hand list).

    Only inside an event handler of a page, which has its own auto-update state: anywhere else (a unit test, a
    redraw on the page's own thread) Flet would write the app-wide default and turn auto-update off for every page.
    """
    if in_page_event():
        ft.context.disable_auto_update()


class VeilOver:
    """A grid of keys dimmed as one while none of them can be tapped (a complete Jokers Kill hand, a Bargain Bin
    card waiting for who gets it, Bargain Bin's receivers once every card is played): a cover over the grid, and a
    tap on it is ``on_refused`` (which says why).

    Raised, the cover takes the grid's taps (and the browser's clicks: a key under it is not clickable), and its
    ``on_click`` is ``on_refused``; lowered, it has neither. For screen readers the grid itself is disabled while
    the cover is raised (:attr:`grid_veiled`): Flet's client passes a control's ``disabled`` down to everything in
    it, so each key's node reads as unavailable and a key activated through its node does nothing, while a tap
    through the cover is refused with the message. The cover and the grid's ``disabled`` are two controls'
    properties, whatever the grid holds: the keys are isolated and are not sent. (Disabling each key instead sent
    every key of the grid: 52 patches, 14 ms of the server's time, on the third card of a Jokers Kill hand. A
    grid's own opacity would make every tap redraw every key, not only the taps that raise or lower the veil.)

    The two can change apart (:class:`~views.table.entry.VeilLater` lowers the cover at once and the grid's
    ``disabled`` after the reply): the grid's ``disabled`` makes the phone build each of its keys again, and
    nothing needs to wait for it, as a key's taps do not depend on it (:class:`TapKey`). With the 26 value keys of
    Bargain Bin, a receiver tap's reply was in the frame 95 ms after the pointerdown at the median with the grid in
    it, 61 with the grid after it (4× slowed and read out: 100 taps a side, ``python -m bench.tap_ab``).
    """

    def __init__(self, grid: ft.Control, on_refused: Callable[[Any], Any]) -> None:
        self.on_refused = on_refused
        self.grid = grid
        self.cover = isolated(Veil(left=0, top=0, right=0, bottom=0, ignore_interactions=True, border_radius=8))
        self.control = ft.Stack([grid, self.cover])
        self.raised = False
        """Whether the cover is raised (dims the grid and takes its taps)."""

    @property
    def grid_veiled(self) -> bool:
        """Whether the grid under the cover is disabled (its keys read as unavailable)."""
        return bool(self.grid.disabled)

    def set_cover(self, raised: bool) -> list[ft.Control]:
        """Raise or lower the cover alone; returns it when it changed (to be sent), else nothing."""
        if raised == self.raised:
            return []
        self.raised = raised
        self.cover.bgcolor = ft.Colors.with_opacity(1 - DIMMED, ft.Colors.SURFACE) if raised else None
        self.cover.ignore_interactions = not raised
        # lowered, the cover takes no tap and has no node for screen readers (nor one over the keys for a browser)
        self.cover.on_click = self.on_refused if raised else None
        return [self.cover]

    def set_grid(self, veiled: bool) -> list[ft.Control]:
        """Disable the grid under the cover (its keys read as unavailable) or enable it; returns the grid when it
        changed (to be sent), else nothing."""
        if veiled == self.grid_veiled:
            return []
        self.grid.disabled = veiled
        return [self.grid]

    def set_raised(self, raised: bool) -> list[ft.Control]:
        """Raise (dim the grid, refuse its taps, its keys read as unavailable) or lower the veil, cover and grid;
        returns what changed and is to be sent: the cover and the grid (nothing when both stay as they were)."""
        return [*self.set_cover(raised), *self.set_grid(raised)]


def icon_button(icon: ft.IconData, label: str, on_click: Callable[[Any], Any], *, size: int = TAP) -> ft.Control:
    """An icon-only button, ``size`` (:data:`TAP`) pixels square, labelled ``label`` for screen readers and tests.

    (A tooltip alone does not give an icon button an accessible name in the browser view.) The label is the icon's
    own, so it is merged into the button's node: the node a screen reader names is the one that takes the tap,
    the keyboard's focus, and says whether the button is disabled. The :class:`ft.Semantics` around it adds no node
    of its own; it is kept so that a screen finds the button as its ``content``.
    """
    return ft.Semantics(
        content=ft.IconButton(
            icon=ft.Icon(icon, semantics_label=label), tooltip=None, on_click=on_click, width=size, height=size
        ),
    )


def back_button(ctx: ViewContext) -> ft.Control:
    """The app bar's back arrow (labelled "Back"): goes to the parent screen."""
    target = ctx.back_to if ctx.back_to is not None else parent_path(ctx.path)
    return icon_button(ft.Icons.ARROW_BACK, ctx.words.gettext("Back"), lambda _: ctx.navigate(target))


TITLE_SIZE = 20
"""The app bar's title size: two lines of it fit the app bar (:func:`app_bar_title`)."""


def app_bar_title(title: str, *, size: int = TITLE_SIZE) -> ft.Text:
    """An app bar's title, read out whole: on one line when it fits, else over two (a night's recap, a game's name
    beside Undo, Redo and Share on a 360 px phone), so that nothing is cut; only a title longer than two lines
    (a 40-character name) ends in an ellipsis."""
    return ft.Text(title, semantics_label=title, size=size, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)


def screen(ctx: ViewContext, title: str, controls: Sequence[ft.Control], *, home: bool = False) -> ft.View:
    """A full screen: an app bar with the title (and a back button unless ``home``) over a scrolling column."""
    appbar = ft.AppBar(
        title=app_bar_title(title),
        leading=None if home else back_button(ctx),
        automatically_imply_leading=False,
        toolbar_height=64,
    )
    body = ft.ResponsiveRow(
        controls=[ft.Container(content=ft.Column(list(controls), spacing=12), col=CONTENT_COLUMNS)],
        alignment=ft.MainAxisAlignment.CENTER,
    )
    return ft.View(
        route=ctx.path,
        appbar=appbar,
        controls=[body],
        scroll=ft.ScrollMode.AUTO,
        padding=ft.Padding.all(16),
    )


def big_button(
    label: str,
    on_click: Callable[[Any], Any],
    *,
    icon: ft.IconData | None = None,
    tooltip: str | None = None,
    primary: bool = False,
    height: int = TAP,
    disabled: bool = False,
    expand: bool | None = True,
    visible: bool = True,
    style: ft.ButtonStyle | None = None,
) -> ft.FilledButton | ft.OutlinedButton:
    """A full-width button ``height`` pixels tall (:data:`TAP`; :data:`MIN_TAP` under a table's pad), filled when
    ``primary``, its text 18 px unless ``style`` says otherwise; its accessible label is ``tooltip`` or ``label``.
    ``on_click`` may be a coroutine function (one that waits on the file picker)."""
    kind = ft.FilledButton if primary else ft.OutlinedButton
    return kind(
        content=label,
        icon=icon,
        on_click=on_click,
        tooltip=tooltip or label,
        height=height,
        expand=expand,
        visible=visible,
        disabled=disabled,
        style=style or ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
    )


def choice_button(label: str, chosen: bool, on_click: Callable[[Any], Any], *, height: int = TAP) -> ft.Control:
    """A button of a one-of-several choice ("Ann pays", "To Ben"): filled when chosen, outlined when not, and read
    out as selected or not. A box that takes the tap in a button node, because that node is then the one a screen
    reader names, activates and hears the selected state on (a Material button makes its own node, and a state put
    around it goes elsewhere).

    The box is an ink well with a transparent ink, which Flutter focuses and presses from the keyboard by itself.
    The screens that use it are built afresh on every change (a component), so a :class:`ChoiceKey`, which keeps
    its focus border in Python, would lose it with each choice; an ink well's focus stays with Flutter.
    """
    text = ft.Text(label, size=16, color=ft.Colors.ON_PRIMARY if chosen else ft.Colors.PRIMARY, no_wrap=True)
    box = Key(
        content=text,
        height=height,
        padding=ft.Padding.symmetric(horizontal=16),
        alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.PRIMARY if chosen else None,
        border=ft.Border.all(1, ft.Colors.PRIMARY if chosen else ft.Colors.OUTLINE),
        border_radius=height // 2,
        on_click=on_click,
        ink=True,
        ink_color=ft.Colors.TRANSPARENT,
    )
    return ft.Semantics(button=True, container=True, selected=chosen, content=box)


def nav_tile(ctx: ViewContext, title: str, subtitle: str, route: str, *, icon: ft.IconData | None = None) -> ft.Control:
    """A tappable row that opens ``route``; labelled with its title."""
    return ft.ListTile(
        title=ft.Text(title, size=18),
        subtitle=ft.Text(subtitle),
        leading=ft.Icon(icon) if icon is not None else None,
        trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
        on_click=lambda _: ctx.navigate(route),
        tooltip=title,
        min_height=TAP + 8,
    )


def seat_text(n: int, name: str, words: Words) -> ft.Text:
    """A seated player's line, ``2. Ben``, read out as ``Seat 2: Ben`` (``n`` counts from 1)."""
    label = words.gettext("Seat {n}: {name}").format(n=n, name=name)
    return ft.Text(f"{n}. {name}", size=18, expand=True, semantics_label=label)


def heading(text: str) -> ft.Text:
    """A section heading."""
    return ft.Text(text, theme_style=ft.TextThemeStyle.TITLE_LARGE, semantics_label=text)


def paragraph(text: str) -> ft.Text:
    """Body text, comfortably large."""
    return ft.Text(text, size=16)


def suit_colour_value(suit: str, four_colour: bool) -> str:
    """The Flet colour of a suit symbol under the chosen scheme."""
    return _SUIT_COLOURS[suit_colour(suit, four_colour)]


def suits_sample(four_colour: bool, size: int = 32, words: Words | None = None) -> ft.Text:
    """The four suit symbols in their colours, labelled for screen readers (in ``words``' language)."""
    _ = (words or Words.of("en")).gettext
    label = _("Suits in four-colour: {suits}") if four_colour else _("Suits in two-colour: {suits}")
    return ft.Text(
        spans=[
            ft.TextSpan(f"{suit} ", style=ft.TextStyle(color=suit_colour_value(suit, four_colour), size=size))
            for suit in SUITS
        ],
        semantics_label=label.format(suits=", ".join(_(SUIT_NAMES[s]) for s in SUITS)),
    )


def panel(content: ft.Control, *, padding: int = 12) -> ft.Container:
    """A framed panel: a thin outline with rounded corners around ``content`` (entry panels, the scoreboard's
    parts, history rows)."""
    return ft.Container(
        content=content,
        padding=ft.Padding.all(padding),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=12,
    )


def empty_state(message: str, detail: str) -> ft.Control:
    """An honest "nothing here yet" panel."""
    return panel(
        ft.Column(
            [
                ft.Text(message, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, semantics_label=message),
                ft.Text(detail, size=16),
            ],
            spacing=8,
        ),
        padding=16,
    )


def card_label(words: Words, code: str) -> str:
    """A card's label as the table says it (``Q♥``; Swedish ``D♥``, German ``D♥``, unless the English letters are
    set; the Joker in the table's language): the letters of :meth:`companion.i18n.Words.note`.

    >>> card_label(Words.of("sv"), "QH"), card_label(Words.of("sv", english_ranks=True), "QH")
    ('D♥', 'Q♥')
    """
    return words.note(Note.of("{card}", card=Cards.of([code])))


def rank_label(words: Words, rank: str) -> str:
    """A rank alone (a value key: ``Q``) in the table's letters (Swedish ``D``, German ``D``; English when set).

    >>> rank_label(Words.of("sv"), "J"), rank_label(Words.of("de"), "A"), rank_label(Words.of("de"), "10")
    ('Kn', 'A', '10')
    """
    return words.note(Note.of("{rank}", rank=Rank(rank=rank)))
