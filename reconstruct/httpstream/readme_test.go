package httpstream_test

// This file keeps the Go blocks of the repository's README.md true: a block
// that is a whole program (it starts with "package main") must build against
// this module, and any other block must be lines of one of the module's
// runnable Examples, which go test compiles and runs.

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goBlocks returns the contents of the README's ```go fenced blocks.
func goBlocks(readme []byte) []string {
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(string(readme), "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```go":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}

// codeLines returns the lines of src with their indentation trimmed and
// without blank lines, so that a README fragment written at column 0
// matches the same lines indented inside an Example function.
func codeLines(src string) []string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// containsLines reports whether want occurs as consecutive lines of have.
func containsLines(have, want []string) bool {
	for i := 0; i+len(want) <= len(have); i++ {
		j := 0
		for j < len(want) && have[i+j] == want[j] {
			j++
		}
		if j == len(want) {
			return true
		}
	}
	return false
}

// exampleFiles returns the lines of every test file of the module that
// holds a runnable Example, by path.
func exampleFiles(t *testing.T, root string) map[string][]string {
	t.Helper()
	files := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "bench" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("\nfunc Example")) && bytes.Contains(src, []byte("// Output:")) {
			files[path] = codeLines(string(src))
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

// a2agoModule is the path of the nested module for a2a-go users.
const a2agoModule = "github.com/a2astream/a2astream/reconstruct/a2ago"

// buildProgram builds src as the main package of a throwaway module that
// requires this one from root, offline.
func buildProgram(t *testing.T, root, src string) {
	t.Helper()
	buildProgramTo(t, root, src, os.DevNull)
}

// buildProgramTo is buildProgram writing the binary to out.
func buildProgramTo(t *testing.T, root, src, out string) {
	t.Helper()
	abs, err := filepath.Abs(root)
	require.NoError(t, err)
	dir := t.TempDir()
	gomod := "module readme\n\ngo 1.24\n\nrequire github.com/a2astream/a2astream v0.0.0\n\nreplace github.com/a2astream/a2astream => " + abs + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	sum, err := os.ReadFile(filepath.Join(abs, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "the README's program does not build:\n%s\n%s", msg, src)
}

func TestREADMEGoBlocks(t *testing.T) {
	const root = "../.."
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	blocks := goBlocks(readme)
	require.NotEmpty(t, blocks, "README.md has no Go block")
	examples := exampleFiles(t, root)
	require.NotEmpty(t, examples)
	programs := 0
	for i, block := range blocks {
		first := codeLines(block)
		require.NotEmpty(t, first, "block %d is empty", i+1)
		t.Run(first[0], func(t *testing.T) {
			if first[0] == "package main" {
				if strings.Contains(block, `"`+a2agoModule) {
					// It needs a2a-go, which this module does not
					// require: internal/release's TestInstall builds it
					// as a user would, from a module proxy.
					t.Logf("the a2a-go program is built by internal/release")
					return
				}
				programs++
				buildProgram(t, root, block)
				return
			}
			for _, lines := range examples {
				if containsLines(lines, first) {
					return
				}
			}
			assert.Failf(t, "README block is neither a program nor lines of a runnable Example", "block %d:\n%s", i+1, block)
		})
	}
	require.NotZero(t, programs, "the README shows no whole program")
}

// TestREADMEPaths checks that every file of the repository the README's
// commands name (the sample streams, scripts) exists, so that its two
// commands and the tool's examples run as written.
func TestREADMEPaths(t *testing.T) {
	const root = "../.."
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	paths := regexp.MustCompile(`(?:^|[\s(`+"`"+`])((?:\./)?[\w.-]+(?:/[\w.-]+)*\.(?:sse|sh|mjs))\b`).FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, paths)
	for _, m := range paths {
		p := m[1]
		if !strings.Contains(p, "/") {
			continue // a file name alone, named in a sentence
		}
		_, err := os.Stat(filepath.Join(root, p))
		assert.NoError(t, err, "README names %s", p)
	}
}

func TestContainsLines(t *testing.T) {
	have := codeLines("func ExampleX() {\n\ta := 1\n\n\tb := a\n\tfmt.Println(b)\n}")
	tests := []struct {
		name string
		want string
		ok   bool
	}{
		{"consecutive lines, other indentation", "a := 1\nb := a", true},
		{"blank lines ignored", "b := a\n\n\nfmt.Println(b)", true},
		{"lines out of order", "b := a\na := 1", false},
		{"a line changed", "a := 2\nb := a", false},
		{"longer than the file", "a := 1\nb := a\nfmt.Println(b)\n}\nx", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.ok, containsLines(have, codeLines(tt.want)))
		})
	}
}

// TestREADMEProgramRuns runs the README's client program against a fake
// agent: a completed run prints its answer and exits 0; a run that sealed
// an artifact and then asked for input prints the question and exits 1; a
// run cut short whose task is gone exits 1 with the TruncatedError.
func TestREADMEProgramRuns(t *testing.T) {
	const root = "../.."
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	var program string
	for _, block := range goBlocks(readme) {
		if strings.Contains(block, "package main") && strings.Contains(block, "httpstream.Client") {
			program = block
		}
	}
	require.NotEmpty(t, program, "the README shows no client program")
	bin := filepath.Join(t.TempDir(), "readme")
	buildProgramTo(t, root, program, bin)

	const task = `"taskId":"task.1","contextId":"ctx.1"`
	working := `data: {"task":{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_WORKING"}}}` + "\n\n"
	tests := []struct {
		name   string
		stream string
		code   int
		stdout []string
		stderr []string
	}{
		{"completed", working +
			`data: {"artifactUpdate":{` + task + `,"lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"The answer."}]}}}` + "\n\n" +
			`data: {"statusUpdate":{` + task + `,"status":{"state":"TASK_STATE_COMPLETED"}}}` + "\n\n",
			0, []string{"The answer."}, []string{"task task.1: TASK_STATE_COMPLETED, 0 messages"}},
		{"input required after an artifact", working +
			`data: {"artifactUpdate":{` + task + `,"lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"Draft note."}]}}}` + "\n\n" +
			`data: {"statusUpdate":{` + task + `,"status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"Which visit?"}]}}}}` + "\n\n",
			1, []string{"TASK_STATE_INPUT_REQUIRED: Which visit?", "Draft note."}, nil},
		{"truncated", working +
			`data: {"artifactUpdate":{` + task + `,"artifact":{"artifactId":"a","parts":[{"text":"Half"}]}}}` + "\n\n",
			1, []string{"Half"}, []string{"TASK_NOT_FOUND"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasSuffix(r.URL.Path, "/message:stream"):
					w.Header().Set("Content-Type", "text/event-stream")
					io.WriteString(w, tt.stream)
				case r.Method == http.MethodGet:
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, `{"id":"task.1","contextId":"ctx.1","status":{"state":"TASK_STATE_COMPLETED"}}`)
				default:
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusNotFound)
					io.WriteString(w, `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found.","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`)
				}
			}))
			defer srv.Close()
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "A2A_URL="+srv.URL+"/a2a", "TOKEN=t", "TENANT=x")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			for _, s := range tt.stdout {
				assert.Contains(t, stdout.String(), s)
			}
			for _, s := range tt.stderr {
				assert.Contains(t, stderr.String(), s)
			}
		})
	}
}
