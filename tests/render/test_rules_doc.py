"""docs/rules.md's table of every rules setting is the one generated from ``Rules``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from handfoot_env.render.rules_doc import FIELD_DOCS, markdown_table, rows
from handfoot_env.rules import Rules

RULES_PAGE = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_rules_field_has_a_row_and_no_row_is_stale():
    assert list(FIELD_DOCS) == [f.name for f in dataclasses.fields(Rules)]
    assert [row[0] for row in rows()] == [f"`{f.name}`" for f in dataclasses.fields(Rules)]


def test_the_rules_page_holds_the_generated_table():
    page = RULES_PAGE.read_text()
    table = page.split("<!-- rules table -->\n", 1)[1].split("<!-- end rules table -->", 1)[0]
    assert table == markdown_table(), "regenerate it: python -m handfoot_env.render.rules_doc"
    for row in rows():
        assert f"| {row[0]} |" in table  # a Rules field missing from the page fails here


def test_the_table_names_what_the_presets_set():
    by_setting = {row[0]: row for row in rows()}
    assert by_setting["`runs`"][3] == "house: true"
    assert by_setting["`wild_books`"][2:4] == ("false", "-")  # a variation: off, no preset plays it
    assert by_setting["`num_decks`"][2] == "players + 1"
