package export

// The yaml format is the canonical tool file (spec.Tool.ToMap, what
// toolctl show prints): exporting a tool written in any dialect as yaml
// converts it to the canonical one. It is the one format that keeps bound
// parameters and bind: it is a tool file for toolctl, which fills them at
// run time, not a definition for a model.
