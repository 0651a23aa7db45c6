#!/usr/bin/env bash
# Build MONET's Linux bundle with PyInstaller, then smoke-test it:
#
#     bash packaging/build_linux.sh [--fresh]
#
# 1. A throwaway virtual environment (MONET_BUILD_VENV, default
#    ${TMPDIR:-/tmp}/monet-pyinstaller-venv; --fresh makes it anew) gets PyInstaller and a
#    NON-editable install of this checkout, so the bundle holds what the wheel holds.
# 2. pyinstaller packaging/monet.spec writes dist/monet/ (build/pyinstaller/ is scratch).
# 3. From a folder outside the checkout, the bundle must: print its version; replay a
#    trace (migrations, tiktoken's offline encoding, the default prompt); open its window
#    offscreen and paint it (twice: cold and warm start), in Japanese too; open the demo;
#    plan install-desktop. Then it prints the bundle's size and start times.
# Needs python3 (3.11+) with venv, and the package index (or a pip cache).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYINSTALLER_VERSION="6.22.3"
VENV="${MONET_BUILD_VENV:-${TMPDIR:-/tmp}/monet-pyinstaller-venv}"
PYTHON="${PYTHON:-python3}"

if [ "${1:-}" = "--fresh" ]; then
  rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "+ $PYTHON -m venv $VENV"
  "$PYTHON" -m venv "$VENV"
fi
pip_install() {  # quiet, without the notes about local index folders that do not exist
  "$VENV/bin/python" -m pip install -q "$@" 2> >(grep -v "^WARNING: Location 'file:" >&2)
}
# setuptools builds in build/lib and never removes a file there: a file moved or deleted
# in the checkout would still be shipped.
rm -rf "$ROOT/build/lib" "$ROOT"/build/bdist.*
echo "+ pip install pyinstaller==$PYINSTALLER_VERSION and MONET (not editable)"
pip_install "pyinstaller==$PYINSTALLER_VERSION" "$ROOT"
# the same version number again: reinstall MONET itself so the checkout's files are used
pip_install --force-reinstall --no-deps "$ROOT"

echo "+ pyinstaller packaging/monet.spec"
"$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" "$ROOT/packaging/monet.spec"

BUNDLE="$ROOT/dist/monet"
EXE="$BUNDLE/monet"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/monet-bundle-check.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"  # nothing may come from the checkout now
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
unset ANTHROPIC_API_KEY MONET_HOME || true

now_ms() { date +%s%3N; }
smoke() {  # smoke LABEL ARGS...: run --smoke, print its line and the wall time
  local label="$1"; shift
  local start end line
  start=$(now_ms)
  line="$("$EXE" --smoke "$@" 2>"$WORK/smoke.err")" || { cat "$WORK/smoke.err"; exit 1; }
  end=$(now_ms)
  echo "$label: $line; process ran $((end - start)) ms"
  case "$line" in *"window painted"*) ;; *) echo "no paint reported" >&2; exit 1 ;; esac
}

echo "+ monet --version"
"$EXE" --version
echo "+ monet replay synthetic-actions.jsonl"
"$EXE" replay "$ROOT/tests/data/traces/synthetic-actions.jsonl" --home "$WORK/replay" \
  --request-log "$WORK/requests.jsonl" | tail -n 4
echo "+ monet --smoke"
smoke "cold start" --home "$WORK/home"
smoke "warm start" --home "$WORK/home"
MONET_LANG=ja smoke "Japanese" --home "$WORK/home"
smoke "demo" --demo
echo "+ monet install-desktop --dry-run"
XDG_DATA_HOME="$WORK/xdg" "$EXE" install-desktop --dry-run | tail -n 2

echo "bundle: $BUNDLE, $(du -sm "$BUNDLE" | cut -f1) MB, $(find "$BUNDLE" -type f | wc -l) files"
