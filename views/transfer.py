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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft

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
from companion.records import Archive, ImportReport, StorageError
from views.context import ViewContext
from views.widgets import TAP, big_button, heading, paragraph, screen

FORMATS = (("json", "JSON (to import elsewhere)"), ("csv", "CSV (for a spreadsheet)"))
PROGRESS_EVERY_S = 0.1
"""At most this often a running job's progress is sent to the page (a large import reports thousands of steps)."""


class JobProgress:
    """A progress bar and a line ("Importing: 120 of 1,000") for one long job; called as ``progress(done, total)``
    from the thread doing the work."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.bar = ft.ProgressBar(value=None, bar_height=8, semantics_label=f"{what}, progress")
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
            self._say(f"{self.what}: {done:,} of {total:,}")
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


def _report_text(report: ImportReport) -> str:
    return " ".join(report.messages) or "Nothing was imported."


def _async_button(label: str, handler: Callable[[Any], Awaitable[None]], icon: ft.IconData) -> ft.Control:
    """Like :func:`views.widgets.big_button`, for a handler that waits on the file picker."""
    return ft.OutlinedButton(
        content=label,
        icon=icon,
        on_click=handler,
        tooltip=label,
        height=TAP,
        expand=True,
        style=ft.ButtonStyle(text_style=ft.TextStyle(size=18)),
    )


def build(ctx: ViewContext, params: dict[str, str]) -> ft.View:
    """``/history/transfer``."""
    archive: Archive = ctx.services.archive
    export_status, import_status, backup_status = ft.Text("", size=16), ft.Text("", size=16), ft.Text("", size=16)

    def show(status: ft.Text, text: str, error: bool) -> None:
        status.value = text
        status.color = ft.Colors.ERROR if error else None
        status.update()

    def export_say(text: str, *, error: bool = False) -> None:
        show(export_status, text, error)

    def import_say(text: str, *, error: bool = False) -> None:
        show(import_status, text, error)

    def backup_say(text: str, *, error: bool = False) -> None:
        show(backup_status, text, error)

    # --- export
    fmt = ft.RadioGroup(
        value="json",
        content=ft.Column(
            [ft.Radio(value=key, label=label, label_style=ft.TextStyle(size=16), height=TAP) for key, label in FORMATS],
            spacing=0,
        ),
    )

    def export_here(_: Any) -> None:
        try:
            path = export_to_folder(archive, fmt.value or "json")
        except (StorageError, OSError) as exc:
            export_say(f"The export could not be saved: {exc}", error=True)
            return
        export_say(f"Exported {len(archive)} sessions to {path}")

    async def export_save_as(_: Any) -> None:
        chosen = fmt.value or "json"
        try:
            data = archive.export_sessions(None, chosen)
            picker = ft.FilePicker()
            saved = await picker.save_file(
                dialog_title="Save the export", file_name=export_name(chosen), src_bytes=data
            )
        except (StorageError, OSError, ValueError) as exc:
            export_say(f"The export could not be offered: {exc}", error=True)
            return
        export_say(f"Export saved as {saved}" if saved else "Export offered for download.")

    # --- import
    path_field = ft.TextField(label="File to import (path)", tooltip="File to import", expand=True)

    importing = JobProgress("Importing")
    sending = JobProgress("Sending the file")
    uploads = uploads_folder(archive.data_dir)

    def import_typed(_: Any) -> None:
        importing.start()
        try:
            report = import_path(archive, path_field.value or "", importing)
        finally:
            importing.end()
        import_say(_report_text(report), error=not report.ok)

    async def import_picked(_: Any) -> None:
        try:
            picked = await pick_file(ctx.page, "Choose an export", "json", uploads, sending)
        except (OSError, ValueError) as exc:
            import_say(f"No file could be imported: {exc}", error=True)
            return
        if picked is None:
            import_say("No file was chosen.")
            return
        importing.start()
        try:  # off the page's event loop, so that the progress reaches the page while it runs
            if picked.data is not None:
                report = await asyncio.to_thread(import_bytes, archive, picked.name, picked.data, importing)
            else:
                report = await asyncio.to_thread(import_path, archive, str(picked.path), importing)
        finally:
            importing.end()
            picked.discard()
        if picked.copy:  # the messages name the file as the person knows it, not the copy it arrived as
            report.messages = [m.replace(picked.path.name if picked.path else "", picked.name) for m in report.messages]
        import_say(_report_text(report), error=not report.ok)

    # --- backups
    backups = ft.Column(spacing=4)
    restore_field = ft.TextField(label="Backup to restore (path)", tooltip="Backup to restore", expand=True)

    def list_backups() -> None:
        rows: list[ft.Control] = []
        for path in archive.list_backups()[:10]:
            rows.append(
                ft.Row(
                    [
                        ft.Text(path.name, size=14, expand=True),
                        ft.Semantics(  # named and activated here, for a screen reader
                            label=f"Restore {path.name}",
                            button=True,
                            container=True,
                            on_tap=lambda _, p=path: ask_restore(p),
                            content=ft.OutlinedButton(
                                content="Restore",
                                on_click=functools.partial(restore_listed, path),
                                tooltip=f"Restore {path.name}",
                                height=TAP,
                            ),
                        ),
                    ]
                )
            )
        backups.controls = rows or [paragraph("No backups yet.")]

    confirm = ft.Column(visible=False, spacing=8)
    backing_up = JobProgress("Backing up")
    checking = JobProgress("Checking the backup")
    restoring = JobProgress("Restoring")

    async def ask_restore(picked: Picked) -> None:
        """Check the whole backup first (nothing changes if it is refused), then ask before replacing; a backup
        of no session asks whether to empty the archive."""
        hide_confirm()
        if picked.data is not None:
            try:
                picked = Picked(picked.name, keep_picked(archive, picked.name, picked.data), copy=True)
            except (StorageError, OSError) as exc:
                backup_say(f"Nothing was restored: {picked.name} could not be kept for restoring ({exc})", error=True)
                return
        checking.start()
        try:
            checked = await asyncio.to_thread(check_backup_file, picked.path or Path(), picked.name, checking)
        except (StorageError, OSError, ValueError) as exc:
            picked.discard()
            backup_say(f"Nothing was restored: {exc}", error=True)
            return
        finally:
            checking.end()
        here = len(archive)
        if checked.empty:
            question = (
                f"{picked.name} holds no sessions: restoring it empties the archive ({here} sessions here now; they "
                "are backed up first). Empty the archive?"
            )
            yes = "Yes, empty the archive"
        else:
            question = (
                f"Replace the {here} sessions here by the {len(checked.sessions)} sessions in {picked.name}? The "
                "current state is backed up first."
            )
            yes = "Yes, restore"
        confirm.controls = [
            ft.Text(question, size=15),
            ft.Row(
                [
                    ft.FilledButton(
                        content=yes, on_click=functools.partial(do_restore, checked, picked), tooltip=yes, height=TAP
                    ),
                    ft.OutlinedButton(
                        content="Cancel", on_click=lambda _: cancel_restore(picked), tooltip="Cancel", height=TAP
                    ),
                ],
                wrap=True,
            ),
        ]
        confirm.visible = True
        confirm.update()

    def hide_confirm() -> None:
        confirm.visible = False
        with contextlib.suppress(RuntimeError):
            confirm.update()

    def cancel_restore(picked: Picked) -> None:
        picked.discard()
        hide_confirm()
        backup_say("Nothing was restored.")

    async def do_restore(checked: CheckedBackup, picked: Picked, _: Any) -> None:
        hide_confirm()
        restoring.start()
        try:  # off the page's event loop, so that the progress reaches the page while it runs
            count = await asyncio.to_thread(restore_checked, archive, checked, restoring)
        except (StorageError, OSError, ValueError) as exc:
            backup_say(f"Nothing was restored: {exc}", error=True)
        else:
            backup_say(f"Restored {count} sessions from {picked.name}.")
        finally:
            restoring.end()
            picked.discard()
        list_backups()
        backups.update()

    async def restore_listed(path: Path, _: Any) -> None:
        await ask_restore(Picked(path.name, path))

    async def restore_picked(_: Any) -> None:
        try:
            picked = await pick_file(ctx.page, "Choose a backup", "zip", uploads, sending)
        except (OSError, ValueError) as exc:
            backup_say(f"Nothing was restored: {exc}", error=True)
            return
        if picked is None:
            backup_say("No file was chosen.")
            return
        await ask_restore(picked)

    async def restore_typed(_: Any) -> None:
        text = (restore_field.value or "").strip()
        if not text:
            backup_say("Type the path of a backup file.", error=True)
            return
        path = Path(text).expanduser()
        await ask_restore(Picked(path.name, path))

    def backup_now(_: Any) -> None:
        backing_up.start()
        try:
            path = archive.backup(progress=backing_up)
        except (StorageError, OSError) as exc:
            backup_say(f"The backup could not be made: {exc}", error=True)
            return
        finally:
            backing_up.end()
        backup_say(f"Backed up {len(archive)} sessions to {path}")
        list_backups()
        backups.update()

    list_backups()
    controls: list[ft.Control] = [
        heading("Export"),
        paragraph("Every session, with its hands and edit log."),
        fmt,
        ft.Row([big_button("Export to the data folder", export_here, icon=ft.Icons.SAVE_ALT, primary=True)]),
        ft.Row([_async_button("Save as…", export_save_as, ft.Icons.DOWNLOAD)]),
        export_status,
        heading("Import"),
        paragraph("A JSON export of this app, or a game record. Games already here are skipped."),
        ft.Row([_async_button("Choose a file…", import_picked, ft.Icons.UPLOAD_FILE)]),
        ft.Row(
            [
                path_field,
                ft.FilledButton(content="Import", on_click=import_typed, tooltip="Import", height=TAP),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        sending.control,
        importing.control,
        import_status,
        heading("Backups"),
        paragraph(
            "A backup holds every session, the players and the settings. Restoring one first backs up what is here now."
        ),
        ft.Row([big_button("Back up now", backup_now, icon=ft.Icons.BACKUP)]),
        backing_up.control,
        checking.control,
        restoring.control,
        backup_status,
        backups,
        ft.Row([_async_button("Choose a backup to restore…", restore_picked, ft.Icons.RESTORE)]),
        ft.Row(
            [
                restore_field,
                ft.OutlinedButton(content="Restore", on_click=restore_typed, tooltip="Restore", height=TAP),
            ],
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        confirm,
    ]
    return screen(ctx, "Export and backup", controls)
