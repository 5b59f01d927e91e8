#!/usr/bin/env bash
# Install Debian's chromium for the HTML report's browser tests (tests/e2e/test_report_html_browser.py,
# tests/report/test_report_html_incident.py). Idempotent and quiet: a no-op when chromium is already on
# PATH. Without apt-get or root/sudo it says so on stderr and leaves the tests to skip; an apt
# failure where installing is possible fails the script, so CI never skips the browser tests silently.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  exit 0
fi
rc=0
bash "$(dirname "$0")/apt-install.sh" install-chromium chromium || rc=$?
[ "$rc" -ne 3 ] || exit 0  # it could not install, and said why
[ "$rc" -eq 0 ] || exit "$rc"
command -v chromium >/dev/null
