package protocol

import "testing"

// A setting's first offer names the setting back; other values have none.
func TestOffersAndSetting(t *testing.T) {
	for _, s := range []string{"eager", "compatible", "sessioned"} {
		offers := Offers(s)
		if len(offers) == 0 || Setting(offers[0]) != s || offers[len(offers)-1] != ProtocolEager {
			t.Errorf("Offers(%q) = %v", s, offers)
		}
	}
	if Offers("Sessioned") != nil || Offers("") != nil || Setting("cooperative") != "" {
		t.Error("a value that is not Connect's has offers or a setting")
	}
}
