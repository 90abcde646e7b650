"""Who reads an entry: everyone, the host, or the players it names; and who acts besides the
players. Values of their own, so that a reader of the view tables needs none of the rules'
(domain.decider re-exports them)."""

PUBLIC = "public"
HOST = "host"
SYSTEM = "system"
