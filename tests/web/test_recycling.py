"""Workers are recycled after a number of requests (gunicorn.conf.py's max_requests, with jitter), so the
memory a long day of new boards leaves in a worker is given back; nothing is lost on the way."""

from __future__ import annotations

import time
import urllib.request

import pytest

from tools.servers import gunicorn_server


@pytest.mark.server
def test_a_worker_is_replaced_after_max_requests_and_every_request_is_answered():
    with gunicorn_server(workers=1, RUZZLE_MAX_REQUESTS="20") as server:
        first = server.worker_pids()
        statuses = []
        for _ in range(60):  # at most 20 + 10 (jitter) requests per worker: at least two replacements
            # a request that meets a worker being replaced waits for the new one to start (seconds when the machine
            # is busy): the timeout and the deadline are caps on waiting for what the server does, not its pace
            with urllib.request.urlopen(server.url + "/healthz", timeout=60) as response:
                statuses.append(response.status)
        deadline = time.monotonic() + 60
        while (not server.worker_pids() or server.worker_pids() == first) and time.monotonic() < deadline:
            time.sleep(0.1)
        now = server.worker_pids()
    assert statuses == [200] * 60
    assert len(first) == 1 and len(now) == 1 and now != first
