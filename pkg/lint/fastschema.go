package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
	"github.com/toolctl/toolctl/pkg/validate"
)

// The JSON Schema library validates correctly but slowly (its compile step
// re-validates the schema against the meta-schema every time, ~0.3 ms a
// tool). Almost every schema and example is valid, so fast checks decide
// the common case on their own (fastMeta here for schemas,
// validate.Conforms for examples) and hand everything else — any
// problem, any keyword they do not model — to the library, which then
// produces the message. They are sound in one direction only: "valid" here
// implies valid there (TestFastSchemaAgreesWithLibrary checks it on every
// corpus).

// verdict of a fast check.
type verdict int

const (
	unsure verdict = iota // ask the library
	valid
)

// fastMeta checks a schema document against the 2020-12 meta-schema for
// the keywords validate.MetaValid models.
func fastMeta(doc *spec.Map) verdict {
	if validate.MetaValid(doc) {
		return valid
	}
	return unsure
}
