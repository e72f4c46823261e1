package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Settings are the global settings of one invocation.
type Settings struct {
	File     *File  // the config file read (Path "" when none)
	ToolsDir string // directory of tool files used when no paths are given
	NoColor  bool   // colour off, whatever the terminal
	Quiet    bool
	Verbose  bool
}

// flagKeys maps each global setting to the flag that sets it.
var flagKeys = map[string]string{"tools_dir": "tools-dir", "no_color": "no-color", "quiet": "quiet", "verbose": "verbose"}

// Resolve settles the global settings: flags > TOOLCTL_* environment
// (TOOLCTL_TOOLS_DIR, ...) > the config file > defaults. flags holds the
// parsed global flags config, tools-dir, no-color, quiet and verbose;
// getenv reads TOOLCTL_CONFIG, NO_COLOR and TERM (viper reads the TOOLCTL_*
// settings from the process environment). The config file is --config,
// else TOOLCTL_CONFIG, else DefaultFile when it exists; a named one must
// exist.
func Resolve(flags *pflag.FlagSet, getenv func(string) string) (*Settings, error) {
	for _, env := range []string{"TOOLCTL_NO_COLOR", "TOOLCTL_QUIET", "TOOLCTL_VERBOSE"} {
		if val := getenv(env); val != "" {
			if _, err := strconv.ParseBool(val); err != nil {
				return nil, fmt.Errorf("%s=%q is not a boolean; use true or false", env, val)
			}
		}
	}
	v := viper.New()
	v.SetEnvPrefix("TOOLCTL")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	v.SetDefault("tools_dir", "tools")
	for key, flag := range flagKeys {
		if err := v.BindPFlag(key, flags.Lookup(flag)); err != nil {
			return nil, err
		}
	}

	path := flags.Lookup("config").Value.String()
	if path == "" {
		path = getenv("TOOLCTL_CONFIG")
	}
	if path == "" {
		if _, err := os.Stat(DefaultFile); err == nil {
			path = DefaultFile
		}
	}
	file, err := Load(path)
	if err != nil {
		return nil, err
	}
	// From the tree Load read (viper's own YAML reading would refuse a
	// .json config's surrogate pairs).
	if file.root != nil {
		var settings map[string]any
		if err := file.root.Decode(&settings); err != nil {
			return nil, fmt.Errorf("config file %s: %v", path, err)
		}
		if err := v.MergeConfigMap(settings); err != nil {
			return nil, fmt.Errorf("config file %s: %v", path, err)
		}
	}

	s := &Settings{File: file, ToolsDir: v.GetString("tools_dir"), Quiet: v.GetBool("quiet"), Verbose: v.GetBool("verbose")}
	if path != "" && !flags.Changed("tools-dir") && getenv("TOOLCTL_TOOLS_DIR") == "" && v.InConfig("tools_dir") {
		s.ToolsDir = resolveRelative(path, s.ToolsDir)
	}
	// NO_COLOR (no-color.org) sits between our own env var and the config
	// file: an explicit flag or TOOLCTL_NO_COLOR overrides it.
	s.NoColor = v.GetBool("no_color")
	if !flags.Changed("no-color") && getenv("TOOLCTL_NO_COLOR") == "" && getenv("NO_COLOR") != "" {
		s.NoColor = true
	}
	s.NoColor = s.NoColor || getenv("TERM") == "dumb"
	return s, nil
}
