"""gunicorn settings for `gunicorn app:app` (the README's run command uses this file)."""

import multiprocessing
import os

bind = os.environ.get("RUZZLE_BIND", "127.0.0.1:8000")
# The usual (2 x cores) + 1 processes; the dictionaries are memory-mapped, so workers share them.
workers = int(os.environ.get("RUZZLE_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# Threads, not one request per process: a phone on a class Wi-Fi that connects and sends nothing, or sends
# its headers a byte at a time, holds one thread (a silent one goes back to the poller after 5 s) instead
# of a whole worker, and the other threads go on answering. A worker accepts whatever it can, so one of
# them may take most of a burst of connections: with more threads each than the 40 slow connections a
# class may make, every worker keeps threads free. Threads start only when needed; a store's connection
# pool per worker can be smaller (a request waits for a free connection, not for a thread).
worker_class = "gthread"
threads = int(os.environ.get("RUZZLE_THREADS", 48))
# A worker that stops beating is killed after this; with threads the beat goes on while requests run.
timeout = 30
graceful_timeout = 20
# A phone loads a page and its static files on one connection; an idle one costs no thread in the poller.
keepalive = 5
# Workers are recycled after 50,000 to 75,000 requests (the jitter spreads the restarts), so whatever Python's
# allocator keeps stays bounded (the caches of solved and rendered boards have their own limits). Not more
# often: a fresh worker starts with cold caches and spends a second of CPU importing the app. With 500 to 600 a
# busy room (100 req/s) restarted all five workers within seconds every half minute, which was most of its p99
# (bench/rooms.py: word p99 455 ms with 500, 72 ms without restarts); a school's room of 2,000 phones asks
# about 1,000 requests a second, so 5,000 would recycle each worker every 25 s: now every 4 minutes or more.
max_requests = int(os.environ.get("RUZZLE_MAX_REQUESTS", 50000))
max_requests_jitter = max_requests // 2
accesslog = "-"
# the request line and the Referer with the teachers' keys replaced by "…" (a remote link, ?key=, ?class_key=)
logger_class = "views.access_log.KeylessLogger"
errorlog = "-"
# gunicorn's control socket (for `gunicornc`) has one default path per user: every server started by the
# same user, such as the two that some tests run side by side, would share it. Nothing here uses it.
control_socket_disable = True
