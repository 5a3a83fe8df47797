package workerconfig

import (
	"github.com/connectscope/connectscope/inspect/redact"
	"strings"
	"testing"
)

// secretMark stands for a password in the hostile files below. It holds a
// '-', so it can never pass for a Java class name that errors may quote.
const secretMark = "S3CR3T-MARK"

// hostileWorkerFiles are worker files whose errors once quoted secrets.
var hostileWorkerFiles = []string{
	// JAAS text that cannot be parsed, with the password in the broken part.
	"sasl.mechanism=PLAIN\nsasl.jaas.config=" + secretMark + " required;\n",
	"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule " + secretMark + " username=\"u\";\n",
	"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" " + secretMark + ";\n",
	"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required password=\"" + secretMark + "\n",
	"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required password=" + secretMark + " user\n",
	"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required password=\"" + secretMark + "\" /* open\n",
	// A provider reference next to a literal password.
	"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"${file:/s.properties:user}\" password=\"" + secretMark + "\";\n",
	"bootstrap.servers=${env:BROKERS}\nsasl.jaas.config=x required password=\"" + secretMark + "\";\n",
	"security.protocol=SSL\nssl.keystore.key=-----BEGIN " + secretMark + " ${file:/k:pem}\n",
	// Properties that the parser rejects with the value in its message.
	"ssl.key.password=" + secretMark + "\\uZZZZ\n",
	"sasl.jaas.config=" + secretMark + "\\",
	// A secret setting whose value is not what Kafka accepts.
	"ssl.truststore.password.ms=" + secretMark + "\n",
}

// Errors name the file, the key and the problem, never a secret's value.
func TestWorkerConfigErrorsHideSecrets(t *testing.T) {
	for _, text := range hostileWorkerFiles {
		for _, msg := range workerConfigErrors(text) {
			if strings.Contains(msg, secretMark) || strings.Contains(msg, "S3CR3T") {
				t.Errorf("file %q: error quotes the secret: %s", text, msg)
			}
		}
	}
}

// workerConfigErrors collects every error message a file can produce.
func workerConfigErrors(text string) []string {
	w, err := Parse("w.properties", []byte(text))
	if err != nil {
		return []string{err.Error()}
	}
	var msgs []string
	note := func(err error) {
		if err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	_, err = w.Bootstrap()
	note(err)
	_, _, _, err = w.SASLCredentials()
	note(err)
	_, err = ParseJAASConfig(w.Str("sasl.jaas.config"))
	note(err)
	_, err = w.TLSMaterial()
	note(err)
	for _, k := range w.Keys() {
		if redact.IsSecretKey(k) { // values of other keys are named on purpose
			_, _, err = w.Int(k)
			note(err)
		}
	}
	return msgs
}

// Java reads a line with an empty key as the entry "" (last one wins).
func TestPropertiesEmptyKey(t *testing.T) {
	w, err := Parse("w.properties", []byte("=10\n  :11\ngroup.id=connect\n\\=x=eq\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := w.Props[""]; !ok || got != "11" {
		t.Errorf(`key "": got %q (present %v), want "11"`, got, ok)
	}
	if w.Props["group.id"] != "connect" || w.Props["=x"] != "eq" {
		t.Errorf("other keys: %v", w.Props)
	}
}

// secretSettings are the keys the fuzz target puts a secret in.
var secretSettings = []string{"sasl.jaas.config", "ssl.key.password", "ssl.keystore.key", "ssl.truststore.password", "bootstrap.servers.password"}

// FuzzWorkerConfigErrorsHideSecrets puts the mark inside the value of a
// secret setting, surrounded by arbitrary text, and wants no error to
// quote it. (Key names are named in errors on purpose, so the mark stays in
// the value: one line, no escapes that could end it.)
func FuzzWorkerConfigErrorsHideSecrets(f *testing.F) {
	f.Add(uint8(0), "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"", "\";")
	f.Add(uint8(0), "", " required;")
	f.Add(uint8(0), "M required username=\"${file:/s:user}\" password=\"", "\";")
	f.Add(uint8(0), "M ", " username=\"u\";")
	f.Add(uint8(1), "", "\\uZZZZ")
	f.Add(uint8(2), "-----BEGIN ", " ${file:/k:pem}")
	f.Add(uint8(0xa5), "$${{", ":}") // cleaned once, "$${{" was "${"
	f.Fuzz(func(t *testing.T, which uint8, before, after string) {
		// No "${" may stay around the mark (it would make the mark a
		// config-provider reference, which errors name on purpose):
		// removing one can join a "$" and a "{" into another ("$${{").
		clean := func(s string) string {
			for {
				c := strings.NewReplacer("\n", " ", "\r", " ", "\f", " ", "${", "", "\\", "").Replace(s)
				if c == s {
					return s
				}
				s = c
			}
		}
		key := secretSettings[int(which)%len(secretSettings)]
		text := "sasl.mechanism=PLAIN\nsecurity.protocol=SASL_SSL\n" + key + "=" + clean(before) + secretMark + clean(after) + "\n"
		for _, msg := range workerConfigErrors(text) {
			if strings.Contains(msg, secretMark) {
				t.Fatalf("error quotes the secret: %s", msg)
			}
		}
	})
}
