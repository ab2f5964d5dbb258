import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { describe, expect, it } from "vitest";
import { requestKeeping, responseSending, valuesOf } from "../../plugin/wire";
import { secret } from "../support/plugin";

const props = {
  uid: "o/g",
  name: "ingénierie ✓",
  labels: { team: "a" },
  ids: [1, -0.125, 1e21, true, false, null, "x", ""],
  nested: { empty: {}, none: [], deep: [[1, "é"], { d: null }] },
  key: secret("s3cret"),
};
const inputs = { name: "eng", labels: { team: "a" } };
const request = () =>
  new provproto.ReadRequest()
    .setId("o/g")
    .setUrn("urn:pulumi:dev::p::irv:iam:Group::eng")
    .setName("eng")
    .setType("irv:iam:Group")
    .setProperties(structproto.Struct.fromJavaScript(props as never))
    .setInputs(structproto.Struct.fromJavaScript(inputs as never));

// The plugin's Read and Diff keep their Structs as bytes (plugin/wire.ts): what the stubs would
// decode and encode must come out the same, field for field.
describe("Structs kept as bytes", () => {
  const decodeRead = requestKeeping(provproto.ReadRequest, ["properties", "inputs"] as const);
  const encodeRead = responseSending(provproto.ReadResponse, ["properties", "inputs"] as const);

  it("decode a request as the stubs do, with its Structs as bytes of the same values", () => {
    const { message, structs } = decodeRead(Buffer.from(request().serializeBinary()));
    expect(message.getId()).toBe("o/g");
    expect(message.getUrn()).toBe("urn:pulumi:dev::p::irv:iam:Group::eng");
    expect(message.getName()).toBe("eng");
    expect(message.getType()).toBe("irv:iam:Group");
    expect(message.getProperties()).toBeUndefined();
    expect(valuesOf(structs.properties)).toEqual(props);
    expect(valuesOf(structs.inputs)).toEqual(inputs);
    // The same values the stubs' own decoding gives.
    expect(valuesOf(structs.properties)).toEqual(request().getProperties()!.toJavaScript());
  });

  it("tell a request without a Struct from one with an empty Struct, and both decode to no values", () => {
    const none = decodeRead(Buffer.from(new provproto.ReadRequest().setId("o/g").serializeBinary()));
    expect(none.structs.properties).toBeUndefined();
    expect(valuesOf(none.structs.properties)).toEqual({});
    const empty = decodeRead(Buffer.from(new provproto.ReadRequest().setId("o/g").setProperties(new structproto.Struct()).serializeBinary()));
    expect(empty.structs.properties).toHaveLength(0);
    expect(valuesOf(empty.structs.properties)).toEqual({});
  });

  it("keep the last of a Struct sent twice, as the stubs do", () => {
    const twice = Buffer.concat([
      request().serializeBinary(),
      new provproto.ReadRequest().setProperties(structproto.Struct.fromJavaScript({ name: "ops", extra: 1 })).serializeBinary(),
    ]);
    const stubs = provproto.ReadRequest.deserializeBinary(twice).getProperties()!.toJavaScript();
    expect(valuesOf(decodeRead(twice).structs.properties)).toEqual(stubs);
    expect(stubs).toEqual({ name: "ops", extra: 1 });
  });

  it("encode a response with Structs given as bytes exactly as the stubs encode it with those Structs", () => {
    const { structs } = decodeRead(Buffer.from(request().serializeBinary()));
    const mine = encodeRead({ message: new provproto.ReadResponse().setId("o/g"), structs: { properties: structs.properties, inputs: structs.inputs } });
    const back = provproto.ReadResponse.deserializeBinary(mine);
    expect(back.getId()).toBe("o/g");
    expect(back.getProperties()!.toJavaScript()).toEqual(props);
    expect(back.getInputs()!.toJavaScript()).toEqual(inputs);
    const stubs = request();
    expect(back.serializeBinary()).toEqual(
      new provproto.ReadResponse().setId("o/g").setProperties(stubs.getProperties()).setInputs(stubs.getInputs()).serializeBinary(),
    );
  });

  it("encode a Struct set on the message the stubs' way, and an empty one given as bytes as present", () => {
    const mine = encodeRead({
      message: new provproto.ReadResponse().setId("o/g").setProperties(structproto.Struct.fromJavaScript({ a: 1 })),
      structs: { inputs: new Uint8Array(0) },
    });
    const back = provproto.ReadResponse.deserializeBinary(mine);
    expect(back.getProperties()!.toJavaScript()).toEqual({ a: 1 });
    expect(back.hasInputs()).toBe(true);
    expect(back.getInputs()!.toJavaScript()).toEqual({});
  });
});
