#!/usr/bin/env bash
# Build MONET's wheel from this checkout, install it NOT editable into a clean virtual
# environment, and run it from a folder outside the checkout:
#
#     bash packaging/check_wheel.sh
#
# It proves the wheel carries every file MONET reads at run time (migrations, the
# translation, the icons, the demo history, the default prompt): a file left out of
# pyproject.toml's package-data fails here, never in the checkout. Dependencies come
# from the package index (or pip's cache), so this is a script rather than a test;
# tests/test_packaging.py checks the same wheel offline against the test environment's
# dependencies (a slow test). Folders: WHEEL_DIR (default /tmp/monet-wheel), VENV
# (/tmp/monet-wheel-venv), WORK (a new temporary folder).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
WHEEL_DIR="${WHEEL_DIR:-/tmp/monet-wheel}"
VENV="${VENV:-/tmp/monet-wheel-venv}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/monet-wheel-check.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
quiet() { "$@" 2> >(grep -v "^WARNING: Location 'file:" >&2); }

rm -rf "$WHEEL_DIR" "$VENV"
# setuptools builds in build/lib and never removes a file there: a file moved or deleted
# in the checkout would still be shipped.
rm -rf "$ROOT/build/lib" "$ROOT"/build/bdist.*
echo "+ pip wheel . --no-deps -w $WHEEL_DIR"
quiet "$PYTHON" -m pip wheel -q "$ROOT" --no-deps -w "$WHEEL_DIR"
WHEEL="$(ls "$WHEEL_DIR"/monet-*.whl)"
echo "wheel: $WHEEL, $(( $(stat -c %s "$WHEEL") / 1024 )) KiB"
echo "+ $PYTHON -m venv $VENV && pip install $(basename "$WHEEL")"
"$PYTHON" -m venv "$VENV"
quiet "$VENV/bin/pip" install -q "$WHEEL"
"$VENV/bin/pip" show -f monet | grep -E "i18n|icons|demo_trace|versions/0001|\.txt$" | sed 's/^/  /'

cd "$WORK"  # outside the checkout: nothing can come from it now
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
unset ANTHROPIC_API_KEY MONET_HOME || true
M="$VENV/bin/monet"
echo "+ (cd $WORK) monet --version"
"$M" --version
echo "+ monet replay tests/data/traces/synthetic-actions.jsonl --home $WORK/wh --request-log $WORK/wl.jsonl"
"$M" replay "$ROOT/tests/data/traces/synthetic-actions.jsonl" --home "$WORK/wh" \
  --request-log "$WORK/wl.jsonl"
echo "+ QT_QPA_PLATFORM=$QT_QPA_PLATFORM MONET_LANG=ja monet --smoke --home $WORK/wh2"
MONET_LANG=ja "$M" --smoke --home "$WORK/wh2" 2> >(grep -v propagateSizeHints >&2)
echo "+ QT_QPA_PLATFORM=$QT_QPA_PLATFORM monet --demo --smoke"
"$M" --demo --smoke 2> >(grep -v propagateSizeHints >&2)
echo "+ the Japanese translation, from the installed package"
"$VENV/bin/python" - <<'EOF'
import os, ui, ui.look
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

os.environ["MONET_LANG"] = "ja"
app = QApplication([])
assert ui.look.install_translator(app) is not None, "monet_ja.qm did not load"
print(f"{ui.look.I18N / 'monet_ja.qm'}: Send = {QCoreApplication.translate('MainWindow', 'Send')}")
print(f"icons: {len(ui.look.app_icon().availableSizes())} sizes from {ui.look.ICONS}")
EOF
echo "+ XDG_DATA_HOME=$WORK/xdg monet install-desktop"
XDG_DATA_HOME="$WORK/xdg" "$M" install-desktop
echo "the wheel works outside the checkout"
