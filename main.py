"""The packaged app's entry (``[tool.flet.app] module = "main"``): runs :func:`app.main.main`."""

from app.main import main

if __name__ == "__main__":
    main()
