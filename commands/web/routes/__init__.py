"""The endpoints, by who may call them: anyone, a player (or the host), the host."""
