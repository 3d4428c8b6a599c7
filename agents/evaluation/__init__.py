"""Measuring agents, with no torch: duplicate-deal matches with intervals (``matches.py``), round
robins and ratings (``ratings.py``), the same on a Ray cluster (``ray.py``), the benchmark protocol
(``benchmark.py``), and the play-outs that value a move for the Coach (``rollouts.py``)."""
