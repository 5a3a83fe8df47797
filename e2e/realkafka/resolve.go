//go:build e2e

package realkafka

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
)

// Jars is one Kafka version's resolved jars.
type Jars struct {
	Version string
	Dir     string   // the version's cache directory
	Libs    []string // broker and worker classpath (every jar but connect-file)
	// PluginPath is the workers' plugin.path: it holds connect-file, kept off
	// the classpath so Connect loads it as a plugin.
	PluginPath string
}

// Classpath joins Libs for java -cp.
func (j Jars) Classpath() string { return strings.Join(j.Libs, string(os.PathListSeparator)) }

const completeMarker = "COMPLETE"

// cacheLayout changes whenever what Resolve puts in a version's directory
// changes, so an older cache is resolved again rather than used.
const cacheLayout = "2"

func markerText(version string) string { return "kafka " + version + " layout " + cacheLayout + "\n" }

// CacheDir is where resolved jars live:
// ${XDG_CACHE_HOME:-$HOME/.cache}/connectscope/kafka.
func CacheDir() (string, error) {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the jar cache: no XDG_CACHE_HOME and no home directory: %w", err)
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "connectscope", "kafka"), nil
}

// pomPath is pom.xml beside this source file.
func pomPath() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("locating e2e/realkafka/pom.xml: no caller information")
	}
	p := filepath.Join(filepath.Dir(file), "pom.xml")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("locating e2e/realkafka/pom.xml: %w", err)
	}
	return p, nil
}

// Resolve returns the jars of a pinned Kafka version, running Maven once per
// version (concurrent test binaries wait on a file lock) and reusing the
// cache afterwards.
func Resolve(ctx context.Context, version string) (Jars, error) {
	rel, err := lookup(version)
	if err != nil {
		return Jars{}, err
	}
	cache, err := CacheDir()
	if err != nil {
		return Jars{}, err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return Jars{}, fmt.Errorf("creating the jar cache %s: %w", cache, err)
	}
	dir := filepath.Join(cache, version)
	if j, err := readCache(version, dir); err == nil {
		return j, nil
	}

	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return Jars{}, fmt.Errorf("locking the jar cache for kafka %s: %w", version, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return Jars{}, fmt.Errorf("locking the jar cache for kafka %s: %w", version, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // released on close anyway
	if j, err := readCache(version, dir); err == nil {
		return j, nil // another process resolved it while we waited
	}

	pom, err := pomPath()
	if err != nil {
		return Jars{}, err
	}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return Jars{}, fmt.Errorf("clearing %s: %w", tmp, err)
	}
	libs := filepath.Join(tmp, "libs")
	binding := strings.Split(rel.binding, ":")
	cmd := exec.CommandContext(ctx, "mvn", "-B", "-q", "-f", pom,
		"-Dkafka.version="+version, "-Dconnect-file.version="+rel.connectFile,
		"-Dslf4j.binding.groupId="+binding[0], "-Dslf4j.binding.artifactId="+binding[1], "-Dslf4j.binding.version="+binding[2],
		"dependency:copy-dependencies", "-DincludeScope=runtime", "-DoutputDirectory="+libs)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return Jars{}, fmt.Errorf("resolving kafka %s with maven (mvn -f %s): %w\n%s", version, pom, err, tail(out.String(), 30))
	}
	plugin := filepath.Join(tmp, "plugins", "connect-file")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		return Jars{}, fmt.Errorf("creating %s: %w", plugin, err)
	}
	name := "connect-file-" + rel.connectFile + ".jar"
	if err := os.Rename(filepath.Join(libs, name), filepath.Join(plugin, name)); err != nil {
		return Jars{}, fmt.Errorf("moving %s to the plugin path: %w", name, err)
	}
	if rel.bridge {
		if err := compileBridge(ctx, filepath.Dir(pom), libs, plugin); err != nil {
			return Jars{}, err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, completeMarker), []byte(markerText(version)), 0o644); err != nil {
		return Jars{}, fmt.Errorf("marking the jar cache complete: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return Jars{}, fmt.Errorf("clearing %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return Jars{}, fmt.Errorf("installing the jar cache %s: %w", dir, err)
	}
	return readCache(version, dir)
}

func readCache(version, dir string) (Jars, error) {
	marker, err := os.ReadFile(filepath.Join(dir, completeMarker))
	if err != nil {
		return Jars{}, err
	}
	if string(marker) != markerText(version) {
		return Jars{}, fmt.Errorf("jar cache %s is from another harness layout", dir)
	}
	libs, err := filepath.Glob(filepath.Join(dir, "libs", "*.jar"))
	if err != nil || len(libs) == 0 {
		return Jars{}, fmt.Errorf("jar cache %s has no libs: delete it and resolve again", dir)
	}
	sort.Strings(libs)
	return Jars{Version: version, Dir: dir, Libs: libs, PluginPath: filepath.Join(dir, "plugins")}, nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// compileBridge compiles the Java sources under src/bridge against the
// version's jars into a jar in the plugin directory.
func compileBridge(ctx context.Context, src, libs, plugin string) error {
	var sources []string
	err := filepath.WalkDir(filepath.Join(src, "bridge"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			sources = append(sources, p)
		}
		return err
	})
	if err != nil || len(sources) == 0 {
		return fmt.Errorf("finding the bridge sources in %s: %v (%d files)", src, err, len(sources))
	}
	jars, err := filepath.Glob(filepath.Join(libs, "*.jar"))
	if err != nil {
		return err
	}
	classes, err := os.MkdirTemp("", "realkafka-bridge-")
	if err != nil {
		return fmt.Errorf("compiling the bridge: %w", err)
	}
	defer os.RemoveAll(classes)
	javac, err := javacPath()
	if err != nil {
		return fmt.Errorf("compiling the bridge: javac not found: %s", howToGet)
	}
	args := append([]string{"-nowarn", "-cp", strings.Join(jars, string(os.PathListSeparator)), "-d", classes}, sources...)
	out, err := exec.CommandContext(ctx, javac, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("compiling the bridge (javac): %w\n%s", err, tail(string(out), 20))
	}
	return zipDir(classes, filepath.Join(plugin, "realkafka-bridge.jar"))
}

// zipDir writes the files under dir into a jar (a zip) at dst.
func zipDir(dir, dst string) error {
	f, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	return nil
}
