import { describe, expect, it } from "vitest";
import { isSameId, toPrefixedId } from "#contract/ids.ts";
import { buildNoteFixture } from "./testing/note-fixture.ts";
import { buildPeopleDirectory, careTeamMemberName, isSamePerson, peopleOf, personIdKey, providerName, UNNAMED_EHR_USER, UNNAMED_EHR_USER_LABEL } from "./people.ts";

// The fixture's care team: Maria Chen, MD (EHR user 21437, physician and
// primary biller) and Daniel Ortiz (21471, attendee); its assigned provider
// is Dr. Maria Chen, MD (username mchen, as in the care team).

const note = buildNoteFixture();
const [chen] = note.assignedProviders;
if (chen === undefined) throw new Error("the fixture has an assigned provider");

type CareTeam = (typeof note)["soapNote"]["careTeam"];
const withCareTeam = (careTeam: Partial<CareTeam>, assignedProviders = note.assignedProviders) =>
  buildNoteFixture({ assignedProviders, soapNote: { careTeam: { ...note.soapNote.careTeam, ...careTeam } } });
const member = (id: string, fullName: string, username: string, first = "", last = "") => ({ id, fullName, firstName: first, lastName: last, username });

describe("person ids", () => {
  it("reads one id from every form the service writes", () => {
    expect(personIdKey("21471")).toBe("21471");
    expect(personIdKey(21471)).toBe("21471");
    expect(personIdKey(" 021471 ")).toBe("21471");
    expect(personIdKey("0")).toBe("0");
    expect(personIdKey(chen.id.toUpperCase())).toBe(chen.id.toLowerCase());
    expect(personIdKey(toPrefixedId("prv", chen.id))).toBe(chen.id.toLowerCase());
    expect(personIdKey("EXT-7")).toBe("ext-7");
  });

  it("has no key for a missing or blank id", () => {
    for (const id of [null, undefined, "", "   ", Number.NaN, 1.5]) expect(personIdKey(id)).toBeNull();
  });

  it("agrees with isSameId on provider ids, and says no for a missing id", () => {
    const prefixed = toPrefixedId("prv", chen.id);
    expect(isSameId(prefixed, chen.id)).toBe(true);
    expect(isSamePerson(prefixed, chen.id)).toBe(true);
    expect(isSamePerson(21471, "21471")).toBe(true);
    expect(isSamePerson("21471", "21437")).toBe(false);
    expect(isSamePerson(null, null)).toBe(false);
  });
});

describe("names", () => {
  it("takes the care team's full name, else first and last name", () => {
    expect(careTeamMemberName(member("1", " Maria Chen, MD ", "mchen"))).toBe("Maria Chen, MD");
    expect(careTeamMemberName(member("1", "", "mchen", "Maria", "Chen"))).toBe("Maria Chen");
    expect(careTeamMemberName(member("1", " ", "mchen"))).toBeNull();
  });

  it("takes a provider's display names, each part else the legal one", () => {
    expect(providerName(chen)).toBe("Dr. Maria Chen, MD");
    expect(providerName({ firstName: "Ann", lastName: "Lee", displayFirstName: "", displayLastName: " " })).toBe("Ann Lee");
    expect(providerName({ firstName: "Ann", lastName: "Lee", displayFirstName: "Dr. Ann", displayLastName: "" })).toBe("Dr. Ann Lee");
    expect(providerName({ firstName: "", lastName: "", displayFirstName: "", displayLastName: "" })).toBeNull();
  });
});

describe("the note's people", () => {
  const people = buildPeopleDirectory(note);

  it("names care-team members by their integration user id, in any form", () => {
    expect(people.nameOf("21437")).toBe("Maria Chen, MD");
    expect(people.nameOf("21471")).toBe("Daniel Ortiz");
    expect(people.nameOf(21471)).toBe("Daniel Ortiz");
    expect(people.nameOf("021471")).toBe("Daniel Ortiz");
  });

  it("names assigned providers by their provider id, in either form", () => {
    expect(people.nameOf(chen.id)).toBe("Dr. Maria Chen, MD");
    expect(people.nameOf(toPrefixedId("prv", chen.id))).toBe("Dr. Maria Chen, MD");
  });

  it("says 'an EHR user' for an id the note does not name, never the number", () => {
    expect(people.nameOf("99999")).toBeNull();
    expect(people.mention("99999")).toBe(UNNAMED_EHR_USER);
    expect(people.label("99999")).toBe(UNNAMED_EHR_USER_LABEL);
    expect(people.mention("21471")).toBe("Daniel Ortiz");
    expect(people.label(21437)).toBe("Maria Chen, MD");
  });

  it("says nothing when there is no id", () => {
    for (const id of [null, undefined, "", "  "]) {
      expect(people.nameOf(id)).toBeNull();
      expect(people.mention(id)).toBeNull();
      expect(people.label(id)).toBeNull();
    }
  });

  it("does not take an attendee's own id for a user id", () => {
    const directory = buildPeopleDirectory(withCareTeam({ attendees: [{ id: 5, staff: member("21471", "Daniel Ortiz", "dortiz") }] }));
    expect(directory.nameOf("5")).toBeNull();
    expect(directory.nameOf("21471")).toBe("Daniel Ortiz");
  });

  it("names a care-team member without a name from their provider record, through the username", () => {
    const directory = buildPeopleDirectory(withCareTeam({ physician: member("21437", "", "MChen"), primaryBiller: null }));
    expect(directory.nameOf("21437")).toBe("Dr. Maria Chen, MD");
  });

  it("names a provider without a name from the care team, through the username", () => {
    const nameless = { ...chen, firstName: "", lastName: "", displayFirstName: "", displayLastName: "" };
    const directory = buildPeopleDirectory(withCareTeam({}, [nameless]));
    expect(directory.nameOf(chen.id)).toBe("Maria Chen, MD");
  });

  it("falls back to the username when nothing else names them", () => {
    const directory = buildPeopleDirectory(withCareTeam({ physician: member("30001", "", "locum1"), primaryBiller: null }));
    expect(directory.nameOf("30001")).toBe("locum1");
  });

  it("says 'an EHR user' for a member with neither a name nor a username", () => {
    const directory = buildPeopleDirectory(withCareTeam({ physician: member("30001", "", ""), primaryBiller: null }));
    expect(directory.nameOf("30001")).toBeNull();
    expect(directory.label("30001")).toBe(UNNAMED_EHR_USER_LABEL);
  });

  it("keeps each id's own name when the same id appears twice", () => {
    const directory = buildPeopleDirectory(withCareTeam({ physician: member("21437", "", "mchen"), primaryBiller: member("21437", "Maria Chen, MD", "mchen") }));
    expect(directory.nameOf("21437")).toBe("Maria Chen, MD");
  });

  it("names no one in a note without a care team or providers", () => {
    const directory = buildPeopleDirectory(withCareTeam({ physician: null, primaryBiller: null, attendees: [] }, []));
    expect(directory.nameOf("21437")).toBeNull();
    expect(directory.mention("21437")).toBe(UNNAMED_EHR_USER);
  });

  it("is built once per note object", () => {
    expect(peopleOf(note)).toBe(peopleOf(note));
    expect(peopleOf(buildNoteFixture())).not.toBe(peopleOf(note));
  });
});
