#!/usr/bin/env bash
# Install Debian's chromium for the HTML report's browser tests (tests/test_report_html_browser.py,
# tests/test_report_html_incident.py). Idempotent and quiet: a no-op when chromium is already on
# PATH. Without apt-get or root/sudo it says so on stderr and leaves the tests to skip; an apt
# failure where installing is possible fails the script, so CI never skips the browser tests silently.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get here; the browser tests will be skipped" >&2
  exit 0
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "install-chromium: not root and no passwordless sudo; the browser tests will be skipped" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
APT=("${SUDO[@]}" apt-get -qq -o DPkg::Lock::Timeout=300)
"${APT[@]}" update >/dev/null
"${APT[@]}" install -y chromium >/dev/null
command -v chromium >/dev/null
