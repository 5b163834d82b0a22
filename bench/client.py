"""A lean HTTP/1.1 client for the load benchmarks: one asyncio Protocol per connection, connections kept alive and
reused as a browser does, the answer parsed no further than its status, headers and body.

bench/load.py's `fetch` opens a connection per request and reads it with asyncio streams: simple, and fine for a
hundred players, but at 2,000 phones (~1,700 requests a second) the load generator itself would take a good part
of the machine's two cores. Here a request on a kept-alive connection costs a write and a parse of its answer.

A browser keeps a connection open between requests and the server closes it when it has been idle for its
keep-alive time (gunicorn.conf.py: 5 s): a connection idle for longer than `reuse_seconds` is not reused, and a
request on a reused connection that the server closed before any byte of its answer is sent again once on a fresh
one (as browsers do). Bodies are decompressed (zstd, br, gzip: what the browser offers) only when read.
"""

from __future__ import annotations

import asyncio
import time
import zlib

import brotli
from backports import zstd

ACCEPT_ENCODING = "gzip, deflate, br, zstd"  # what Chrome offers


class Timeout(Exception):
    """No complete answer within the time the page gives a request."""


class Answer:
    """A status, the headers (lower-case names; the last of a repeated header, but every Set-Cookie), the body."""

    __slots__ = ("status", "headers", "cookies", "raw", "_text")

    def __init__(self, status: int, headers: dict[str, str], cookies: list[str], raw: bytes):
        self.status, self.headers, self.cookies, self.raw = status, headers, cookies, raw
        self._text = None

    @property
    def text(self) -> str:
        if self._text is None:
            encoding = self.headers.get("content-encoding", "")
            body = self.raw
            if encoding == "gzip":
                body = zlib.decompress(body, 31)
            elif encoding == "deflate":
                body = zlib.decompress(body)
            elif encoding == "br":
                body = brotli.decompress(body)
            elif encoding == "zstd":
                body = zstd.decompress(body)
            self._text = body.decode("utf-8", "replace")
        return self._text


class Connection(asyncio.Protocol):
    """One kept-alive connection: one request at a time, its answer resolved into a future."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future | None = None
        self.closed = False
        self.idle_since = time.monotonic()
        self.head: tuple | None = None  # (status, headers, cookies, body length or -1 for chunked, start of body)

    def connection_made(self, transport) -> None:
        self.transport = transport

    def connection_lost(self, error) -> None:
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            if self.head is not None and self.head[3] is None:  # no length: the body ends with the connection
                status, headers, cookies, _, start = self.head
                self.waiter.set_result(Answer(status, headers, cookies, bytes(self.buffer[start:])))
            else:
                self.waiter.set_exception(
                    ConnectionResetError("the server closed the connection" + (" mid-answer" if self.buffer else ""))
                )

    def send(self, data: bytes, timeout: float) -> asyncio.Future:
        """Send a request; the future of its answer, which fails with Timeout after `timeout` seconds (a timer
        handle rather than asyncio.wait_for: cheaper, and the client's cost is what this module is about)."""
        self.buffer.clear()
        self.head = None
        loop = asyncio.get_running_loop()
        self.waiter = waiter = loop.create_future()
        timer = loop.call_later(timeout, self._time_out, waiter, timeout)
        waiter.add_done_callback(lambda _: timer.cancel())
        self.transport.write(data)
        return waiter

    def _time_out(self, waiter: asyncio.Future, timeout: float) -> None:
        if not waiter.done():
            waiter.set_exception(Timeout(f"no answer within {timeout:g} s"))
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.waiter is None or self.waiter.done():
            return
        if self.head is None:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            self.head = self._parse_head(bytes(self.buffer[:end]).decode("latin-1"), end + 4)
        status, headers, cookies, length, start = self.head
        if length == -1:  # chunked (Flask's answers have a length; kept for streamed ones)
            if not self.buffer.endswith(b"0\r\n\r\n"):
                return
            self.waiter.set_result(Answer(status, headers, cookies, _unchunk(bytes(self.buffer[start:]))))
        elif length is not None and len(self.buffer) - start >= length:
            self.waiter.set_result(Answer(status, headers, cookies, bytes(self.buffer[start : start + length])))

    @staticmethod
    def _parse_head(head: str, start: int) -> tuple:
        status_line, *lines = head.split("\r\n")
        headers, cookies = {}, []
        for line in lines:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            value = value.strip()
            if name == "set-cookie":
                cookies.append(value)
            headers[name] = value
        status = int(status_line.split(" ", 2)[1])
        if status in (204, 304) or 100 <= status < 200:
            length = 0
        elif "chunked" in headers.get("transfer-encoding", ""):
            length = -1
        elif "content-length" in headers:
            length = int(headers["content-length"])
        else:
            length = None
        return status, headers, cookies, length, start


def _unchunk(data: bytes) -> bytes:
    out, at = bytearray(), 0
    while True:
        line_end = data.index(b"\r\n", at)
        size = int(data[at:line_end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += data[line_end + 2 : line_end + 2 + size]
        at = line_end + 2 + size + 2


class Browser:
    """One device's connections to one server (a few at most: a poll and a word may be on their way at once)."""

    def __init__(self, host: str, port: int, reuse_seconds: float = 4.0):
        self.host, self.port, self.reuse_seconds = host, port, reuse_seconds
        self.idle: list[Connection] = []
        self.opened = 0

    async def _connection(self, timeout: float) -> tuple[Connection, bool]:
        moment = time.monotonic()
        while self.idle:
            connection = self.idle.pop()
            if not connection.closed and moment - connection.idle_since < self.reuse_seconds:
                return connection, True
            connection.transport.close()
        try:
            _, connection = await asyncio.wait_for(
                asyncio.get_running_loop().create_connection(Connection, self.host, self.port), timeout
            )
        except TimeoutError:
            raise Timeout(f"no connection within {timeout:g} s") from None
        self.opened += 1
        return connection, False

    async def request(self, data: bytes, timeout: float) -> Answer:
        """Send one request (its bytes, head and body) and wait for the whole answer, at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        for attempt in (1, 2):
            connection, reused = await self._connection(timeout)
            try:
                answer = await connection.send(data, max(0.001, deadline - time.monotonic()))
            except ConnectionError:
                connection.transport.close()
                if reused and not connection.buffer and attempt == 1:
                    continue  # the server had closed the idle connection: the browser sends it again
                raise
            if answer.headers.get("connection", "").lower() == "close" or connection.closed:
                connection.transport.close()
            else:
                connection.idle_since = time.monotonic()
                self.idle.append(connection)
            return answer
        raise AssertionError("unreachable")

    def close(self) -> None:
        for connection in self.idle:
            connection.transport.close()
        self.idle.clear()


def request_bytes(method: str, path: str, host: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    """The bytes of one HTTP/1.1 request (kept alive), with a form body when there is one."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", *(f"{name}: {value}" for name, value in headers.items())]
    if body or method == "POST":
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
