"""One module per ``handfoot`` command, each with ``add_parser(subparsers)`` (its options and
help) and ``run(args) -> exit status``; ``handfoot_lab.cli`` puts them together."""

from handfoot_lab.commands import (
    actions,
    bench,
    benchmark,
    demo,
    evaluate,
    exploit,
    fuzz,
    game,
    play,
    replay,
    rules,
    serve,
    train,
    tune,
    warmup,
)

# In the order ``handfoot --help`` lists them.
COMMANDS = (
    demo,
    game,
    replay,
    fuzz,
    bench,
    evaluate,
    benchmark,
    train,
    exploit,
    tune,
    play,
    serve,
    warmup,
    actions,
    rules,
)

__all__ = ["COMMANDS"]
