package redact

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
	{"value.converter.basic.auth.user.info", "svc-user:S3cr3tPw", "S3cr3tPw", Placeholder},
	{"schema.registry.basic.auth.user.info", "fred:letmein", "letmein", Placeholder},
	{"datadog.api_key", "dd0123456789abcdef", "dd0123456789abcdef", Placeholder},
	{"gcs.credentials.json", `{"private_key":"-----BEGIN"}`, "BEGIN", Placeholder},
	{"snowflake.private.key", "MIIEvQIBADANBgkq", "MIIEvQIBADANBgkq", Placeholder},
	{"snowflake.private_key", "MIIEvQIBADANBgkq", "MIIEvQIBADANBgkq", Placeholder},
	{"db.pwd", "hunter2", "hunter2", Placeholder},
	{"ftp.passwd", "hunter2", "hunter2", Placeholder},
	{"elastic.auth", "elastic:changeme", "changeme", Placeholder},
	{"http.headers.authorization", "Basic dXNlcjpwYXNz", "dXNlcjpwYXNz", Placeholder},
	{"aws.secret_key", "wJalrXUtnFEMI", "wJalrXUtnFEMI", Placeholder},
	{"ssl.key.password", "kp", "kp", Placeholder},
	{"sasl.jaas.config", `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="pw1";`, "pw1", Placeholder},
	// Credentials inside values of keys that are not secret.
	{"connection.url", "jdbc:postgresql://app:Pg-Pass_9@db.internal:5432/orders", "Pg-Pass_9", "jdbc:postgresql://app:[redacted]@db.internal:5432/orders"},
	{"mongodb.connection.uri", "mongodb+srv://reader:m0ng0@pw@cluster0.example.net/?retryWrites=true", "m0ng0", "mongodb+srv://reader:[redacted]@cluster0.example.net/?retryWrites=true"},
	{"connection.uri", "mongodb://admin:adm1n@h1:27017,h2:27017/db", "adm1n", "mongodb://admin:[redacted]@h1:27017,h2:27017/db"},
	{"connection.url", "jdbc:sqlserver://db:1433;databaseName=x;user=sa;password=SqlPw1;encrypt=true", "SqlPw1", "user=sa;password=[redacted];encrypt=true"},
	{"connection.url", "jdbc:mysql://db:3306/x?user=root&password=MyPw&useSSL=true", "MyPw", "?user=root&password=[redacted]&useSSL=true"},
	{"connection.url", "jdbc:oracle:thin:scott/Tig3r!x@//db:1521/XE", "Tig3r!x", "jdbc:oracle:thin:scott/[redacted]@//db:1521/XE"},
	{"connection.url", "jdbc:oracle:thin:APP_USER/0raPw#1@db-host:1521/ORCLPDB1", "0raPw#1", "jdbc:oracle:thin:APP_USER/[redacted]@db-host:1521/ORCLPDB1"},
	{"connection.url", "jdbc:oracle:thin:@//db:1521/XE", "", "jdbc:oracle:thin:@//db:1521/XE"},
	{"connection.url", "jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(HOST=db))(USER=app)(PASSWORD=DescPw9))", "DescPw9", "(USER=app)"},
	{"connection.url", "jdbc:postgresql://db:5432/x?user=u&sslpassword=KeyPw7&sslmode=verify-full", "KeyPw7", "&sslmode=verify-full"},
	{"connection.url", "jdbc:mysql://db/x?user=u&trustCertificateKeyStorePassword=TsPw2&useSSL=true", "TsPw2", "&useSSL=true"},
	{"connection.url", "jdbc:snowflake://acct.snowflakecomputing.com/?private_key_file_pwd=PkPw3&db=x", "PkPw3", "&db=x"},
	{"oauth.endpoint.url", "https://idp/token?client_id=app&client_secret=CsEcr3t&grant_type=client_credentials", "CsEcr3t", "client_id=app&client_secret=[redacted]&grant_type=client_credentials"},
	{"login.settings", "clientSecret=Cs2;tenant=t1", "Cs2", "tenant=t1"},
	{"ssl.settings", "keystore=/k.jks passphrase=Phr4se", "Phr4se", "keystore=/k.jks"},
	{"db.properties", `{"user":"app","password":"JsPw5","host":"db"}`, "JsPw5", `"host":"db"`},
	{"http.body", `{"auth": {"client_secret": "JsCs6", "client_id": "x"}}`, "JsCs6", `"client_id": "x"`},
	{"escaped", `{\"password\":\"EscPw7\",\"u\":1}`, "EscPw7", `\"u\":1`},
	// A config printed into a trace as name=value, or as JSON, whose name is
	// a secret key by its name alone.
	{"trace", "ConnectException: failed with aws.secret.access.key=AwsPw1 tasks.max=3", "AwsPw1", "aws.secret.access.key=[redacted] tasks.max=3"},
	{"trace", "bad value.converter.basic.auth.user.info=user:UiPw2, retry", "UiPw2", "basic.auth.user.info=[redacted], retry"},
	{"trace", `{"basic.auth.user.info":"user:UiPw3","tasks.max":"3"}`, "UiPw3", `"tasks.max":"3"`},
	// A JAAS line quoted again by Go's %q (an error quoting a value a line
	// continuation joined to the next line).
	{"quoted", `group.id "x=sasl.jaas.config=PlainLoginModule required username=\"u\" password=\"QuPw8\";" and "y"`, "QuPw8", `password=[redacted];" and "y"`},
	{"ldap.bind.pw", "LdPw8", "LdPw8", Placeholder},
	{"smtp_pw", "SmPw9", "SmPw9", Placeholder},
	{"http.headers", "X-Api-Key: AkV4lue, Accept: application/json", "AkV4lue", "Accept: application/json"},
	{"http.headers", "X-Auth-Token:AtV4lue|X-Trace:1", "AtV4lue", "X-Trace:1"},
	{"http.headers", "Api-Key: AkV5, Private-Token: PtV6", "PtV6", "Api-Key: [redacted]"},
	{"azure.blob.sas", "https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=SaS%2Fsig%3D&se=2030", "SaS%2Fsig", "&se=2030"},
	{"azure.sas", "sv=2022-11-02&sig=SaSv4lue", "SaSv4lue", "sv=2022-11-02&sig=[redacted]"},
	{"slack.webhook.url", "https://hooks.slack.com/services/T0001/B0002/SlackTok3n", "SlackTok3n", "https://hooks.slack.com/services/[redacted]"},
	{"discord.url", "https://discord.com/api/webhooks/1234/DiscTok3n", "DiscTok3n", "https://discord.com/api/webhooks/[redacted]"},
	{"teams.url", "https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/TeamsTok/xyz", "TeamsTok", "https://contoso.webhook.office.com/"},
	{"mattermost.url", "https://chat.example.com/hooks/MmTok3n", "MmTok3n", "https://chat.example.com/hooks/[redacted]"},
	{"telegram.url", "https://api.telegram.org/bot123456:TgTok3n-x/sendMessage", "TgTok3n", "https://api.telegram.org/bot123456:[redacted]"},
	{"google.api", "https://maps.example.com/geo?key=AIzaKey1&q=x", "AIzaKey1", "&q=x"},
	{"headers", "Authorization:Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig|Content-Type:application/json", "eyJhbGciOiJIUzI1NiJ9", "Content-Type:application/json"},
	{"http.request.headers", "Authorization: Basic YWxhZGRpbjpvcGVu, X-Trace: 1", "YWxhZGRpbjpvcGVu", "X-Trace: 1"},
	{"rest.request.header", "X-Api: 1; Authorization=Token abc123def", "abc123def", "X-Api: 1"},
	{"webhook.url", "https://hooks.example.com/x?token=tok_live_77", "tok_live_77", "https://hooks.example.com/[redacted]?token=[redacted]"},
	// Java's toString forms put a bracket or an escape sequence's last
	// byte before the name.
	{"error.trace", "JdbcSinkConfig[password=JavaPw1, user=a]", "JavaPw1", "user=a]"},
	{"error.trace", "<token=AngTok2>", "AngTok2", "<token=[redacted]"}, // a value runs to a delimiter: a password may hold ">"
	{"error.trace", "login:password=ColPw3", "ColPw3", "login:password=[redacted]"},
	{"kafka_cluster_id", "\x1b[2Jpassword=EscPw4", "EscPw4", "\x1b[2Jpassword=[redacted]"},
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
		got := Value(tc.key, tc.value)
		if tc.secret != "" && strings.Contains(got, tc.secret) {
			t.Errorf("%s = %q: secret %q survives in %q", tc.key, tc.value, tc.secret, got)
		}
		if !strings.Contains(got, tc.keep) {
			t.Errorf("%s = %q: %q lost, got %q", tc.key, tc.value, tc.keep, got)
		}
		if tc.secret == "" && got != tc.value {
			t.Errorf("%s = %q: changed to %q though nothing is secret", tc.key, tc.value, got)
		}
		if shown := Config(map[string]string{tc.key: tc.value}, true)[tc.key]; shown != tc.value {
			t.Errorf("%s with --show-secrets: %q", tc.key, shown)
		}
	}
}

// Traces quote connection strings and headers; they are redacted the same way.
func TestRedactTrace(t *testing.T) {
	trace := "org.apache.kafka.connect.errors.ConnectException: java.sql.SQLException: cannot connect to jdbc:postgresql://app:Pg-Pass_9@db:5432/x\n" +
		"\tat io.confluent.connect.jdbc.util.CachedConnectionProvider.getConnection(CachedConnectionProvider.java:59)\n" +
		"Caused by: HTTP 401 for request with Authorization: Bearer abc.def.ghi\n"
	got := *Trace(&trace, false)
	for _, secret := range []string{"Pg-Pass_9", "abc.def.ghi"} {
		if strings.Contains(got, secret) {
			t.Errorf("trace keeps %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "CachedConnectionProvider.java:59") || !strings.Contains(got, "jdbc:postgresql://app:[redacted]@db:5432/x") {
		t.Errorf("trace lost its readable part:\n%s", got)
	}
	if *Trace(&trace, true) != trace {
		t.Error("--show-secrets changed the trace")
	}
}

func FuzzRedactText(f *testing.F) {
	for _, tc := range credentialShapes {
		f.Add(tc.key, tc.value)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		got := Value(key, value)
		if Value(key, got) != got {
			t.Fatalf("redaction is not stable: %q -> %q -> %q", value, got, Value(key, got))
		}
		// A user:password@ URL never keeps its password.
		if m := urlUserInfo.FindStringSubmatch(got); m != nil && !strings.Contains(got, m[1]+Placeholder+"@") {
			t.Fatalf("url password survives in %q", got)
		}
	})
}
