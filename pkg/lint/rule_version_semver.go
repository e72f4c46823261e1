package lint

import (
	"github.com/toolctl/toolctl/pkg/spec"
)

var semver = lazyRegexp(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

var ruleVersionSemVer = &Rule{
	ID:          "version-semver",
	Severity:    Error,
	Description: "version is a semantic version MAJOR.MINOR.PATCH.",
	Explain: `Consumers compare versions; only semver compares reliably. Quote it in YAML:
an unquoted 1.0 is a number.

Bad:
  version: 1.0

Good:
  version: "1.0.0"`,
	Tool: func(r *Reporter, t *spec.Tool) {
		if t.Version != "" && !semver().MatchString(t.Version) {
			r.Report(t, "/version", "version %q is not MAJOR.MINOR.PATCH; write it like \"1.0.0\"", t.Version)
		}
	},
}
