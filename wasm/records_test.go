package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/reconstruct"
)

// decoded is one update as the records describe it, in the shape the test
// builds from reconstruct.Updates too.
type decoded struct {
	kind             string
	seq              uint32
	artifactID       string
	thinking, sealed bool
	text             string
	state, message   string
	hasErr           bool
}

// decode reads records as a host does, keeping the announced artifacts in
// arts across calls.
func decode(t *testing.T, rec []byte, arts map[uint32]decoded, out []decoded) []decoded {
	t.Helper()
	p := 0
	u32 := func() uint32 { v := binary.LittleEndian.Uint32(rec[p:]); p += 4; return v }
	str := func() string { n := int(u32()); s := string(rec[p : p+n]); p += n; return s }
	for p < len(rec) {
		kind := rec[p]
		p++
		switch kind {
		case recText, recReplaced:
			a := arts[u32()]
			d := decoded{kind: "text", seq: u32(), artifactID: a.artifactID, thinking: a.thinking, sealed: a.sealed, text: str()}
			if kind == recReplaced {
				d.kind = "replaced"
			}
			out = append(out, d)
		case recSealed:
			a := arts[u32()]
			out = append(out, decoded{kind: "sealed", seq: u32(), artifactID: a.artifactID, thinking: a.thinking, sealed: a.sealed})
		case recState:
			d := decoded{kind: "state", seq: u32()}
			p++ // the state's number
			d.state = str()
			if rec[p] == 1 {
				p++
				str() // id
				str() // role
				d.message = str()
			} else {
				p++
			}
			out = append(out, d)
		case recDone:
			d := decoded{kind: "done", seq: u32(), hasErr: rec[p] == 1}
			p++
			out = append(out, d)
		case recArtifact:
			n := u32()
			f := rec[p]
			p++
			id := str()
			str() // name
			arts[n] = decoded{artifactID: id, thinking: f&flagThinking != 0, sealed: f&flagSealed != 0}
		default:
			require.Failf(t, "unknown record kind", "kind %d at %d", kind, p-1)
		}
	}
	return out
}

// want returns the updates of the Go iterator in the decoded shape.
func want(data []byte) []decoded {
	var out []decoded
	for u, err := range reconstruct.Updates(bytes.NewReader(data), nil) {
		if err != nil {
			break
		}
		d := decoded{seq: u32(u.Seq)}
		switch u.Kind {
		case reconstruct.UpdateText, reconstruct.UpdateReplaced, reconstruct.UpdateSealed:
			d.kind = map[reconstruct.UpdateKind]string{reconstruct.UpdateText: "text", reconstruct.UpdateReplaced: "replaced", reconstruct.UpdateSealed: "sealed"}[u.Kind]
			d.artifactID, d.thinking, d.sealed, d.text = string(u.Artifact.ArtifactID), u.Artifact.Thinking, u.Artifact.Sealed, string(u.Text)
		case reconstruct.UpdateState:
			d.kind, d.state = "state", u.State.String()
			if u.Message != nil {
				d.message = string(reconstruct.MessageText(u.Message))
			}
		case reconstruct.UpdateDone:
			d.kind, d.hasErr = "done", u.Err != nil
		}
		out = append(out, d)
	}
	return out
}

func TestRecordsCarryTheGoIteratorsUpdates(t *testing.T) {
	paths, err := filepath.Glob("../internal/samples/*.sse")
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no recorded streams in ../internal/samples")
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, data := range [][]byte{data, data[:len(data)/2]} {
			wantUpdates := want(data)
			for _, size := range []int{len(data), 1, 200, -1} {
				t.Run(filepath.Base(path)+"/"+strconv.Itoa(len(data))+"/"+strconv.Itoa(size), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(1, uint64(size+2)))
					ss := newSession(options(0, 0, 0, 0))
					arts := map[uint32]decoded{}
					var got []decoded
					var rec []byte
					for off := 0; off < len(data); {
						n := size
						if n < 0 {
							n = 1 + rng.IntN(300)
						}
						n = min(n, len(data)-off)
						rec, err = ss.feed(rec[:0], data[off:off+n])
						require.NoError(t, err, "feed at %d", off)
						got = decode(t, rec, arts, got)
						off += n
					}
					rec, err = ss.end(rec[:0], nil)
					require.NoError(t, err, "end")
					got = decode(t, rec, arts, got)
					assert.Empty(t, cmp.Diff(wantUpdates, got, cmp.AllowUnexported(decoded{})), "the records' updates (+) and the Go iterator's (-)")
				})
			}
		}
	}
}

func TestSessionCallsAfterTheEnd(t *testing.T) {
	ss := newSession(nil)
	_, err := ss.end(nil, errors.New("connection reset"))
	require.NoError(t, err)
	_, err = ss.feed(nil, []byte("data: x\n\n"))
	assert.ErrorIs(t, err, errEnded, "feed after end")
	_, err = ss.end(nil, nil)
	assert.ErrorIs(t, err, errEnded, "end after end")
	_, err = ss.resume(nil)
	assert.ErrorIs(t, err, errEnded, "resume after end")
	var trunc *reconstruct.TruncatedError
	require.ErrorAs(t, ss.s.Result().Err, &trunc, "a failed read ends truncated")
	require.Error(t, trunc.Cause, "a failed read ends truncated with the failure as Cause")
	assert.Equal(t, "connection reset", trunc.Cause.Error(), "the truncation's Cause")
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name                               string
		flags, unit, maxEvent, maxArtifact int32
		strict                             bool
		u                                  citations.Unit
	}{
		{"defaults", 0, 0, 0, 0, false, citations.CodePoints},
		{"strict, bytes, limits", 1, 1, 100, 200, true, citations.Bytes},
		{"UTF-16, negative limits", 0, 2, -5, -1, false, citations.UTF16},
		{"unknown unit", 0, 9, 0, 0, false, citations.CodePoints},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := options(tt.flags, tt.unit, tt.maxEvent, tt.maxArtifact)
			assert.Equal(t, tt.strict, o.Strict, "Strict")
			assert.Equal(t, tt.u, o.Citations.Unit, "Citations.Unit")
			assert.Equal(t, int(max(tt.maxEvent, 0)), o.MaxEventSize, "MaxEventSize")
			assert.Equal(t, int(max(tt.maxArtifact, 0)), o.MaxArtifactSize, "MaxArtifactSize")
		})
	}
}

// TestSessionStatus checks what a resubscription needs, as the stream goes:
// the task id and last event id once events named them, and done only
// once the run reached a terminal state.
func TestSessionStatus(t *testing.T) {
	src, err := os.ReadFile("../internal/samples/completed.sse")
	require.NoError(t, err)
	status := func(ss *session) (taskID, lastID string, done bool) {
		b, done := ss.status(nil)
		n := binary.LittleEndian.Uint32(b)
		taskID = string(b[4 : 4+n])
		m := binary.LittleEndian.Uint32(b[4+n:])
		lastID = string(b[8+n : 8+n+m])
		require.Len(t, b, 8+int(n)+int(m))
		return taskID, lastID, done
	}
	tests := []struct {
		name                 string
		input                []byte
		wantTask, wantLastID string
		wantDone             bool
	}{
		{"nothing yet", nil, "", "", false},
		{"the first event", src[:bytes.Index(src, []byte("\n\n"))+2], "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", "1", false},
		{"all but the last event", src[:bytes.LastIndex(src[:len(src)-2], []byte("\n\n"))+2], "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", "26", false},
		{"the whole run", src, "task.019e401b-6e00-7d50-b13c-5eaf8a4d9c62", "27", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ss := newSession(nil)
			_, err := ss.feed(nil, tt.input)
			require.NoError(t, err)
			taskID, lastID, done := status(ss)
			assert.Equal(t, tt.wantTask, taskID)
			assert.Equal(t, tt.wantLastID, lastID)
			assert.Equal(t, tt.wantDone, done)
		})
	}
}
