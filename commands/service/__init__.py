"""The application service: `Arbiter` (every command is load, decide, one atomic save), its
outcomes, the writers' locks across processes, the tokens, deadline closes, the host's key
file and the store check. Every entry point and the Python API (docs/python-api.md) use it;
it never imports an entry point."""
