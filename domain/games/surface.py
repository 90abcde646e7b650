"""A game's package loads each name of its surface (domain.decider.Game) from the module that
defines it when the name is first asked for: a view read from the view tables loads the game's
summary alone, a bundle's re-run its rules, neither its pictures nor its forms, and nothing
but the setup's own module loads the validation library (pydantic)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import import_module
from types import ModuleType
from typing import Any


class Surface(ModuleType):
    """A game's package, once `lazy` made it one: each name of its surface is looked up in the
    module of the package that `vars(self)["_found_in"]` names for it."""

    def __getattr__(self, name: str) -> Any:
        module = vars(self)["_found_in"].get(name)
        if module is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{self.__name__}.{module}"), name)
        ModuleType.__setattr__(self, name, value)  # looked up once
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        # Importing a module of the package binds it on the package by its name: a name of the
        # surface stays what the surface means by it (`results` the function, not results.py).
        if isinstance(value, ModuleType) and name in vars(self)["_found_in"]:
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*vars(self), *vars(self)["_found_in"]})


def lazy(package: str, found_in: Mapping[str, str]) -> None:
    """Make the package `package` (a game's, from its __init__) a `Surface`: each name of
    `found_in` is imported from the module of the package it names when first asked for."""
    module = sys.modules[package]
    vars(module)["_found_in"] = dict(found_in)
    module.__class__ = Surface
