// Bundles bench/tool-lint.schema.json, the repo's schema/tool.schema.json and
// the draft-07 meta-schema it references into one self-contained schema:
//
//   node bench/bundle-schema.js WRAPPER TOOL_SCHEMA DRAFT07 > bundle.json
//   node bench/bundle-schema.js WRAPPER TOOL_SCHEMA DRAFT07 RULESET > ruleset.yaml
//
// With RULESET (bench/spectral.yaml) it prints the ruleset with its
// BUNDLED_SCHEMA placeholder replaced by the bundle (JSON is YAML).
//
// Spectral compiles a rule's schema on its own and silently ignores a $ref it
// cannot resolve (every file then "passes"), so the schema it gets must not
// reference anything outside itself. ajv-cli gets the same bundle so that both
// check exactly the same thing.
"use strict";
const fs = require("fs");

const [wrapperPath, toolPath, draft07Path, rulesetPath] = process.argv.slice(2);
if (!draft07Path) {
  console.error("usage: node bundle-schema.js WRAPPER TOOL_SCHEMA DRAFT07 [RULESET]");
  process.exit(2);
}
const read = (p) => JSON.parse(fs.readFileSync(p, "utf8"));
const wrapper = read(wrapperPath);
const tool = read(toolPath);
const draft07 = read(draft07Path);

// The repo schema's $defs move into the bundle, so its absolute references
// become local ones.
const localised = JSON.parse(
  JSON.stringify(wrapper).split(`${tool.$id}#/$defs/`).join("#/$defs/"),
);
// The meta-schema is embedded as its own resource (it keeps its $id), so the
// repo schema's "$ref": "http://json-schema.org/draft-07/schema#" resolves
// inside the bundle; its $schema would switch dialects mid-document.
delete draft07.$schema;
// Editor-only annotations (VS Code's enumDescriptions, ...) are not JSON
// Schema keywords; ajv's strict mode refuses unknown keywords, so they go.
const editorOnly = new Set(["enumDescriptions", "markdownDescription", "markdownEnumDescriptions", "defaultSnippets", "deprecationMessage", "doNotSuggest"]);
const strip = (v) => {
  if (Array.isArray(v)) return v.forEach(strip);
  if (v && typeof v === "object") {
    for (const k of Object.keys(v)) {
      if (editorOnly.has(k)) delete v[k];
      else strip(v[k]);
    }
  }
};
strip(tool);
localised.$defs = { ...tool.$defs, ...localised.$defs, Draft07: draft07 };
for (const name of Object.keys(wrapper.$defs)) {
  if (name in tool.$defs) {
    console.error(`bundle-schema: $defs/${name} is defined in both schemas`);
    process.exit(1);
  }
}
if (rulesetPath) {
  const ruleset = fs.readFileSync(rulesetPath, "utf8");
  if (!/\bschema: BUNDLED_SCHEMA$/m.test(ruleset)) {
    console.error(`bundle-schema: ${rulesetPath} has no "schema: BUNDLED_SCHEMA" line`);
    process.exit(1);
  }
  process.stdout.write(ruleset.replace(/\bschema: BUNDLED_SCHEMA$/m, () => "schema: " + JSON.stringify(localised)));
} else {
  process.stdout.write(JSON.stringify(localised, null, 1) + "\n");
}
