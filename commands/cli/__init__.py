"""The command line, `arbiter` (`main.cli`): one module per command group, the console they
share, the printing, and the match and season file formats. Imports stay light: a command
imports what it uses when it runs."""
