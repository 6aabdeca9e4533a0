//go:build !unix

package parser_test

import "testing"

func cpuTime() int64 { return 0 }

func reportCPU(b *testing.B, start int64) {}
