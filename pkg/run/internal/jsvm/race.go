//go:build race

package jsvm

// raceEnabled: the race detector maps its shadow memory as it goes, which
// an address-space cap breaks; under -race only the heap watch applies.
const raceEnabled = true
