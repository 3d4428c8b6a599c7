"""The reference engine: the readable, exact implementation every other part is checked against."""

from handfoot_env.reference.game import DRAW_PHASE, GAME_OVER, PLAY_PHASE, Game

__all__ = ["DRAW_PHASE", "GAME_OVER", "PLAY_PHASE", "Game"]
