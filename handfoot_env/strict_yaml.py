"""YAML as users write it, read strictly: a key written twice is an error, not a silent overwrite.

Data that may come from anywhere (a record's scenario, opened by the web table) is also read
without aliases: a few hundred bytes of nested aliases (``&a [*b, *b, ...]``) name a value of
any size, which the loader would build and an error message would then quote.
"""

from __future__ import annotations

from typing import Any

import yaml


class _UniqueKeyLoader(yaml.SafeLoader):
    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, (str, int, float, bool, type(None))):  # YAML allows "? [a]"; no setting is so named
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be a name, not a list, set or mapping", key_node.start_mark
                )
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is written twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class _NoAliasLoader(_UniqueKeyLoader):
    def compose_node(self, parent, index):
        if self.check_event(yaml.events.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "an alias (*name) is not allowed here: write the value out", self.peek_event().start_mark
            )
        return super().compose_node(parent, index)


def load_yaml(text: str, where: str, aliases: bool = True) -> Any:
    """Parse ``text``; any error (bad syntax, a duplicate key, an alias where ``aliases`` is
    False) is a ``ValueError`` naming ``where``."""
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader if aliases else _NoAliasLoader)
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split())
        raise ValueError(f"{where} is not valid YAML: {detail}") from None
