#!/usr/bin/env bash
# Install what is missing (pinned packages, Debian's chromium for the browser tests), then run every test.
# Extra arguments go to pytest, e.g. `bash tools/test.sh -k solver`.
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" requirements-dev.txt
apt_install chromium
exec .venv/bin/python -m pytest "$@"
