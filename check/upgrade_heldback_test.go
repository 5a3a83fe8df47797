package check

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// A worker file that says compatible does not hold back a group that
// already runs sessioned (the file is out of date, or the worker runs
// another one): HELD BACK BY stays empty when NOW is better than the files.
func TestUpgradeNotHeldBackWhenGroupIsAhead(t *testing.T) {
	files := []*workerconfig.Config{
		worker(t, "worker-1.properties", "listeners=http://worker-1:8083\n"),
		worker(t, "worker-4.properties", "listeners=http://worker-4:8083\nconnect.protocol=compatible\n"),
	}
	members := []UpgradeMember{{MemberID: "m1", WorkerID: "worker-1:8083", MetadataVersion: 2}, {MemberID: "m4", WorkerID: "worker-4:8083", MetadataVersion: 2}}
	rep, err := Upgrade(UpgradeInput{Workers: files, Members: members, Target: "sessioned", GroupProtocol: "sessioned", KafkaVersion: kafkaversion.New(3, 9, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ProtocolNow != "sessioned" || len(rep.HeldBackBy) != 0 {
		t.Errorf("now %s, held back by %v; want sessioned and nobody", rep.ProtocolNow, rep.HeldBackBy)
	}
	if row := rep.Tables()[0].Rows[0]; row[len(row)-1] != "-" {
		t.Errorf("protocol row %q: HELD BACK BY should be -", row)
	}
	// The same files with the group on compatible: worker-4 is what holds it.
	rep, err = Upgrade(UpgradeInput{Workers: files, Members: members, Target: "sessioned", GroupProtocol: "compatible", KafkaVersion: kafkaversion.New(3, 9, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.HeldBackBy, ",") != "worker-4.properties" {
		t.Errorf("group on compatible: held back by %v, want worker-4.properties", rep.HeldBackBy)
	}
}
