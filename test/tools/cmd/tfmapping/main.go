// Command tfmapping reads the resource plugin's Terraform mapping through the Terraform bridge's
// own types, as Pulumi's Terraform converter reads it, and checks it against the plugin's package
// schema and against a Terraform configuration and state of the mapped provider:
//
//	tfmapping -mapping chainguard.json -schema schema.json -state terraform.tfstate -config main.tf
//
// It prints a JSON report: for every resource and data source, its token, and for every attribute
// (nested ones as `block.member`, list items as `items[].member`) the Pulumi name the converter
// gives it and whether the package schema has that name as an input and as an output; then every
// problem found. It exits 0 whenever it could read its inputs: the test judges the report.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfbridge"
	shim "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfshim"

	// Held at the version the other test tools build with (MVS picks one for the module).
	_ "chainguard.dev/sdk/uidp"
)

// Attribute is what the report says of one Terraform attribute.
type Attribute struct {
	// Name is the Pulumi name the converter gives it.
	Name string `json:"name"`
	// Configurable is true when a Terraform configuration may set it (required or optional).
	Configurable bool `json:"configurable"`
	// Input and Output say whether the package schema has Name as an input / an output.
	Input  bool `json:"input"`
	Output bool `json:"output"`
}

// Entry is a resource or data source of the report.
type Entry struct {
	Token      string               `json:"token"`
	Attributes map[string]Attribute `json:"attributes"`
}

// Report is what tfmapping prints.
type Report struct {
	Provider    string           `json:"provider"`
	Resources   map[string]Entry `json:"resources"`
	DataSources map[string]Entry `json:"dataSources"`
	Problems    []string         `json:"problems"`
}

// props is a Pulumi schema object's properties.
type props map[string]map[string]any

// pulumiSchema is the part of a Pulumi package schema read here.
type pulumiSchema struct {
	Resources map[string]struct {
		Properties      props `json:"properties"`
		InputProperties props `json:"inputProperties"`
	} `json:"resources"`
	Functions map[string]struct {
		Inputs  struct{ Properties props } `json:"inputs"`
		Outputs struct{ Properties props } `json:"outputs"`
	} `json:"functions"`
	Types map[string]struct {
		Properties props `json:"properties"`
	} `json:"types"`
}

// nested is the object type a property refers to (itself, or its array's items), if any.
func (s *pulumiSchema) nested(p map[string]any) props {
	if items, ok := p["items"].(map[string]any); ok {
		p = items
	}
	ref, _ := p["$ref"].(string)
	if !strings.HasPrefix(ref, "#/types/") {
		return nil
	}
	return s.Types[strings.TrimPrefix(ref, "#/types/")].Properties
}

type checker struct {
	schema *pulumiSchema
	// current is the resource or data source being walked, for problems.
	current  string
	report   Report
	problems []string
}

func (c *checker) problem(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// walk records every attribute of sch under prefix, named as the converter names it (the
// SchemaInfo's name, else the bridge's TerraformToPulumiNameV2), against the Pulumi properties
// `inputs` and `outputs` at that level. Below a computed attribute nothing is configurable.
func (c *checker) walk(out map[string]Attribute, prefix string, sch shim.SchemaMap, infos map[string]*tfbridge.SchemaInfo, inputs, outputs props, settable bool) {
	sch.Range(func(key string, s shim.Schema) bool {
		info := infos[key]
		name := tfbridge.TerraformToPulumiNameV2(key, sch, infos)
		if info != nil && info.Name != "" {
			name = info.Name
		}
		in, inOK := inputs[name]
		outp, outOK := outputs[name]
		path := prefix + key
		configurable := settable && (s.Required() || s.Optional())
		out[path] = Attribute{Name: name, Configurable: configurable, Input: inOK, Output: outOK}
		if r, ok := s.Elem().(shim.Resource); ok {
			var nestedInfos map[string]*tfbridge.SchemaInfo
			sep := "."
			if info != nil {
				nestedInfos = info.Fields
				if s.Type() == shim.TypeList || s.Type() == shim.TypeSet {
					sep = "[]."
					nestedInfos = nil
					if info.Elem != nil {
						nestedInfos = info.Elem.Fields
					}
				}
			} else if s.Type() == shim.TypeList || s.Type() == shim.TypeSet {
				sep = "[]."
			}
			c.walk(out, path+sep, r.Schema(), nestedInfos, c.schema.nested(in), c.schema.nested(outp), configurable)
			if sep == "[]." {
				// The converter names a list's members through `element` in a block's body, but
				// through the list's own `fields` in a reference across an index (`items[0].id`).
				var byIndex map[string]*tfbridge.SchemaInfo
				if info != nil {
					byIndex = info.Fields
				}
				traversed := map[string]Attribute{}
				c.walk(traversed, path+sep, r.Schema(), byIndex, nil, nil, false)
				for p, a := range traversed {
					if out[p].Name != a.Name {
						c.problem("%s.%s: named %s in a block but %s in a reference through an index", c.current, p, out[p].Name, a.Name)
					}
				}
			}
		}
		return true
	})
}

// checkValue reports where a state's value does not have the type the schema gives.
func (c *checker) checkValue(where string, s shim.Schema, v any) {
	if v == nil {
		return
	}
	bad := func() { c.problem("%s: %v does not fit type %v", where, v, s.Type()) }
	switch s.Type() {
	case shim.TypeString:
		if _, ok := v.(string); !ok {
			bad()
		}
	case shim.TypeBool:
		if _, ok := v.(bool); !ok {
			bad()
		}
	case shim.TypeInt, shim.TypeFloat:
		if _, ok := v.(json.Number); !ok {
			bad()
		}
	case shim.TypeList, shim.TypeSet:
		items, ok := v.([]any)
		if !ok {
			bad()
			return
		}
		for i, item := range items {
			c.checkElem(fmt.Sprintf("%s[%d]", where, i), s.Elem(), item)
		}
	case shim.TypeMap:
		m, ok := v.(map[string]any)
		if !ok {
			bad()
			return
		}
		if r, ok := s.Elem().(shim.Resource); ok {
			c.checkObject(where, r.Schema(), m)
			return
		}
		for k, item := range m {
			c.checkElem(where+"."+k, s.Elem(), item)
		}
	}
}

func (c *checker) checkElem(where string, elem any, v any) {
	switch e := elem.(type) {
	case shim.Resource:
		m, ok := v.(map[string]any)
		if !ok {
			c.problem("%s: %v is not an object", where, v)
			return
		}
		c.checkObject(where, e.Schema(), m)
	case shim.Schema:
		c.checkValue(where, e, v)
	}
}

// checkObject reports the attributes a state's object lacks or has beyond the schema, as a
// plugin-framework provider writes every attribute of its schema (null when unset).
func (c *checker) checkObject(where string, sch shim.SchemaMap, obj map[string]any) {
	sch.Range(func(key string, s shim.Schema) bool {
		v, ok := obj[key]
		if !ok {
			c.problem("%s: no %s, which the provider's schema has", where, key)
		} else {
			c.checkValue(where+"."+key, s, v)
		}
		return true
	})
	for key := range obj {
		if _, ok := sch.GetOk(key); !ok {
			c.problem("%s: %s, which the provider's schema does not have", where, key)
		}
	}
}

// tfstate is the part of a Terraform state (format 4) read here.
type tfstate struct {
	Version   int `json:"version"`
	Resources []struct {
		Mode      string `json:"mode"`
		Type      string `json:"type"`
		Name      string `json:"name"`
		Provider  string `json:"provider"`
		Instances []struct {
			SchemaVersion int            `json:"schema_version"`
			Attributes    map[string]any `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

func (c *checker) checkState(p shim.Provider, path string) {
	raw, err := os.ReadFile(path)
	must(err)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var st tfstate
	must(dec.Decode(&st))
	if st.Version != 4 {
		c.problem("%s: state format %d, not 4", path, st.Version)
	}
	for _, r := range st.Resources {
		var res shim.Resource
		var ok bool
		where := r.Type + "." + r.Name
		if r.Mode == "data" {
			res, ok = p.DataSourcesMap().GetOk(r.Type)
			where = "data." + where
		} else {
			res, ok = p.ResourcesMap().GetOk(r.Type)
		}
		if !ok {
			c.problem("state: %s is not in the mapping", where)
			continue
		}
		for i, inst := range r.Instances {
			c.checkObject(fmt.Sprintf("state: %s[%d]", where, i), res.Schema(), inst.Attributes)
		}
	}
}

// checkBody reports the attributes and blocks of a configuration body the schema does not
// have, or has as computed only (not settable).
func (c *checker) checkBody(where string, sch shim.SchemaMap, body *hclsyntax.Body) {
	for name := range body.Attributes {
		s, ok := sch.GetOk(name)
		switch {
		case name == "depends_on" || name == "count" || name == "for_each" || name == "provider":
		case !ok:
			c.problem("config: %s.%s is not in the provider's schema", where, name)
		case !s.Required() && !s.Optional():
			c.problem("config: %s.%s is computed: a configuration cannot set it", where, name)
		}
	}
	for _, b := range body.Blocks {
		if b.Type == "lifecycle" {
			continue
		}
		s, ok := sch.GetOk(b.Type)
		r, isBlock := shim.Resource(nil), false
		if ok {
			r, isBlock = s.Elem().(shim.Resource)
		}
		if !isBlock {
			c.problem("config: %s has a %s block, which the provider's schema does not", where, b.Type)
			continue
		}
		c.checkBody(where+"."+b.Type, r.Schema(), b.Body)
	}
}

// checkConfig checks every chainguard resource and data block of a configuration file, and
// returns the types it declares.
func (c *checker) checkConfig(p shim.Provider, path, provider string) map[string]bool {
	src, err := os.ReadFile(path)
	must(err)
	file, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		c.problem("config: %s", diags.Error())
		return nil
	}
	seen := map[string]bool{}
	for _, b := range file.Body.(*hclsyntax.Body).Blocks {
		if (b.Type != "resource" && b.Type != "data") || len(b.Labels) != 2 || !strings.HasPrefix(b.Labels[0], provider+"_") {
			continue
		}
		var res shim.Resource
		var ok bool
		if b.Type == "data" {
			res, ok = p.DataSourcesMap().GetOk(b.Labels[0])
		} else {
			res, ok = p.ResourcesMap().GetOk(b.Labels[0])
		}
		key := b.Type + " " + b.Labels[0]
		seen[key] = true
		if !ok {
			c.problem("config: %s is not in the mapping", key)
			continue
		}
		c.checkBody(key+" "+b.Labels[1], res.Schema(), b.Body)
	}
	return seen
}

// entry reports a resource or data source mapped to token tok (which the package schema has
// when known), with its attributes against the token's inputs and outputs.
func (c *checker) entry(what, tok string, known bool, r shim.Resource, fields map[string]*tfbridge.SchemaInfo, inputs, outputs props) Entry {
	if !known {
		c.problem("%s maps to %s, which the package schema does not have", what, tok)
	}
	e := Entry{Token: tok, Attributes: map[string]Attribute{}}
	c.current = what
	c.walk(e.Attributes, "", r.Schema(), fields, inputs, outputs, true)
	return e
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "tfmapping:", err)
		os.Exit(2)
	}
}

func main() {
	mappingPath := flag.String("mapping", "", "the mapping file (pulumi package get-mapping terraform <plugin>)")
	schemaPath := flag.String("schema", "", "the plugin's package schema (JSON)")
	statePath := flag.String("state", "", "a Terraform state of the mapped provider (optional)")
	configPath := flag.String("config", "", "a Terraform configuration file of the mapped provider (optional)")
	flag.Parse()

	raw, err := os.ReadFile(*mappingPath)
	must(err)
	// Strict, unlike the converter: a member the bridge's types do not have is a mistake here.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var marshalled tfbridge.MarshallableProviderInfo
	must(dec.Decode(&marshalled))
	info := marshalled.Unmarshal()

	var ps pulumiSchema
	sraw, err := os.ReadFile(*schemaPath)
	must(err)
	must(json.Unmarshal(sraw, &ps))

	c := &checker{schema: &ps, report: Report{Provider: info.Name, Resources: map[string]Entry{}, DataSources: map[string]Entry{}}}
	if info.P == nil {
		must(fmt.Errorf("the mapping holds no Terraform schema (provider)"))
	}
	info.P.ResourcesMap().Range(func(key string, r shim.Resource) bool {
		if ri := info.Resources[key]; ri == nil {
			c.problem("resource %s has a Terraform schema but no mapping", key)
		} else {
			spec, ok := ps.Resources[ri.Tok.String()]
			c.report.Resources[key] = c.entry("resource "+key, ri.Tok.String(), ok, r, ri.Fields, spec.InputProperties, spec.Properties)
		}
		return true
	})
	info.P.DataSourcesMap().Range(func(key string, r shim.Resource) bool {
		if di := info.DataSources[key]; di == nil {
			c.problem("data source %s has a Terraform schema but no mapping", key)
		} else {
			spec, ok := ps.Functions[di.Tok.String()]
			c.report.DataSources[key] = c.entry("data source "+key, di.Tok.String(), ok, r, di.Fields, spec.Inputs.Properties, spec.Outputs.Properties)
		}
		return true
	})
	for key := range info.Resources {
		if _, ok := info.P.ResourcesMap().GetOk(key); !ok {
			c.problem("resource %s is mapped but has no Terraform schema", key)
		}
	}
	for key := range info.DataSources {
		if _, ok := info.P.DataSourcesMap().GetOk(key); !ok {
			c.problem("data source %s is mapped but has no Terraform schema", key)
		}
	}

	if *statePath != "" {
		c.checkState(info.P, *statePath)
	}
	if *configPath != "" {
		seen := c.checkConfig(info.P, *configPath, info.Name)
		// The fixture is meant to hold every mapped resource and data source.
		for key := range info.Resources {
			if !seen["resource "+key] {
				c.problem("config: declares no resource %s", key)
			}
		}
		for key := range info.DataSources {
			if !seen["data "+key] {
				c.problem("config: declares no data source %s", key)
			}
		}
	}

	sort.Strings(c.problems)
	c.report.Problems = append([]string{}, c.problems...)
	out, err := json.MarshalIndent(c.report, "", "  ")
	must(err)
	fmt.Println(string(out))
}
