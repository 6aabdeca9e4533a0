package httpstream

// This file builds the URLs of a Client's calls from its BaseURL and keeps
// the secrets a URL may carry (a query string such as ?api_key=…, userinfo)
// out of the errors the calls return.

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

// redacted stands in for a query string, a fragment or userinfo in error
// texts.
const redacted = "…"

// NewRequest builds a request for Open, as the Client builds its own: to
// BaseURL with path, an escaped path such as "/message:stream" ("" for
// BaseURL itself, the JSON-RPC endpoint), appended to BaseURL's path less
// its trailing slashes, and BaseURL's query string kept. The Client's
// headers are added when the request is sent. An error names BaseURL
// without its query string and userinfo.
func (c *Client) NewRequest(method, path string, body io.Reader) (*http.Request, error) {
	return c.newRequest(method, path, body)
}

// newRequest builds a request to BaseURL with suffix, an escaped path such
// as "/message:stream" ("" for BaseURL itself), appended to BaseURL's path
// less its trailing slashes. BaseURL's query string is kept on every call;
// a query in suffix ("/tasks/ID?historyLength=2") is added to it. An error
// names BaseURL without its query string and userinfo.
func (c *Client) newRequest(method, suffix string, body io.Reader) (*http.Request, error) {
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return nil, redactError(err)
	}
	suffix, query, _ := strings.Cut(suffix, "?")
	if query != "" && u.RawQuery != "" {
		u.RawQuery += "&" + query
	} else if query != "" {
		u.RawQuery = query
	}
	p := strings.TrimRight(u.EscapedPath(), "/") + suffix
	if u.Path, err = url.PathUnescape(p); err != nil {
		return nil, redactError(&url.Error{Op: "parse", URL: c.BaseURL, Err: err})
	}
	u.RawPath = p
	req, err := http.NewRequest(method, u.String(), body)
	return req, redactError(err)
}

// do sends req with the Client's http.Client; an error names the URL
// without its query string and userinfo.
func (c *Client) do(req *http.Request) (*http.Response, error) {
	resp, err := c.httpClient().Do(req)
	return resp, redactError(err)
}

// redactError returns err with the URL of a *url.Error (as net/http's
// Client.Do and url.Parse return, also for the target of a redirect)
// stripped by redactURL; it returns any other error as it is.
func redactError(err error) error {
	ue, ok := err.(*url.Error)
	if !ok {
		return err
	}
	return &url.Error{Op: ue.Op, URL: redactURL(ue.URL), Err: ue.Err}
}

// redactURL returns s, a URL that need not parse, with its userinfo, query
// string and fragment each replaced by "…": https://u:p@host/a?k=v#f
// becomes https://…@host/a?….
func redactURL(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i+1] + redacted
	}
	start := 0 // the authority's first byte; 0 also when s has no scheme
	if i := strings.Index(s, "://"); i >= 0 {
		start = i + len("://")
	} else if strings.HasPrefix(s, "//") {
		start = len("//")
	}
	end := strings.IndexAny(s[start:], "/?#")
	if end < 0 {
		end = len(s) - start
	}
	at := strings.LastIndex(s[start:start+end], "@")
	if at < 0 {
		return s
	}
	return s[:start] + redacted + s[start+at:]
}
