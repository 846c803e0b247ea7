#!/usr/bin/env bash
# Installs Debian's chromium package, the browser the dashboard's end-to-end test drives, when it is missing.
# The test never downloads a browser of its own, and fails rather than skips without one: run this first
# (`npm run setup:browser`; CI runs it before `npm test`). Uses sudo only when not already root.
set -euo pipefail

bin=/usr/bin/chromium
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then
  echo "setup:browser: using CHROMIUM_PATH=$CHROMIUM_PATH, nothing to install"
  exit 0
fi
if [ -x "$bin" ]; then
  # Debian's launcher script may complain on stderr about its environment; the version line is what matters.
  echo "setup:browser: $bin is installed ($("$bin" --version 2>/dev/null || echo 'version unknown')), nothing to do"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup:browser: $bin is missing and this system has no apt-get; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup:browser: installing chromium needs root, and sudo is not available" >&2
    exit 1
  fi
  as_root=(sudo)
fi

echo "setup:browser: $bin is missing; installing Debian's chromium package with apt-get${as_root:+ (through sudo)}"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
if [ ! -x "$bin" ]; then
  echo "setup:browser: apt-get installed chromium but $bin is still missing" >&2
  exit 1
fi
echo "setup:browser: installed $("$bin" --version 2>/dev/null || echo chromium) at $bin"
