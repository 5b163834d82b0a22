"""gunicorn's logger as views/access_log.py extends it: the access log's fields (atoms) of one request."""

from datetime import timedelta
from wsgiref.types import WSGIEnvironment

class Logger:
    def __init__(self, cfg: object) -> None: ...
    # resp and req are gunicorn's own HTTP objects, passed through to the fields' maker
    def atoms(
        self, resp: object, req: object, environ: WSGIEnvironment, request_time: timedelta
    ) -> dict[str, object]: ...
