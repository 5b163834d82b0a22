#!/usr/bin/env bash
# The interface's translation catalogues (translations/README.md):
#   bash tools/translations.sh extract   # the code's messages into translations/messages.pot
#   bash tools/translations.sh update    # extract, then merge the new template into every language's .po
#   bash tools/translations.sh compile   # every .po into its .mo (tools/setup.sh does this on each run)
#   bash tools/translations.sh init LANG # a catalogue for a new language
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
POT="${POT:-translations/messages.pot}"
# N_ and Nn_ mark the game package's messages (ruzzle/errors.py); lazy_gettext the web's module-level ones.
KEYWORDS=(-k N_ -k "Nn_:1,2" -k lazy_gettext -k "lazy_ngettext:1,2")

extract() {
    "$PYBABEL" -q extract -F translations/babel.cfg "${KEYWORDS[@]}" --add-location=file --sort-output -c "Translators:" \
        --project Ruzzle --copyright-holder "Ruzzle" --msgid-bugs-address "" -o "$POT" \
        .
}

case "${1:-}" in
    extract) extract ;;
    update) extract; "$PYBABEL" -q update -i "$POT" -d translations --no-fuzzy-matching --ignore-obsolete ;;
    compile) "$PYBABEL" -q compile -d translations ;;
    init) "$PYBABEL" init -i "$POT" -d translations -l "${2:?a language code, e.g. it}" ;;
    *) echo "usage: bash tools/translations.sh extract|update|compile|init LANG" >&2; exit 2 ;;
esac
