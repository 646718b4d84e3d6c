"""Settings persist through the companion service, and bad values are refused with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.services import AppServices
from companion.settings import (
    InvalidThemeError,
    Settings,
    SettingsError,
    SettingsService,
    SuitColour,
    Theme,
    suit_colour,
)


def test_defaults_on_a_fresh_folder(tmp_path: Path) -> None:
    assert SettingsService.open(tmp_path).current() == Settings(theme=Theme.SYSTEM, four_colour_suits=False)


def test_changes_survive_reopening(tmp_path: Path) -> None:
    with AppServices.open(tmp_path / "data") as services:
        services.settings.set_theme(Theme.DARK)
        services.settings.set_four_colour_suits(True)
    with AppServices.open(tmp_path / "data") as reopened:
        assert reopened.settings.current() == Settings(theme=Theme.DARK, four_colour_suits=True)
        reopened.settings.set_theme("light")
    with AppServices.open(tmp_path / "data") as again:
        assert again.settings.current().theme is Theme.LIGHT


def test_invalid_theme_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    service = SettingsService.open(tmp_path)
    service.set_theme("dark")
    assert not service.can_set_theme("purple")
    assert service.can_set_theme("light") and service.can_set_theme(Theme.SYSTEM)
    with pytest.raises(InvalidThemeError, match=r"'purple' is not a theme.*light, dark, system"):
        service.set_theme("purple")
    with pytest.raises(SettingsError):
        service.set_four_colour_suits("yes")  # type: ignore[arg-type]
    assert service.current().theme is Theme.DARK


def test_damaged_values_fall_back_to_defaults(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        json.dumps({"settings": {"1": {"theme": "neon", "four_colour_suits": "maybe"}}})
    )
    assert SettingsService.open(tmp_path).current() == Settings()


def test_listeners_hear_changes_and_a_failing_one_does_not_stop_others(tmp_path: Path) -> None:
    service = SettingsService.open(tmp_path)
    heard: list[Settings] = []

    def broken(settings: Settings) -> None:
        raise RuntimeError("tab closed")

    service.subscribe(broken)
    stop = service.subscribe(heard.append)
    service.set_theme("dark")
    stop()
    service.set_theme("light")
    assert heard == [Settings(theme=Theme.DARK)]


def test_four_colour_suits() -> None:
    assert [suit_colour(s, True) for s in "♠♥♦♣"] == [
        SuitColour.BLACK,
        SuitColour.RED,
        SuitColour.BLUE,
        SuitColour.GREEN,
    ]
    assert [suit_colour(s, False) for s in "♠♥♦♣"] == [
        SuitColour.BLACK,
        SuitColour.RED,
        SuitColour.RED,
        SuitColour.BLACK,
    ]
    with pytest.raises(ValueError, match="not a suit"):
        suit_colour("X", True)


def test_automatic_backup_is_made_once_a_day(services: AppServices) -> None:
    from app.serve import auto_backup_once

    services.sessions.start("jokers-kill", ["Ann", "Ben"])
    assert auto_backup_once(services) is None
    first = services.archive.list_backups()
    assert len(first) == 1 and first[0].name.startswith("auto-")
    assert auto_backup_once(services) is None
    assert services.archive.list_backups() == first, "a second run on the same day makes no new backup"
