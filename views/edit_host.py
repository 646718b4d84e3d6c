"""One edit host: what a screen does with an edit a person asked for, the same on the host's table, on a phone
with the PIN and in History's correction.

The screen gives :class:`EditHost` how its edits are made (the host's table: :meth:`TableSession.make
<companion.session.TableSession.make>`; a phone: :meth:`LiveTable.apply_as <companion.sharing.LiveTable.apply_as>`,
which checks the PIN first) and where to say what happened. Then every outcome is handled here, once:

* made: the message goes away and ``on_made(edit)`` redraws (or leaves a correction screen);
* made but not saved (a full disk): kept in memory; the table screen's banner offers "Retry save";
* made on an older version of the game, or no longer allowed (the PIN was revoked): said, and ``on_stale`` shows
  the newest state (what was being entered is offered again on it);
* refused by the game (an impossible hand, nothing to undo...): said, with "Nothing was changed".

No Flet in here.

>>> from companion.session import Edit, NothingToUndoError
>>> said = []
>>> def refuse(edit):
...     raise NothingToUndoError("there is nothing to undo")
>>> EditHost(refuse, report=said.append).submit(Edit.undo())
False
>>> said
['there is nothing to undo. Nothing was changed.']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.i18n import Words
from companion.session import EDIT_REFUSALS, Edit, EditKind, SaveFailedError, StaleEditError
from companion.sharing import NotAllowedError, SharingError

Report = Callable[[str | None], None]
ENGLISH = Words.of("en")
REFUSED: tuple[type[Exception], ...] = (*EDIT_REFUSALS, SharingError)
"""What a screen's edit can be refused with: the session's refusals, and the live table's."""


def _nothing(*_: Any) -> None:
    return None


class EditHost:
    """Makes a screen's edits and reports the outcome (see the module's description)."""

    def __init__(
        self,
        make: Callable[[Edit], Any],
        *,
        report: Report,
        on_made: Callable[[Edit], None] = _nothing,
        on_stale: Callable[[], None] = _nothing,
        can_make: Callable[[Edit], bool] | None = None,
        words: Words = ENGLISH,
    ) -> None:
        self._make = make
        self._can_make = can_make
        self.report = report
        self.on_made = on_made
        self.on_stale = on_stale
        self.words = words

    def submit(self, edit: Edit) -> bool:
        """Make ``edit``; ``True`` when it was made (saved, or kept in memory after a failed save)."""
        try:
            self._make(edit)
        except SaveFailedError:
            pass  # made, and kept in memory: the table screen's banner offers Retry save
        except (StaleEditError, NotAllowedError) as exc:
            self.report(str(exc))
            self.on_stale()
            return False
        except REFUSED as exc:
            self.report(refusal(exc, edit, self.words))
            return False
        self.report(None)
        self.on_made(edit)
        return True

    def can_submit(self, edit: Edit) -> bool:
        """Whether ``edit`` would be made now (for greying out a control); ``True`` when the screen cannot tell."""
        return self._can_make(edit) if self._can_make is not None else True


def refusal(error: Exception, edit: Edit, words: Words = ENGLISH) -> str:
    """What a refused edit says: the reason, and that nothing changed (an entry is kept for another try).

    >>> from companion.session import Edit
    >>> refusal(ValueError("Ann's card is missing"), Edit.add({}))
    "Ann's card is missing. Nothing was changed; your entry is still here."
    """
    reason = str(getattr(error, "message", None) or error).rstrip(".")
    if edit.kind in (EditKind.ADD, EditKind.REPLACE):
        return words.gettext("{reason}. Nothing was changed; your entry is still here.").format(reason=reason)
    return words.gettext("{reason}. Nothing was changed.").format(reason=reason)
