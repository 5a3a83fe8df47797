package store

import (
	"strings"
	"testing"
)

// credentialShapes are real-world connector and worker settings. secret is
// the part that must never reach output; keep is what must stay readable.
var credentialShapes = []struct {
	key, value string
	secret     string // must not appear after redaction ("" = nothing secret)
	keep       string // must appear after redaction
}{
	// Secret by key name.
	{"value.converter.basic.auth.user.info", "svc-user:S3cr3tPw", "S3cr3tPw", Redacted},
	{"schema.registry.basic.auth.user.info", "fred:letmein", "letmein", Redacted},
	{"datadog.api_key", "dd0123456789abcdef", "dd0123456789abcdef", Redacted},
	{"gcs.credentials.json", `{"private_key":"-----BEGIN"}`, "BEGIN", Redacted},
	{"snowflake.private.key", "MIIEvQIBADANBgkq", "MIIEvQIBADANBgkq", Redacted},
	{"snowflake.private_key", "MIIEvQIBADANBgkq", "MIIEvQIBADANBgkq", Redacted},
	{"db.pwd", "hunter2", "hunter2", Redacted},
	{"ftp.passwd", "hunter2", "hunter2", Redacted},
	{"elastic.auth", "elastic:changeme", "changeme", Redacted},
	{"http.headers.authorization", "Basic dXNlcjpwYXNz", "dXNlcjpwYXNz", Redacted},
	{"aws.secret_key", "wJalrXUtnFEMI", "wJalrXUtnFEMI", Redacted},
	{"ssl.key.password", "kp", "kp", Redacted},
	{"sasl.jaas.config", `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="pw1";`, "pw1", Redacted},
	// Credentials inside values of keys that are not secret.
	{"connection.url", "jdbc:postgresql://app:Pg-Pass_9@db.internal:5432/orders", "Pg-Pass_9", "jdbc:postgresql://app:[redacted]@db.internal:5432/orders"},
	{"mongodb.connection.uri", "mongodb+srv://reader:m0ng0@pw@cluster0.example.net/?retryWrites=true", "m0ng0", "mongodb+srv://reader:[redacted]@cluster0.example.net/?retryWrites=true"},
	{"connection.uri", "mongodb://admin:adm1n@h1:27017,h2:27017/db", "adm1n", "mongodb://admin:[redacted]@h1:27017,h2:27017/db"},
	{"connection.url", "jdbc:sqlserver://db:1433;databaseName=x;user=sa;password=SqlPw1;encrypt=true", "SqlPw1", "user=sa;password=[redacted];encrypt=true"},
	{"connection.url", "jdbc:mysql://db:3306/x?user=root&password=MyPw&useSSL=true", "MyPw", "?user=root&password=[redacted]&useSSL=true"},
	{"connection.url", "jdbc:oracle:thin:scott/tiger@//db:1521/XE", "", "jdbc:oracle:thin:scott/tiger@//db:1521/XE"},
	{"headers", "Authorization:Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig|Content-Type:application/json", "eyJhbGciOiJIUzI1NiJ9", "Content-Type:application/json"},
	{"http.request.headers", "Authorization: Basic YWxhZGRpbjpvcGVu, X-Trace: 1", "YWxhZGRpbjpvcGVu", "X-Trace: 1"},
	{"rest.request.header", "X-Api: 1; Authorization=Token abc123def", "abc123def", "X-Api: 1"},
	{"webhook.url", "https://hooks.example.com/x?token=tok_live_77", "tok_live_77", "https://hooks.example.com/x?token=[redacted]"},
	// Nothing secret: unchanged.
	{"connection.url", "jdbc:postgresql://db.internal:5432/orders", "", "jdbc:postgresql://db.internal:5432/orders"},
	{"ssl.client.auth", "required", "", "required"},
	{"key.converter", "org.apache.kafka.connect.json.JsonConverter", "", "org.apache.kafka.connect.json.JsonConverter"},
	{"topics", "orders,payments", "", "orders,payments"},
	{"email.to", "ops@example.com", "", "ops@example.com"},
	{"connection.password", "${file:/etc/secrets.properties:pw}", "", "${file:/etc/secrets.properties:pw}"},
	{"connection.url", "jdbc:mysql://db/x?user=u&password=${file:/s:pw}", "", "password=${file:/s:pw}"},
}

func TestRedactCredentialShapes(t *testing.T) {
	for _, tc := range credentialShapes {
		got := RedactValue(tc.key, tc.value)
		if tc.secret != "" && strings.Contains(got, tc.secret) {
			t.Errorf("%s = %q: secret %q survives in %q", tc.key, tc.value, tc.secret, got)
		}
		if !strings.Contains(got, tc.keep) {
			t.Errorf("%s = %q: %q lost, got %q", tc.key, tc.value, tc.keep, got)
		}
		if tc.secret == "" && got != tc.value {
			t.Errorf("%s = %q: changed to %q though nothing is secret", tc.key, tc.value, got)
		}
		if shown := RedactConfig(map[string]string{tc.key: tc.value}, true)[tc.key]; shown != tc.value {
			t.Errorf("%s with --show-secrets: %q", tc.key, shown)
		}
	}
}

// Traces quote connection strings and headers; they are redacted the same way.
func TestRedactTrace(t *testing.T) {
	trace := "org.apache.kafka.connect.errors.ConnectException: java.sql.SQLException: cannot connect to jdbc:postgresql://app:Pg-Pass_9@db:5432/x\n" +
		"\tat io.confluent.connect.jdbc.util.CachedConnectionProvider.getConnection(CachedConnectionProvider.java:59)\n" +
		"Caused by: HTTP 401 for request with Authorization: Bearer abc.def.ghi\n"
	got := *redactTrace(&trace, false)
	for _, secret := range []string{"Pg-Pass_9", "abc.def.ghi"} {
		if strings.Contains(got, secret) {
			t.Errorf("trace keeps %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "CachedConnectionProvider.java:59") || !strings.Contains(got, "jdbc:postgresql://app:[redacted]@db:5432/x") {
		t.Errorf("trace lost its readable part:\n%s", got)
	}
	if *redactTrace(&trace, true) != trace {
		t.Error("--show-secrets changed the trace")
	}
}

func FuzzRedactText(f *testing.F) {
	for _, tc := range credentialShapes {
		f.Add(tc.key, tc.value)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		got := RedactValue(key, value)
		if RedactValue(key, got) != got {
			t.Fatalf("redaction is not stable: %q -> %q -> %q", value, got, RedactValue(key, got))
		}
		// A user:password@ URL never keeps its password.
		if m := urlUserInfo.FindStringSubmatch(got); m != nil && !strings.Contains(got, m[1]+Redacted+"@") {
			t.Fatalf("url password survives in %q", got)
		}
	})
}
