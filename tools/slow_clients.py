"""Slow clients for tests and benchmarks: sockets that connect and send nothing, and sockets that send their
request headers a byte at a time (a phone on a poor Wi-Fi does either by accident). Loopback only."""

from __future__ import annotations

import contextlib
import errno
import socket
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

TRICKLED_REQUEST = b"GET /healthz HTTP/1.1\r\nHost: slow.example\r\nX-Trickle: " + b"x" * 4000 + b"\r\n\r\n"


class SlowClients:
    """`idle` sockets that never send a byte (opened again whenever the server closes one) and `trickle`
    sockets that send one byte of a request every `interval` seconds, until `stop()`."""

    def __init__(self, url: str, idle: int, trickle: int, interval: float = 0.25):
        parts = urlsplit(url)
        if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("slow clients only talk to this machine")
        self.address = (parts.hostname, parts.port or 80)
        self.interval = interval
        self.idle = [self._connect() for _ in range(idle)]
        self.trickle = [self._connect() for _ in range(trickle)]
        self.sent = [0] * trickle
        self.reopened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(self.address, timeout=5)
        sock.setblocking(False)
        return sock

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            for i, sock in enumerate(self.trickle):
                position = self.sent[i] % len(TRICKLED_REQUEST)
                try:
                    sock.send(TRICKLED_REQUEST[position : position + 1])
                    self.sent[i] += 1
                except OSError:
                    sock.close()  # the server gave up on it: a new one starts trickling
                    self.trickle[i], self.sent[i] = self._connect(), 0
                    self.reopened += 1
            for i, sock in enumerate(self.idle):
                if _closed_by_server(sock):
                    sock.close()
                    self.idle[i] = self._connect()
                    self.reopened += 1

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in self.idle + self.trickle:
            sock.close()


def _closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError as error:
        return error.errno != errno.EAGAIN


@contextlib.contextmanager
def slow_clients(url: str, idle: int = 20, trickle: int = 20, interval: float = 0.25) -> Iterator[SlowClients]:
    """Hold `idle` silent and `trickle` trickling connections to the server at `url` while the block runs."""
    clients = SlowClients(url, idle, trickle, interval)
    try:
        yield clients
    finally:
        clients.stop()
