package inspect

import (
	"encoding/json"
	"testing"
)

func TestProblemJSON(t *testing.T) {
	cases := []struct {
		p    Problem
		want string
	}{
		{Problem{Topic: "connect-status", Partition: 3, Offset: 17, Key: "status-task-a-0", Reason: "bad"},
			`{"topic":"connect-status","partition":3,"offset":17,"key":"status-task-a-0","reason":"bad"}`},
		// A dump line that is not a record envelope: nothing is known but the reason.
		{Problem{Partition: -1, Offset: -1, Reason: "line 3: not a JSON object"},
			`{"topic":null,"partition":null,"offset":null,"key":null,"reason":"line 3: not a JSON object"}`},
		// Offset 0 and partition 0 are real positions, not unknowns.
		{Problem{Topic: "connect-configs", Partition: 0, Offset: 0, Reason: "null key"},
			`{"topic":"connect-configs","partition":0,"offset":0,"key":null,"reason":"null key"}`},
		// An empty key is "", not null.
		{Problem{Topic: "connect-offsets", Partition: 0, Offset: 4, HasKey: true, Reason: "offset key is not JSON"},
			`{"topic":"connect-offsets","partition":0,"offset":4,"key":"","reason":"offset key is not JSON"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("got  %s\nwant %s", b, c.want)
		}
		var back Problem
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if c.p.Key != "" {
			c.p.HasKey = true // a key in the JSON is a key the record had
		}
		if back != c.p {
			t.Errorf("round trip: got %+v, want %+v", back, c.p)
		}
	}
}

// Or keeps the names given and takes the others from the defaults.
func TestTopicNamesOr(t *testing.T) {
	got := TopicNames{Offset: "my-offsets"}.Or(DefaultTopicNames())
	want := TopicNames{Config: "connect-configs", Offset: "my-offsets", Status: "connect-status"}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := (TopicNames{}).Or(TopicNames{}); got != (TopicNames{}) {
		t.Errorf("empty or empty: %+v", got)
	}
}
