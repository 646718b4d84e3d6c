"""``python -m app``: the same as the ``companion`` command."""

if __name__ == "__main__":
    # First, before any other import: a Ctrl+C or SIGTERM from here on is a clean stop (see app.signals).
    import os
    import signal

    def _stop(signum: int, frame: object) -> None:
        os._exit(0)

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)

    import sys

    from app.main import main

    sys.exit(main())
