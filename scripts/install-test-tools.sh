#!/usr/bin/env bash
# What `npm test` needs beyond npm packages, installed from Debian's packages when missing: Chromium (the browser
# tests drive Debian's chromium, never a downloaded browser) and a Java runtime (AWS's DynamoDB Local, beside
# dynalite). npm runs this before `npm test` (its `pretest` script), so `npm ci && npm test` passes on a fresh Debian
# or Ubuntu machine; `npm run setup:browser` runs it for Chromium alone. Uses sudo only when not already root, and
# prints one line per tool when there is nothing to do. Arguments: the tools to check (default: chromium java).
set -euo pipefail

# apt_install NAME PACKAGE: installs PACKAGE with apt-get, through sudo when not root.
apt_install() {
  local name=$1 package=$2 as_root=()
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "test tools: $name is missing and this system has no apt-get; install it by hand" >&2
    exit 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "test tools: installing $name needs root, and sudo is not available" >&2
      exit 1
    fi
    as_root=(sudo)
  fi
  echo "test tools: $name is missing; installing Debian's $package with apt-get${as_root:+ (through sudo)}"
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package"
}

chromium() {
  local bin=/usr/bin/chromium
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then
    echo "test tools: using CHROMIUM_PATH=$CHROMIUM_PATH, nothing to install"
    return
  fi
  if [ -x "$bin" ]; then
    # Debian's launcher script may complain on stderr about its environment; the version line is what matters.
    echo "test tools: $bin is installed ($("$bin" --version 2>/dev/null || echo 'version unknown')), nothing to do"
    return
  fi
  apt_install Chromium chromium
  if [ ! -x "$bin" ]; then
    echo "test tools: apt-get installed chromium but $bin is still missing" >&2
    exit 1
  fi
  echo "test tools: installed $("$bin" --version 2>/dev/null || echo chromium) at $bin"
}

java_runtime() {
  if command -v java >/dev/null 2>&1; then
    echo "test tools: java is installed ($(java -version 2>&1 | head -n 1)), nothing to do"
    return
  fi
  apt_install 'a Java runtime' default-jre-headless
  echo "test tools: installed $(java -version 2>&1 | head -n 1)"
}

for tool in "${@:-chromium java}"; do
  for t in $tool; do
    case "$t" in
      chromium) chromium ;;
      java) java_runtime ;;
      *) echo "test tools: unknown tool '$t' (chromium, java)" >&2; exit 2 ;;
    esac
  done
done
