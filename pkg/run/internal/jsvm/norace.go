//go:build !race

package jsvm

const raceEnabled = false
