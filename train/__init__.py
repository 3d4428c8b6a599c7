"""Training lab: self-play PPO with a warm start, the opponent league, and evaluation tournaments."""
