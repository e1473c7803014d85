"""Transports over the service layer (``core/service``): the HTTP API of ``graphwiki serve``,
its ingest queue, and the client the CLI uses to reach a running server."""
