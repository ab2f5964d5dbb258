// This file is added to the node language host that scripts/ensure-pulumi builds from sdk/v3
// v3.68.0 (the newest the Go module proxy serves here), whose RunPlugin answers "not supported".
// The engine runs a Node policy pack (`pulumi preview --policy-pack <dir>`) through the language
// host's RunPlugin; this implements that one case: it starts `node
// <@pulumi/pulumi>/cmd/run-policy-pack <engine address> <pack dir>` in the pack's folder and
// streams its output and exit code back. ensure-pulumi compiles it in with `go build -overlay`,
// the call in main.go's RunPlugin rewritten to `return host.runPolicyPack(req, server)`.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protowire"
)

// runPluginFields reads what a newer engine sends in RunPluginRequest beyond this host's protocol
// (so it arrives as unknown fields): `info` (5), a ProgramInfo whose `program_directory` is field
// 2, and `kind` (6), "analyzer" for a policy pack.
func runPluginFields(req *pulumirpc.RunPluginRequest) (programDir, kind string) {
	each(req.ProtoReflect().GetUnknown(), func(num protowire.Number, v []byte) {
		switch num {
		case 5:
			each(v, func(n protowire.Number, w []byte) {
				if n == 2 {
					programDir = string(w)
				}
			})
		case 6:
			kind = string(v)
		}
	})
	return programDir, kind
}

// each calls f with every length-delimited field of the protobuf message b, skipping the others.
func each(b []byte, f func(protowire.Number, []byte)) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		if typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return
			}
			b = b[n:]
			continue
		}
		v, m := protowire.ConsumeBytes(b)
		if m < 0 {
			return
		}
		f(num, v)
		b = b[m:]
	}
}

// findUp returns the first `rel` found in dir or one of its ancestors.
func findUp(dir, rel string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s not found in %s or any folder above it: run npm install there", rel, dir)
		}
	}
}

// streamWriter sends what a plugin writes as RunPluginResponse messages (one stream at a time).
type streamWriter struct {
	mu     *sync.Mutex
	server pulumirpc.LanguageRuntime_RunPluginServer
	stderr bool
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := append([]byte(nil), p...)
	var res pulumirpc.RunPluginResponse
	if w.stderr {
		res.Output = &pulumirpc.RunPluginResponse_Stderr{Stderr: b}
	} else {
		res.Output = &pulumirpc.RunPluginResponse_Stdout{Stdout: b}
	}
	if err := w.server.Send(&res); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (host *nodeLanguageHost) runPolicyPack(
	req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer,
) error {
	dir, kind := runPluginFields(req)
	if dir == "" {
		dir = req.GetProgram()
	}
	if kind != "" && kind != "analyzer" {
		return fmt.Errorf("not supported: this node language host runs policy packs, not %s plugins", kind)
	}
	if dir == "" {
		return errors.New("not supported: no plugin folder in the request")
	}
	script, err := findUp(dir, filepath.Join("node_modules", "@pulumi", "pulumi", "cmd", "run-policy-pack"))
	if err != nil {
		return err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("node is not on PATH: %w", err)
	}
	args := append(append([]string{script}, req.GetArgs()...), dir)
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), req.GetEnv()...)
	mu := &sync.Mutex{}
	cmd.Stdout = streamWriter{mu: mu, server: server}
	cmd.Stderr = streamWriter{mu: mu, server: server, stderr: true}
	code := int32(0)
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return err
		}
		code = int32(exit.ExitCode())
	}
	return server.Send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: code}})
}
