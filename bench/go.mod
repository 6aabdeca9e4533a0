module github.com/a2astream/a2astream/bench

go 1.26

require (
	github.com/a2aproject/a2a-go/v2 v2.4.0
	github.com/a2astream/a2astream v0.1.0
	github.com/launchdarkly/eventsource v1.11.0
	github.com/r3labs/sse/v2 v2.10.0
	github.com/stretchr/testify v1.12.1
	github.com/tmaxmax/go-sse v0.12.0
	github.com/valyala/fastjson v1.6.10
	gopkg.in/cenkalti/backoff.v1 v1.1.0
)

require (
	github.com/google/uuid v1.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.35.0 // indirect
	golang.org/x/net v0.55.0 // indirect
)

replace github.com/a2astream/a2astream => ../
