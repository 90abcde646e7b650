"""The web pages `arbiter serve` renders: `/`, a match's public page, a player's page behind a
personal link, the host's dashboard, a season's page (docs/pages.md).

Each route reads a projection through `commands.web.reading` (the viewer's view, inbox,
dashboard or standings, already filtered for that viewer), lets `projections.story` tell it,
and renders a template. No route reads the store or an aggregate, and none holds a rule:
commands go through the application service, and the rules answer them.
"""
