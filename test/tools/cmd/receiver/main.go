// Command receiver accepts webhook deliveries exactly as the platform's SDK does
// (chainguard.dev/sdk/events/receiver.NewHTTPHandler: the issuer's keys, the token's audience,
// subject "webhook:<group>" and body digest) and prints one JSON line per request it answered.
//
//	receiver cert -dir D                    # a self-signed certificate for 127.0.0.1 in D
//	receiver serve -issuer URL -group G -dir D [-fail-first N]
//
// serve listens over https on 127.0.0.1 with D's certificate, prints {"listening": <url>}, then
// per request {"status": <code>, ...}: for an accepted delivery the event's attributes and its
// body as the SDK's events.Decode reads it (the bodytype extension resolved to its proto message);
// for a refused one the SDK receiver's answer. With -fail-first N, the first N requests are
// answered 503 before the SDK sees them, as a sink that is briefly down.
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"chainguard.dev/sdk/events"
	"chainguard.dev/sdk/events/receiver"
	cloudevents "github.com/cloudevents/sdk-go/v2"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	// The messages events.Decode resolves by their bodytype.
	_ "chainguard.dev/sdk/proto/chainguard/platform/events/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
)

var out = json.NewEncoder(os.Stdout)
var outMu sync.Mutex

func emit(v any) {
	outMu.Lock()
	defer outMu.Unlock()
	_ = out.Encode(v)
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "receiver: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: receiver cert|serve ...")
	}
	switch os.Args[1] {
	case "cert":
		fs := flag.NewFlagSet("cert", flag.ExitOnError)
		dir := fs.String("dir", "", "where to write cert.pem and key.pem")
		_ = fs.Parse(os.Args[2:])
		if err := writeCert(*dir); err != nil {
			fail("%v", err)
		}
	case "serve":
		fs := flag.NewFlagSet("serve", flag.ExitOnError)
		issuer := fs.String("issuer", "", "the OIDC issuer deliveries are signed by")
		group := fs.String("group", "", "the group deliveries must be addressed to")
		dir := fs.String("dir", "", "the folder of cert.pem and key.pem")
		failFirst := fs.Int64("fail-first", 0, "answer the first N requests 503")
		_ = fs.Parse(os.Args[2:])
		serve(*issuer, *group, *dir, *failFirst)
	default:
		fail("unknown command %q", os.Args[1])
	}
}

func writeCert(dir string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "pulumi-irv test receiver"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
}

type slotKey struct{}

func tlsCert(dir string) (tls.Certificate, error) {
	return tls.LoadX509KeyPair(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"))
}

// accepted is what the SDK handed the callback: the event's attributes and its decoded body.
type accepted struct {
	Status       int             `json:"status"`
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Source       string          `json:"source"`
	Subject      string          `json:"subject"`
	Group        string          `json:"group"`
	BodyType     string          `json:"bodytype"`
	Subscription string          `json:"subscription"`
	Actor        string          `json:"actor"`
	Body         json.RawMessage `json:"body,omitempty"`
	DecodeError  string          `json:"decodeError,omitempty"`
}

func serve(issuer, group, dir string, failFirst int64) {
	ctx := context.Background()
	h, err := receiver.NewHTTPHandler(ctx, issuer, group, func(ctx context.Context, e cloudevents.Event) error {
		ext := func(k string) string { s, _ := e.Extensions()[k].(string); return s }
		a := &accepted{Status: http.StatusOK, ID: e.ID(), Type: e.Type(), Source: e.Source(), Subject: e.Subject(),
			Group: ext(events.GroupKey), BodyType: ext(events.BodyTypeKey), Subscription: ext(events.DeliverySubscriptionKey)}
		if occ, err := events.Decode(e); err != nil {
			a.DecodeError = err.Error()
		} else {
			if occ.Actor != nil {
				a.Actor = occ.Actor.Subject
			}
			if m, ok := occ.Body.(proto.Message); ok {
				a.Body, _ = protojson.Marshal(m)
			}
		}
		// The request's slot (below): the callback's context is the request's.
		if slot, ok := ctx.Value(slotKey{}).(*accepted); ok {
			*slot = *a
		}
		return nil
	})
	if err != nil {
		fail("%v", err)
	}
	var seen atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := seen.Add(1); n <= failFirst {
			w.WriteHeader(http.StatusServiceUnavailable)
			emit(map[string]any{"status": http.StatusServiceUnavailable, "id": r.Header.Get("ce-id"), "failedOnPurpose": true})
			return
		}
		rec := httptest.NewRecorder()
		slot := &accepted{}
		h.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), slotKey{}, slot)))
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		if slot.Status == http.StatusOK && rec.Code == http.StatusOK {
			emit(slot)
		} else {
			emit(map[string]any{"status": rec.Code, "id": r.Header.Get("ce-id"), "error": rec.Body.String()})
		}
	}))
	cert, err := tlsCert(dir)
	if err != nil {
		fail("%v", err)
	}
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	emit(map[string]string{"listening": srv.URL})
	select {}
}
