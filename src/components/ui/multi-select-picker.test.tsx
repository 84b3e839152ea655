// @vitest-environment happy-dom
import { screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { renderWithUser } from "#src/testing/render.tsx";
import { MultiSelectPicker, type PickerOption } from "./multi-select-picker.tsx";

const PROVIDERS: PickerOption[] = [
  { value: "p1", label: "Dr. Jacob Brooks, MD" },
  { value: "p2", label: "Dr. Ana Ruiz, DO" },
  { value: "p3", label: "Dr. Wei Chen, MD" },
];

function Picker({ maxSelected }: { maxSelected?: number }) {
  const [selected, setSelected] = useState<string[]>([]);
  return <MultiSelectPicker label="Providers" options={PROVIDERS} selected={selected} onChange={setSelected} allLabel="All providers" noun="providers" isSearchable maxSelected={maxSelected} />;
}

describe("MultiSelectPicker", () => {
  it("names the field and the choice, and narrows the options by what is typed", async () => {
    const { user } = renderWithUser(<Picker />);
    const trigger = screen.getByRole("button", { name: /Providers All providers/ });
    await user.click(trigger);
    await user.type(screen.getByRole("searchbox"), "ruiz");
    expect(screen.queryByRole("checkbox", { name: /Brooks/ })).toBeNull();
    await user.click(screen.getByRole("checkbox", { name: /Ana Ruiz/ }));
    await user.keyboard("{Escape}");
    expect(screen.getByRole("button", { name: /Providers Dr. Ana Ruiz, DO/ })).toBeTruthy();
  });

  it("disables the other options once the most that may be chosen are chosen", async () => {
    const { user } = renderWithUser(<Picker maxSelected={1} />);
    await user.click(screen.getByRole("button", { name: /Providers/ }));
    await user.click(screen.getByRole("checkbox", { name: /Brooks/ }));
    expect(screen.getByRole("checkbox", { name: /Wei Chen/ }).hasAttribute("disabled")).toBe(true);
  });
});
