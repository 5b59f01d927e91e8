#!/usr/bin/env bash
# apt-install.sh WHO PACKAGE...: install Debian packages quietly, as root or through passwordless sudo.
# Without apt-get, or neither root nor passwordless sudo, it says so on stderr (as WHO) and exits 3
# (the caller then leaves the tests to report what is missing). An apt failure where installing is possible fails.
set -euo pipefail
WHO=$1
shift
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$WHO: no apt-get here; install $* for the tests that need it" >&2
  exit 3
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "$WHO: not root and no passwordless sudo; install $* for the tests that need it" >&2
    exit 3
  fi
fi
export DEBIAN_FRONTEND=noninteractive
APT=("${SUDO[@]}" apt-get -qq -o DPkg::Lock::Timeout=300)
"${APT[@]}" update >/dev/null
"${APT[@]}" install -y "$@" >/dev/null
