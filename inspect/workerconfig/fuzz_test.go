package workerconfig

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseWorkerConfig checks that no worker file, however broken, makes the
// parser or the derived accessors panic.
func FuzzParseWorkerConfig(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(workersDir, "*.properties"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files in %s: %v", workersDir, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("a=\\u00\nb\\\n"))
	f.Add([]byte("sasl.jaas.config=M required a=\"\\"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("fuzz.properties", data)
		if err != nil {
			return
		}
		for _, k := range w.Keys() {
			_, _, _ = w.Int(k)
			_ = w.List(k)
		}
		_, _ = w.Bootstrap()
		_, _, _, _ = w.SASLCredentials()
		_ = w.TopicNames()
		_, _ = ParseJAASConfig(w.Str("sasl.jaas.config"))
	})
}
