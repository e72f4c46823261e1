//go:build !unix

package main

import "time"

// selfCPU is not measured here: the report's client CPU is 0.
func selfCPU() time.Duration { return 0 }
