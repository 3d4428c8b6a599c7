"""Views of a game for people: the table as text (``text.py``), as a picture (``picture.py``), and
the rules as the variations table of ``docs/rules.md`` (``rules_doc.py``)."""

from handfoot_env.render.text import (
    TableView,
    format_hand,
    render_scores,
    render_table,
    render_view,
    view_of_game,
    view_of_vector,
)

__all__ = ["TableView", "format_hand", "render_scores", "render_table", "render_view", "view_of_game", "view_of_vector"]
