"""One edit host: what a screen does with an edit a person asked for, the same on the host's table, on a phone
with the PIN and in History's correction.

The screen gives :class:`EditHost` where its edits go (an :class:`EditTarget`: the host's table is the
:class:`TableSession <companion.session.TableSession>` itself; a phone's page makes them through
:meth:`LiveTable.apply_as <companion.sharing.LiveTable.apply_as>`, which checks the PIN first) and where to say what
happened. An edit goes down once (:meth:`EditHost.submit`), and every outcome is handled here, once; what it was
comes back as a value, an :class:`Outcome`, for the screen to act on (the change itself comes back through the
session's listener):

* made: the message goes away (a correction screen then leaves);
* made but not saved (a full disk): kept in memory, and made; the table screen's banner offers "Retry save";
* made on an older version of the game, or no longer allowed (the PIN was revoked): said, and ``STALE`` (the screen
  shows the newest state; what was being entered is offered again on it);
* refused by the game (an impossible hand, nothing to undo...): said, with "Nothing was changed".

No Flet in here.

>>> from companion.session import Edit, NothingToUndoError
>>> class Refusing:
...     def make(self, edit):
...         raise NothingToUndoError("there is nothing to undo")
...     def can_make(self, edit):
...         return False
>>> said = []
>>> EditHost(Refusing(), report=said.append).submit(Edit.undo())
<Outcome.REFUSED: 'refused'>
>>> said
['there is nothing to undo. Nothing was changed.']
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, Protocol

from companion.i18n import Words
from companion.session import EDIT_REFUSALS, Edit, EditKind, SaveFailedError, StaleEditError
from companion.sharing import NotAllowedError, SharingError
from scoring.why import Note

Report = Callable[[str | None], None]
REFUSED: tuple[type[Exception], ...] = (*EDIT_REFUSALS, SharingError)
"""What a screen's edit can be refused with: the session's refusals, and the live table's."""


class EditTarget(Protocol):
    """Where a screen's edits go down: :class:`~companion.session.TableSession` itself, or a phone's seat."""

    def make(self, edit: Edit) -> Any: ...

    def can_make(self, edit: Edit) -> bool: ...


class Outcome(Enum):
    """What became of an edit: made (``True``), or not (``False``): made on an older version or no longer allowed
    (``STALE``: the screen shows the newest state), or refused."""

    MADE = "made"
    STALE = "stale"
    REFUSED = "refused"

    def __bool__(self) -> bool:
        return self is Outcome.MADE


class EditHost:
    """Makes a screen's edits on its :class:`EditTarget` and reports the outcome (see the module's description)."""

    def __init__(self, target: EditTarget, *, report: Report, words: Words | None = None) -> None:
        self.words = words or Words.of("en")
        """The table's language, for what is said."""
        self.target = target
        self.report = report

    def submit(self, edit: Edit) -> Outcome:
        """Make ``edit``; :attr:`Outcome.MADE` when it was made (saved, or kept in memory after a failed save)."""
        try:
            self.target.make(edit)
        except SaveFailedError:
            pass  # made, and kept in memory: the table screen's banner offers Retry save
        except (StaleEditError, NotAllowedError) as exc:
            why = getattr(exc, "why", None)
            self.report(self.words.note(why) if isinstance(why, Note) else str(exc))
            return Outcome.STALE
        except REFUSED as exc:
            self.report(refusal(exc, edit, self.words))
            return Outcome.REFUSED
        self.report(None)
        return Outcome.MADE

    def can_submit(self, edit: Edit) -> bool:
        """Whether ``edit`` would be made now (for greying out a control)."""
        return self.target.can_make(edit)


def refusal(error: Exception, edit: Edit, words: Words | None = None) -> str:
    """What a refused edit says: the reason, and that nothing changed (an entry is kept for another try).

    >>> from companion.session import Edit
    >>> refusal(ValueError("Ann's card is missing"), Edit.add({}))
    "Ann's card is missing. Nothing was changed; your entry is still here."
    """
    words = words or Words.of("en")
    why = getattr(error, "why", None)
    reason = (words.note(why) if isinstance(why, Note) else str(getattr(error, "message", None) or error)).rstrip(".")
    if edit.kind in (EditKind.ADD, EditKind.REPLACE):
        return words.gettext("{reason}. Nothing was changed; your entry is still here.").format(reason=reason)
    return words.gettext("{reason}. Nothing was changed.").format(reason=reason)
