#!/usr/bin/env bash
# Install what is missing (pinned packages, Debian's chromium for the browser tests, postgresql for the store's
# tests on a real PostgreSQL, redis-server for two servers counting their limits together, faketime for a server
# whose own clock is off, nginx-light for the production front of tests/web/test_front.py), then run every test.
# `bash tools/test.sh --fast`: the inner loop, everything but the browser, server, PostgreSQL and packaging tests (the
# markers tests/conftest.py and tests/test_packaging.py put on them). Extra arguments go to pytest, e.g.
# `bash tools/test.sh -k solver`.
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" requirements-dev.txt
selection=()
workers=$(( $(nproc) + 1 ))
if [ "${1:-}" = "--fast" ]; then
    shift
    # No browser waits on a lesson's real clock here: one process per core (a third one on two cores paid its own start,
    # some 15 s of CPU, for no idle core to fill).
    workers=$(nproc)
    selection=(-m "not browser and not server and not postgres and not packaging")
    export RUZZLE_HYPOTHESIS_PROFILE="${RUZZLE_HYPOTHESIS_PROFILE:-fast}"
else
    apt_install chromium postgresql redis-server faketime nginx-light
fi
# Compiled modules, and pytest's rewritten test modules, kept between runs outside the working copy (even where
# PYTHONDONTWRITEBYTECODE asks for no __pycache__ beside the code): compiling them again took each test process some
# 4 s of CPU before its first test.
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/ruzzle/pycache}"
unset PYTHONDONTWRITEBYTECODE
# The whole suite: one test process per core and one more (pytest-xdist): each starts its own servers, PostgreSQL
# cluster and browser, and the browser tests spend most of their time waiting on a lesson's real clock, so the extra
# process fills the cores they leave idle. RUZZLE_TEST_WORKERS=0 runs them in this process, one after the other.
exec .venv/bin/python -m pytest -n "${RUZZLE_TEST_WORKERS:-$workers}" "${selection[@]}" "$@"
