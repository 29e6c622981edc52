"""A registry of named things (the games): a dict that refuses a second, different entry of a
name and names the known ones when asked for an unknown one. Standard library only."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


class Registry(dict[str, T]):
    """Entries by name, in the order they were added; the first is the default."""

    def add(self, name: str, entry: T) -> None:
        """Add ``entry`` as ``name`` (again with an equal entry: nothing changes).

        Raises:
            ValueError: a different entry has that name already.
        """
        if self.get(name, entry) != entry:
            raise ValueError(f"a different game named {name!r} is registered already")
        self[name] = entry

    def lookup(self, name: str | None = None) -> T:
        """The entry ``name`` (``None``: the default, the first added).

        Raises:
            ValueError: no entry has that name (listing the known ones).
        """
        if name is None:
            return next(iter(self.values()))
        if name not in self:
            raise ValueError(f"unknown game {name!r}; known games: {', '.join(self)}")
        return self[name]
