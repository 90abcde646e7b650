"""Everything around the rules: four rooms, each importing only the ones below it.

- `cli`: the command line (`arbiter`), one module per command group; it may start the web.
- `web`: the HTTP API and the pages (`arbiter serve`).
- `service`: the application service every entry point and the Python API use.
- `store`: where the events live, encrypted, and how they are read back checked.

Below them: `audit`, `projections` and `domain`. docs/architecture.md draws who may import
whom; the import-linter contracts in pyproject.toml hold it.
"""
