"""Export, import, backup and restore, from the UI (through :mod:`storage`).

* Export every session as JSON (to move to another phone) or CSV (for a spreadsheet): saved in the data folder's
  ``exports`` (the path is shown) and, on request, offered as a download / "Save as" through Flet's file picker.
* Import a JSON export (or a bare game record): pick a file (Flet's file picker; in the browser view its bytes come
  over the page's own connection, so it works offline), or type its path.
* Back up the whole archive now, list the backups, and restore one: from the list, a picked file or a typed path
  (the current state is backed up first).

Import, backup and restore show a progress bar with "n of N" while they run (storage reports ``progress(done,
total)`` from the thread doing the work).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft
from babel.numbers import format_decimal

from companion.history import (
    CheckedBackup,
    check_backup_file,
    export_name,
    export_to_folder,
    import_bytes,
    import_path,
    keep_picked,
    restore_checked,
    uploads_folder,
)
from companion.i18n import N_, Words
from companion.storage_types import Archive, ImportReport, StorageError
from views.context import ViewContext
from views.widgets import TAP, big_button, heading, paragraph, screen

FORMATS = (("json", N_("JSON (to import elsewhere)")), ("csv", N_("CSV (for a spreadsheet)")))
ENGLISH = Words.of("en")
PROGRESS_EVERY_S = 0.1
"""At most this often a running job's progress is sent to the page (a large import reports thousands of steps)."""


class JobProgress:
    """A progress bar and a line ("Importing: 120 of 1,000") for one long job; called as ``progress(done, total)``
    from the thread doing the work."""

    def __init__(self, what: str, words: Words = ENGLISH) -> None:
        self.what = what
        self.words = words
        said = words.gettext("{what}, progress").format(what=what)
        self.bar = ft.ProgressBar(value=None, bar_height=8, semantics_label=said)
        self.line = ft.Text("", size=14)
        self.control = ft.Column([self.bar, self.line], spacing=4, visible=False)
        self._lock = threading.Lock()
        self._sent = 0.0

    def start(self) -> None:
        """The job begins: the bar shows, moving until the first step is reported."""
        with self._lock:
            self.bar.value = None
            self._say(f"{self.what}…")
            self.control.visible = True
        self._push()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        with self._lock:
            if done < total and now - self._sent < PROGRESS_EVERY_S:
                return
            self._sent = now
            self.bar.value = min(1.0, done / total) if total > 0 else None
            self._say(
                self.words.gettext("{what}: {done} of {total}").format(
                    what=self.what,
                    done=format_decimal(done, locale=self.words.locale),
                    total=format_decimal(total, locale=self.words.locale),
                )
            )
        self._push()

    def end(self) -> None:
        """The job is over (its result is said in the section's status line)."""
        with self._lock:
            self.control.visible = False
        self._push()

    def _say(self, text: str) -> None:
        self.line.value = text
        self.line.semantics_label = text

    def _push(self) -> None:
        with contextlib.suppress(RuntimeError):  # not on a page (built but not shown): drawn with the page later
            self.control.update()


UPLOAD_URL_S = 900
"""How long a signed upload URL is valid (a 50 MB backup over a slow Wi-Fi link)."""
UPLOAD_WAIT_S = 900.0
"""How long the screen waits for a picked file to arrive before it gives up."""


@dataclass
class Picked:
    """A file the person picked: its name, and where it is now (a path, or its bytes)."""

    name: str
    path: Path | None = None
    data: bytes | None = None
    copy: bool = False
    """``path`` is a copy made for this job (uploaded, or kept from the bytes), removed by :meth:`discard`."""

    def discard(self) -> None:
        if self.copy and self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)


def _upload_url(page: ft.Page, name: str) -> str | None:
    """A signed URL for uploading a picked file as ``name``, or ``None`` when the page is not served with Flet's
    upload endpoint (the desktop window, which gets paths; a server started without an upload folder)."""
    if not page.web:
        return None
    try:
        return page.get_upload_url(name, UPLOAD_URL_S)
    except (RuntimeError, AttributeError):
        return None


async def pick_file(page: ft.Page, title: str, extension: str, folder: Path, sending: JobProgress) -> Picked | None:
    """Let the person pick one file; ``None`` if they picked none. In the browser view the file is uploaded over
    HTTP into ``folder`` (Flet's upload endpoint, as big as the restore limit, never bound by the page's WebSocket
    message limit); elsewhere the picker gives its path (or, without an upload endpoint, its bytes). Raises
    :class:`ValueError` saying why the file did not arrive."""
    name = f"{uuid.uuid4().hex}.{extension}"
    url = _upload_url(page, name)
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def uploaded(e: ft.FilePickerUploadEvent) -> None:
        if done.done():
            return
        if e.error:
            done.set_exception(ValueError(f"it could not be sent to the app ({e.error})"))
        elif e.progress is not None and e.progress >= 1.0:
            done.set_result(None)
        elif e.progress is not None:
            sending(round(e.progress * 100), 100)

    picker = ft.FilePicker(on_upload=uploaded)
    files = await picker.pick_files(
        dialog_title=title,
        file_type=ft.FilePickerFileType.CUSTOM,
        allowed_extensions=[extension],
        with_data=url is None and page.web,
    )
    if not files:
        return None
    chosen = files[0]
    if chosen.path:
        return Picked(chosen.name, Path(chosen.path))
    if chosen.bytes is not None:
        return Picked(chosen.name, data=chosen.bytes)
    if url is None:
        raise ValueError(f"{chosen.name} could not be read")
    target = folder / name
    sending.start()
    try:
        await picker.upload([ft.FilePickerUploadFile(upload_url=url, id=chosen.id, name=chosen.name)])
        await asyncio.wait_for(done, UPLOAD_WAIT_S)
    except TimeoutError:
        raise ValueError(f"{chosen.name} did not arrive within {UPLOAD_WAIT_S / 60:.0f} minutes") from None
    except ValueError as exc:
        target.unlink(missing_ok=True)
        raise ValueError(f"{chosen.name}: {exc}") from None
    finally:
        sending.end()
    picked = Picked(chosen.name, target, copy=True)
    if not target.is_file() or target.stat().st_size != chosen.size:
        picked.discard()
        raise ValueError(f"{chosen.name} arrived incomplete; try again")
    return picked


def _report_text(report: ImportReport, words: Words) -> str:
    return " ".join(report.messages) or words.gettext("Nothing was imported.")


class Status:
    """A section's status line: what its last action did, in red when it was refused."""

    def __init__(self) -> None:
        self.control = ft.Text("", size=16)

    def say(self, text: str, *, error: bool = False) -> None:
        self.control.value = text
        self.control.color = ft.Colors.ERROR if error else None
        self.control.update()


class ExportSection:
    """Every session as JSON or CSV: into the data folder's ``exports``, or offered through "Save as"."""

    def __init__(self, archive: Archive, words: Words = ENGLISH) -> None:
        self.archive = archive
        self.words = words
        self.status = Status()
        self.fmt = ft.RadioGroup(
            value="json",
            content=ft.Column(
                [
                    ft.Radio(value=key, label=words.gettext(label), label_style=ft.TextStyle(size=16), height=TAP)
                    for key, label in FORMATS
                ],
                spacing=0,
            ),
        )

    def controls(self) -> list[ft.Control]:
        _ = self.words.gettext
        return [
            heading(_("Export")),
            paragraph(_("Every session, with its hands and edit log.")),
            self.fmt,
            ft.Row(
                [big_button(_("Export to the data folder"), self.export_here, icon=ft.Icons.SAVE_ALT, primary=True)]
            ),
            ft.Row([big_button(_("Save as…"), self.save_as, icon=ft.Icons.DOWNLOAD)]),
            self.status.control,
        ]

    def export_here(self, event: Any) -> None:
        _ = self.words.gettext
        try:
            path = export_to_folder(self.archive, self.fmt.value or "json")
        except (StorageError, OSError) as exc:
            self.status.say(_("The export could not be saved: {error}").format(error=exc), error=True)
            return
        self.status.say(_("Exported {n} sessions to {path}").format(n=len(self.archive), path=path))

    async def save_as(self, event: Any) -> None:
        _ = self.words.gettext
        chosen = self.fmt.value or "json"
        try:
            data = self.archive.export_sessions(None, chosen)
            picker = ft.FilePicker()
            saved = await picker.save_file(
                dialog_title=_("Save the export"), file_name=export_name(chosen), src_bytes=data
            )
        except (StorageError, OSError, ValueError) as exc:
            self.status.say(_("The export could not be offered: {error}").format(error=exc), error=True)
            return
        self.status.say(_("Export saved as {path}").format(path=saved) if saved else _("Export offered for download."))


class FileSection:
    """A section that takes a file the person picks (sent over the page in the browser view, shown by ``sending``)."""

    def __init__(self, ctx: ViewContext, sending: JobProgress) -> None:
        self.ctx = ctx
        self.words = ctx.words
        self.archive: Archive = ctx.services.archive
        self.sending = sending
        self.status = Status()

    async def choose(self, title: str, extension: str, refused: str) -> Picked | None:
        """:func:`pick_file` for this section: ``None`` when nothing was picked or it did not arrive, said in the
        status line (``refused`` begins the sentence that says why)."""
        folder = uploads_folder(self.archive.data_dir)
        try:
            picked = await pick_file(self.ctx.page, title, extension, folder, self.sending)
        except (OSError, ValueError) as exc:
            self.status.say(f"{refused}: {exc}", error=True)
            return None
        if picked is None:
            self.status.say(self.words.gettext("No file was chosen."))
        return picked


class ImportSection(FileSection):
    """A JSON export (or a bare game record), picked or typed as a path, with its progress."""

    def __init__(self, ctx: ViewContext, sending: JobProgress) -> None:
        super().__init__(ctx, sending)
        _ = self.words.gettext
        self.importing = JobProgress(_("Importing"), self.words)
        self.path_field = ft.TextField(label=_("File to import (path)"), tooltip=_("File to import"), expand=True)

    def controls(self) -> list[ft.Control]:
        _ = self.words.gettext
        return [
            heading(_("Import")),
            paragraph(_("A JSON export of this app, or a game record. Games already here are skipped.")),
            ft.Row([big_button(_("Choose a file…"), self.import_picked, icon=ft.Icons.UPLOAD_FILE)]),
            ft.Row(
                [
                    self.path_field,
                    ft.FilledButton(content=_("Import"), on_click=self.import_typed, tooltip=_("Import"), height=TAP),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            self.sending.control,
            self.importing.control,
            self.status.control,
        ]

    def import_typed(self, event: Any) -> None:
        self.importing.start()
        try:
            report = import_path(self.archive, self.path_field.value or "", self.importing, self.words)
        finally:
            self.importing.end()
        self.status.say(_report_text(report, self.words), error=not report.ok)

    async def import_picked(self, event: Any) -> None:
        _ = self.words.gettext
        picked = await self.choose(_("Choose an export"), "json", _("No file could be imported"))
        if picked is None:
            return
        self.importing.start()
        try:  # off the page's event loop, so that the progress reaches the page while it runs
            if picked.data is not None:
                report = await asyncio.to_thread(
                    import_bytes, self.archive, picked.name, picked.data, self.importing, self.words
                )
            else:
                report = await asyncio.to_thread(
                    import_path, self.archive, str(picked.path), self.importing, self.words
                )
        finally:
            self.importing.end()
            picked.discard()
        if picked.copy:  # the messages name the file as the person knows it, not the copy it arrived as
            report.messages = [m.replace(picked.path.name if picked.path else "", picked.name) for m in report.messages]
        self.status.say(_report_text(report, self.words), error=not report.ok)


class BackupSection(FileSection):
    """Back up now, the latest backups, and a restore (listed, picked or typed) checked whole and asked first."""

    def __init__(self, ctx: ViewContext, sending: JobProgress) -> None:
        super().__init__(ctx, sending)
        _ = self.words.gettext
        self.backups = ft.Column(spacing=4)
        self.restore_field = ft.TextField(
            label=_("Backup to restore (path)"), tooltip=_("Backup to restore"), expand=True
        )
        self.confirm = ft.Column(visible=False, spacing=8)
        self.backing_up = JobProgress(_("Backing up"), self.words)
        self.checking = JobProgress(_("Checking the backup"), self.words)
        self.restoring = JobProgress(_("Restoring"), self.words)

    def controls(self) -> list[ft.Control]:
        _ = self.words.gettext
        self.list_backups()
        return [
            heading(_("Backups")),
            paragraph(
                _(
                    "A backup holds every session, the players and the settings. Restoring one first backs up what "
                    "is here now."
                )
            ),
            ft.Row([big_button(_("Back up now"), self.backup_now, icon=ft.Icons.BACKUP)]),
            self.backing_up.control,
            self.checking.control,
            self.restoring.control,
            self.status.control,
            self.backups,
            ft.Row([big_button(_("Choose a backup to restore…"), self.restore_picked, icon=ft.Icons.RESTORE)]),
            ft.Row(
                [
                    self.restore_field,
                    ft.OutlinedButton(
                        content=_("Restore"), on_click=self.restore_typed, tooltip=_("Restore"), height=TAP
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
            self.confirm,
        ]

    def list_backups(self) -> None:
        _ = self.words.gettext
        rows: list[ft.Control] = []
        for path in self.archive.list_backups()[:10]:
            rows.append(
                ft.Row(
                    [
                        ft.Text(path.name, size=14, expand=True),
                        ft.Semantics(  # named and activated here, for a screen reader
                            label=_("Restore {file}").format(file=path.name),
                            button=True,
                            container=True,
                            on_tap=functools.partial(self.restore_listed, path),
                            content=ft.OutlinedButton(
                                content=_("Restore"),
                                on_click=functools.partial(self.restore_listed, path),
                                tooltip=_("Restore {file}").format(file=path.name),
                                height=TAP,
                            ),
                        ),
                    ]
                )
            )
        self.backups.controls = rows or [paragraph(_("No backups yet."))]

    async def ask_restore(self, picked: Picked) -> None:
        """Check the whole backup first (nothing changes if it is refused), then ask before replacing; a backup
        of no session asks whether to empty the archive."""
        _ = self.words.gettext
        self.hide_confirm()
        if picked.data is not None:
            try:
                picked = Picked(picked.name, keep_picked(self.archive, picked.name, picked.data), copy=True)
            except (StorageError, OSError) as exc:
                self.status.say(
                    _("Nothing was restored: {file} could not be kept for restoring ({error})").format(
                        file=picked.name, error=exc
                    ),
                    error=True,
                )
                return
        self.checking.start()
        try:
            checked = await asyncio.to_thread(check_backup_file, picked.path or Path(), picked.name, self.checking)
        except (StorageError, OSError, ValueError) as exc:
            picked.discard()
            self.status.say(_("Nothing was restored: {error}").format(error=exc), error=True)
            return
        finally:
            self.checking.end()
        self.ask(checked, picked)

    def ask(self, checked: CheckedBackup, picked: Picked) -> None:
        """The question before a restore replaces the archive, with its two answers."""
        _ = self.words.gettext
        here = len(self.archive)
        if checked.empty:
            question = _(
                "{file} holds no sessions: restoring it empties the archive ({n} sessions here now; they are backed "
                "up first). Empty the archive?"
            ).format(file=picked.name, n=here)
            yes = _("Yes, empty the archive")
        else:
            question = _(
                "Replace the {here} sessions here by the {n} sessions in {file}? The current state is backed up first."
            ).format(here=here, n=len(checked.sessions), file=picked.name)
            yes = _("Yes, restore")
        self.confirm.controls = [
            ft.Text(question, size=15),
            ft.Row(
                [
                    ft.FilledButton(
                        content=yes,
                        on_click=functools.partial(self.do_restore, checked, picked),
                        tooltip=yes,
                        height=TAP,
                    ),
                    ft.OutlinedButton(
                        content=_("Cancel"),
                        on_click=lambda e: self.cancel_restore(picked),
                        tooltip=_("Cancel"),
                        height=TAP,
                    ),
                ],
                wrap=True,
            ),
        ]
        self.confirm.visible = True
        self.confirm.update()

    def hide_confirm(self) -> None:
        self.confirm.visible = False
        with contextlib.suppress(RuntimeError):
            self.confirm.update()

    def cancel_restore(self, picked: Picked) -> None:
        picked.discard()
        self.hide_confirm()
        self.status.say(self.words.gettext("Nothing was restored."))

    async def do_restore(self, checked: CheckedBackup, picked: Picked, event: Any) -> None:
        _ = self.words.gettext
        self.hide_confirm()
        self.restoring.start()
        try:  # off the page's event loop, so that the progress reaches the page while it runs
            count = await asyncio.to_thread(restore_checked, self.archive, checked, self.restoring)
        except (StorageError, OSError, ValueError) as exc:
            self.status.say(_("Nothing was restored: {error}").format(error=exc), error=True)
        else:
            self.status.say(_("Restored {n} sessions from {file}.").format(n=count, file=picked.name))
        finally:
            self.restoring.end()
            picked.discard()
        self.list_backups()
        self.backups.update()

    async def restore_listed(self, path: Path, event: Any) -> None:
        await self.ask_restore(Picked(path.name, path))

    async def restore_picked(self, event: Any) -> None:
        _ = self.words.gettext
        picked = await self.choose(_("Choose a backup"), "zip", _("Nothing was restored"))
        if picked is not None:
            await self.ask_restore(picked)

    async def restore_typed(self, event: Any) -> None:
        text = (self.restore_field.value or "").strip()
        if not text:
            self.status.say(self.words.gettext("Type the path of a backup file."), error=True)
            return
        path = Path(text).expanduser()
        await self.ask_restore(Picked(path.name, path))

    def backup_now(self, event: Any) -> None:
        _ = self.words.gettext
        self.backing_up.start()
        try:
            path = self.archive.backup(progress=self.backing_up)
        except (StorageError, OSError) as exc:
            self.status.say(_("The backup could not be made: {error}").format(error=exc), error=True)
            return
        finally:
            self.backing_up.end()
        self.status.say(_("Backed up {n} sessions to {path}").format(n=len(self.archive), path=path))
        self.list_backups()
        self.backups.update()


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/history/transfer``: export, import and backups, each section with its own status line."""
    _ = ctx.words.gettext
    sending = JobProgress(_("Sending the file"), ctx.words)
    sections = (
        ExportSection(ctx.services.archive, ctx.words),
        ImportSection(ctx, sending),
        BackupSection(ctx, sending),
    )
    return screen(ctx, _("Export and backup"), [control for section in sections for control in section.controls()])
