"""A TCP relay to a real server that a test can cut: the server "goes away" for whoever
connected through the relay, while the server itself keeps running for the other tests."""

from __future__ import annotations

import socket
import threading


class Relay:
    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # cut: the listener is closed
                return
            server = socket.create_connection(self.target)
            with self._lock:
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        """Refuse new connections and drop the open ones, as a stopped server would."""
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept (Linux)
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            for s in self._open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
