package lint

import (
	"unicode/utf8"

	"github.com/toolctl/toolctl/pkg/spec"
)

var ruleSecurityBidiOverride = &Rule{
	ID:          "security-bidi-override",
	Severity:    Error,
	Pack:        PackSecurity,
	Description: "No bidirectional embedding, override or isolate controls (U+202A-U+202E, U+2066-U+2069) in what a model reads.",
	Explain: `Bidirectional controls reorder how text is displayed: a reviewer reads
one thing, the model (which reads characters in order) another, as in the
"Trojan Source" attacks on code. A tool's name, description or schema has no
use for them; right-to-left text displays correctly without them.

Bad:
  # displayed as "Deletes nothing.", the model reads the characters in order
  description: "Deletes \u202Eall files\u202C nothing."

Good:
  description: Deletes the file at path.`,
	Tool: func(r *Reporter, t *spec.Tool) {
		texts := r.texts(t)
	texts:
		for i := range texts {
			m := &texts[i]
			if m.isPlain() {
				continue texts
			}
			for i, c := range m.text {
				if name := bidiControls[c]; name != "" {
					r.reportText(t, m, i, i+utf8.RuneLen(c), "bidirectional control U+%04X (%s) in the %s: it makes the text display differently from what the model reads; remove it", c, name, m.label())
				}
			}
		}
	},
}

var bidiControls = map[rune]string{
	0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE", 0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
}
