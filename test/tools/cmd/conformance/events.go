package main

import (
	"fmt"
	"slices"
	"strings"

	"chainguard.dev/sdk/proto/annotations"
	events "chainguard.dev/sdk/proto/chainguard/platform/events/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	eventsv1 "chainguard.dev/sdk/proto/platform/events/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// subscriptions: a subscription made with the SDK's v2beta1 client, read back, listed in its
// group, one with a plain-http sink refused naming the field, deleted; then the v1 client the
// platform's Terraform provider uses (chainguard.platform.events.Subscriptions) over the same
// subscriptions: create, list by id (as that provider reads one), delete.
func (s *suite) subscriptions(m *made) {
	c := events.NewClientsFromConnection(s.conn).SubscriptionsService()
	const sink = "https://hooks.acme.example/conformance?token=t0k3n"
	var uid string
	s.check("subscriptions.create", func() error {
		sub, err := c.CreateSubscription(s.ctx, &events.CreateSubscriptionRequest{Parent: m.team, Subscription: &events.Subscription{Sink: sink}})
		if err != nil {
			return err
		}
		uid = sub.GetUid()
		read, err := c.GetSubscription(s.ctx, &events.GetSubscriptionRequest{Uid: uid})
		if err != nil {
			return err
		}
		return first(equal("parent of its uid", parentOf(uid), m.team), same("get", read, &events.Subscription{Uid: uid, Sink: sink}))
	})
	s.check("subscriptions.create.http", func() error {
		sub, err := c.CreateSubscription(s.ctx, &events.CreateSubscriptionRequest{Parent: m.team, Subscription: &events.Subscription{Sink: "http://hooks.acme.example/plain"}})
		if err == nil {
			_, _ = c.DeleteSubscription(s.ctx, &events.DeleteSubscriptionRequest{Uid: sub.GetUid()})
		}
		return badField("create with a plain-http sink", err, "sink")
	})
	s.check("subscriptions.list", func() error {
		res, err := c.ListSubscriptions(s.ctx, &events.ListSubscriptionsRequest{Uidp: &common.UIDPFilter{ChildrenOf: m.team}})
		if err != nil {
			return err
		}
		return only("subscriptions of the team", res.GetSubscriptions(), uid)
	})
	s.check("subscriptions.delete", func() error {
		return s.deleted(uid, deleter{
			del: func(uid string) error {
				_, err := c.DeleteSubscription(s.ctx, &events.DeleteSubscriptionRequest{Uid: uid})
				return err
			},
			get: func(uid string) error {
				_, err := c.GetSubscription(s.ctx, &events.GetSubscriptionRequest{Uid: uid})
				return err
			},
		})
	})

	v1 := eventsv1.NewSubscriptionsClient(s.conn)
	var id string
	s.check("subscriptions.v1.create", func() error {
		sub, err := v1.Create(s.ctx, &eventsv1.CreateSubscriptionRequest{ParentId: m.team, Subscription: &eventsv1.Subscription{Sink: sink}})
		if err != nil {
			return err
		}
		id = sub.GetId()
		read, err := c.GetSubscription(s.ctx, &events.GetSubscriptionRequest{Uid: id})
		if err != nil {
			return err
		}
		return first(equal("parent of its id", parentOf(id), m.team), equal("sink", sub.GetSink(), sink), equal("sink through v2beta1", read.GetSink(), sink))
	})
	s.check("subscriptions.v1.list", func() error {
		// The Terraform provider reads a subscription by listing with its id.
		res, err := v1.List(s.ctx, &eventsv1.SubscriptionFilter{Id: id})
		if err != nil {
			return err
		}
		ids := make([]string, len(res.GetItems()))
		for i, x := range res.GetItems() {
			ids[i] = x.GetId()
		}
		if !slices.Equal(ids, []string{id}) {
			return fmt.Errorf("list by id: got %v, want [%s]", ids, id)
		}
		return equal("sink", res.GetItems()[0].GetSink(), sink)
	})
	s.check("subscriptions.v1.delete", func() error {
		if _, err := v1.Delete(s.ctx, &eventsv1.DeleteSubscriptionRequest{Id: id}); err != nil {
			return err
		}
		res, err := v1.List(s.ctx, &eventsv1.SubscriptionFilter{Id: id})
		if err != nil {
			return err
		}
		_, err = c.GetSubscription(s.ctx, &events.GetSubscriptionRequest{Uid: id})
		return first(equal("listed after delete", len(res.GetItems()), 0), code("get after delete", err, codes.NotFound))
	})
}

// eventType is one method's chainguard.annotations.events type, as -event-types prints it, and
// the group its event names (the body's CloudEvents "group" extension) for an item three levels
// deep: "self" (the item's uid), "parent", "root" (the organization), "" (none, or another).
type eventType struct {
	Service string `json:"service"`
	Method  string `json:"method"`
	Type    string `json:"type"`
	Group   string `json:"group"`
}

// sampleUID is an item two groups below its organization.
const sampleUID = "4e9a7c1b2d3f5e6a7b8c9d0e1f2a3b4c5d6e7f80/a1b2c3d4e5f60718/8e9fa0b1c2d3e4f5"

// groupOf is the group an event of method md names for the item sampleUID: the body is the
// method's answer, or its request when it answers nothing (a delete), as the SDK's event types
// say (Eventable on the item and on Delete…Request); its uid (id in v1) is sampleUID.
func groupOf(md protoreflect.MethodDescriptor) string {
	body := md.Output()
	if body.FullName() == "google.protobuf.Empty" {
		body = md.Input()
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(body.FullName())
	if err != nil {
		return ""
	}
	m := mt.New()
	for _, name := range []protoreflect.Name{"uid", "id"} {
		if fd := body.Fields().ByName(name); fd != nil && fd.Kind() == protoreflect.StringKind {
			m.Set(fd, protoreflect.ValueOfString(sampleUID))
		}
	}
	ext, ok := m.Interface().(interface{ CloudEventsExtension(string) (string, bool) })
	if !ok {
		return ""
	}
	switch g, _ := ext.CloudEventsExtension("group"); g {
	case sampleUID:
		return "self"
	case sampleUID[:strings.LastIndex(sampleUID, "/")]:
		return "parent"
	case sampleUID[:strings.Index(sampleUID, "/")]:
		return "root"
	default:
		return ""
	}
}

// eventTypes is the CloudEvents type every method of the linked-in platform services names in
// its chainguard.annotations.events option, and the group it names: the facts the kinds'
// definitions record.
func eventTypes() []eventType {
	var out []eventType
	protoregistry.GlobalFiles.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		for i := range f.Services().Len() {
			svc := f.Services().Get(i)
			for j := range svc.Methods().Len() {
				md := svc.Methods().Get(j)
				attrs, ok := proto.GetExtension(md.Options(), annotations.E_Events).(*annotations.EventAttributes)
				if ok && attrs.GetType() != "" {
					out = append(out, eventType{Service: string(svc.FullName()), Method: string(md.Name()), Type: attrs.GetType(), Group: groupOf(md)})
				}
			}
		}
		return true
	})
	slices.SortFunc(out, func(a, b eventType) int {
		if a.Service != b.Service {
			if a.Service < b.Service {
				return -1
			}
			return 1
		}
		if a.Method < b.Method {
			return -1
		}
		if a.Method > b.Method {
			return 1
		}
		return 0
	})
	return out
}
