import { describe, expect, it } from "vitest";
import { describeEnd, describeRecurrence, describeRecurrenceSafely, effectiveUntil, ordinalNumber } from "./describe-recurrence.ts";

const ZONE = "America/New_York";
const rule = (text: string, until: string | null = null) => ({ rrule: text, until });
const dtstart = (date: string) => `DTSTART;TZID=${ZONE}:${date.replaceAll("-", "")}T080000`;

describe("describeRecurrence", () => {
  it("says weekly rules with their days, in week order", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=TH,MO`), ZONE)).toBe("every Monday and Thursday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR`), ZONE)).toBe("every Monday, Wednesday and Friday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`), ZONE)).toBe("every weekday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU`), ZONE)).toBe("every day");
    expect(describeRecurrence(rule(`${dtstart("2024-03-10")}\nRRULE:FREQ=WEEKLY;BYDAY=SU`), ZONE)).toBe("every Sunday");
  });

  it("takes the day from DTSTART when BYDAY is absent", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-05")}\nRRULE:FREQ=WEEKLY`), ZONE)).toBe("every Tuesday");
    expect(describeRecurrence(rule("RRULE:FREQ=WEEKLY"), ZONE)).toBe("every week");
  });

  it("says the interval", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH`, "2026-12-31"), ZONE, { currentYear: 2026 })).toBe("every other Monday and Thursday until 31 Dec");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=MO`), ZONE)).toBe("every 3 weeks on Monday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR`), ZONE)).toBe("every other week on weekdays");
  });

  it("says until, the earlier of the rule's UNTIL and recurrence.until, with the year when it is not this year", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`, "2027-01-15"), ZONE, { currentYear: 2026 })).toBe("every Monday until 15 Jan 2027");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261201T045959Z`, "2027-01-15"), ZONE, { currentYear: 2026 })).toBe("every Monday until 30 Nov");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270601T000000Z`, "2026-12-31"), ZONE)).toBe("every Monday until 31 Dec 2026");
  });

  it("says COUNT, EXDATE and RDATE", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10`), ZONE)).toBe("every Monday, 10 times");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=1`), ZONE)).toBe("every Monday, once");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE\nEXDATE;TZID=${ZONE}:20261207T130000`), ZONE)).toBe("every other Monday and Wednesday, except 1 date");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO\nEXDATE;TZID=${ZONE}:20261207T080000,20261214T080000\nRDATE;VALUE=DATE:20261209`), ZONE)).toBe(
      "every Monday, plus 1 extra date, except 2 dates",
    );
  });

  it("says daily rules", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=DAILY`), ZONE)).toBe("every day");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=DAILY;INTERVAL=2`), ZONE)).toBe("every other day");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=DAILY;INTERVAL=3`), ZONE)).toBe("every 3 days");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR`), ZONE)).toBe("every weekday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=DAILY;INTERVAL=2;BYDAY=MO,TH`), ZONE)).toBe("every other day, when it is a Monday or Thursday");
  });

  it("says monthly rules", () => {
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=MONTHLY;BYMONTHDAY=15`), ZONE)).toBe("monthly on the 15th");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,-1`), ZONE)).toBe("monthly on the 1st and last day");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=MONTHLY;BYDAY=1MO`), ZONE)).toBe("monthly on the first Monday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR`), ZONE)).toBe("every other month on the last Friday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1`), ZONE)).toBe("monthly on the last weekday");
    expect(describeRecurrence(rule(`${dtstart("2024-03-22")}\nRRULE:FREQ=MONTHLY`), ZONE)).toBe("monthly on the 22nd");
    expect(describeRecurrence(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU;COUNT=4`), ZONE)).toBe("every 3 months on the second Tuesday, 4 times");
  });

  it("says when a rule starts in the future", () => {
    expect(describeRecurrence(rule(`${dtstart("2027-01-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`), ZONE, { today: "2026-11-22", currentYear: 2026 })).toBe("every Monday, starting 4 Jan 2027");
    expect(describeRecurrence(rule(`${dtstart("2024-01-01")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`), ZONE, { today: "2026-11-22" })).toBe("every Monday");
  });

  it("reads bare rule text, and refuses what the expansion cannot read", () => {
    expect(describeRecurrence(rule("FREQ=WEEKLY;BYDAY=TU"), ZONE)).toBe("every Tuesday");
    expect(() => describeRecurrence(rule("RRULE:FREQ=HOURLY"), ZONE)).toThrow(/HOURLY/);
    expect(describeRecurrenceSafely(rule("not a rule"), ZONE)).toBeNull();
  });

  it("writes ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinalNumber)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st"]);
  });
});

describe("effectiveUntil", () => {
  it("is the earlier of the rule's UNTIL (converted to the zone) and recurrence.until", () => {
    expect(effectiveUntil(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`), ZONE)).toBeNull();
    expect(effectiveUntil(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`, "2026-12-31"), ZONE)).toBe("2026-12-31");
    // 04:59:59Z on 1 December is still 30 November in New York.
    expect(effectiveUntil(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261201T045959Z`, "2026-12-31"), ZONE)).toBe("2026-11-30");
    expect(effectiveUntil(rule("RRULE:FREQ=SECONDLY"), ZONE)).toBeUndefined();
  });
});

describe("describeEnd", () => {
  it("says when a template stops", () => {
    expect(describeEnd(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`, "2026-12-31"), ZONE, { currentYear: 2026 })).toBe("31 Dec");
    expect(describeEnd(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10`), ZONE)).toBe("after 10 times");
    expect(describeEnd(rule(`${dtstart("2024-03-04")}\nRRULE:FREQ=WEEKLY;BYDAY=MO`), ZONE)).toBe("no end date");
    expect(describeEnd(rule("RRULE:FREQ=MINUTELY"), ZONE)).toBeNull();
  });
});
