"""The tables every interop test plays: classic for 2 and 4, partnership, house for 2 and 4."""

TABLES = [("classic", 2), ("classic", 4), ("partnership", 4), ("house", 2), ("house", 4)]
