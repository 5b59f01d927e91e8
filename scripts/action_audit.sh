#!/usr/bin/env bash
# The GitHub Action's audit step: SARIF to a file (code scanning turns it into PR annotations),
# the exit code kept for the gate step so the SARIF upload still happens when findings fail the job.
set -uo pipefail
offline=()  # the flags the inputs turn on
[ "${CC_OFFLINE:-false}" = "true" ] && offline=(--offline)
[ "${CC_INLINE_CONFIG:-true}" = "false" ] && offline+=(--no-inline-config)
read -r -a paths <<< "${CC_PATHS:-.}"
read -r -a extra <<< "${CC_ARGS:-}"
citecheck audit "${paths[@]}" "${offline[@]}" --fail-on "${CC_FAIL_ON:-error}" --format sarif \
  -o "${CC_SARIF:-citecheck.sarif}" "${extra[@]}"
code=$?
echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
echo "citecheck exited $code; SARIF report: ${CC_SARIF:-citecheck.sarif}"
exit 0
