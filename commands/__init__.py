"""The write side: the application service, its handlers and entry points (CLI)."""
