"""The JSON Schemas shipped in the package (``rattus_rules/schema/*.schema.json``).

Records, states, observations, golden playthroughs, perft files and the
messages of the referee protocol each have one; they refer to each other by
their ``$id`` (``urn:rattus-rules:NAME:1``), resolved by :func:`registry`.

>>> sorted(SCHEMAS)[:3]
['golden', 'observation', 'perft']
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from referencing import Registry, Resource

#: The name of every shipped schema (file ``schema/NAME.schema.json``).
SCHEMAS = ("golden", "observation", "perft", "protocol", "record", "state")


@functools.cache
def _text(name: str) -> str:
    if name not in SCHEMAS:
        raise KeyError(f"no schema {name!r} (schemas: {', '.join(SCHEMAS)})")
    return resources.files("rattus_rules").joinpath(f"schema/{name}.schema.json").read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """A shipped schema by name (a fresh copy)."""
    loaded: dict[str, Any] = json.loads(_text(name))
    return loaded


@functools.cache
def registry() -> Registry:
    """Every shipped schema by its ``$id``, for validators of schemas that refer to others."""
    resources_ = [Resource.from_contents(load_schema(name)) for name in SCHEMAS]
    return Registry().with_resources((r.id(), r) for r in resources_ if r.id() is not None)  # type: ignore[misc]


def validator(name: str, definition: str | None = None,
              record: dict[str, Any] | None = None) -> jsonschema.Draft202012Validator:
    """A validator for a shipped schema, or for one of its ``$defs``; ``record``: the record schema of
    another game (:meth:`rattus_rules.tools.records.recordformat.RecordFormat.schema_dict`) in place of Rattus's,
    for the files of that game's kit."""
    schema = load_schema(name)
    if definition is not None:
        if definition not in schema.get("$defs", {}):
            raise KeyError(f"schema {name} has no definition {definition!r}")
        schema = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf", "allOf", "type", "required",
                                                                "properties", "additionalProperties")}
        schema["$ref"] = f"#/$defs/{definition}"
    return jsonschema.Draft202012Validator(schema, registry=registry_with(record))


def registry_with(record: dict[str, Any] | None) -> Registry:
    """The shipped schemas, ``record`` (another game's record schema) in place of Rattus's if given."""
    found = registry()
    if record is not None:
        own = Resource.from_contents(record)
        found = found.with_resource(own.id(), own)  # type: ignore[arg-type]
    return found
