package fastnode

// The tests are package fastnode_test, which imports pkg/spec for its
// oracles (the file's line table, spec.ParseFile); these internals they
// check directly.
var (
	YAMLWhy    = parseYAMLWhy
	YAMLText   = yamlText
	PlainStart = plainStart
	PlainTag   = plainTag
)

const YAMLMaxFlowDepth = yamlMaxFlowDepth
