import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../programs.ts";
import { rewriteWithAliases, type AliasRewrite } from "./import-aliases.ts";

// `npx tsx scripts/codemods/use-import-aliases.ts [--check]`: writes every
// relative import of contract/ and src/ that ADR 0021 spells with an alias
// as that alias, in every TypeScript file git knows of (tracked, or new and
// not ignored). Run it again after merging a branch that predates the
// aliases: a second run changes nothing. `--check` writes nothing and exits 1
// if a file would change.

const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });

const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" });
const files = [...new Set(listed.split("\0"))].filter((file) => /\.(ts|tsx|mts|cts)$/.test(file) && existsSync(join(REPO_ROOT, file))).sort();

const changed: { file: string; rewrites: AliasRewrite[] }[] = [];
for (const file of files) {
  const path = join(REPO_ROOT, file);
  const { text, rewrites } = rewriteWithAliases(file, readFileSync(path, "utf8"));
  if (rewrites.length === 0) continue;
  changed.push({ file, rewrites });
  if (!values.check) writeFileSync(path, text);
}

const all = changed.flatMap(({ rewrites }) => rewrites);
const count = (alias: string, withinFolder: boolean) => all.filter((rewrite) => rewrite.to.startsWith(`${alias}/`) && rewrite.withinFolder === withinFolder).length;
for (const { file, rewrites } of changed) {
  for (const { line, from, to } of rewrites) process.stdout.write(`${file}:${line}  ${from} -> ${to}\n`);
}
process.stdout.write(
  `${values.check ? "would rewrite" : "rewrote"} ${all.length} specifier(s) in ${changed.length} of ${files.length} file(s): ` +
    `#contract ${count("#contract", false)} from outside contract/, ${count("#contract", true)} within; ` +
    `#src ${count("#src", false)} from outside src/, ${count("#src", true)} within\n`,
);
if (values.check && all.length > 0) process.exitCode = 1;
