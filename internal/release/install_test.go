package release_test

// This file is structured as: TestInstall, which plays a user of the
// release; the copy of the working tree it serves from; the user's
// environment and go commands; the README's a2a-go program and the agent
// it talks to.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/release"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
)

const (
	coreModule  = "github.com/a2astream/a2astream"
	a2agoModule = coreModule + "/reconstruct/a2ago"
	// root is the repository's root, from this package's directory.
	root = "../.."
	// sample is the recorded stream the user's programs read.
	sample = "internal/samples/completed.sse"
)

// TestInstall serves the core module and reconstruct/a2ago at
// release.Version from a copy of the working tree (the files git tracks or
// would add) through a file-based module proxy, ahead of the machine's
// own GOPROXY for third-party modules, and then, as a user would in a new
// module outside the repository: go get reconstruct/a2ago at that
// version, go mod tidy and go build of the README's a2a-go program (which
// must then read a served run and exit 1 on a cut one), and go install of
// the command-line tool, which must print a recorded stream's answer.
// Only the a2astream modules skip the checksum database (GONOSUMDB), as
// they are not published.
func TestInstall(t *testing.T) {
	src := copyWorkingTree(t)
	proxy := t.TempDir()
	require.NoError(t, release.WriteProxy(proxy,
		release.Module{Path: coreModule, Version: release.Version, Dir: src},
		release.Module{Path: a2agoModule, Version: release.Version, Dir: filepath.Join(src, "reconstruct", "a2ago")},
	))
	u := newUser(t, proxy)
	answer := answerOf(t, filepath.Join(src, sample))

	t.Run("go get reconstruct/a2ago, build the README's program", func(t *testing.T) {
		u.run(t, u.dir, "go", "mod", "init", "example.com/user")
		u.run(t, u.dir, "go", "get", a2agoModule+"@"+release.Version)
		require.NoError(t, os.WriteFile(filepath.Join(u.dir, "main.go"), []byte(readmeA2AGoProgram(t)), 0o644))
		u.run(t, u.dir, "go", "mod", "tidy")
		// From the proxy, not replaced: the versions the user resolved.
		mods := u.run(t, u.dir, "go", "list", "-m", "-f", "{{.Path}} {{.Version}} {{.Replace}}", coreModule, a2agoModule)
		assert.Equal(t, coreModule+" "+release.Version+" <nil>\n"+a2agoModule+" "+release.Version+" <nil>\n", mods)
		prog := filepath.Join(u.dir, "prog")
		u.run(t, u.dir, "go", "build", "-o", prog, ".")
		runProgram(t, prog, answer)
	})
	t.Run("go install cmd/a2astream", func(t *testing.T) {
		u.run(t, t.TempDir(), "go", "install", coreModule+"/cmd/a2astream@"+release.Version)
		out := u.run(t, t.TempDir(), filepath.Join(u.gobin, "a2astream"), filepath.Join(src, sample))
		assert.Equal(t, answer, strings.TrimRight(out, "\n"))
	})
}

// copyWorkingTree copies the files of the working tree that git tracks or
// would add (not those it ignores: builds, node_modules) into a new
// directory, as they are on disk, and returns it.
func copyWorkingTree(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	require.NoError(t, err, "git ls-files")
	dst := t.TempDir()
	n := 0
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		from := filepath.Join(root, filepath.FromSlash(name))
		fi, err := os.Lstat(from)
		if errors.Is(err, os.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
			continue // deleted and not yet committed, or a link
		}
		require.NoError(t, err)
		b, err := os.ReadFile(from)
		require.NoError(t, err)
		to := filepath.Join(dst, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
		require.NoError(t, os.WriteFile(to, b, fi.Mode().Perm()))
		n++
	}
	require.NotZero(t, n)
	return dst
}

// answerOf returns the answer of the recorded stream at name, as the
// library reads it.
func answerOf(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	res, err := reconstruct.Read(f, nil)
	require.NoError(t, err)
	require.NotNil(t, res.Answer)
	return string(res.Answer.Text())
}

// user is a new user's environment: a module directory outside the
// repository, a module cache and GOBIN of its own.
type user struct {
	dir, gobin string
	env        []string
}

// newUser returns a user whose GOPROXY lists the proxy at proxy, then
// the machine's module cache and GOPROXY for third-party modules.
func newUser(t *testing.T, proxy string) *user {
	t.Helper()
	u := &user{dir: t.TempDir(), gobin: t.TempDir()}
	goproxy := "file://" + filepath.ToSlash(proxy) +
		",file://" + filepath.ToSlash(filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download"))
	if machine := goEnv(t, "GOPROXY"); machine != "" && machine != "off" {
		goproxy += "," + machine
	}
	u.env = append(os.Environ(),
		"GOPROXY="+goproxy,
		"GONOSUMDB="+coreModule,
		"GOFLAGS="+strings.TrimSpace(goEnv(t, "GOFLAGS")+" -mod=mod -modcacherw"),
		"GOMODCACHE="+t.TempDir(), // the release's modules must not enter the machine's cache
		"GOBIN="+u.gobin,
		"GOWORK=off",
		"GO111MODULE=on",
		"GOTOOLCHAIN=local",
	)
	return u
}

// goEnv returns the machine's go env value of name.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err, "go env %s", name)
	return strings.TrimSpace(string(out))
}

// run runs the command in dir with the user's environment, within a few
// minutes, and returns its stdout; it fails the test with stderr if the
// command fails.
func (u *user) run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, u.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), stderr.String())
	return stdout.String()
}

// readmeA2AGoProgram returns the README's program for a2a-go users: the
// Go block that is a main package importing reconstruct/a2ago.
func readmeA2AGoProgram(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	var found []string
	for _, block := range strings.Split(string(readme), "```go\n")[1:] {
		block, _, _ = strings.Cut(block, "\n```")
		if strings.HasPrefix(block, "package main\n") && strings.Contains(block, `"`+a2agoModule+`"`) {
			found = append(found, block+"\n")
		}
	}
	require.Len(t, found, 1, "README.md has one a2a-go program")
	return found[0]
}

// runProgram runs the README's program against a REST agent serving the
// sample: whole, it prints the answer and the state and exits 0, having
// sent the README's headers; cut after three events, it prints what came
// and the error, and exits 1.
func runProgram(t *testing.T, prog, answer string) {
	whole, err := os.ReadFile(filepath.Join(root, sample))
	require.NoError(t, err)
	tests := []struct {
		name       string
		body       []byte
		stdout     string
		exit       int
		wantStderr string
	}{
		{"whole run", whole, answer + "\n(TASK_STATE_COMPLETED)\n", 0, ""},
		{"run cut after three events", firstEvents(t, whole, 3), "\n(TASK_STATE_WORKING)\n", 1, "reconstruct: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := serveAgent(t, tt.body)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, prog)
			cmd.Env = append(os.Environ(), "A2A_URL="+a.srv.URL+"/a2a", "TOKEN=t0k3n", "TENANT=acme")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				assert.Equal(t, tt.exit, exit.ExitCode(), "stderr: %s", stderr.String())
			} else {
				require.NoError(t, err)
				assert.Zero(t, tt.exit, "the program exited 0")
			}
			assert.Equal(t, tt.stdout, stdout.String())
			if tt.wantStderr == "" {
				assert.Empty(t, stderr.String())
			} else {
				assert.Contains(t, stderr.String(), tt.wantStderr)
			}
			h := a.header()
			require.NotNil(t, h, "the agent got no request")
			assert.Equal(t, "Bearer t0k3n", h.Get("Authorization"))
			assert.Equal(t, "acme", h.Get("Tenant-Name"))
		})
	}
}

// firstEvents returns the bytes of the first n events of stream.
func firstEvents(t *testing.T, stream []byte, n int) []byte {
	t.Helper()
	lx := sse.NewLexer(nil)
	_, err := lx.Write(stream)
	require.NoError(t, err)
	for range n {
		require.True(t, lx.Next())
	}
	return stream[:lx.InputOffset()]
}

// agent is a REST agent whose message:stream answers with a fixed body.
type agent struct {
	srv *httptest.Server
	mu  sync.Mutex
	h   http.Header // the headers of the last message:stream request
}

func serveAgent(t *testing.T, body []byte) *agent {
	a := &agent{}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/a2a/message:stream" {
			http.NotFound(w, r)
			return
		}
		a.mu.Lock()
		a.h = r.Header.Clone()
		a.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *agent) header() http.Header {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.h
}
