//go:build e2e

package realkafka

import (
	"strings"
	"testing"
)

// A dump as a JVM prints it on SIGQUIT: the shutdown hook joined on the
// herder, the herder in a rebalance, and threads that only wait for work.
const sampleDump = `[2026-12-03 04:40:01,000] INFO Kafka Connect stopping (org.apache.kafka.connect.runtime.Connect)
Full thread dump OpenJDK 64-Bit Server VM (17.0.9+9 mixed mode):

"Thread-9" #61 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting on condition
   java.lang.Thread.State: TIMED_WAITING (parking)
	at jdk.internal.misc.Unsafe.park(Native Method)
	at java.util.concurrent.ThreadPoolExecutor.awaitTermination(ThreadPoolExecutor.java:1464)
	at org.apache.kafka.connect.runtime.distributed.DistributedHerder.stop(DistributedHerder.java:830)
	at org.apache.kafka.connect.runtime.Connect.stop(Connect.java:83)
	at org.apache.kafka.connect.runtime.Connect$ShutdownHook.run(Connect.java:115)

"DistributedHerder-connect-1-1" #40 prio=5 os_prio=0 tid=0x3 nid=0x4 runnable
   java.lang.Thread.State: RUNNABLE
	at sun.nio.ch.EPoll.wait(Native Method)
	at org.apache.kafka.clients.NetworkClient.poll(NetworkClient.java:600)
	at org.apache.kafka.connect.runtime.distributed.WorkerGroupMember.poll(WorkerGroupMember.java:176)
	at org.apache.kafka.connect.runtime.distributed.DistributedHerder.tick(DistributedHerder.java:480)

"pool-3-thread-1" #33 prio=5 os_prio=0 tid=0x5 nid=0x6 waiting on condition
   java.lang.Thread.State: WAITING (parking)
	at java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1062)
	at org.apache.kafka.connect.util.KafkaBasedLog$WorkThread.run(KafkaBasedLog.java:1)

"kafka-producer-network-thread" #20 daemon prio=5 os_prio=0 tid=0x7 nid=0x8 runnable
	at org.apache.kafka.clients.producer.internals.Sender.run(Sender.java:243)
`

func TestStuckThreadsNamesTheHookAndTheHerder(t *testing.T) {
	got := stuckThreads(sampleDump)
	for _, want := range []string{`"Thread-9"`, "DistributedHerder.stop", `"DistributedHerder-connect-1-1"`, "WorkerGroupMember.poll"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	for _, not := range []string{"pool-3-thread-1", "kafka-producer-network-thread", "Kafka Connect stopping"} {
		if strings.Contains(got, not) {
			t.Errorf("%q should be left out of:\n%s", not, got)
		}
	}
	if got := stuckThreads("[2026-12-03] INFO no dump here\n"); got != "" {
		t.Errorf("a log without a dump gave %q", got)
	}
}
