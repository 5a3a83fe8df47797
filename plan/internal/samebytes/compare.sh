#!/bin/sh
# compare.sh OLD NEW: runs a broad set of plan commands with two connectscope
# binaries and compares their outputs byte for byte (stdout, exit status and
# any --plot picture). Used before and after every change to the plan engine:
# a speed-up must not change one byte. Run from the repository root (the
# example snapshots are read from examples/). Prints one line per difference
# and a count; exits 1 when any output differs.
set -u
old=$1 new=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
run() { # run LABEL ARGS...: both binaries, every output format and the compact JSON
	label=$1
	shift
	for o in table wide json mermaid "json --compact"; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # $o is one or two words
		"$old" "$@" -o $o >"$tmp/a" 2>"$tmp/ae"
		echo "exit $?" >>"$tmp/a"
		# shellcheck disable=SC2086
		"$new" "$@" -o $o >"$tmp/b" 2>"$tmp/be"
		echo "exit $?" >>"$tmp/b"
		if ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/ae" "$tmp/be"; then
			echo "DIFFERS: $label -o $o: $*"
			bad=$((bad + 1))
		fi
	done
}
plot() { # plot ARGS...: the --plot picture of both binaries
	n=$((n + 1))
	"$old" "$@" --plot "$tmp/a.svg" >/dev/null 2>&1
	"$new" "$@" --plot "$tmp/b.svg" >/dev/null 2>&1
	if ! cmp -s "$tmp/a.svg" "$tmp/b.svg"; then
		echo "DIFFERS: --plot $*"
		bad=$((bad + 1))
	fi
}
for syn in workers=6,connectors=30,tasks=3 workers=20,connectors=50,tasks=4,skew=0.5 workers=50,connectors=300,tasks=2 workers=7,connectors=3,tasks=0; do
	for proto in sessioned compatible eager; do
		for ver in "" "--kafka-version 3.4.0" "--kafka-version 2.6.0"; do
			s="--synthetic $syn --protocol $proto $ver"
			run join plan join $s --add 2
			run join-paced plan join $s --add 3 --pace 20s
			run leave plan leave $s --worker w2
			run leave-crash-return plan leave $s --worker w2 --stop crash --returns-after 1m
			run leave-two plan leave $s --worker w2 --worker w3 --pace 20s
			run connector plan connector $s --set conn-01=9 --add new-conn=4 --remove conn-02
			run connector-zero plan connector $s --set conn-00=0
			run scale-out plan scale $s --to 9 --step 2 --pace 30s
			run scale-in plan scale $s --to 3 --step 1 --pace 10s --stop crash
			run roll plan rolling-restart $s --restart-time 90s
			run roll-crash plan rolling-restart $s --restart-time 20s --stop crash --max-delay 1m
			run roll-order plan rolling-restart $s --restart-time 90s --order w3,w1,w2
		done
	done
	run roll-heartbeat plan rolling-restart --synthetic "$syn" --restart-time 45s --heartbeat-interval 3s --round-time 1s
	run leave-heartbeat plan leave --synthetic "$syn" --worker w1 --stop crash --heartbeat-interval 3s
	run gates plan rolling-restart --synthetic "$syn" --restart-time 90s --max-outage 1m --max-moves 3 --max-rounds 4 --max-task-seconds 100
	plot plan rolling-restart --synthetic "$syn" --restart-time 90s
	plot plan leave --synthetic "$syn" --worker w2 --returns-after 1m
done
for snap in examples/cluster.snapshot.json examples/cluster-after.snapshot.json; do
	run snap-roll --from "$snap" plan rolling-restart --restart-time 90s
	run snap-leave --from "$snap" plan leave --worker worker-2 --stop crash --returns-after 2m
	run snap-join --from "$snap" plan join --add 1
	run snap-connector --from "$snap" plan connector --set jdbc-orders-source=4
	run snap-advise --from "$snap" plan advise --restart-time 90s
done
run advise plan advise --synthetic workers=6,connectors=30,tasks=3 --restart-time 90s --max-delay 5m
run replay plan replay examples/scenario.json
run replay-two plan replay examples/two-leave.scenario.json
echo "$n outputs compared, $bad differ"
[ "$bad" -eq 0 ]
