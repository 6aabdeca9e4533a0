// Package jsonx is the only place in the module that touches
// github.com/valyala/fastjson. It keeps fastjson's types out of every
// exported signature of the public packages and holds the rules for using
// fastjson safely: values live only until the next Parse on the same parser,
// reading a value may mutate it, and nothing in fastjson validates UTF-8 or
// escapes, so callers that need exact text unescape it themselves.
package jsonx
