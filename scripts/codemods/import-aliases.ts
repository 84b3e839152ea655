import { posix } from "node:path";
import ts from "typescript";

// The rule of ADR 0021, as a pure function of a file's path and text (the
// command is use-import-aliases.ts). A relative specifier that reaches into
// contract/ or src/ is written as the folder's alias (`#contract/…`,
// `#src/…`, package.json "imports") when it comes from outside that folder
// (at any depth: from outside, the contract is always `#contract/…`), or
// from inside it but climbing two levels or more (`../../`). `./` and `../`
// within the folder stay relative. Aliased specifiers are not relative, so a
// second run changes nothing.

/** The folders with an alias, and the alias. */
const ALIASED_FOLDERS: ReadonlyMap<string, string> = new Map([
  ["contract", "#contract"],
  ["src", "#src"],
]);

/** `vi.<method>(specifier)` calls whose first argument is a module specifier. */
const VITEST_MODULE_METHODS = new Set(["mock", "doMock", "unmock", "doUnmock", "importActual", "importMock"]);

export interface AliasRewrite {
  /** 1-based line of the specifier. */
  line: number;
  from: string;
  to: string;
  /** Whether the importing file lies in the folder the specifier reaches. */
  withinFolder: boolean;
}

/**
 * The aliased spelling of `specifier` as written in `file` (a path relative
 * to the repository root, `/`-separated), or undefined when it stays.
 */
export function aliasedSpecifier(file: string, specifier: string): { to: string; withinFolder: boolean } | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(file), specifier));
  const [folder, ...rest] = target.split("/");
  const alias = folder === undefined ? undefined : ALIASED_FOLDERS.get(folder);
  if (alias === undefined || rest.length === 0) return undefined;
  // The contract's alias maps `#contract/*.ts` only (ADR 0021: what the build needs).
  if (folder === "contract" && !target.endsWith(".ts")) return undefined;
  const withinFolder = file.startsWith(`${folder}/`);
  const climbs = specifier.replace(/^\.\//, "").split("/").findIndex((segment) => segment !== "..");
  if (withinFolder && climbs < 2) return undefined;
  return { to: `${alias}/${rest.join("/")}`, withinFolder };
}

/** The string literals of `source` that name a module: imports, exports, `import()`, `import("…")` types, `require`, vitest's module mocks. */
function moduleSpecifiers(source: ts.SourceFile): ts.StringLiteralLike[] {
  const found: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    let specifier: ts.Node | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      specifier = node.moduleSpecifier;
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      specifier = node.moduleReference.expression;
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      specifier = node.argument.literal;
    } else if (ts.isCallExpression(node) && isModuleCall(node.expression)) {
      specifier = node.arguments[0];
    }
    if (specifier !== undefined && ts.isStringLiteralLike(specifier)) found.push(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isModuleCall(callee: ts.Expression): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === "require";
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "vi" && VITEST_MODULE_METHODS.has(callee.name.text);
}

/** `text` (the contents of `file`) with its specifiers aliased, and what changed. */
export function rewriteWithAliases(file: string, text: string): { text: string; rewrites: AliasRewrite[] } {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edits: { start: number; end: number; rewrite: AliasRewrite }[] = [];
  for (const literal of moduleSpecifiers(source)) {
    const aliased = aliasedSpecifier(file, literal.text);
    if (aliased === undefined) continue;
    // Inside the quotes, so the quote style is kept.
    const start = literal.getStart(source) + 1;
    const line = source.getLineAndCharacterOfPosition(start).line + 1;
    edits.push({ start, end: literal.getEnd() - 1, rewrite: { line, from: literal.text, to: aliased.to, withinFolder: aliased.withinFolder } });
  }
  let rewritten = text;
  for (const { start, end, rewrite } of [...edits].sort((a, b) => b.start - a.start)) {
    rewritten = `${rewritten.slice(0, start)}${rewrite.to}${rewritten.slice(end)}`;
  }
  return { text: rewritten, rewrites: edits.map(({ rewrite }) => rewrite) };
}
