#!/usr/bin/env bash
# Runs one phase of a build or test and prints how long it took.
#
# Usage: scripts/phase.sh "NAME" COMMAND [ARG...]
# Prints "==> NAME" before and "<== NAME: ok in Ns" (or "FAILED (exit N) in Ns") after, and
# appends the same line to $PHASE_LOG when it is set, so `make test` can print a summary.
# With $PHASE_DISK set to a folder (the build's target/), the line also gives that folder's size
# and the free space on its disk after the phase: a clean clone's run once ran out of disk.
# Exits with the command's status.
set -uo pipefail

name="$1"
shift
printf '\n==> %s\n' "$name"
start=$(date +%s)
"$@"
status=$?
secs=$(($(date +%s) - start))
if ((status == 0)); then
    line=$(printf '%-40s ok      %5ds' "$name" "$secs")
else
    line=$(printf '%-40s FAILED  %5ds (exit %d)' "$name" "$secs" "$status")
fi
if [[ -n "${PHASE_DISK:-}" && -d "$PHASE_DISK" ]]; then
    used=$(du -sh "$PHASE_DISK" 2>/dev/null | cut -f1)
    free=$(df -h --output=avail "$PHASE_DISK" 2>/dev/null | tail -1 | tr -d ' ')
    line=$(printf '%s  (target/ %s, %s free)' "$line" "${used:-?}" "${free:-?}")
fi
printf '<== %s\n' "$line"
if [[ -n "${PHASE_LOG:-}" ]]; then
    mkdir -p "$(dirname "$PHASE_LOG")"
    printf '%s\n' "$line" >>"$PHASE_LOG"
fi
exit "$status"
