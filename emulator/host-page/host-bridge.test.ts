import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appToHostMessage, hostToAppMessage } from "#contract/bridge/messages.ts";
import { parseAppToHostMessage, parseHostToAppMessage } from "./host-bridge.js";

// The host page checks the bridge's messages by hand (it runs in the
// browser without a build step, so without zod). Those checks must accept
// and produce exactly what the zod schemas of `contract/bridge/messages.ts`
// do: checked here on generated messages, valid and broken.

const TYPES = ["tandem:ready", "tandem:token-request", "tandem:book", "tandem:context", "tandem:token", "tandem:booked", "tandem:book-declined"];

const b64url = fc.string({ unit: fc.constantFrom(..."AZaz09_-+/=.".split("")), maxLength: 12 });
const jwtLike = fc.oneof(
  fc.tuple(b64url, b64url, b64url).map(([a, b, c]) => `${a}.${b}.${c}`),
  fc.constantFrom("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "a.b", "a..c", "a.b.c.d"),
);
const edgeStrings = fc.constantFrom("", "x", "n".repeat(15), "n".repeat(16), "n".repeat(128), "n".repeat(129), "r".repeat(128), "r".repeat(129));
const text = fc.oneof(fc.string({ maxLength: 140 }), edgeStrings, jwtLike);
const notText = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant([]), fc.constant({}));
const anything = fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: notText });
const maybeNullableText = fc.oneof(text, fc.constant(null), fc.constant(undefined), fc.integer());
const extraKeys = fc.dictionary(fc.constantFrom("extra", "other", "__x"), anything, { maxKeys: 2 });

const hold = fc.oneof(
  { weight: 1, arbitrary: notText },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.record(
          {
            holdId: anything,
            providerId: anything,
            facilityId: anything,
            startsAt: anything,
            endsAt: anything,
            appointmentTypeId: anything,
            isNewPatient: fc.oneof(fc.boolean(), fc.constant(undefined), fc.constant("true"), fc.integer()),
            patientId: maybeNullableText,
          },
          { requiredKeys: ["holdId", "providerId", "facilityId", "startsAt", "endsAt"] },
        ),
        extraKeys,
      )
      .map(([known, extra]) => ({ ...extra, ...known })),
  },
);

const context = fc.oneof(
  { weight: 1, arbitrary: notText },
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.record(
          { organizationName: fc.oneof(text, fc.constant(null), fc.integer()), patientId: maybeNullableText, noteId: maybeNullableText, appointmentId: maybeNullableText, facilityId: maybeNullableText },
          { requiredKeys: [] },
        ),
        extraKeys,
      )
      .map(([known, extra]) => ({ ...extra, ...known })),
  },
);

const message = fc.oneof(
  { weight: 1, arbitrary: anything },
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.record(
          {
            type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: anything }),
            nonce: anything,
            requestId: anything,
            token: fc.oneof(jwtLike, anything),
            hold,
            context,
            appointmentId: anything,
            reason: anything,
          },
          { requiredKeys: ["type", "nonce"] },
        ),
        extraKeys,
      )
      .map(([known, extra]) => ({ ...extra, ...known })),
  },
);

describe("the host page's hand-written bridge checks", () => {
  it("accept and produce exactly what appToHostMessage does", () => {
    let accepted = 0;
    fc.assert(
      fc.property(message, (data) => {
        const expected = appToHostMessage.safeParse(data);
        const actual = parseAppToHostMessage(data);
        expect(actual.ok).toBe(expected.success);
        if (actual.ok && expected.success) {
          accepted += 1;
          expect(actual.message).toEqual(expected.data);
        }
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it("accept and produce exactly what hostToAppMessage does", () => {
    let accepted = 0;
    fc.assert(
      fc.property(message, (data) => {
        const expected = hostToAppMessage.safeParse(data);
        const actual = parseHostToAppMessage(data);
        expect(actual.ok).toBe(expected.success);
        if (actual.ok && expected.success) {
          accepted += 1;
          expect(actual.message).toEqual(expected.data);
        }
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it("drop keys the schema does not know, and refuse what is not a message", () => {
    const nonce = "n".repeat(16);
    expect(parseAppToHostMessage({ type: "tandem:ready", nonce, extra: 1 })).toEqual({ ok: true, message: { type: "tandem:ready", nonce } });
    for (const data of [null, "tandem:ready", [], { type: "tandem:ready" }, { type: "tandem:ready", nonce: "short" }, { type: "tandem:context", nonce }]) {
      expect(parseAppToHostMessage(data).ok).toBe(false);
    }
  });
});
