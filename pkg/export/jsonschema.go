package export

// The jsonschema format is the input schema alone, bound parameters
// removed (InputSchema): one schema for one tool, or an object of schemas
// keyed by tool name (Result.Document), or one file per tool (Result.Files).
// Names are not mapped: no provider reads them.
