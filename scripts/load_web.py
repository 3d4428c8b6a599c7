"""Load test of the web table: many people playing at once, each asking for a hint and moving.

    python scripts/load_web.py --players 100 --seconds 60

Starts ``handfoot serve`` in a process of its own (limits raised so that every player, all
from this machine's address, gets a table), then runs the players in this process with
asyncio: each opens a partnership game against the heuristic, then, until the time is up,
asks for a hint (GET /api/hint), thinks, plays a move (POST /api/act: the hint's move, or now
and then another legal move, so that the Coach has moves to weigh at each deal's end),
thinks, and starts a new game when one ends.  Thinking takes ``--think`` seconds on average
(exponential, as people's pauses are; 0: no pause at all, every player asking as fast as
answers come).  Prints the answer times (p50, p95, p99, max) of hints and of moves (and,
among the moves, of those that ended a deal, whose answer waits for the Coach's review), the
errors, and the server's memory (resident set, sampled every second: at the start, its peak
and at the end).  Exit status 1 when a request failed or when ``--p95-ms`` is given and a p95
is over it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Player:
    """One person at a table: hint, think, move, think, until ``stop``."""

    def __init__(self, url: str, rng: random.Random, think: float, times: dict[str, list[float]], errors: list):
        self.client = httpx.AsyncClient(base_url=url, timeout=60)
        self.rng, self.think, self.times, self.errors = rng, think, times, errors

    async def timed(self, kind: str, method: str, path: str, **kwargs):
        start = time.perf_counter()
        answer = await self.client.request(method, path, **kwargs)
        self.times[kind].append(time.perf_counter() - start)
        if answer.status_code != 200:
            self.errors.append(f"{kind} {answer.status_code}: {answer.text[:120]}")
            return None
        return answer.json()

    async def pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))

    async def play(self, stop: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, max(self.think, 0.5)))  # people do not all arrive at once
        state = await self.timed("new game", "POST", "/api/play", json={"preset": "partnership"})
        while state is not None and time.monotonic() < stop:
            if state["over"]:
                state = await self.timed("new game", "POST", "/api/play", json={"preset": "partnership"})
                continue
            hint = await self.timed("hint", "GET", "/api/hint")
            await self.pause()
            if hint is None:
                return
            move = hint["action"]
            if self.rng.random() < 0.2:  # not always the hint's move: the Coach weighs these
                move = self.rng.choice(state["legal"])["action"]
            reviews = len(state["reviews"])
            state = await self.timed("move", "POST", "/api/act", json={"turn": state["turn"], "action": move})
            if state is not None and len(state["reviews"]) > reviews:  # the deal ended: the Coach weighed it
                self.times["deal end"].append(self.times["move"][-1])
            await self.pause()
        await self.client.aclose()


async def run_players(url: str, players: int, seconds: float, think: float, seed: int):
    times: dict[str, list[float]] = {"hint": [], "move": [], "deal end": [], "new game": []}
    errors: list[str] = []
    stop = time.monotonic() + seconds
    rng = random.Random(seed)
    crowd = [Player(url, random.Random(rng.random()), think, times, errors) for _ in range(players)]
    await asyncio.gather(*(player.play(stop) for player in crowd))
    return times, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the players play")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before each request, in seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--p95-ms", type=float, default=None, help="fail when a p95 of hints or moves is over this")
    args = parser.parse_args(argv)

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "handfoot_lab.cli", "serve", "--port", str(port)]
        + ["--tables", str(args.players * 2), "--tables-per-client", str(args.players * 2)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        server.stdout.readline()  # "serving on ...": the socket is open
        process = psutil.Process(server.pid)
        memory = [process.memory_info().rss]

        async def sampled():
            url = f"http://127.0.0.1:{port}"
            task = asyncio.ensure_future(run_players(url, args.players, args.seconds, args.think, args.seed))
            while not task.done():
                memory.append(process.memory_info().rss)
                await asyncio.sleep(1)
            return await task

        started = time.perf_counter()
        times, errors = asyncio.run(sampled())
        wall = time.perf_counter() - started
        memory.append(process.memory_info().rss)
        cpu = process.cpu_times()
    finally:
        server.terminate()
        server.wait(timeout=30)

    load = psutil.getloadavg()[0]
    print(f"{args.players} players, {wall:.0f} s, think {args.think:g} s on average")
    print(f"  load average at the end: {load:.1f} on {psutil.cpu_count()} cores (other work on the machine included)")
    worst = 0.0
    for kind, values in times.items():
        if not values:
            continue
        p95 = percentile(values, 0.95) * 1000
        if kind in ("hint", "move"):
            worst = max(worst, p95)
        p50, p99, top = (percentile(values, share) * 1000 for share in (0.5, 0.99, 1.0))
        print(
            f"  {kind:9s} {len(values):6d} answers ({len(values) / wall:5.1f}/s): p50 {p50:6.1f} ms"
            f"  p95 {p95:6.1f} ms  p99 {p99:6.1f} ms  max {top:6.0f} ms  mean {statistics.mean(values) * 1000:6.1f} ms"
        )
    mib = 1024 * 1024
    start, peak, end = memory[0] / mib, max(memory) / mib, memory[-1] / mib
    print(f"  server memory (RSS): {start:.0f} MiB at the start, peak {peak:.0f} MiB, {end:.0f} MiB at the end")
    print(f"  server CPU: {cpu.user + cpu.system:.0f} s in {wall:.0f} s")
    print(f"  errors: {len(errors)}" + "".join(f"\n    {error}" for error in errors[:5]))
    if errors or (args.p95_ms is not None and worst > args.p95_ms):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
