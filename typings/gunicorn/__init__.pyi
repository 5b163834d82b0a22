"""gunicorn as views/access_log.py uses it: the package (27) ships no type information."""
