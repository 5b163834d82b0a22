"""gunicorn settings for `gunicorn app:app` (the README's run command uses this file)."""

import multiprocessing
import os

bind = os.environ.get("RUZZLE_BIND", "127.0.0.1:8000")
# The usual (2 x cores) + 1 sync workers; the dictionaries are memory-mapped, so workers share them.
workers = int(os.environ.get("RUZZLE_WORKERS", multiprocessing.cpu_count() * 2 + 1))
accesslog = "-"
errorlog = "-"
