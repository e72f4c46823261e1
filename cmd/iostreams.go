package cmd

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/toolctl/toolctl/pkg/spec"
)

// IOStreams are the streams a command reads and writes. Commands never touch
// os.Stdout directly, so every command can be tested with buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	StdinTTY  bool
	StdoutTTY bool
	StderrTTY bool
}

// System returns the process's standard streams.
func System() *IOStreams {
	return &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		StdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// readLimited reads r whole, up to spec.MaxFileSize bytes (stdin, --input,
// import sources): tooLarge when r holds more, which is not read.
func readLimited(r io.Reader) (data []byte, tooLarge bool, err error) {
	data, err = io.ReadAll(io.LimitReader(r, spec.MaxFileSize+1))
	if err == nil && len(data) > spec.MaxFileSize {
		return nil, true, nil
	}
	return data, false, err
}
