// Command gateway serves the platform's generated REST gateway (grpc-gateway, as chainguard.dev/sdk
// generates and pins it) in front of an irv-server's gRPC, on 127.0.0.1 (port 0 unless -listen
// says), so that a REST client talks to exactly what the platform's gateway serves.
//
//	gateway -grpc 127.0.0.1:PORT      # prints {"url":"http://127.0.0.1:PORT2"} once it listens
//
// Every v2beta1 service irv-server serves is registered, and the token exchange; the mux is
// grpc-gateway's default (its default JSON marshaler, its default error handler), which forwards
// the Authorization header as gRPC metadata. It runs until stdin closes or it is signalled.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	events "chainguard.dev/sdk/proto/chainguard/platform/events/v2beta1"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vulns "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	oidc "chainguard.dev/sdk/proto/platform/oidc/v1"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	// The error details irv-server sends (ErrorInfo, BadRequest, PreconditionFailure): the
	// marshaler writes an error's google.rpc.Status with its Any details typed, as the spec's error
	// bodies show, only for types linked in; without them it answers 500 "failed to marshal".
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

type register func(context.Context, *runtime.ServeMux, string, []grpc.DialOption) error

// services is every service the gateway fronts.
var services = []register{
	iam.RegisterGroupsServiceHandlerFromEndpoint,
	iam.RegisterIdentitiesServiceHandlerFromEndpoint,
	iam.RegisterRolesServiceHandlerFromEndpoint,
	iam.RegisterRoleBindingsServiceHandlerFromEndpoint,
	iam.RegisterIdentityProvidersServiceHandlerFromEndpoint,
	iam.RegisterAccountAssociationsServiceHandlerFromEndpoint,
	iam.RegisterGroupInvitesServiceHandlerFromEndpoint,
	registry.RegisterReposServiceHandlerFromEndpoint,
	registry.RegisterTagsServiceHandlerFromEndpoint,
	events.RegisterSubscriptionsServiceHandlerFromEndpoint,
	vulns.RegisterAdvisoriesServiceHandlerFromEndpoint,
	oidc.RegisterSecurityTokenServiceHandlerFromEndpoint,
}

func main() {
	endpoint := flag.String("grpc", "", "irv-server's gRPC address, host:port")
	listen := flag.String("listen", "127.0.0.1:0", "where to serve REST")
	flag.Parse()
	if *endpoint == "" {
		fmt.Fprintln(os.Stderr, "usage: gateway -grpc HOST:PORT [-listen 127.0.0.1:0]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	mux := runtime.NewServeMux()
	// Plain text to irv-server, as the platform's gateway talks to its backends in-cluster.
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	for _, r := range services {
		if err := r(ctx, mux, *endpoint, opts); err != nil {
			fmt.Fprintln(os.Stderr, "gateway:", err)
			os.Exit(1)
		}
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gateway:", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]string{"url": "http://" + l.Addr().String()})
	// A parent that dies closes our stdin: stop with it rather than outlive it.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(l); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "gateway:", err)
		os.Exit(1)
	}
}
