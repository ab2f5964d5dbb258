// Command services lists every gRPC service and method of the platform's SDK (chainguard.dev/sdk)
// from the descriptors its generated packages register, one JSON line per method with its REST
// mapping (google.api.http): what docs/api-coverage.md must list (test/docs/api-coverage.test.ts).
//
//	services -protos $(go env GOMODCACHE)/chainguard.dev/sdk@v0.1.212
//	# {"service":"chainguard.platform.iam.v2.GroupsService","method":"GetGroup","http":{"method":"get","path":"/iam/v2/groups/{uid=**}"}}
//
// Three of the SDK's packages are not linked (registry v1, guardener and skills v1alpha1: they
// import apko and Google's longrunning, which this module does not carry); -protos names the SDK's
// folder, whose .proto files give their services, methods and REST mappings ("linked": false).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	_ "chainguard.dev/sdk/proto/annotations"
	_ "chainguard.dev/sdk/proto/capabilities"
	_ "chainguard.dev/sdk/proto/chainguard/platform/actions/v1alpha1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/advisory/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/advisory/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/events/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/events/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/iam/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/libraries/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/libraries/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/ping/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/ping/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/registry/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2"
	_ "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	_ "chainguard.dev/sdk/proto/platform/actions/v1"
	_ "chainguard.dev/sdk/proto/platform/advisory/v1"
	_ "chainguard.dev/sdk/proto/platform/apk/v1"
	_ "chainguard.dev/sdk/proto/platform/argos/v1"
	_ "chainguard.dev/sdk/proto/platform/auth/v1"
	_ "chainguard.dev/sdk/proto/platform/common/v1"
	_ "chainguard.dev/sdk/proto/platform/ecosystems/v1"
	_ "chainguard.dev/sdk/proto/platform/events/v1"
	_ "chainguard.dev/sdk/proto/platform/iam/v1"
	_ "chainguard.dev/sdk/proto/platform/libraries/v1"
	_ "chainguard.dev/sdk/proto/platform/matcher/v1"
	_ "chainguard.dev/sdk/proto/platform/oidc/v1"
	_ "chainguard.dev/sdk/proto/platform/packages/v1"
	_ "chainguard.dev/sdk/proto/platform/ping/v1"
	_ "chainguard.dev/sdk/proto/platform/policies/v1"
	_ "chainguard.dev/sdk/proto/platform/skills/v1"
	_ "chainguard.dev/sdk/proto/platform/tenant/v1"
	_ "chainguard.dev/sdk/proto/platform/vulnerabilities/v1"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

type rule struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Body   string `json:"body,omitempty"`
}

type line struct {
	Service string `json:"service"`
	Method  string `json:"method"`
	HTTP    *rule  `json:"http,omitempty"`
	// Linked is false for a method read from a .proto file rather than a registered descriptor.
	Linked bool `json:"linked"`
}

var (
	packageLine = regexp.MustCompile(`^package\s+([\w.]+)\s*;`)
	serviceLine = regexp.MustCompile(`^service\s+(\w+)\s*\{`)
	rpcLine     = regexp.MustCompile(`^\s+rpc\s+(\w+)\s*\(`)
	verbField   = regexp.MustCompile(`\b(get|post|put|patch|delete)\s*:\s*"([^"]*)"`)
	bodyField   = regexp.MustCompile(`\bbody\s*:\s*"([^"]*)"`)
	quoted      = regexp.MustCompile(`"[^"]*"`)
)

// fromProtos reads the services and methods of the .proto files under dir that no linked
// descriptor has, each with the first binding of its google.api.http option as the text writes
// it (`get: "..."`, `body: "..."`, on one line or several; additional_bindings are left out).
func fromProtos(dir string, linked map[string]bool) ([]line, error) {
	var out []line
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".proto") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		pkg, service := "", ""
		// The method whose google.api.http option is read, and whether its lines are being read.
		var method *line
		inHTTP := false
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			t := sc.Text()
			if m := packageLine.FindStringSubmatch(t); m != nil {
				pkg = m[1]
			} else if m := serviceLine.FindStringSubmatch(t); m != nil {
				service = pkg + "." + m[1]
			} else if m := rpcLine.FindStringSubmatch(t); m != nil && strings.HasPrefix(service, "chainguard.") && !linked[service] {
				out = append(out, line{Service: service, Method: m[1]})
				method, inHTTP = &out[len(out)-1], false
			} else if strings.HasPrefix(t, "}") {
				service, method = "", nil
			} else if method != nil && (inHTTP || strings.Contains(t, "option (google.api.http)")) {
				inHTTP = !strings.Contains(t, "additional_bindings")
				if m := verbField.FindStringSubmatch(t); m != nil && inHTTP && method.HTTP == nil {
					method.HTTP = &rule{Method: m[1], Path: m[2]}
				}
				if m := bodyField.FindStringSubmatch(t); m != nil && inHTTP && method.HTTP != nil && method.HTTP.Body == "" {
					method.HTTP.Body = m[1]
				}
				// The option's first binding ends with its first closing brace outside a path template.
				if !inHTTP || strings.Contains(quoted.ReplaceAllString(t, ""), "}") {
					method, inHTTP = nil, false
				}
			}
		}
		return sc.Err()
	})
	return out, err
}

// httpRule is a method's google.api.http mapping, or nil.
func httpRule(m protoreflect.MethodDescriptor) *rule {
	opts, ok := m.Options().(*descriptorpb.MethodOptions)
	if !ok || opts == nil || !proto.HasExtension(opts, annotations.E_Http) {
		return nil
	}
	h, _ := proto.GetExtension(opts, annotations.E_Http).(*annotations.HttpRule)
	if h == nil {
		return nil
	}
	r := &rule{Body: h.GetBody()}
	switch p := h.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		r.Method, r.Path = "get", p.Get
	case *annotations.HttpRule_Post:
		r.Method, r.Path = "post", p.Post
	case *annotations.HttpRule_Put:
		r.Method, r.Path = "put", p.Put
	case *annotations.HttpRule_Patch:
		r.Method, r.Path = "patch", p.Patch
	case *annotations.HttpRule_Delete:
		r.Method, r.Path = "delete", p.Delete
	default:
		return nil
	}
	return r
}

func main() {
	protos := flag.String("protos", "", "the SDK's folder: also read the services of its .proto files that are not linked")
	flag.Parse()
	var out []line
	linked := map[string]bool{}
	protoregistry.GlobalFiles.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		for i := 0; i < f.Services().Len(); i++ {
			s := f.Services().Get(i)
			// The platform's own services, not gRPC's or Google's that its dependencies register.
			if !strings.HasPrefix(string(s.FullName()), "chainguard.") {
				continue
			}
			linked[string(s.FullName())] = true
			for j := 0; j < s.Methods().Len(); j++ {
				m := s.Methods().Get(j)
				out = append(out, line{Service: string(s.FullName()), Method: string(m.Name()), HTTP: httpRule(m), Linked: true})
			}
		}
		return true
	})
	if *protos != "" {
		more, err := fromProtos(filepath.Join(*protos, "proto"), linked)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		out = append(out, more...)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Service < out[b].Service })
	enc := json.NewEncoder(os.Stdout)
	for _, l := range out {
		if err := enc.Encode(l); err != nil {
			os.Exit(1)
		}
	}
}
