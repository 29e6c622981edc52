"""Old import paths kept working after a module moved: ``import old.name`` gives the module
that now lives at ``new.name`` (the same object, so classes and ``isinstance`` agree).

A finder at the front of ``sys.meta_path`` answers for the old names only; every other import
goes its usual way. Standard library only.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Mapping
from types import ModuleType


class ModuleAliases(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports each old module name in ``moved`` as the module at its new name."""

    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = dict(moved)

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for an old name; ``None`` (not ours) for every other."""
        if fullname not in self.moved:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """The module at the new name, imported if it is not yet."""
        return importlib.import_module(self.moved[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing: the module ran when it was imported under its new name."""


def install(moved: Mapping[str, str]) -> None:
    """Make every old name in ``moved`` import as its new one (once per mapping)."""
    if not any(isinstance(f, ModuleAliases) and f.moved == dict(moved) for f in sys.meta_path):
        sys.meta_path.insert(0, ModuleAliases(moved))
