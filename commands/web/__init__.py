"""The web: the HTTP API (`routes/`: its auth, limits and models) and the pages (`pages/`,
`templates/`, `static/`), over one `worker.Service` per worker process (`arbiter serve`)."""
