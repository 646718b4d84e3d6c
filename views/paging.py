"""A long list shown a page at a time: the first rows, a count, and a "Show more" button that adds the next page.

With 10,000 sessions in the archive a screen that drew every row would send megabytes and tens of thousands of
controls; this one sends :data:`~companion.history.PAGE_SIZE` rows. "Show more" appends the next page to the same
column, so only the new rows go to the page. Filtering is done by the caller over the whole list; :meth:`Paged.show`
then starts again at the first page.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import flet as ft

from companion.history import PAGE_SIZE, count_in, count_text, page_end
from companion.i18n import N_, Words
from views.widgets import big_button

T = TypeVar("T")

SHOW_MORE = N_("Show more")
"""The label of the button that adds the next page (tests and screen readers find it by this)."""


class Paged(Generic[T]):
    """The rows of ``items`` (built by ``make_row``) a page at a time, with a count line (``noun`` names a row)."""

    def __init__(
        self,
        make_row: Callable[[T], ft.Control],
        *,
        noun: str,
        empty: Callable[[], Sequence[ft.Control]],
        page_size: int = PAGE_SIZE,
        spacing: float = 0,
        show_count: str = "always",
        first: str = "newest",
        words: Words | None = None,
    ) -> None:
        self.make_row = make_row
        self.noun = noun
        self.empty = empty
        self.page_size = page_size
        self.show_count = show_count
        """``always``, ``if-any`` (not for an empty list) or ``if-cut`` (only while some rows are not shown)."""
        self.first = first
        self.words = words
        """The table's words for the count and the button (English when ``None``)."""
        self.items: Sequence[T] = ()
        self.shown = 0
        self.listing = ft.Column(spacing=spacing)
        self.count = ft.Text("", size=15)
        self.more = ft.Row(
            [
                big_button(
                    words.gettext(SHOW_MORE) if words is not None else SHOW_MORE,
                    lambda _: self.show_more(),
                    icon=ft.Icons.EXPAND_MORE,
                )
            ],
            visible=False,
        )

    @property
    def controls(self) -> list[ft.Control]:
        """The count line, the rows and the "Show more" button, in that order."""
        return [self.count, self.listing, self.more]

    def show(self, items: Sequence[T], *, update: bool = False) -> None:
        """Show the first page of ``items`` (a new filter's result, say)."""
        self.items = items
        self.shown = page_end(len(items), 0, self.page_size)
        rows = [self.make_row(item) for item in items[: self.shown]]
        self.listing.controls = rows or list(self.empty())
        self._sync()
        if update:
            self._update()

    def show_more(self) -> None:
        """Append the next page of rows (only they are sent to the page)."""
        end = page_end(len(self.items), self.shown, self.page_size)
        self.listing.controls.extend(self.make_row(item) for item in self.items[self.shown : end])
        self.shown = end
        self._sync()
        self._update()

    def _update(self) -> None:
        for control in self.controls:
            with contextlib.suppress(RuntimeError):  # not on a page (a screen built in a unit test)
                control.update()

    def _sync(self) -> None:
        if self.words is None:
            self.count.value = count_text(len(self.items), self.shown, self.noun, self.first)
        else:
            self.count.value = count_in(len(self.items), self.shown, self.noun, self.first, self.words)
        cut = self.shown < len(self.items)
        self.count.visible = {"if-any": bool(self.items), "if-cut": cut}.get(self.show_count, True)
        self.more.visible = cut
