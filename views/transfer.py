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
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import flet as ft

from companion.history import export_name, export_to_folder, import_bytes, import_path, restore_bytes
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

    def import_typed(_: Any) -> None:
        importing.start()
        try:
            report = import_path(archive, path_field.value or "", importing)
        finally:
            importing.end()
        import_say(_report_text(report), error=not report.ok)

    async def import_picked(_: Any) -> None:
        try:
            picker = ft.FilePicker()
            files = await picker.pick_files(
                dialog_title="Choose an export",
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json"],
                with_data=True,
            )
        except (OSError, ValueError) as exc:
            import_say(f"No file could be chosen: {exc}", error=True)
            return
        if not files:
            import_say("No file was chosen.")
            return
        picked = files[0]
        data, where = picked.bytes, picked.path
        if data is None and not where:
            import_say(f"{picked.name} could not be read.", error=True)
            return
        importing.start()
        try:  # off the page's event loop, so that the progress reaches the page while it runs
            if data is not None:
                report = await asyncio.to_thread(import_bytes, archive, picked.name, data, importing)
            else:
                report = await asyncio.to_thread(import_path, archive, where or "", importing)
        finally:
            importing.end()
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
                                on_click=lambda _, p=path: ask_restore(p),
                                tooltip=f"Restore {path.name}",
                                height=TAP,
                            ),
                        ),
                    ]
                )
            )
        backups.controls = rows or [paragraph("No backups yet.")]

    confirm = ft.Row(visible=False)
    backing_up = JobProgress("Backing up")
    restoring = JobProgress("Restoring")

    def ask_restore(path: Path | None, name: str | None = None, data: bytes | None = None) -> None:
        """Ask before replacing: a backup file at ``path``, or one picked in the browser (``name``, ``data``)."""
        shown = name if name is not None else path.name if path is not None else "the backup"
        confirm.controls = [
            ft.Text(
                f"Replace every session by those in {shown}? The current state is backed up first.",
                size=15,
                expand=True,
            ),
            ft.FilledButton(
                content="Yes, restore",
                on_click=lambda _: do_restore(path, shown, data),
                tooltip="Yes, restore",
                height=TAP,
            ),
            ft.OutlinedButton(content="Cancel", on_click=lambda _: hide_confirm(), tooltip="Cancel", height=TAP),
        ]
        confirm.visible = True
        confirm.update()

    def hide_confirm() -> None:
        confirm.visible = False
        confirm.update()

    def do_restore(path: Path | None, shown: str, data: bytes | None = None) -> None:
        confirm.visible = False
        confirm.update()
        restoring.start()
        try:
            if data is not None:
                count = restore_bytes(archive, shown, data, restoring)
            elif path is not None:
                count = archive.restore(path, restoring)
            else:
                raise ValueError("no backup was chosen")
        except (StorageError, OSError, ValueError) as exc:
            backup_say(f"Nothing was restored: {exc}", error=True)
        else:
            backup_say(f"Restored {count} sessions from {shown}.")
        finally:
            restoring.end()
        list_backups()
        backups.update()

    async def restore_picked(_: Any) -> None:
        try:
            picker = ft.FilePicker()
            files = await picker.pick_files(
                dialog_title="Choose a backup",
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["zip"],
                with_data=True,
            )
        except (OSError, ValueError) as exc:
            backup_say(f"No file could be chosen: {exc}", error=True)
            return
        if not files:
            backup_say("No file was chosen.")
            return
        picked = files[0]
        if picked.bytes is not None:
            ask_restore(None, picked.name, picked.bytes)
        elif picked.path:
            ask_restore(Path(picked.path))
        else:
            backup_say(f"{picked.name} could not be read.", error=True)

    def restore_typed(_: Any) -> None:
        text = (restore_field.value or "").strip()
        if not text:
            backup_say("Type the path of a backup file.", error=True)
            return
        ask_restore(Path(text).expanduser())

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
        importing.control,
        import_status,
        heading("Backups"),
        paragraph(
            "A backup holds every session, the players and the settings. Restoring one first backs up what is here now."
        ),
        ft.Row([big_button("Back up now", backup_now, icon=ft.Icons.BACKUP)]),
        backing_up.control,
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
