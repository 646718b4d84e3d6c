"""Maintenance scripts of the repository (not part of the app)."""
