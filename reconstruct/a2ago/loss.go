package a2ago

// This file reports what a2a-go's decoding lost before the adapter saw an
// event, where the byte path would have kept text: parts a2a-go did not
// read, and characters it replaced with U+FFFD.

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/reconstruct"
)

// The diagnostics of the losses of a2a-go's decoding. [Reduce], [Updates]
// and [Run] report each at most once per run, for the first event that
// shows it, as the Err of a reconstruct.Diagnostic in Result.Diagnostics
// (which ends the run under reconstruct's Options.Strict, as any
// diagnostic does); the event is applied as a2a-go handed it on. Match them
// with errors.Is.
var (
	// ErrNoParts means a status message, a direct message reply or an
	// artifact arrived with no parts: a2a-go skips a member it does not
	// know, such as the "content" under which A2A 0.3's REST binding puts
	// a message's parts, where a2astream's byte path refuses the event
	// (parser.ErrLegacyShape). Diagnostic.JSONPointer names the member, such
	// as "/statusUpdate/status/message/parts"; ArtifactID the artifact.
	ErrNoParts = errors.New("a2ago: message or artifact without parts (a2a-go skips parts it cannot read, such as A2A 0.3's content)")
	// ErrReplacedText means a text part of an artifact update began or
	// ended with U+FFFD: a character that the agent split between two
	// deltas, as raw UTF-8 bytes or as the two escapes of a surrogate
	// pair, which a2a-go's JSON decoding replaced with U+FFFD before the
	// adapter saw it, where a2astream's byte path joins the halves.
	// Diagnostic.JSONPointer is "/artifactUpdate/artifact/parts", ArtifactID the
	// artifact.
	ErrReplacedText = errors.New("a2ago: text begins or ends with U+FFFD (a character split between deltas, replaced by a2a-go's JSON decoding)")
)

// loss is a set of the kinds of losses.
type loss uint8

const (
	lossParts loss = 1 << iota
	lossText
)

// replacement is U+FFFD in UTF-8.
var replacement = []byte("\uFFFD")

// report reports what ev shows of a2a-go's losses to the Reducer, and
// returns the error that ended the run, if one did (under Strict): the event
// must then not be applied.
func (d *driver) report(ev *parser.Event) error {
	d.losses = d.lost(d.losses[:0], ev)
	for _, g := range d.losses {
		if err := d.r.Report(&d.frame, g); err != nil {
			return err
		}
	}
	return nil
}

// lost appends to dst a diagnostic for each kind of loss that ev shows and
// that the run has not reported yet, and marks it reported.
func (d *driver) lost(dst []reconstruct.Diagnostic, ev *parser.Event) []reconstruct.Diagnostic {
	add := func(k loss, err error, pointer string, artifactID []byte) {
		if d.reported&k == 0 {
			d.reported |= k
			dst = append(dst, reconstruct.Diagnostic{ArtifactID: artifactID, JSONPointer: pointer, Err: err})
		}
	}
	noParts := func(pointer string, m *parser.Message) {
		if len(m.Parts) == 0 {
			add(lossParts, ErrNoParts, pointer, nil)
		}
	}
	switch ev.Kind {
	case parser.KindTask:
		if ev.Task.Status.HasMessage {
			noParts("/task/status/message/parts", &ev.Task.Status.Message)
		}
		for i := range ev.Task.Artifacts {
			if a := &ev.Task.Artifacts[i]; len(a.Parts) == 0 {
				add(lossParts, ErrNoParts, "/task/artifacts/"+strconv.Itoa(i)+"/parts", a.ArtifactID)
			}
		}
	case parser.KindMessage:
		noParts("/message/parts", &ev.Message)
	case parser.KindStatusUpdate:
		if ev.StatusUpdate.Status.HasMessage {
			noParts("/statusUpdate/status/message/parts", &ev.StatusUpdate.Status.Message)
		}
	case parser.KindArtifactUpdate:
		a := &ev.ArtifactUpdate.Artifact
		if len(a.Parts) == 0 {
			add(lossParts, ErrNoParts, "/artifactUpdate/artifact/parts", a.ArtifactID)
		}
		if d.reported&lossText == 0 && replaced(a.Parts) {
			add(lossText, ErrReplacedText, "/artifactUpdate/artifact/parts", a.ArtifactID)
		}
	}
	return dst
}

// replaced reports whether a text part of parts begins or ends with U+FFFD.
func replaced(parts []parser.Part) bool {
	for i := range parts {
		p := &parts[i]
		if p.Kind == parser.PartText && (bytes.HasPrefix(p.Text, replacement) || bytes.HasSuffix(p.Text, replacement)) {
			return true
		}
	}
	return false
}
