"""YAML as users write it, read strictly: a key written twice is an error, not a silent overwrite."""

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


def load_yaml(text: str, where: str) -> Any:
    """Parse ``text``; any error (bad syntax, a duplicate key) is a ``ValueError`` naming ``where``."""
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)
    except yaml.YAMLError as exc:
        detail = " ".join(str(exc).split())
        raise ValueError(f"{where} is not valid YAML: {detail}") from None
