#!/usr/bin/env bash
# Install what is missing, then serve the app on http://127.0.0.1:8000 with gunicorn (Ctrl-C stops it).
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" requirements.txt
exec .venv/bin/gunicorn --config gunicorn.conf.py app:app
