"""The command line, `arbiter` (`main.cli`): one module per command group, the console they
share, the printing, and the match and season file formats. Imports stay light: a command
imports what it uses when it runs."""

import os

# The command line uses no pydantic plugin, and looking for one reads the metadata of every
# installed package when the first model is made (30-40 ms of every command's start-up).
# Set PYDANTIC_DISABLE_PLUGINS yourself (even to "") to have pydantic look again.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
