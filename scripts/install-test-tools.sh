#!/usr/bin/env bash
# What `npm test` needs beyond npm packages, installed from Debian's packages when missing: Chromium (the dashboard's
# and the reference page's browser tests) and a Java runtime (AWS's DynamoDB Local, beside dynalite). npm runs this
# before `npm test` (the `pretest` script), so `npm ci && npm test` passes on a fresh Debian or Ubuntu machine. Uses
# sudo only when not already root; prints one line per tool when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")"

bash ./install-chromium.sh

if command -v java >/dev/null 2>&1; then
  echo "test tools: java is installed ($(java -version 2>&1 | head -n 1)), nothing to do"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test tools: java is missing and this system has no apt-get; install a Java 17+ runtime (DynamoDB Local needs it)" >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "test tools: installing a Java runtime needs root, and sudo is not available" >&2
    exit 1
  fi
  as_root=(sudo)
fi
echo "test tools: java is missing; installing Debian's default-jre-headless with apt-get${as_root:+ (through sudo)}"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless
echo "test tools: installed $(java -version 2>&1 | head -n 1)"
