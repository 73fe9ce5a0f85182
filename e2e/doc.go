// Package e2e tests evdesk from the outside: it builds the binary once and
// drives it as a person or a script would, the console in a private tmux
// server (skipped when tmux is missing) and the commands as processes,
// against the demo simulator or `evdesk sim`. Each test has its own tmux
// server, simulator and directories, so the tests run in parallel. A
// terminal is driven through one tmux control-mode client (term_test.go):
// keys and screen reads go down one pipe, and a wait reads the screen
// again only when the pane has printed.
package e2e
