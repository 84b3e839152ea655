import { describe, expect, it } from "vitest";
import { aliasedSpecifier, rewriteWithAliases } from "./import-aliases.ts";

describe("aliasedSpecifier", () => {
  it("aliases the contract from outside it, at any depth", () => {
    expect(aliasedSpecifier("server/env.ts", "../contract/validation.ts")).toEqual({ to: "#contract/validation.ts", withinFolder: false });
    expect(aliasedSpecifier("server/routes/a/b.ts", "../../../contract/ids.ts")).toEqual({ to: "#contract/ids.ts", withinFolder: false });
    expect(aliasedSpecifier("src/features/slots/x.tsx", "./../../../contract/time/zoned-time.ts")?.to).toBe("#contract/time/zoned-time.ts");
  });

  it("aliases a folder's own modules from two levels up or more, and keeps ./ and ../", () => {
    expect(aliasedSpecifier("src/features/slots/x.tsx", "../../components/ui/button.tsx")).toEqual({ to: "#src/components/ui/button.tsx", withinFolder: true });
    expect(aliasedSpecifier("src/features/note/editing/x.tsx", "../../../lib/time-format.ts")?.to).toBe("#src/lib/time-format.ts");
    expect(aliasedSpecifier("src/features/slots/x.tsx", "../shared.ts")).toBeUndefined();
    expect(aliasedSpecifier("src/features/slots/x.tsx", "./slot-list.tsx")).toBeUndefined();
    expect(aliasedSpecifier("contract/a/b/testing/fixture.ts", "../../../clinic-api/schedule.ts")?.to).toBe("#contract/clinic-api/schedule.ts");
  });

  it("leaves other folders, packages, aliases and the contract's non-TypeScript files alone", () => {
    expect(aliasedSpecifier("src/features/a/b.test.ts", "../../../emulator/world/identities.ts")).toBeUndefined();
    expect(aliasedSpecifier("server/routes/a.ts", "../../server/env.ts")).toBeUndefined();
    expect(aliasedSpecifier("server/env.ts", "zod/mini")).toBeUndefined();
    expect(aliasedSpecifier("server/env.ts", "#contract/validation.ts")).toBeUndefined();
    expect(aliasedSpecifier("bench/x.ts", "../contract/fixture/instances.json")).toBeUndefined();
  });
});

describe("rewriteWithAliases", () => {
  const file = "src/features/slots/example.test.tsx";
  const text = [
    `import { a } from "../../../contract/a.ts";`,
    `import type { B } from '../../api/b.ts';`,
    `export { c } from "../../lib/c.ts";`,
    `import { d } from "./d.ts";`,
    `const e = await import("../../lib/e.ts");`,
    `type F = typeof import("../../../contract/f.ts");`,
    `vi.mock("../../api/g.ts");`,
    `const h = new URL("../../../contract/h.json", import.meta.url);`,
    `const i = "../../lib/i.ts";`,
  ].join("\n");

  it("rewrites every module specifier, keeping the quotes, and nothing else", () => {
    const { text: rewritten, rewrites } = rewriteWithAliases(file, text);
    expect(rewritten.split("\n")).toEqual([
      `import { a } from "#contract/a.ts";`,
      `import type { B } from '#src/api/b.ts';`,
      `export { c } from "#src/lib/c.ts";`,
      `import { d } from "./d.ts";`,
      `const e = await import("#src/lib/e.ts");`,
      `type F = typeof import("#contract/f.ts");`,
      `vi.mock("#src/api/g.ts");`,
      `const h = new URL("../../../contract/h.json", import.meta.url);`,
      `const i = "../../lib/i.ts";`,
    ]);
    expect(rewrites.map(({ line }) => line)).toEqual([1, 2, 3, 5, 6, 7]);
  });

  it("changes nothing the second time", () => {
    const once = rewriteWithAliases(file, text).text;
    expect(rewriteWithAliases(file, once)).toEqual({ text: once, rewrites: [] });
  });
});
