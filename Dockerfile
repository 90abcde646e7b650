# Arbiter's service: `arbiter serve` and every other command, against the store its
# environment names (compose.yaml starts it with PostgreSQL). docs/deploy.md.
FROM python:3.11-slim

RUN useradd --create-home --uid 10001 arbiter && mkdir /data && chown arbiter /data
COPY . /src
RUN pip install --no-cache-dir '/src[s3]' && rm -rf /src

# The host's signing key, the store key and (with SQLite) the database live in /data:
# `arbiter init` makes the keys there, mode 0600. Mount a volume on it and back it up.
USER arbiter
WORKDIR /data
EXPOSE 8000
ENTRYPOINT ["arbiter"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
