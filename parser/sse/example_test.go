package sse_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/a2astream/a2astream/parser/sse"
)

// ExampleLexer pushes a stream in chunks as a network delivers them: CRLF
// line ends with the CR and LF in different chunks, a keep-alive comment,
// a two-line data field and a chunk boundary inside a UTF-8 character. The
// stream is then cut inside the third event.
func ExampleLexer() {
	chunks := []string{
		"id: 1\r\ndata: {\"text\":\"caf\xc3",
		"\xa9\"}\r",
		"\n\r\n: keep-alive\r\n\r\nid: 2\r\ndata: first line\r\ndata: second line\r\n\r\n",
		"id: 3\r\ndata: {\"te",
	}
	lx := sse.NewLexer(&sse.Options{
		OnComment: func(text []byte) { fmt.Printf("comment %q\n", text) },
	})
	for _, c := range chunks {
		lx.Write([]byte(c))
		for lx.Next() {
			f := lx.Frame()
			fmt.Printf("frame %d at byte %d, id %s: %q\n", f.Seq, f.Offset, f.ID, f.Data)
		}
	}
	err := lx.Close()
	fmt.Println(errors.Is(err, io.ErrUnexpectedEOF), err)
	fmt.Printf("resume with Last-Event-ID: %s\n", lx.LastEventID())
	// Output:
	// frame 1 at byte 0, id 1: "{\"text\":\"café\"}"
	// comment "keep-alive"
	// frame 2 at byte 49, id 2: "first line\nsecond line"
	// true sse: after frame 2 (id "2") at byte 95, 17 bytes: unexpected EOF
	// resume with Last-Event-ID: 2
}

// ExampleReader_All reads frames from an io.Reader with a range loop. The
// event field sets the type, a retry field the reconnection time, and an
// event without data is not dispatched although its id is taken.
func ExampleReader_All() {
	stream := "retry: 3000\nid: 7\n\n" +
		"event: ping\ndata: {}\n\n" +
		"data: {\"statusUpdate\":{}}\n\n"
	r := sse.NewReader(strings.NewReader(stream), nil)
	for f, err := range r.All() {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Printf("%s id=%s %s\n", f.Event, f.ID, f.Data)
	}
	ms, _ := r.Retry()
	fmt.Println("retry", ms)
	// Output:
	// ping id=7 {}
	// message id=7 {"statusUpdate":{}}
	// retry 3000
}

// ExampleReader_Next skips an event larger than MaxEventSize and goes on.
func ExampleReader_Next() {
	stream := "data: small\n\ndata: " + strings.Repeat("x", 100) + "\n\ndata: after\n\n"
	r := sse.NewReader(strings.NewReader(stream), &sse.Options{MaxEventSize: 64})
	for {
		if r.Next() {
			fmt.Printf("%s\n", r.Frame().Data)
			continue
		}
		if err := r.Err(); errors.Is(err, sse.ErrEventTooLarge) {
			fmt.Println(err)
			continue
		}
		break
	}
	// Output:
	// small
	// sse: after frame 1 at byte 13, 65 bytes: event exceeds MaxEventSize
	// after
}

// ExampleFrame_Clone keeps frames beyond the next call.
func ExampleFrame_Clone() {
	lx := sse.NewLexer(nil)
	lx.Write([]byte("data: a\n\ndata: b\n\n"))
	var kept []sse.Frame
	for lx.Next() {
		kept = append(kept, lx.Frame().Clone())
	}
	lx.Close()
	for _, f := range kept {
		fmt.Printf("%d %s\n", f.Seq, f.Data)
	}
	// Output:
	// 1 a
	// 2 b
}
