"""The HTTP service: a FastAPI app over the application service (`arbiter serve`)."""
