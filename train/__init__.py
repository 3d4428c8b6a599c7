"""Training lab: self-play MaskablePPO, the opponent league, and evaluation tournaments."""
