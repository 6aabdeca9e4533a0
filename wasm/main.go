package main

// main does nothing: the module is a reactor, its work is done by the
// exported functions of exports_wasip1.go.
func main() {}
