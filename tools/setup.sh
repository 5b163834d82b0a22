# Sourced by tools/run.sh and tools/test.sh: make .venv with the pinned packages of a requirements file.
# Usage: . tools/setup.sh requirements.txt
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
    # Installs Debian packages that are missing; `apt-get update` only when something is.
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "installing Debian packages: ${missing[*]}"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    # Debian's own python3 needs python3-venv for this; other Pythons (pyenv, python.org) have it.
    "$PYTHON" -m venv .venv 2>/dev/null || { apt_install python3-venv; rm -rf .venv; "$PYTHON" -m venv .venv; }
fi
# every requirements file counts: requirements-dev.txt includes requirements.txt, whose changes must reinstall too
stamp=".venv/.installed-$(cat "$@" requirements*.txt | sha256sum | cut -c1-16)"
if [ ! -e "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    for requirements in "$@"; do
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    done
    touch "$stamp"
fi
# The interface's catalogues: translations/*/LC_MESSAGES/messages.po compiled to .mo on every run (well under a
# second), so an edited .po is what the next start serves (translations/README.md says why .mo is not committed).
.venv/bin/pybabel -q compile -d translations
