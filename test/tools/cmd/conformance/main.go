// Command conformance runs the platform's own generated gRPC clients (chainguard.dev/sdk) against
// an irv-server: create, get, list (pages, uidp scopes, order_by, skip), update with masks and
// delete of every IAM kind; events subscriptions through the v2beta1 client and the v1 one the
// platform's Terraform provider uses; reads of repos, tags and advisories; the token exchange. It
// prints one JSON line per check ({"check":…,"ok":…,"error":…}) and exits 1 when any check failed.
//
//	conformance -api http://127.0.0.1:PORT -org ORG_UID -id-token JWT   (token in IRV_TOKEN)
//	conformance -event-types    # one JSON line per method whose proto names an event type
//
// -id-token is an OIDC token of an issuer the server trusts: the exchange check makes an identity
// whose claim match is that token's issuer and subject, and assumes it through the SDK's exchanger.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"time"

	delegate "chainguard.dev/go-grpc-kit/pkg/options"
	"chainguard.dev/sdk/auth"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vulns "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
)

// suite holds the clients and what the checks made, for the checks after them.
type suite struct {
	ctx      context.Context
	api      string
	auth     string
	org      string
	idToken  string
	conn     *grpc.ClientConn
	iam      iam.Clients
	registry registry.Clients
	vulns    vulns.Clients
	failed   int
	out      *json.Encoder
}

type result struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// check runs one named check and prints its line.
func (s *suite) check(name string, fn func() error) bool {
	err := fn()
	r := result{Check: name, OK: err == nil}
	if err != nil {
		r.Error = err.Error()
		s.failed++
	}
	_ = s.out.Encode(r)
	return err == nil
}

// dial connects as the SDK's own helpers do (platform.NewPlatformClients, oidc/v1.NewClients):
// go-grpc-kit's GRPCOptions for the URL (plain text for http://, TLS for https://) and the SDK's
// token credentials, which send the Authorization metadata as given. NewPlatformClients itself
// works against http://127.0.0.1:<port> too, but it builds every v1 client and pulls in apko and
// go-git (a third more packages to compile) for a connection we can make with the same two calls.
func dial(ctx context.Context, api, authorization string) (*grpc.ClientConn, error) {
	u, err := url.Parse(api)
	if err != nil {
		return nil, fmt.Errorf("-api %q: %w", api, err)
	}
	target, opts := delegate.GRPCOptions(*u)
	if authorization != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(auth.NewFromToken(ctx, authorization, false)))
	}
	return grpc.NewClient(target, opts...)
}

// ready waits until conn's transport is up: a server that does not speak gRPC at the address fails
// here, once and saying so, rather than in every check after it.
func ready(ctx context.Context, conn *grpc.ClientConn) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn.Connect()
	for state := conn.GetState(); state != connectivity.Ready; state = conn.GetState() {
		if !conn.WaitForStateChange(ctx, state) {
			return fmt.Errorf("no gRPC at %s within a minute (last state %v)", conn.Target(), state)
		}
	}
	return nil
}

func main() {
	api := flag.String("api", "", "the server's URL, http://127.0.0.1:PORT (its gRPC and the tokens' audience)")
	authURL := flag.String("auth", "", "the token issuer's URL, for the exchange over HTTP/1 (default: -api + /auth)")
	org := flag.String("org", "", "the organization's uid (the root group)")
	idToken := flag.String("id-token", "", "an OIDC token the server's exchange accepts (its iss and sub become an identity's claim match)")
	types := flag.Bool("event-types", false, "print the event type (chainguard.annotations.events) of every method of the linked-in services, and exit")
	flag.Parse()
	if *types {
		out := json.NewEncoder(os.Stdout)
		for _, t := range eventTypes() {
			_ = out.Encode(t)
		}
		return
	}
	token := os.Getenv("IRV_TOKEN")
	if *api == "" || *org == "" || *idToken == "" || token == "" {
		fmt.Fprintln(os.Stderr, "usage: IRV_TOKEN=<admin token> conformance -api URL -org UID -id-token JWT")
		os.Exit(2)
	}
	if *authURL == "" {
		*authURL = *api + "/auth"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	conn, err := dial(ctx, *api, "Bearer "+token)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	defer conn.Close()
	if err := ready(ctx, conn); err != nil {
		_ = json.NewEncoder(os.Stdout).Encode(result{Check: "connect", Error: err.Error()})
		os.Exit(1)
	}
	s := &suite{
		ctx: ctx, api: *api, auth: *authURL, org: *org, idToken: *idToken, conn: conn,
		iam: iam.NewClientsFromConnection(conn), registry: registry.NewClientsFromConnection(conn), vulns: vulns.NewClientsFromConnection(conn),
		out: json.NewEncoder(os.Stdout),
	}
	s.errors()
	if team := s.groups(); team != "" {
		m := &made{team: team}
		s.identities(m)
		s.roles(m)
		s.roleBindings(m)
		s.identityProviders(m)
		s.accountAssociations(m)
		s.groupInvites(m)
		s.subscriptions(m)
		s.exchange(m)
		s.check("roles.delete", func() error {
			c := s.iam.RolesService()
			return s.deleted(m.role, deleter{
				del: func(uid string) error { _, err := c.DeleteRole(s.ctx, &iam.DeleteRoleRequest{Uid: uid}); return err },
				get: func(uid string) error { _, err := c.GetRole(s.ctx, &iam.GetRoleRequest{Uid: uid}); return err },
			})
		})
		s.check("identities.delete.ci", func() error { return s.deleted(m.ci, deleteIdentity(s)) })
		s.check("groups.delete.tree", func() error { return s.deleteTree(team) })
	}
	s.reads()
	if s.failed > 0 {
		fmt.Fprintf(os.Stderr, "conformance: %d checks failed\n", s.failed)
		os.Exit(1)
	}
}
