package redact

import (
	"strings"
	"testing"
)

type inner struct {
	Host  *string
	Tags  map[string]string
	Any   any
	next  *inner
	Notes []string
}

type outer struct {
	Name   string
	Inners []inner
	Ptr    *inner
	hidden string
}

// Strings redacts every string a report reaches, in place, and replaces a
// pointed-to string rather than writing through a pointer others share.
func TestStrings(t *testing.T) {
	shared := "h\\npassword=PtrPw"
	in := &inner{Host: &shared, Tags: map[string]string{"token=KeyPw": "v", "k": "token=ValPw"},
		Any: []string{"x secret=AnyPw"}, Notes: []string{"jdbc:mysql://u:NotePw@db/x"}}
	in.next = in
	o := &outer{Name: "Authorization: Bearer NamePw", Inners: []inner{*in}, Ptr: in, hidden: "password=HiddenPw"}
	Strings(o)
	all := o.Name + *o.Ptr.Host + strings.Join(o.Ptr.Notes, " ") + strings.Join(o.Inners[0].Any.([]string), " ")
	for k, v := range o.Ptr.Tags {
		all += k + v
	}
	for _, s := range []string{"PtrPw", "KeyPw", "ValPw", "AnyPw", "NotePw", "NamePw"} {
		if strings.Contains(all, s) {
			t.Errorf("%s survives: %s", s, all)
		}
	}
	if shared != "h\\npassword=PtrPw" {
		t.Errorf("wrote through a shared pointer: %q", shared)
	}
	if o.hidden != "password=HiddenPw" {
		t.Errorf("an unexported field changed: %q", o.hidden)
	}
	Strings((*outer)(nil)) // a nil report is left alone
}
