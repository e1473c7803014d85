"""How a setting is declared once: a dataclass field that names its variable and says what it is.

Every setting is one field of a settings dataclass, declared with ``declared(...)``: its
default, the environment variable it is read from and a line saying what it is. From that
one declaration come the CLI's reading of the environment (``read``), the map of variable
names (``env_vars``), the Dagster resources' defaults and descriptions, and the way back from
a resource's values to the dataclass (``with_values``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ENV = "env"
WHAT = "what"
PARSE = "parse"
MINIMUM = "minimum"


def declared(
    default: Any = dataclasses.MISSING,
    *,
    env: str,
    what: str,
    factory: Callable[[], Any] | None = None,
    parse: Callable[[str, str], Any] | None = None,
    minimum: int = 1,
    secret: bool = False,
) -> Any:
    """A settings field read from ``env``. Whole numbers must be at least ``minimum``;
    ``parse(name, value)`` reads a value no type rule covers; a secret never appears in a repr."""
    metadata = {ENV: env, WHAT: what, PARSE: parse, MINIMUM: minimum}
    if factory is not None:
        return dataclasses.field(default_factory=factory, repr=not secret, metadata=metadata)
    return dataclasses.field(default=default, repr=not secret, metadata=metadata)


def _plain_type(hint: Any) -> type:
    """``int | None`` -> int; the type a value of the field is parsed as."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kinds = [a for a in typing.get_args(hint) if a is not type(None)]
        return kinds[0]
    return hint


def _parse(name: str, value: str, kind: type, field: dataclasses.Field) -> Any:
    custom = field.metadata.get(PARSE)
    if custom is not None:
        return custom(name, value)
    if kind is int:
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{name} must be a whole number, not {value!r}") from None
        if number < field.metadata[MINIMUM]:
            raise ValueError(f"{name} must be at least {field.metadata[MINIMUM]}, not {number}")
        return number
    if kind is float:
        try:
            return float(value)
        except ValueError:
            raise ValueError(f"{name} must be a number, not {value!r}") from None
    if kind is Path:
        return Path(value).expanduser().resolve()
    return value


def _fields(cls: type) -> Iterator[tuple[dataclasses.Field, type]]:
    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        yield field, _plain_type(hints[field.name])


def read(cls: type[T], env: Mapping[str, str], defaults: T) -> T:
    """``defaults`` with each declared field that its variable sets (non-empty) read from ``env``."""
    values = {}
    for field, kind in _fields(cls):
        name = field.metadata.get(ENV)
        if name and env.get(name):
            values[field.name] = _parse(name, env[name], kind, field)
    return dataclasses.replace(defaults, **values)  # type: ignore[type-var]


def env_vars(cls: type, prefix: str = "") -> dict[str, str]:
    """Each declared field's place (``llm.timeout_s``) and its variable, nested settings included."""
    out: dict[str, str] = {}
    for field, kind in _fields(cls):
        path = f"{prefix}{field.name}"
        if ENV in field.metadata:
            out[path] = field.metadata[ENV]
        elif dataclasses.is_dataclass(kind):
            out.update(env_vars(kind, f"{path}."))
    return out


def described(cls: type, path: str) -> dataclasses.Field:
    """The declaration of the field at ``path`` (``llm.timeout_s``) of ``cls``."""
    head, _, rest = path.partition(".")
    for field, kind in _fields(cls):
        if field.name == head:
            return described(kind, rest) if rest else field
    raise KeyError(f"{cls.__name__} declares no setting {path!r}")


def default_of(field: dataclasses.Field) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    raise KeyError(f"setting {field.name!r} has no default")


def with_values(settings: T, values: Mapping[str, Any]) -> T:
    """``settings`` with the value at each path replaced; an empty value (None, "") keeps the
    one ``settings`` has, and text becomes a ``Path`` where the field holds one."""
    own: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for path, value in values.items():
        head, _, rest = path.partition(".")
        if rest:
            nested.setdefault(head, {})[rest] = value
        elif value is not None and value != "":
            own[head] = value
    kinds = dict((f.name, kind) for f, kind in _fields(type(settings)))
    for name, value in list(own.items()):
        if kinds[name] is Path and not isinstance(value, Path):
            own[name] = Path(value).expanduser().resolve()
    for head, inner in nested.items():
        own[head] = with_values(getattr(settings, head), inner)
    return dataclasses.replace(settings, **own)  # type: ignore[type-var]
