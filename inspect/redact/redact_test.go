package redact

import "testing"

func TestRedactConfig(t *testing.T) {
	in := map[string]string{
		"database.password":             "p",
		"DB.PASSWORD":                   "p",
		"client.secret":                 "s",
		"auth.token":                    "t",
		"aws.credentials.path":          "c",
		"sasl.jaas.config":              "j",
		"datadog.apikey":                "a",
		"service.api.key":               "a",
		"s3.access.key.id":              "a",
		"gcp.private.key.pem":           "k",
		"ssl.key":                       "k",
		"connection.password":           "${file:/etc/secrets.properties:pw}",
		"vault.token":                   "${vault:secret/data/x:token}",
		"half.password":                 "prefix ${file:/x:y}",
		"key.converter":                 "org.apache.kafka.connect.json.JsonConverter",
		"keystore.location":             "/etc/ks",
		"topics":                        "orders",
		"transforms.mask.fields.keyset": "x",
	}
	hidden := Config(in, false)
	shown := Config(in, true)
	want := map[string]bool{ // true: redacted
		"database.password": true, "DB.PASSWORD": true, "client.secret": true, "auth.token": true,
		"aws.credentials.path": true, "sasl.jaas.config": true, "datadog.apikey": true, "service.api.key": true,
		"s3.access.key.id": true, "gcp.private.key.pem": true, "ssl.key": true, "half.password": true,
	}
	for k, v := range in {
		if want[k] && hidden[k] != Placeholder {
			t.Errorf("%s not redacted: %q", k, hidden[k])
		}
		if !want[k] && hidden[k] != v {
			t.Errorf("%s changed: %q", k, hidden[k])
		}
		if shown[k] != v {
			t.Errorf("%s with show: %q", k, shown[k])
		}
	}
	if Config(nil, false) != nil {
		t.Error("nil map")
	}
	in["database.password"] = "changed"
	if hidden["database.password"] != Placeholder || shown["database.password"] != "p" {
		t.Error("result shares the input map")
	}
}
