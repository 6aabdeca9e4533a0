module github.com/a2astream/a2astream/internal/release

go 1.25.0

require (
	github.com/a2astream/a2astream v0.1.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/mod v0.35.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect

replace github.com/a2astream/a2astream => ../..
