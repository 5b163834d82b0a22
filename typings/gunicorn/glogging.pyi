"""gunicorn's logger as views/access_log.py extends it: the access log's fields (atoms) of one request, and the
mapping the log's format reads them through."""

from datetime import timedelta
from wsgiref.types import WSGIEnvironment

class SafeAtoms(dict[str, object]):
    def __init__(self, atoms: dict[str, object]) -> None: ...
    def __getitem__(self, k: str) -> object: ...

class Logger:
    atoms_wrapper_class: type[SafeAtoms]
    def __init__(self, cfg: object) -> None: ...
    # resp and req are gunicorn's own HTTP objects, passed through to the fields' maker
    def atoms(
        self, resp: object, req: object, environ: WSGIEnvironment, request_time: timedelta
    ) -> dict[str, object]: ...
