import { renderToStaticMarkup } from "react-dom/server";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import type { UnconfirmedTask } from "#contract/app-api/note.ts";
import { UserTimeSettingsProvider } from "#src/lib/use-time-display.tsx";
import { UnconfirmedTaskItem } from "./unconfirmed-task-list.tsx";

// Server-rendered markup of a task whose outcome is unknown (issue 35 item 4):
// what it says, never "nothing was created", and the question before it is
// sent again.

const render = (node: ReactNode) => renderToStaticMarkup(<UserTimeSettingsProvider settings={{ locale: "en-GB", userZone: "Europe/London" }}>{node}</UserTimeSettingsProvider>);
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replaceAll("&#x27;", "'").replace(/\s+/g, " ").trim();

const TASK: UnconfirmedTask = { intentId: "i-1", notes: "Call the patient with the biopsy result", assigneeIds: ["p-1"], sentAt: "2026-11-17T14:05:00.000Z", isOwn: true };
const noop = () => undefined;
const item = (overrides: { isAsking?: boolean; canResend?: boolean; task?: UnconfirmedTask } = {}) =>
  textOf(
    render(
      <UnconfirmedTaskItem
        task={overrides.task ?? TASK}
        timezone="America/New_York"
        names="Dr Brooks"
        canResend={overrides.canResend ?? true}
        isAsking={overrides.isAsking ?? false}
        isSending={false}
        onAsk={noop}
        onCancel={noop}
        onResend={noop}
      />,
    ),
  );

describe("a task the EHR has not confirmed", () => {
  it("says the EHR may have created it, when Tandem sent it (facility's zone), and to check the EHR; never that nothing was created", () => {
    const text = item();
    expect(text).toContain("Call the patient with the biopsy result");
    expect(text).toContain("Assigned to Dr Brooks");
    expect(text).toContain("The EHR may have created this task: Tandem sent it at 17 Nov 2026, 09:05 EST and the EHR did not confirm it. Check the note's tasks in the EHR.");
    expect(text).not.toMatch(/nothing was created|not created/i);
    expect(text).toContain("Send again…");
  });

  it("asks before sending it again, warning that the EHR may then have it twice", () => {
    const text = item({ isAsking: true });
    expect(text).toContain("Send this task to the EHR again? If the EHR created it the first time, it will have it twice.");
    expect(text).toContain("Send again Cancel");
  });

  it("says when another user sent it, and offers no resend on a note that can take no tasks", () => {
    const text = item({ task: { ...TASK, isOwn: false }, canResend: false });
    expect(text).toContain("Tandem sent it for another user at");
    expect(text).not.toContain("Send again");
  });
});
