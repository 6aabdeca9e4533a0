module github.com/a2astream/a2astream/reconstruct/a2ago

go 1.25.0

require (
	github.com/a2aproject/a2a-go/v2 v2.4.0
	github.com/a2astream/a2astream v0.1.0
	github.com/google/go-cmp v0.7.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/google/uuid v1.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
)

replace github.com/a2astream/a2astream => ../..
