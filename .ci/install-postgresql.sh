#!/usr/bin/env bash
# Install Debian's PostgreSQL server binaries for the team-cache tests (tests/pgcluster.py starts a
# throw-away cluster from them as the `postgres` user; no system cluster is used). Idempotent and
# quiet: a no-op when initdb is present. Without apt-get or root/sudo it says so on stderr; the
# tests then fail under CI=true, so CI never skips the PostgreSQL backend silently.
set -euo pipefail

if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-postgresql: no apt-get here; install PostgreSQL's server binaries for the team-cache tests" >&2
  exit 0
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "install-postgresql: not root and no passwordless sudo; install postgresql for the team-cache tests" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
APT=("${SUDO[@]}" apt-get -qq -o DPkg::Lock::Timeout=300)
"${APT[@]}" update >/dev/null
"${APT[@]}" install -y postgresql >/dev/null
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
