// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import { readdirSync } from "node:fs";

const processEnvOnlyInEnvModules = {
  "no-restricted-properties": [
    "error",
    { object: "process", property: "env", message: "Read configuration in server/env.ts or emulator/env.ts only." },
  ],
};

// Test code is the tests (`*.test.ts`, `*.test.tsx`) and the modules only they
// use, which live in a `testing/` folder next to the code they serve: every
// rule below treats the two alike.
const TEST_FILES = ["**/*.test.ts", "**/*.test.tsx", "**/testing/**"];

// The SPA imported by a relative path or by its alias (package.json "imports",
// ADR 0021). These patterns are gitignore's, where a leading `#` starts a
// comment: hence the backslash. `#contract/…` needs no entry: every folder may
// import the contract, and `**/testing/**` matches an alias's path too.
const SPA = ["**/src/**", "\\#src/**"];

// Each folder of src/features/ is one view's feature; features do not import
// each other (what two share lives in src/scheduling/, src/api/, src/lib/ or
// src/components/), so a feature can change without reading another.
const FEATURES = readdirSync(new URL("./src/features/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const SERVER_NEVER_IMPORTS = { group: ["**/emulator/**", ...SPA], message: "Production code never imports the emulator or the SPA." };
const BUDGET_THROUGH_ITS_ENTRY = { group: ["**/upstream-budget/**", "!**/upstream-budget/index.ts"], message: "server/clinic/ uses the upstream budget through server/upstream-budget/index.ts only (ADR 0032)." };
const SRC_IMPORTS_CONTRACT_ONLY = { group: ["**/server/**", "**/emulator/**"], message: "src/ imports contract/ only." };
const featureOwnImportsOnly = (feature) => ({
  files: [`src/features/${feature}/**`],
  ignores: TEST_FILES,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          SRC_IMPORTS_CONTRACT_ONLY,
          {
            group: ["\\#src/features/**", `!\\#src/features/${feature}/**`, ...FEATURES.filter((other) => other !== feature).flatMap((other) => [`../${other}/**`, `../../${other}/**`])],
            message: "Features do not import each other: move what they share to src/scheduling/, src/api/, src/lib/ or src/components/.",
          },
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ["dist/", "build/", "node_modules/", "coverage/", "test-results/", "playwright-report/", "src/routeTree.gen.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      ...processEnvOnlyInEnvModules,
    },
  },
  { files: ["**/*.js"], extends: [tseslint.configs.disableTypeChecked], languageOptions: { globals: globals.node } },
  {
    files: ["contract/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", "**/emulator/**", ...SPA], message: "contract/ depends on nothing of ours." }] },
      ],
    },
  },
  {
    files: ["src/**"],
    ignores: TEST_FILES,
    languageOptions: { globals: globals.browser },
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [SRC_IMPORTS_CONTRACT_ONLY] },
      ],
    },
  },
  ...FEATURES.map(featureOwnImportsOnly),
  {
    // The SPA's tests stand on contract/ and the SPA alone: a test of what the emulator does belongs in emulator/.
    files: ["src/**/*.test.ts", "src/**/*.test.tsx", "src/**/testing/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/emulator/**"], message: "The SPA's tests do not import the emulator: test the emulator in emulator/." }] },
      ],
    },
  },
  {
    files: ["server/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [SERVER_NEVER_IMPORTS] },
      ],
    },
  },
  {
    // The upstream budget is a component of its own (ADR 0032): the client of
    // the service uses it through its one entry module, and it knows nothing
    // of the client. These patterns replace the rule above for these files, so
    // they repeat it.
    files: ["server/clinic/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": ["error", { patterns: [SERVER_NEVER_IMPORTS, BUDGET_THROUGH_ITS_ENTRY] }],
    },
  },
  {
    files: ["server/clinic/**/*.test.ts", "server/clinic/**/testing/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [BUDGET_THROUGH_ITS_ENTRY] }],
    },
  },
  {
    files: ["server/upstream-budget/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [SERVER_NEVER_IMPORTS, { group: ["**/clinic/**"], message: "The upstream budget imports nothing of the client of the service (ADR 0032)." }] },
      ],
    },
  },
  {
    files: ["emulator/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", ...SPA], message: "The emulator stands alone: it shares contract/ only." }] },
      ],
    },
  },
  {
    // Production code (what the SPA bundle and `npm run build:server` compile)
    // never imports test code. A rule of its own name, so the boundary rules
    // above, which configure the core no-restricted-imports, do not replace it.
    files: ["**/*.ts", "**/*.tsx"],
    ignores: [...TEST_FILES, "bench/**", "e2e/**", "*.config.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/testing/**", "**/*.test", "**/*.test.ts", "**/*.test.tsx"], message: "Production code never imports test code (a testing/ folder or a *.test file)." }] },
      ],
    },
  },
  {
    files: ["server/env.ts", "emulator/env.ts", "scripts/**", "bench/**", "e2e/**", "*.config.ts", ...TEST_FILES],
    rules: { "no-restricted-properties": "off" },
  },
);
