module github.com/a2astream/a2astream/bench

go 1.26

require (
	github.com/a2astream/a2astream v0.0.0
	github.com/launchdarkly/eventsource v1.11.0
	github.com/r3labs/sse/v2 v2.10.0
	github.com/tmaxmax/go-sse v0.12.0
	github.com/valyala/fastjson v1.6.10
	gopkg.in/cenkalti/backoff.v1 v1.1.0
)

require golang.org/x/net v0.0.0-20191116160921-f9c825593386 // indirect

replace github.com/a2astream/a2astream => ../
