"""Where the app keeps its data and where it listens, checked before the server starts.

Every problem here is a :class:`StartupError` whose message is one line saying what is wrong and what to do.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "sessions"
>>> ensure_data_dir(folder) == folder and folder.is_dir()
True
>>> verify_port(70000)
Traceback (most recent call last):
...
companion.config.InvalidPortError: port 70000 is not a valid port; choose a number from 1 to 65535 (default 8550)
"""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
from pathlib import Path

import platformdirs

APP_TITLE = "Card Table Companion"
"""The app's name as people see it (window and tab title)."""
APP_NAME = "card-table-companion"
"""The folder name under the platform's user-data folder."""
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8550
PACKAGED_DATA_ENV = "FLET_APP_STORAGE_DATA"
"""Set by Flet in packaged apps: a durable folder for databases and settings."""


class StartupError(ValueError):
    """The app cannot start; the message is one line for the person who ran it."""


class InvalidPortError(StartupError):
    """A port number outside 1–65535."""


class PortInUseError(StartupError):
    """Another program already listens on the chosen port."""


class DataDirError(StartupError):
    """The data folder cannot be created or written to."""


def default_data_dir(environ: dict[str, str] | None = None) -> Path:
    """Flet's app-storage folder when packaged (``FLET_APP_STORAGE_DATA``), else the platform's user-data folder.

    >>> default_data_dir({"FLET_APP_STORAGE_DATA": "/data/app"})
    PosixPath('/data/app')
    """
    env = os.environ if environ is None else environ
    packaged = env.get(PACKAGED_DATA_ENV)
    if packaged:
        return Path(packaged)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def ensure_data_dir(path: Path) -> Path:
    """Create ``path`` if needed and prove that files can be written in it; returns the absolute path.

    Raises :class:`DataDirError` when the folder cannot be created or written to.
    """
    folder = Path(path).expanduser().absolute()
    hint = "choose another folder with --data-dir"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataDirError(f"cannot use {folder} as the data folder: it is a file, not a folder; {hint}") from None
    except NotADirectoryError:
        raise DataDirError(f"cannot create the data folder {folder}: part of that path is a file; {hint}") from None
    except PermissionError:
        raise DataDirError(f"cannot create the data folder {folder}: permission denied; {hint}") from None
    except OSError as exc:
        raise DataDirError(f"cannot create the data folder {folder}: {exc.strerror or exc}; {hint}") from None
    if not folder.is_dir():
        raise DataDirError(f"cannot use {folder} as the data folder: it is not a folder; {hint}")
    probe = ""
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-test-", dir=folder)
        os.close(fd)
    except OSError as exc:
        reason = "permission denied" if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
        raise DataDirError(f"cannot write to the data folder {folder}: {reason}; {hint}") from None
    finally:
        if probe:
            with contextlib.suppress(OSError):
                os.unlink(probe)
    return folder


def verify_port(port: int) -> int:
    """``port`` if it is a valid TCP port number, else :class:`InvalidPortError`."""
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        raise InvalidPortError(
            f"port {port} is not a valid port; choose a number from 1 to 65535 (default {DEFAULT_PORT})"
        )
    return port


def port_is_free(host: str, port: int) -> bool:
    """Whether a server could listen on ``host:port`` now (binds and releases it at once, like the server will)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # The web server sets SO_REUSEADDR too, so a port in TIME_WAIT after a restart counts as free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def ensure_port_free(host: str, port: int) -> int:
    """``port`` if it is valid and free on ``host``, else :class:`InvalidPortError` / :class:`PortInUseError`."""
    verify_port(port)
    if not port_is_free(host, port):
        raise PortInUseError(
            f"port {port} is already in use (is the app already running?); "
            f"stop the other program or choose another port with --port"
        )
    return port
