package httpstream

import (
	"errors"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRedactURL checks the replacement itself on the URLs error texts
// name, parsed or not, through the *url.Error that carries them.
func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://host/a2a", "https://host/a2a"},
		{"https://host/a2a?api_key=K", "https://host/a2a?…"},
		{"https://host/a2a#K", "https://host/a2a#…"},
		{"https://host/a2a?k=1#f", "https://host/a2a?…"},
		{"https://u:p@host/a2a", "https://…@host/a2a"},
		{"https://u@host", "https://…@host"},
		{"https://u:p@host?k=@x", "https://…@host?…"},
		{"https://u:p@q@host/x", "https://…@host/x"},
		{"https://host/a@b/c", "https://host/a@b/c"},
		{"//u:p@host/x", "//…@host/x"},
		{"/tasks/x:subscribe?k=v", "/tasks/x:subscribe?…"},
		{"u:p@host/x?k", "…@host/x?…"},
		{"http://u:p@[::1/a?k", "http://…@[::1/a?…"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			err := redactError(&url.Error{Op: "Get", URL: tt.in, Err: errors.New("boom")})
			assert.Equal(t, `Get "`+tt.want+`": boom`, err.Error())
		})
	}
	other := errors.New("other")
	assert.Same(t, other, redactError(other))
	assert.NoError(t, redactError(nil))
}
