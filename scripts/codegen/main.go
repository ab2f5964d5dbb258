// Command codegen writes the TypeScript, Go, Python and .NET SDKs of a Pulumi package schema with
// Pulumi's own code generators, the ones `pulumi package gen-sdk` reaches through each language
// host (the language hosts that can be built here do not implement that request).
//
//	codegen <schema.json> <outdir>   # writes <outdir>/{nodejs,go,python,dotnet}
//
// The .NET SDK embeds the package logo, which its generator fetches from the schema's logoUrl (by
// default Pulumi's logo on GitHub). Here logoUrl may also be a file path relative to the schema,
// so generation needs no network.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	dotnet "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool names the generator in the "do not edit" banner of every generated file.
const tool = "pulumi-irv gen-sdks"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: codegen <schema.json> <outdir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
		os.Exit(1)
	}
}

var generators = []struct {
	dir string
	gen func(*schema.Package) (map[string][]byte, error)
}{
	{"nodejs", func(p *schema.Package) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, p, nil, nil, false, noReferences{})
	}},
	{"go", func(p *schema.Package) (map[string][]byte, error) { return gogen.GeneratePackage(tool, p, nil) }},
	{"python", func(p *schema.Package) (map[string][]byte, error) {
		return python.GeneratePackage(tool, p, nil, noReferences{})
	}},
	{"dotnet", func(p *schema.Package) (map[string][]byte, error) { return dotnet.GeneratePackage(tool, p, nil, nil) }},
}

func run(schemaPath, outDir string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	http.DefaultTransport.(*http.Transport).RegisterProtocol("file", http.NewFileTransport(http.Dir("/")))
	for _, g := range generators {
		// Each generator records its language's options on the package, so each binds its own.
		pkg, err := bind(raw, schemaPath)
		if err != nil {
			return err
		}
		files, err := g.gen(pkg)
		if err != nil {
			if g.dir == "dotnet" {
				err = fmt.Errorf("%w (the .NET SDK embeds the logo at the schema's logoUrl: "+
					"set it to a reachable URL or to an image file relative to the schema)", err)
			}
			return fmt.Errorf("%s SDK: %w", g.dir, err)
		}
		if err := write(filepath.Join(outDir, g.dir), files); err != nil {
			return err
		}
	}
	return nil
}

// bind parses and validates the schema against Pulumi's metaschema, as `pulumi package gen-sdk` does.
func bind(raw []byte, schemaPath string) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if err := localLogo(&spec, schemaPath); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, noReferences{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s is not a valid package schema:%s", schemaPath, describe(diags))
	}
	return pkg, nil
}

// describe lists the errors one a line, each naming where in the schema it is.
func describe(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		b.WriteString("\n  " + d.Summary)
		if d.Detail != "" {
			b.WriteString(": " + d.Detail)
		}
	}
	return b.String()
}

// localLogo turns a logoUrl that is a path (no scheme) into a file URL, resolved against the
// schema's folder. A missing file is reported here, naming the field.
func localLogo(spec *schema.PackageSpec, schemaPath string) error {
	if spec.LogoURL == "" {
		return nil
	}
	if u, err := url.Parse(spec.LogoURL); err == nil && u.Scheme != "" {
		return nil
	}
	p := spec.LogoURL
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(schemaPath), p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return fmt.Errorf("%s: logoUrl: %w", schemaPath, err)
	}
	spec.LogoURL = (&url.URL{Scheme: "file", Path: abs}).String()
	return nil
}

// write replaces dir with the generated files, so a rerun leaves nothing stale behind.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noReferences is the schema loader: the schema stands alone, so a reference to another package
// (a type or resource of, say, aws) is an error rather than a plugin download.
type noReferences struct{}

var errReference = errors.New("the schema references another package; only self-contained schemas are supported")

func (noReferences) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errReference
}

func (noReferences) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errReference
}

func (noReferences) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errReference
}

func (noReferences) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errReference
}
