#!/usr/bin/env bash
# The GitHub Action's audit step. One audit prints the text report in the job log and writes the
# job summary ($GITHUB_STEP_SUMMARY); with CC_SARIF set, a second run writes SARIF for code scanning
# (it reuses the first run's fetched pages from the cache: no URL is fetched twice). The exit code is
# kept for the gate step, so the SARIF upload still happens when findings fail the job.
set -uo pipefail
offline=()  # the flags the inputs turn on
[ "${CC_OFFLINE:-false}" = "true" ] && offline=(--offline)
[ "${CC_INLINE_CONFIG:-true}" = "false" ] && offline+=(--no-inline-config)
read -r -a paths <<< "${CC_PATHS:-.}"
read -r -a extra <<< "${CC_ARGS:-}"
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
citecheck audit "${paths[@]}" "${offline[@]}" --fail-on "${CC_FAIL_ON:-error}" --format text "${extra[@]}" > "$report"
code=$?
cat "$report"
if [ -n "${CC_SARIF:-}" ]; then
  citecheck audit "${paths[@]}" "${offline[@]}" --fail-on "${CC_FAIL_ON:-error}" --format sarif -o "$CC_SARIF" \
    "${extra[@]}" > /dev/null 2>&1 || true
fi
echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
case $code in
  0) verdict="passed" ;;
  1) verdict="failed: findings at or above --fail-on ${CC_FAIL_ON:-error}, or a score below --min-score" ;;
  *) verdict="could not audit (exit $code): bad input, a crashed rule or no network; see the log" ;;
esac
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "## citecheck: $verdict"
    echo
    echo "$(tail -n 1 "$report")"
    echo
    echo "<details><summary>Report ($(grep -c . "$report") lines)</summary>"
    echo
    echo '```text'
    head -n 400 "$report"
    [ "$(wc -l < "$report")" -gt 400 ] && echo "… (the full report is in the job log)"
    echo '```'
    echo
    echo "</details>"
  } >> "$GITHUB_STEP_SUMMARY"
fi
echo "citecheck $verdict${CC_SARIF:+; SARIF report: $CC_SARIF}"
exit 0
