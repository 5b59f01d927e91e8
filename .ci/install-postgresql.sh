#!/usr/bin/env bash
# Install Debian's PostgreSQL server binaries for the team-cache tests (tests/pgcluster.py starts a
# throw-away cluster from them as the `postgres` user; no system cluster is used). Idempotent and
# quiet: a no-op when initdb is present. Without apt-get or root/sudo it says so on stderr; the
# tests then fail under CI=true, so CI never skips the PostgreSQL backend silently.
set -euo pipefail

if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; then
  exit 0
fi
rc=0
bash "$(dirname "$0")/apt-install.sh" install-postgresql postgresql || rc=$?
[ "$rc" -ne 3 ] || exit 0  # it could not install, and said why
[ "$rc" -eq 0 ] || exit "$rc"
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
