#!/usr/bin/env bash
# Install what is missing (pinned packages, Debian's chromium for the browser tests, postgresql for the store's
# tests on a real PostgreSQL, faketime for a server whose own clock is off), then run every test.
# Extra arguments go to pytest, e.g. `bash tools/test.sh -k solver`.
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" requirements-dev.txt
apt_install chromium postgresql faketime
exec .venv/bin/python -m pytest "$@"
