"""Where the events live: the database URL and its settings, the store cipher and its key file,
the checked repository and the versions query, the raw tables."""
