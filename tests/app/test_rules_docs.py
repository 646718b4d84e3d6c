"""``docs/rules/`` says what the Rules screen says (both come from :func:`companion.games.all_guides`)."""

from __future__ import annotations

from pathlib import Path

from companion.games import all_guides
from tools import rules_docs


def test_rules_docs_are_up_to_date() -> None:
    stale = rules_docs.stale_files()
    assert not stale, f"out of date: {[p.name for p in stale]}; run python -m tools.rules_docs"


def test_every_game_and_every_line_of_its_guide_is_in_the_docs() -> None:
    for guide in all_guides():
        text = (rules_docs.DOCS / f"{guide.key}.md").read_text(encoding="utf-8")
        for section in guide.sections:
            assert f"## {section.heading}" in text
            for paragraph in section.paragraphs:
                assert f"- {paragraph}" in text
        for option in guide.options:
            assert f"| `{option.key}` |" in text and option.ruling in text


def test_check_reports_a_stale_file(tmp_path: Path) -> None:
    for path, text in rules_docs.expected_files(tmp_path).items():
        path.write_text(text, encoding="utf-8")
    assert rules_docs.stale_files(tmp_path) == []
    (tmp_path / "jokers-kill.md").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "README.md").unlink()
    assert sorted(p.name for p in rules_docs.stale_files(tmp_path)) == ["README.md", "jokers-kill.md"]
