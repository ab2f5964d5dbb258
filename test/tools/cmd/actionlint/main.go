// Command actionlint is rhysd/actionlint's linter for GitHub Actions workflows, built from the Go
// module proxy with the other test tools, so that test/docs checks the workflows the docs print
// (docs/drift-in-ci.md) as GitHub would before running them.
package main

import (
	"os"

	"github.com/rhysd/actionlint"
)

func main() {
	cmd := actionlint.Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	os.Exit(cmd.Main(os.Args))
}
