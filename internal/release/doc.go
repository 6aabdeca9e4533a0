// Package release checks that the repository's modules install as a user
// would install them once they are tagged: [WriteProxy] serves modules
// from directories as a file-based module proxy (GOPROXY=file://…), and
// the package's TestInstall serves the core module and reconstruct/a2ago
// at the release's version ([Version]) from the working tree, then, in a
// new module outside the repository, runs go get, go mod tidy, go build
// of the README's a2a-go program and go install of the command-line tool.
//
// It is a nested module of its own (it needs golang.org/x/mod), for CI
// only: nothing imports it and it is not published.
package release
