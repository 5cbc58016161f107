#!/usr/bin/env bash
# Build the one-folder Hexfray and prove the frozen executable works (make package-test).
#
#   1. python packaging/build.py             -> dist/hexfray/hexfray
#   2. dist/hexfray/hexfray --self-test      (offscreen; fails on a non-zero exit)
#   3. python packaging/check_bundle.py      contents, libraries, and the self-test
#                                            again with a check that no file in
#                                            dist/hexfray was added or changed
#
# Uses the project's environment: $PY if set, else .venv/bin/python, else python3.
# About 20-40 s on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PY:-}" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
export QT_QPA_PLATFORM=offscreen

echo "== build (one folder)"
"$PY" packaging/build.py --quiet

echo "== dist/hexfray/hexfray --self-test"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
HEXFRAY_HOME="$home" dist/hexfray/hexfray --self-test

echo "== bundle contents, and the bundle is never written to"
"$PY" packaging/check_bundle.py dist/hexfray
echo "package-test passed"
