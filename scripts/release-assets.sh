#!/usr/bin/env bash
# Generates shell completions and man pages for the release archives.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf completions manpages
mkdir -p completions manpages
for sh in bash zsh fish powershell; do
  go run . completion "$sh" > "completions/toolctl.$sh"
done
go run ./internal/genman manpages
