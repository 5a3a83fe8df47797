#!/bin/sh
# Gate a rolling restart of a Kafka Connect cluster on connectscope's checks
# and on its plan of the restart, then print the order to restart in.
#
# Which cluster: connectscope's own variables (CONNECTSCOPE_BOOTSTRAP_SERVER,
# CONNECTSCOPE_WORKER_CONFIG, CONNECTSCOPE_CONTEXT, ...) or a named cluster.
# The runbook's settings, all optional:
#   RESTART_TIME  how long one worker takes to restart (default 90s)
#   MAX_OUTAGE    longest a task may be down during the roll (default 5m)
#   MAX_MOVES     most tasks that may end on another machine (default 100)
#   FAIL_ON       severity of findings that stop the roll (default warn)
#   WAIVERS       waiver file of findings already decided on (default
#                 waivers.yaml beside this script, when it exists)
#   REPORT        jq expression printing one blocking finding, with $stage
#                 (default: rule, subject and message)
#   STAGE         a label for the report lines (default: the hour's roll)
#
# Exit status: 0 go ahead; 1 a gate failed (the reason is on stderr);
# 2 or more the runbook could not decide (a bad flag or jq expression, an
# unreadable cluster): never read that as a pass.
set -u

CS=${CONNECTSCOPE:-connectscope}
RESTART_TIME=${RESTART_TIME:-90s}
MAX_OUTAGE=${MAX_OUTAGE:-5m}
MAX_MOVES=${MAX_MOVES:-100}
FAIL_ON=${FAIL_ON:-warn}
WAIVERS=${WAIVERS:-$(dirname "$0")/waivers.yaml}
REPORT=${REPORT:-'"\($stage): \(.severity) \(.rule) \(.subject): \(.message)"'}
STAGE=${STAGE:-rolling restart}

# stop ends the runbook: 1 is a failed gate, anything else the runbook
# itself failing, passed on as it is (a jq error is 2, not a pass).
stop() {
  if [ "$1" -eq 1 ]; then
    echo "gate: $2" >&2
  else
    echo "runbook: $3 failed with exit status $1; nothing was decided" >&2
  fi
  exit "$1"
}

# 1. The checks. Waived findings (known and decided, such as replication
#    factor 1 on a test cluster) are listed as waived and do not count.
set -- --fail-on "$FAIL_ON"
if [ -f "$WAIVERS" ]; then
  set -- "$@" --waivers "$WAIVERS"
fi
"$CS" check all "$@" --restart-time "$RESTART_TIME" -o json --arg stage "$STAGE" \
  --jq ".findings[] | select(.waived == null and .severity != \"info\") | $REPORT"
status=$?
[ "$status" -eq 0 ] || stop "$status" "findings at or above $FAIL_ON (connectscope check explain RULE; waive a decided one in $WAIVERS)" "check all"

# 2. The plan of the roll, gated: beyond --max-outage or --max-moves it
#    exits 1 with the figure that broke the gate on stderr.
order=$("$CS" plan rolling-restart --restart-time "$RESTART_TIME" --max-outage "$MAX_OUTAGE" --max-moves "$MAX_MOVES" \
  -o json --jq '.assumptions.order | join(",")')
status=$?
[ "$status" -eq 0 ] || stop "$status" "the rolling restart breaks a gate (see above)" "plan rolling-restart"

# 3. The order, as --order and inspect status name the workers, and what
#    each worker holds before it goes down.
echo "restart in this order: $order"
for worker in $(echo "$order" | tr ',' ' '); do
  "$CS" plan rolling-restart --restart-time "$RESTART_TIME" --order "$order" -o json --arg worker "$worker" \
    --jq '.initial[] | select(.name == $worker) | "  \($worker): \(.tasks) tasks (\(.owned_tasks | join(",")))"' ||
    stop "$?" "" "plan rolling-restart --order"
done
