"""Discord on its HTTP interactions model (docs/discord.md): slash commands drawn from each
game's declared commands, the links of Discord users to season players, and the posts of each
round's story and signed checkpoint to a season's channel. Nothing holds a gateway connection:
Discord calls `POST /discord/interactions`, and `arbiter serve` calls Discord's REST API."""
